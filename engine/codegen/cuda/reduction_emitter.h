// SPDX-License-Identifier: MIT
/// \file
/// Internal: reduction kernels (Kind::Reduction: per row of the outer ranges, reduction and
/// pointwise stages over the row). The row length picks the mapping: rows of up to
/// `warpRowLimit` elements get one warp each (several rows per block, warp shuffles only),
/// longer or dynamic rows one block each (shuffles within warps, then shared memory across
/// them). Each thread strides over the row in vectors of `width` elements; reduced values stay
/// in registers (every thread holds the row's result), so later stages read them without a
/// round trip through memory. Static rows of at most 8 vectors per thread are read once: the
/// first pass keeps them in registers for the later ones. Two fused patterns get one-pass
/// code: amax followed by the sum of exp(x - amax) (softmax) becomes an online max/sum where
/// the row is not kept, and welford_mean with welford_m2 over the same values (layer_norm,
/// var) becomes one Welford pass with Chan merges.
#pragma once

#include "codegen/cuda/cuda_kernel.h"
#include "compiler/schedule.h"
#include "support/expected.h"

namespace kiln::codegen::cuda {

struct ReductionConfig {
    int64_t warpRowLimit = 1024; ///< static rows up to this length: one warp per row
    int warpsPerBlock = 8;       ///< warp-per-row blocks
    int maxVectorWidth = 8;
    /// amax + sum(exp(x - amax)): Auto is one online pass where the row is read from memory
    /// and two passes where it stays in registers (measured on an H200: the online rescale's
    /// dependency chain cost more than the second pass over registers, 177 against 135 us on
    /// 16384x4096).
    enum class Softmax : uint8_t { Auto, Online, TwoPass } softmax = Softmax::Auto;
    /// Welford over a row held in registers: each thread's exact moments (sum, then squared
    /// deviations from its mean) merged across threads by Chan's formula, instead of one
    /// Welford merge per vector.
    bool welfordThreadMoments = true;
    /// Threads per block for block-per-row kernels; 0: about eight vectors per thread.
    int blockThreads = 0;
    /// A vector whose every lane a where discards (masked_fill's masked positions) is not
    /// read: a predicated load (codegen/cuda/discarded_loads.h).
    bool skipDiscardedLoads = true;
};

Expected<CudaKernel> emitReductionKernel(const compiler::LoopProgram& program,
                                         const compiler::ScheduledKernel& kernel,
                                         const ReductionConfig& config);

} // namespace kiln::codegen::cuda
