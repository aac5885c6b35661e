// SPDX-License-Identifier: MIT
/// \file
/// Internal: reduction kernels (Kind::Reduction: per row of the outer ranges, reduction and
/// pointwise stages over the row). The row length picks the mapping: rows of up to
/// `warpRowLimit` elements get one warp each (several rows per block, warp shuffles only),
/// longer or dynamic rows one block each (shuffles within warps, then shared memory across
/// them). Each thread strides over the row in vectors of `width` elements; reduced values stay
/// in registers (every thread holds the row's result), so later stages read them without a
/// round trip through memory. Two fused patterns get one-pass code: amax followed by the sum of
/// exp(x - amax) (softmax) becomes an online max/sum, and welford_mean with welford_m2 over the
/// same values (layer_norm, var) becomes one Welford pass with Chan merges.
#pragma once

#include "codegen/cuda/cuda_kernel.h"
#include "compiler/schedule.h"
#include "support/expected.h"

namespace kiln::codegen::cuda {

struct ReductionConfig {
    int64_t warpRowLimit = 1024; ///< static rows up to this length: one warp per row
    int warpsPerBlock = 8;       ///< warp-per-row blocks
    int maxVectorWidth = 8;
    bool onlineSoftmax = true; ///< off: amax and the sum are two passes (for comparison)
};

Expected<CudaKernel> emitReductionKernel(const compiler::LoopProgram& program,
                                         const compiler::ScheduledKernel& kernel,
                                         const ReductionConfig& config);

} // namespace kiln::codegen::cuda
