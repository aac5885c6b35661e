// SPDX-License-Identifier: MIT
/// \file
/// CUDA code generation: a fused kernel of the schedule (engine/compiler) becomes CUDA C++
/// (pointwise_emitter / reduction_emitter over expr_printer), compiled with NVRTC to a cubin
/// for the device's compute capability and cached (kernel_cache). The result is what the
/// runtime loads and launches: image bytes, entry name, argument list, launch descriptor.
#pragma once

#include "codegen/cuda/cuda_kernel.h"
#include "codegen/cuda/kernel_cache.h"
#include "codegen/cuda/pointwise_emitter.h"
#include "codegen/cuda/reduction_emitter.h"

namespace kiln::codegen::cuda {

struct CudaCodegenOptions {
    PointwiseConfig pointwise;
    ReductionConfig reduction;
};

/// The kernel's source and launch data; a Diagnostic ("CudaCodegenError") for a kernel kind or
/// pattern CUDA code generation does not handle (externs, fallbacks, templates go elsewhere).
Expected<CudaKernel> generateCudaKernel(const compiler::LoopProgram& program,
                                        const compiler::ScheduledKernel& kernel,
                                        const CudaCodegenOptions& options = {});

struct CompiledCudaKernel {
    CudaKernel kernel;
    CompiledImage image;
};

/// NVRTC through `cache` (the shared cache when null) for one path of a generated kernel: its
/// define (kernelPathDefine) joins the options, and with them the cache key.
Expected<CompiledImage> compileKernelPath(const CudaKernel& kernel, KernelPath path,
                                          const NvrtcOptions& nvrtc, KernelCache* cache = nullptr);

/// generateCudaKernel, then compileKernelPath for the kernel's first path (the vector path where
/// it has one; `image` holds that path).
Expected<CompiledCudaKernel> compileCudaKernel(const compiler::LoopProgram& program,
                                               const compiler::ScheduledKernel& kernel,
                                               const NvrtcOptions& nvrtc,
                                               const CudaCodegenOptions& options = {},
                                               KernelCache* cache = nullptr);

} // namespace kiln::codegen::cuda
