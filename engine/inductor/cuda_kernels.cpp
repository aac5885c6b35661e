// SPDX-License-Identifier: MIT
#include "inductor/cuda_kernels.h"

#include "inductor/gpu_profiler.h"

#if KILN_HAVE_CUDA_CODEGEN
#include "codegen/cuda/cuda_codegen.h"
#include "runtime/cuda_module.h"
#include "runtime/cuda_tensor.h"
#include "runtime/device_probe.h"
#endif

namespace kiln::inductor {

#if KILN_HAVE_CUDA_CODEGEN

struct CudaKernelCode {
    codegen::cuda::CudaKernel kernel;
    std::unique_ptr<runtime::CudaModule> module;
    std::unique_ptr<runtime::CudaKernel> function;
    int registers = 0;
    int staticShared = 0;
};

std::string cudaCodegenUnavailableReason() {
    return {};
}

Expected<std::shared_ptr<const CudaKernelCode>>
buildCudaKernel(const compiler::LoopProgram& program, const compiler::ScheduledKernel& kernel,
                CudaBuildStats& stats) {
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    const runtime::CudaProbe& probe = runtime::probeCuda();
    codegen::cuda::NvrtcOptions nvrtc;
    nvrtc.computeCapability = probe.capabilityMajor * 10 + probe.capabilityMinor;
    auto compiled = codegen::cuda::compileCudaKernel(program, kernel, nvrtc);
    if (!compiled) return compiled.error();
    const codegen::cuda::CompiledImage& image = compiled->image;
    if (image.fromMemoryCache)
        ++stats.memoryCacheHits;
    else if (image.fromDiskCache)
        ++stats.diskCacheHits;
    else
        ++stats.compiled;
    stats.nvrtcMs += image.compileMs;

    auto code = std::make_shared<CudaKernelCode>();
    code->kernel = std::move(compiled->kernel);
    std::string bytes = image.image;
    if (image.ptx) bytes.push_back('\0'); // the driver reads PTX as a C string
    auto module = runtime::CudaModule::load(
        **context, std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
    if (!module) return module.error();
    code->module = std::move(*module);
    auto function = code->module->kernel(code->kernel.name);
    if (!function) return function.error();
    code->function = std::make_unique<runtime::CudaKernel>(std::move(*function));
    // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1, CU_FUNC_ATTRIBUTE_NUM_REGS = 4.
    Expected<int> shared = code->function->attribute(1), registers = code->function->attribute(4);
    code->staticShared = shared ? *shared : 0;
    code->registers = registers ? *registers : 0;
    return std::shared_ptr<const CudaKernelCode>(std::move(code));
}

Status checkCudaKernel(const compiler::LoopProgram& program,
                       const compiler::ScheduledKernel& kernel) {
    Expected<codegen::cuda::CudaKernel> source =
        codegen::cuda::generateCudaKernel(program, kernel, {});
    if (!source) return source.error();
    return Status::success();
}

const std::string& cudaKernelSource(const CudaKernelCode& code) {
    return code.kernel.source;
}

std::string cudaLaunchText(const CudaKernelCode& code, const compiler::LoopProgram& program) {
    const codegen::cuda::CudaKernel& k = code.kernel;
    std::string text = "grid=ceil((" +
                       compiler::toString(k.launch.work, nullptr, &program.symbolNames) + ")/" +
                       std::to_string(k.launch.itemsPerBlock) + ")";
    text += " block=" + std::to_string(k.launch.threads);
    text += " vector=" + std::to_string(k.vectorWidth);
    if (k.elementsPerThread > 1) text += " per_thread=" + std::to_string(k.elementsPerThread);
    if (k.rows != codegen::cuda::RowStrategy::None)
        text += std::string(" rows=") + codegen::cuda::rowStrategyName(k.rows);
    for (const std::string& p : k.fusedPatterns)
        text += " " + p;
    text += " registers=" + std::to_string(code.registers);
    if (code.staticShared) text += " shared=" + std::to_string(code.staticShared);
    return text;
}

Status launchCudaKernel(const CudaKernelCode& code, std::span<const tensor::Tensor> buffers,
                        std::span<const int64_t> symbols, GpuProfiler* profiler, int64_t kernelId) {
    const codegen::cuda::CudaKernel& k = code.kernel;
    std::vector<uint64_t> values(k.args.size());
    std::vector<void*> args(k.args.size());
    for (size_t i = 0; i < k.args.size(); ++i) {
        const codegen::cuda::KernelArg& a = k.args[i];
        if (a.kind == codegen::cuda::KernelArg::Kind::Buffer)
            values[i] = runtime::devicePointer(buffers[static_cast<size_t>(a.id)]);
        else
            values[i] = static_cast<uint64_t>(symbols[static_cast<size_t>(a.id)]);
        args[i] = &values[i];
    }
    codegen::cuda::LaunchDims d = k.launch.evaluate(symbols);
    if (d.grid[0] <= 0) return Status::success(); // nothing to compute (an empty tensor)
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    std::shared_ptr<runtime::CudaStream> stream = runtime::currentStream(**context);
    runtime::Dim3 grid{static_cast<unsigned>(d.grid[0]), static_cast<unsigned>(d.grid[1]),
                       static_cast<unsigned>(d.grid[2])};
    runtime::Dim3 block{static_cast<unsigned>(d.block[0]), static_cast<unsigned>(d.block[1]),
                        static_cast<unsigned>(d.block[2])};
    GpuLaunchInfo info{kernelId, grid.x,         grid.y,
                       grid.z,   block.x,        block.y,
                       block.z,  code.registers, code.staticShared + d.dynamicSharedBytes};
    if (profiler) profiler->beginLaunch(info, *stream);
    Status s = code.function->launch(grid, block, static_cast<unsigned>(d.dynamicSharedBytes),
                                     *stream, args);
    if (profiler) profiler->endLaunch(*stream);
    return s;
}

#else // built without the CUDA toolkit's headers

struct CudaKernelCode {
    std::string source;
};

std::string cudaCodegenUnavailableReason() {
    return "this Kiln was built without CUDA code generation (the CUDA toolkit's headers were "
           "not found at build time)";
}

Expected<std::shared_ptr<const CudaKernelCode>>
buildCudaKernel(const compiler::LoopProgram&, const compiler::ScheduledKernel&, CudaBuildStats&) {
    return makeDiagnostic("CudaUnavailable", cudaCodegenUnavailableReason());
}

Status checkCudaKernel(const compiler::LoopProgram&, const compiler::ScheduledKernel&) {
    return makeDiagnostic("CudaUnavailable", cudaCodegenUnavailableReason());
}

const std::string& cudaKernelSource(const CudaKernelCode& code) {
    return code.source;
}

std::string cudaLaunchText(const CudaKernelCode&, const compiler::LoopProgram&) {
    return {};
}

Status launchCudaKernel(const CudaKernelCode&, std::span<const tensor::Tensor>,
                        std::span<const int64_t>, GpuProfiler*, int64_t) {
    return makeDiagnostic("CudaUnavailable", cudaCodegenUnavailableReason());
}

#endif

} // namespace kiln::inductor
