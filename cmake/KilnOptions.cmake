# Project-wide switches. Every option is prefixed KILN_ and documented here.
option(KILN_BUILD_TESTS "Build the Qt Test suites (needs Qt 6 Test)" ON)
option(KILN_BUILD_BENCH "Build the benchmark harness (bench/)" ON)
option(KILN_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
option(KILN_STATIC_LLVM "Link LLVM statically (the self-contained binary for the GPU machine)" OFF)
option(KILN_ENABLE_CUDA "Build the CUDA backend when the toolkit is found" ON)
option(KILN_PRECOMPILE_ATTENTION "Compile the flash attention kernels with nvcc at build time" ON)
option(KILN_FUZZ "Build the libFuzzer targets of tests/fuzz (clang; the fuzz preset)" OFF)
