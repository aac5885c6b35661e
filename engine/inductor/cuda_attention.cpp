// SPDX-License-Identifier: MIT
#include "inductor/cuda_attention.h"

#include "compiler/aten_graph.h"
#include "inductor/gpu_profiler.h"
#include "runtime/cuda_memory.h"
#include "runtime/cuda_tensor.h"
#include "support/assert.h"
#include "tensor/ops.h"

#if KILN_HAVE_CUDA_CODEGEN
#include "codegen/cuda/attention_kernel.h"
#include "codegen/cuda/kernel_cache.h"
#include "codegen/cuda/precompiled_attention.h"
#include "runtime/cuda_module.h"
#include "runtime/device_probe.h"
#endif

#include <array>
#include <cmath>
#include <future>
#include <map>
#include <memory>
#include <mutex>

namespace kiln::inductor {

using tensor::Tensor;

#if KILN_HAVE_CUDA_CODEGEN

namespace {

struct LoadedAttention {
    std::unique_ptr<runtime::CudaModule> module;
    std::unique_ptr<runtime::CudaKernel> function;
    std::unique_ptr<runtime::CudaModule> summaryModule; ///< masked kernels: the tile summary
    std::unique_ptr<runtime::CudaKernel> summary;
    int registers = 0, staticShared = 0, dynamicShared = 0;
};

Expected<std::unique_ptr<runtime::CudaModule>>
loadImage(const runtime::CudaContext& context, const codegen::cuda::CompiledImage& image) {
    std::string bytes = image.image;
    if (image.ptx) bytes.push_back('\0'); // the driver reads PTX as a C string
    return runtime::CudaModule::load(
        context, std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
}

Expected<const LoadedAttention*> attentionKernel(const codegen::cuda::AttentionKernelSpec& spec) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<LoadedAttention>> loaded;
    std::string name = codegen::cuda::attentionKernelName(spec);
    std::lock_guard lock(mutex);
    if (auto it = loaded.find(name); it != loaded.end()) return it->second.get();
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    const runtime::CudaProbe& probe = runtime::probeCuda();
    codegen::cuda::NvrtcOptions nvrtc;
    nvrtc.computeCapability = probe.capabilityMajor * 10 + probe.capabilityMinor;
    if (nvrtc.computeCapability < 80)
        return makeDiagnostic("CudaUnavailable",
                              "flash_attention needs a GPU of compute capability 8.0 or newer "
                              "(bf16 tensor-core instructions)");
    // Built with Kiln for this device (precompiled_attention.h), else NVRTC through the cache.
    auto compile = [nvrtc](std::string source,
                           std::string entry) -> Expected<codegen::cuda::CompiledImage> {
        std::string_view built =
            codegen::cuda::precompiledAttentionCubin(entry, nvrtc.computeCapability);
        if (!built.empty()) {
            codegen::cuda::CompiledImage image;
            image.image.assign(built);
            return image;
        }
        return codegen::cuda::KernelCache::shared().getOrCompile(source, entry, nvrtc);
    };
    // The summary is a program of its own, compiled beside the attention kernel.
    std::string summaryName = codegen::cuda::attentionSummaryKernelName(spec);
    std::future<Expected<codegen::cuda::CompiledImage>> summaryImage;
    if (spec.masked)
        summaryImage = std::async(std::launch::async, compile,
                                  codegen::cuda::attentionSummaryKernelSource(spec), summaryName);
    Expected<codegen::cuda::CompiledImage> image =
        compile(codegen::cuda::attentionKernelSource(spec), name);
    if (summaryImage.valid()) summaryImage.wait();
    if (!image) return image.error();
    auto out = std::make_unique<LoadedAttention>();
    Expected<std::unique_ptr<runtime::CudaModule>> module = loadImage(**context, *image);
    if (!module) return module.error();
    out->module = std::move(*module);
    auto function = out->module->kernel(name);
    if (!function) return function.error();
    out->function = std::make_unique<runtime::CudaKernel>(std::move(*function));
    if (spec.masked) {
        Expected<codegen::cuda::CompiledImage> summary = summaryImage.get();
        if (!summary) return summary.error();
        Expected<std::unique_ptr<runtime::CudaModule>> loadedSummary =
            loadImage(**context, *summary);
        if (!loadedSummary) return loadedSummary.error();
        out->summaryModule = std::move(*loadedSummary);
        auto entry = out->summaryModule->kernel(summaryName);
        if (!entry) return entry.error();
        out->summary = std::make_unique<runtime::CudaKernel>(std::move(*entry));
    }
    out->dynamicShared = codegen::cuda::attentionSharedBytes(spec);
    if (out->dynamicShared > 48 * 1024)
        if (Status s = out->function->setMaxDynamicSharedMemory(out->dynamicShared); !s)
            return s.error();
    // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1, CU_FUNC_ATTRIBUTE_NUM_REGS = 4.
    Expected<int> shared = out->function->attribute(1), registers = out->function->attribute(4);
    out->staticShared = shared ? *shared : 0;
    out->registers = registers ? *registers : 0;
    return (loaded[name] = std::move(out)).get();
}

/// The kernel reads rows with 16-byte loads: unit last stride, row, head and batch strides in
/// whole 8-element steps, an aligned first element.
bool kernelReadable(const Tensor& t) {
    if (t.stride(t.dim() - 1) != 1 && t.size(t.dim() - 1) != 1) return false;
    for (int64_t d = 0; d + 1 < t.dim(); ++d)
        if (t.stride(d) % 8 != 0 && t.size(d) != 1) return false;
    return runtime::devicePointer(t) % 16 == 0;
}

/// A layout the kernel cannot read, copied through host memory: correct and slow, for what
/// graphs rarely hold (attention operands are views of a projection's rows).
Tensor readable(const Tensor& t) {
    if (kernelReadable(t)) return t;
    Tensor host = tensor::contiguous(runtime::toDevice(t, tensor::Device{}));
    return runtime::toDevice(host, tensor::Device{tensor::DeviceType::CUDA, 0});
}

/// Batch, head and row strides of a rank-3 or rank-4 operand.
std::array<long long, 3> strides(const Tensor& t) {
    if (t.dim() == 3) return {t.stride(0), 0, t.stride(1)};
    return {t.stride(0), t.stride(1), t.stride(2)};
}

/// The mask's strides as the kernels take them: batch, head and row, aligned to the right of
/// [batch, heads, tq, tk], 0 where the mask broadcasts (a dimension of size 1 or absent).
std::array<long long, 3> maskStrides(const Tensor& mask) {
    std::array<long long, 3> out{0, 0, 0};
    for (int64_t i = 1; i < mask.dim() && i < 4; ++i) {
        int64_t d = mask.dim() - 1 - i;
        out[static_cast<size_t>(3 - i)] = mask.size(d) == 1 ? 0 : mask.stride(d);
    }
    return out;
}

/// The kernels read a mask's rows as contiguous bytes (match_attention only fuses masks with a
/// row per query or one for all and a column per key); another layout (a transposed mask) is
/// copied through host memory first, as `readable` does.
Tensor contiguousRows(const Tensor& mask) {
    KILN_ASSERT(mask.dim() >= 1, "flash_attention's mask has a dimension per key");
    if (mask.stride(mask.dim() - 1) == 1) return mask;
    Tensor host = tensor::contiguous(runtime::toDevice(mask, tensor::Device{}));
    return runtime::toDevice(host, tensor::Device{tensor::DeviceType::CUDA, 0});
}

/// How many mask batches and heads there are (1 where the mask broadcasts).
std::array<long long, 2> maskGroups(const Tensor& mask) {
    auto size = [&](int64_t fromRight) {
        return mask.dim() > fromRight ? mask.size(mask.dim() - 1 - fromRight) : 1;
    };
    return {size(3), size(2)};
}

/// Launches the summary kernel of a masked attention: which key tiles each query tile keeps.
Expected<Tensor> maskSummary(const LoadedAttention& kernel, const Tensor& mask, long long tq,
                             long long tk, long long rowsPerBlock, long long keysPerTile,
                             runtime::CudaStream& stream) {
    std::array<long long, 3> ms = maskStrides(mask);
    std::array<long long, 2> groups = maskGroups(mask);
    long long tilesQ = (tq + rowsPerBlock - 1) / rowsPerBlock;
    long long tilesK = (tk + keysPerTile - 1) / keysPerTile;
    const int64_t count = groups[0] * groups[1] * tilesQ * tilesK;
    Tensor summary = runtime::emptyCuda(std::span<const int64_t>(&count, 1), tensor::DType::Bool);
    uint64_t maskPtr = runtime::devicePointer(mask), outPtr = runtime::devicePointer(summary);
    long long heads = groups[1];
    std::vector<void*> args{&maskPtr, &ms[0], &ms[1], &ms[2], &tq, &tk, &heads, &outPtr};
    runtime::Dim3 grid{static_cast<unsigned>(tilesQ * tilesK),
                       static_cast<unsigned>(groups[0] * groups[1]), 1};
    Status s = kernel.summary->launch(grid, {128, 1, 1}, 0, stream, args);
    if (!s) return s.error();
    return summary;
}

codegen::cuda::AttentionKernelSpec specFor(tensor::DType dtype, int64_t headDim, int flags,
                                           bool masked) {
    return codegen::cuda::attentionSpecFor(dtype, static_cast<int>(headDim),
                                           (flags & compiler::kAttentionCausal) != 0, masked,
                                           (flags & compiler::kAttentionEmptyRowsNan) != 0);
}

} // namespace

Status prepareCudaAttention(tensor::DType dtype, int64_t headDim, int flags, bool masked) {
    Expected<const LoadedAttention*> kernel =
        attentionKernel(specFor(dtype, headDim, flags, masked));
    if (!kernel) return kernel.error();
    return Status::success();
}

Expected<Tensor> cudaAttention(std::span<const Tensor> in, double scale, int flags,
                               GpuProfiler* profiler, int64_t kernelId) {
    Tensor q = readable(in[0]), k = readable(in[1]), v = readable(in[2]);
    int64_t rank = q.dim();
    long long batch = q.size(0), heads = rank == 4 ? q.size(1) : 1;
    long long tq = q.size(rank - 2), tk = k.size(rank - 2);
    codegen::cuda::AttentionKernelSpec spec =
        specFor(q.dtype(), q.size(rank - 1), flags, in.size() > 3);
    Tensor out = runtime::emptyCuda(q.sizes(), q.dtype());
    if (out.numel() == 0) return out;
    Expected<const LoadedAttention*> kernel = attentionKernel(spec);
    if (!kernel) return kernel.error();
    std::array<long long, 3> qs = strides(q), ks = strides(k), vs = strides(v);
    uint64_t pointers[4] = {runtime::devicePointer(q), runtime::devicePointer(k),
                            runtime::devicePointer(v), runtime::devicePointer(out)};
    long long sizes[3] = {tq, tk, heads};
    float scaleLog2 = static_cast<float>(scale * M_LOG2E);
    std::vector<void*> args;
    for (uint64_t& p : pointers)
        args.push_back(&p);
    for (long long& s : sizes)
        args.push_back(&s);
    for (auto* s : {&qs, &ks, &vs})
        for (long long& x : *s)
            args.push_back(&x);
    args.push_back(&scaleLog2);
    long long rowsPerBlock = codegen::cuda::attentionRowsPerBlock(spec);
    long long tiles = (tq + rowsPerBlock - 1) / rowsPerBlock;
    runtime::Dim3 grid{static_cast<unsigned>(tiles), static_cast<unsigned>(batch * heads), 1};
    runtime::Dim3 block{static_cast<unsigned>(codegen::cuda::kAttentionThreads), 1, 1};
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    std::shared_ptr<runtime::CudaStream> stream = runtime::currentStream(**context);
    const LoadedAttention& loaded = **kernel;
    GpuLaunchInfo info{kernelId, grid.x,           grid.y,
                       grid.z,   block.x,          block.y,
                       block.z,  loaded.registers, loaded.staticShared + loaded.dynamicShared};
    if (profiler) profiler->beginLaunch(info, *stream);
    // Masked: the mask's bytes, strides and tile summary follow the scale (kept alive by
    // `mask` and `summary` until the launch is queued; the allocator orders reuse by stream).
    Tensor mask, summary;
    std::array<long long, 3> ms{};
    std::array<long long, 2> ss{};
    uint64_t maskPtr = 0, summaryPtr = 0;
    if (spec.masked) {
        KILN_ASSERT(in[3].dtype() == tensor::DType::Bool, "flash_attention's mask is boolean");
        mask = contiguousRows(in[3]);
        Expected<Tensor> made =
            maskSummary(loaded, mask, tq, tk, rowsPerBlock, spec.keysPerTile, *stream);
        if (!made) {
            if (profiler) profiler->endLaunch(*stream);
            return made.error();
        }
        summary = *made;
        ms = maskStrides(mask);
        std::array<long long, 2> groups = maskGroups(mask);
        long long perGroup = tiles * ((tk + spec.keysPerTile - 1) / spec.keysPerTile);
        ss = {groups[0] > 1 ? groups[1] * perGroup : 0, groups[1] > 1 ? perGroup : 0};
        maskPtr = runtime::devicePointer(mask);
        summaryPtr = runtime::devicePointer(summary);
        args.push_back(&maskPtr);
        for (long long& x : ms)
            args.push_back(&x);
        args.push_back(&summaryPtr);
        for (long long& x : ss)
            args.push_back(&x);
    }
    Status s = loaded.function->launch(grid, block, static_cast<unsigned>(loaded.dynamicShared),
                                       *stream, args);
    if (profiler) profiler->endLaunch(*stream);
    if (!s) return s.error();
    return out;
}

#else

Status prepareCudaAttention(tensor::DType, int64_t, int, bool) {
    return makeDiagnostic("CudaUnavailable", "this Kiln was built without CUDA code generation");
}

Expected<Tensor> cudaAttention(std::span<const Tensor>, double, int, GpuProfiler*, int64_t) {
    return makeDiagnostic("CudaUnavailable", "this Kiln was built without CUDA code generation");
}

#endif

} // namespace kiln::inductor
