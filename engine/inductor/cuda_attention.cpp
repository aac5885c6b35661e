// SPDX-License-Identifier: MIT
#include "inductor/cuda_attention.h"

#include "inductor/gpu_profiler.h"
#include "runtime/cuda_memory.h"
#include "runtime/cuda_tensor.h"
#include "tensor/ops.h"

#if KILN_HAVE_CUDA_CODEGEN
#include "codegen/cuda/attention_kernel.h"
#include "codegen/cuda/kernel_cache.h"
#include "runtime/cuda_module.h"
#include "runtime/device_probe.h"
#endif

#include <cmath>
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
    int registers = 0, staticShared = 0, dynamicShared = 0;
};

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
    Expected<codegen::cuda::CompiledImage> image =
        codegen::cuda::KernelCache::shared().getOrCompile(
            codegen::cuda::attentionKernelSource(spec), name, nvrtc);
    if (!image) return image.error();
    std::string bytes = image->image;
    if (image->ptx) bytes.push_back('\0');
    auto module = runtime::CudaModule::load(
        **context, std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
    if (!module) return module.error();
    auto out = std::make_unique<LoadedAttention>();
    out->module = std::move(*module);
    auto function = out->module->kernel(name);
    if (!function) return function.error();
    out->function = std::make_unique<runtime::CudaKernel>(std::move(*function));
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

} // namespace

Expected<Tensor> cudaAttention(std::span<const Tensor> in, double scale, bool causal,
                               GpuProfiler* profiler, int64_t kernelId) {
    Tensor q = readable(in[0]), k = readable(in[1]), v = readable(in[2]);
    int64_t rank = q.dim();
    long long batch = q.size(0), heads = rank == 4 ? q.size(1) : 1;
    long long tq = q.size(rank - 2), tk = k.size(rank - 2);
    codegen::cuda::AttentionKernelSpec spec;
    spec.dtype = q.dtype();
    spec.headDim = static_cast<int>(q.size(rank - 1));
    spec.causal = causal;
    // Two m16 tiles per warp halve the shared-memory reads of K and V per query row; with
    // head size 64 on an H200 that is 106.6 us against 121.1 us (kiln-gpu-codegen-check).
    // Above 64 the accumulators no longer fit in registers without spilling.
    spec.warpTiles = spec.headDim <= 64 ? 2 : 1;
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
    Status s = loaded.function->launch(grid, block, static_cast<unsigned>(loaded.dynamicShared),
                                       *stream, args);
    if (profiler) profiler->endLaunch(*stream);
    if (!s) return s.error();
    return out;
}

#else

Expected<Tensor> cudaAttention(std::span<const Tensor>, double, bool, GpuProfiler*, int64_t) {
    return makeDiagnostic("CudaUnavailable", "this Kiln was built without CUDA code generation");
}

#endif

} // namespace kiln::inductor
