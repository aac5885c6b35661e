// SPDX-License-Identifier: MIT
#include "codegen/cuda/cuda_codegen.h"

namespace kiln::codegen::cuda {

using Kind = compiler::ScheduledKernel::Kind;

Expected<CudaKernel> generateCudaKernel(const compiler::LoopProgram& program,
                                        const compiler::ScheduledKernel& kernel,
                                        const CudaCodegenOptions& options) {
    switch (kernel.kind) {
    case Kind::Pointwise:
        return emitPointwiseKernel(program, kernel, options.pointwise);
    case Kind::Reduction:
        return emitReductionKernel(program, kernel, options.reduction);
    default:
        return makeDiagnostic("CudaCodegenError",
                              kernel.name + " is a " + compiler::kernelKindName(kernel.kind) +
                                  " kernel: CUDA code generation handles pointwise and "
                                  "reduction kernels");
    }
}

Expected<CompiledImage> compileKernelPath(const CudaKernel& kernel, KernelPath path,
                                          const NvrtcOptions& nvrtc, KernelCache* cache) {
    NvrtcOptions options = nvrtc;
    if (path != KernelPath::Both) options.extra.push_back(kernelPathDefine(path));
    KernelCache& c = cache ? *cache : KernelCache::shared();
    return c.getOrCompile(kernel.source, kernel.name, options);
}

Expected<CompiledCudaKernel> compileCudaKernel(const compiler::LoopProgram& program,
                                               const compiler::ScheduledKernel& kernel,
                                               const NvrtcOptions& nvrtc,
                                               const CudaCodegenOptions& options,
                                               KernelCache* cache) {
    Expected<CudaKernel> source = generateCudaKernel(program, kernel, options);
    if (!source) return source.error();
    Expected<CompiledImage> image = compileKernelPath(*source, source->firstPath(), nvrtc, cache);
    if (!image) return image.error();
    return CompiledCudaKernel{std::move(*source), std::move(*image)};
}

} // namespace kiln::codegen::cuda
