// SPDX-License-Identifier: MIT
#include "inductor/cuda_kernels.h"

#include "inductor/gpu_profiler.h"

#include <mutex>

#if KILN_HAVE_CUDA_CODEGEN
#include "codegen/cuda/cuda_codegen.h"
#include "runtime/cuda_module.h"
#include "runtime/cuda_tensor.h"
#include "runtime/device_probe.h"
#endif

namespace kiln::inductor {

#if KILN_HAVE_CUDA_CODEGEN

/// One compiled path of a kernel (codegen::cuda::KernelPath), loaded on device 0.
struct LoadedPath {
    std::unique_ptr<runtime::CudaModule> module;
    std::unique_ptr<runtime::CudaKernel> function;
    int registers = 0;
    int staticShared = 0;
};

struct CudaKernelCode {
    codegen::cuda::CudaKernel kernel;
    codegen::cuda::NvrtcOptions nvrtc;
    LoadedPath first; ///< kernel.firstPath(): the vector path where the kernel has one
    /// The scalar path of a kernel with a vector path, compiled and loaded by the first launch
    /// the vector path cannot take (a misaligned view): most kernels never need it, and
    /// compiling it up front would double NVRTC's time.
    mutable std::mutex scalarMutex;
    mutable std::unique_ptr<LoadedPath> scalar;
};

std::string cudaCodegenUnavailableReason() {
    return {};
}

namespace {

Expected<LoadedPath> loadPath(const codegen::cuda::CompiledImage& image, const std::string& entry) {
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    std::string bytes = image.image;
    if (image.ptx) bytes.push_back('\0'); // the driver reads PTX as a C string
    auto module = runtime::CudaModule::load(
        **context, std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
    if (!module) return module.error();
    LoadedPath path;
    path.module = std::move(*module);
    auto function = path.module->kernel(entry);
    if (!function) return function.error();
    path.function = std::make_unique<runtime::CudaKernel>(std::move(*function));
    // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1, CU_FUNC_ATTRIBUTE_NUM_REGS = 4.
    Expected<int> shared = path.function->attribute(1), registers = path.function->attribute(4);
    path.staticShared = shared ? *shared : 0;
    path.registers = registers ? *registers : 0;
    return path;
}

/// The loaded image for a launch taking `path`: the first one, or the scalar path, compiled
/// and loaded now if this is the first launch to need it.
Expected<const LoadedPath*> pathForLaunch(const CudaKernelCode& code,
                                          codegen::cuda::KernelPath path) {
    if (path != codegen::cuda::KernelPath::Scalar) return &code.first;
    std::lock_guard<std::mutex> lock(code.scalarMutex);
    if (!code.scalar) {
        Expected<codegen::cuda::CompiledImage> image =
            codegen::cuda::compileKernelPath(code.kernel, path, code.nvrtc);
        if (!image) return image.error();
        Expected<LoadedPath> loaded = loadPath(*image, code.kernel.name);
        if (!loaded) return loaded.error();
        code.scalar = std::make_unique<LoadedPath>(std::move(*loaded));
    }
    return code.scalar.get();
}

} // namespace

Expected<std::shared_ptr<const CudaKernelCode>>
buildCudaKernel(const compiler::LoopProgram& program, const compiler::ScheduledKernel& kernel,
                CudaBuildStats& stats) {
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    const runtime::CudaProbe& probe = runtime::probeCuda();
    auto code = std::make_shared<CudaKernelCode>();
    code->nvrtc.computeCapability = probe.capabilityMajor * 10 + probe.capabilityMinor;
    auto compiled = codegen::cuda::compileCudaKernel(program, kernel, code->nvrtc);
    if (!compiled) return compiled.error();
    const codegen::cuda::CompiledImage& image = compiled->image;
    if (image.fromMemoryCache)
        ++stats.memoryCacheHits;
    else if (image.fromDiskCache)
        ++stats.diskCacheHits;
    else
        ++stats.compiled;
    stats.nvrtcMs += image.compileMs;
    code->kernel = std::move(compiled->kernel);
    Expected<LoadedPath> loaded = loadPath(image, code->kernel.name);
    if (!loaded) return loaded.error();
    code->first = std::move(*loaded);
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
    if (k.vectorPath) text += " scalar_path=on_demand";
    text += " registers=" + std::to_string(code.first.registers);
    if (code.first.staticShared) text += " shared=" + std::to_string(code.first.staticShared);
    return text;
}

Status launchCudaKernel(const CudaKernelCode& code, std::span<const tensor::Tensor> buffers,
                        std::span<const int64_t> symbols, GpuProfiler* profiler, int64_t kernelId) {
    const codegen::cuda::CudaKernel& k = code.kernel;
    std::vector<uint64_t> values(k.args.size());
    std::vector<void*> args(k.args.size());
    std::vector<uint64_t> addresses(k.vectorPath ? buffers.size() : 0);
    for (size_t i = 0; i < k.args.size(); ++i) {
        const codegen::cuda::KernelArg& a = k.args[i];
        if (a.kind == codegen::cuda::KernelArg::Kind::Buffer) {
            values[i] = runtime::devicePointer(buffers[static_cast<size_t>(a.id)]);
            if (k.vectorPath) addresses[static_cast<size_t>(a.id)] = values[i];
        } else {
            values[i] = static_cast<uint64_t>(symbols[static_cast<size_t>(a.id)]);
        }
        args[i] = &values[i];
    }
    codegen::cuda::LaunchDims d = k.launch.evaluate(symbols);
    if (d.grid[0] <= 0) return Status::success(); // nothing to compute (an empty tensor)
    Expected<const LoadedPath*> path = pathForLaunch(code, k.pathFor(addresses, symbols));
    if (!path) return path.error();
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    std::shared_ptr<runtime::CudaStream> stream = runtime::currentStream(**context);
    runtime::Dim3 grid{static_cast<unsigned>(d.grid[0]), static_cast<unsigned>(d.grid[1]),
                       static_cast<unsigned>(d.grid[2])};
    runtime::Dim3 block{static_cast<unsigned>(d.block[0]), static_cast<unsigned>(d.block[1]),
                        static_cast<unsigned>(d.block[2])};
    const LoadedPath& loaded = **path;
    GpuLaunchInfo info{kernelId, grid.x,           grid.y,
                       grid.z,   block.x,          block.y,
                       block.z,  loaded.registers, loaded.staticShared + d.dynamicSharedBytes};
    if (profiler) profiler->beginLaunch(info, *stream);
    Status s = loaded.function->launch(grid, block, static_cast<unsigned>(d.dynamicSharedBytes),
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
