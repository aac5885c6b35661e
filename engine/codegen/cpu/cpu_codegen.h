// SPDX-License-Identifier: MIT
/// \file
/// CPU code generation: the fused kernels of a schedule become LLVM IR (vectorizable inner
/// loops, vector math through libmvec, reductions with vector accumulators), optimized at O3 for
/// the host CPU and compiled in process by LLVM's ORC JIT. This header has no LLVM types, so only
/// the two translation units behind it pay for LLVM's headers.
///
/// A generated kernel has the signature
///     void kernel(char** buffers, const int64_t* symbols, int64_t begin, int64_t end)
/// and runs iterations [begin, end) of the kernel's first outer loop (the whole kernel is
/// [0, outer0)), so the runtime can split that range over threads. `buffers` holds the element
/// addresses (offset applied) of `bufferParams`, `symbols` the values of the size symbols.
#pragma once

#include "compiler/schedule.h"
#include "support/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::codegen {

using KernelEntry = void (*)(char** buffers, const int64_t* symbols, int64_t begin, int64_t end);

/// Loop shape knobs (max_autotune_pointwise tunes them); 0 leaves the choice to LLVM.
struct LoopTuning {
    int vectorWidth = 0;
    int interleave = 0;
    bool operator==(const LoopTuning&) const = default;
};

struct CompiledKernel {
    KernelEntry entry = nullptr;
    std::vector<int32_t> bufferParams; ///< buffer ids, in the order `buffers` holds them
    std::string llvmIR;                ///< the optimized IR, for output_code and the trace
    bool fromCache = false;            ///< found in the in-memory or on-disk kernel cache
};

struct CodegenStats {
    double irBuildMs = 0, optimizeMs = 0, machineCodeMs = 0;
    int memoryCacheHits = 0, diskCacheHits = 0;
};

/// Compiles the fused kernels `kernelIndices` of `schedule` in one LLVM module. Kernels whose IR
/// was compiled before (this process, or any process via the on-disk cache) are reused.
Expected<std::vector<CompiledKernel>> compileKernels(const compiler::LoopProgram& program,
                                                     const compiler::Schedule& schedule,
                                                     const std::vector<size_t>& kernelIndices,
                                                     const std::vector<LoopTuning>& tuning,
                                                     CodegenStats* stats = nullptr);

/// What decides a kernel's machine code, before tuning: its IR, its buffers' layouts and
/// dtypes, the emitter's version, the host CPU and its features, LLVM's version. Equal texts
/// compile to equal code; the tuning cache keys its measurements by it.
std::string kernelIdentity(const compiler::LoopProgram& program,
                           const compiler::ScheduledKernel& kernel);

/// Turns kernel reuse (memory and disk caches) on or off for this process: benchmarks measure
/// cold compiles with it off.
void setKernelCacheEnabled(bool enabled);

/// The host CPU as LLVM names it ("znver4"), and whether libmvec's vector math was found.
std::string hostCpuName();
bool vectorMathAvailable();

/// The on-disk kernel cache directory ($XDG_CACHE_HOME/kiln/kernels, else ~/.cache/...);
/// KILN_KERNEL_CACHE=0 turns the disk cache off, KILN_KERNEL_CACHE_DIR overrides the place.
std::string kernelCacheDirectory();

} // namespace kiln::codegen
