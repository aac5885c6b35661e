// SPDX-License-Identifier: MIT
/// \file
/// Internal: pointwise kernels (Kind::Pointwise: every stage over the kernel's ranges). Each
/// thread handles `unroll` vectors of `width` consecutive elements of the innermost range: all
/// loads of a thread are issued first (16-byte vector loads where the access is contiguous and
/// aligned, checked once per thread at run time), then the values are computed and stored with
/// vector stores. The grid is sized to cover the elements in one pass; a second, scalar path
/// runs when a pointer or a size rules out vector accesses.
#pragma once

#include "codegen/cuda/cuda_kernel.h"
#include "compiler/schedule.h"

namespace kiln::codegen::cuda {

struct PointwiseConfig {
    int threads = 256;
    int elementsPerThread = 16; ///< per pass (vector width x unroll)
    int maxVectorWidth = 8;     ///< 1 turns vector accesses off
};

CudaKernel emitPointwiseKernel(const compiler::LoopProgram& program,
                               const compiler::ScheduledKernel& kernel,
                               const PointwiseConfig& config);

} // namespace kiln::codegen::cuda
