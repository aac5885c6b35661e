# The CPU math libraries of the eager kernels and matrix products (docs/compiler.md says why
# these, with the measurements): oneDNN for float32/bfloat16/float16 products, BLIS (its OpenMP
# build) for float64 products, SLEEF for vectorised elementary functions, and OpenMP for every
# parallel loop, so Kiln's kernels, oneDNN's and BLIS's share one team of threads.
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(dnnl 2.6 REQUIRED CONFIG)
find_package(PkgConfig REQUIRED)
pkg_check_modules(SLEEF REQUIRED IMPORTED_TARGET sleef)

# Debian installs each BLIS threading variant in its own directory (libblis-openmp-dev); the
# unsuffixed paths are alternatives that may point at another variant.
find_path(KILN_BLIS_INCLUDE_DIR blis.h
  PATHS /usr/include/x86_64-linux-gnu/blis-openmp /usr/include/blis NO_DEFAULT_PATH REQUIRED)
find_library(KILN_BLIS_LIBRARY blis
  PATHS /usr/lib/x86_64-linux-gnu/blis-openmp NO_DEFAULT_PATH REQUIRED)
add_library(Kiln::blis UNKNOWN IMPORTED)
set_target_properties(Kiln::blis PROPERTIES
  IMPORTED_LOCATION "${KILN_BLIS_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${KILN_BLIS_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES OpenMP::OpenMP_CXX)
