// SPDX-License-Identifier: MIT
/// \file
/// NVRTC, loaded at run time (dlopen of libnvrtc.so.13): CUDA C++ to a cubin for one compute
/// capability (sm_90 on H100/H200), or to PTX (compute_XX) when asked. Linking CUDA::nvrtc
/// would bring in libcuda.so.1 as a dependency and make the binary unlaunchable on machines
/// without a driver; NVRTC itself needs no GPU, so this works on every build machine.
#pragma once

#include "support/expected.h"

#include <string>
#include <vector>

namespace kiln::codegen::cuda {

/// The level new NvrtcOptions get: KILN_NVRTC_FAST_COMPILE ("0" or empty: off, "min", "mid",
/// "max"; anything else is ignored with the default kept), else kDefaultFastCompileLevel.
std::string fastCompileLevelFromEnvironment();

/// Measured on the H200 (docs/gpu.md): the level whose kernels ran as fast as without it.
inline constexpr const char* kDefaultFastCompileLevel = "";

struct NvrtcOptions {
    int computeCapability = 90; ///< 90 = sm_90 (H100, H200)
    bool ptx = false;           ///< PTX for compute_XX (the driver JIT-compiles it at load)
    bool lineInfo = false;      ///< -lineinfo, for profilers
    /// NVRTC's --Ofast-compile level ("min", "mid", "max"; empty: off), trading generated-code
    /// quality for compile time. The default is KILN_NVRTC_FAST_COMPILE when set (benchmarks
    /// measure the levels that way), else defaultFastCompileLevel().
    std::string fastCompile = fastCompileLevelFromEnvironment();
    std::vector<std::string> extra;

    /// The option list handed to NVRTC, in order (also part of the cache key).
    std::vector<std::string> flags() const;
};

struct CompiledImage {
    std::string image; ///< cubin bytes, or PTX text (NUL-free)
    bool ptx = false;
    std::string log;      ///< NVRTC's log (warnings), possibly empty
    double compileMs = 0; ///< 0 when it came from a cache
    bool fromMemoryCache = false, fromDiskCache = false;
};

/// "13.0" from nvrtcVersion, or why NVRTC cannot be used ("NVRTC unavailable: ...").
Expected<std::string> nvrtcVersion();

/// Compiles `source` (program name `name`, used in the log) without any cache. A compile error
/// is a Diagnostic of kind "CudaCompileError" whose message holds NVRTC's first error line and
/// whose notes hold the whole log, one line each.
Expected<CompiledImage> compileWithNvrtc(const std::string& source, const std::string& name,
                                         const NvrtcOptions& options);

} // namespace kiln::codegen::cuda
