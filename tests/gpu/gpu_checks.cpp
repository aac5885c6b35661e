// SPDX-License-Identifier: MIT
#include "gpu_checks.h"

#include "lang/interpreter.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "runtime/cuda_memory.h"
#include "runtime/cuda_module.h"
#include "runtime/cuda_tensor.h"
#include "runtime/device_probe.h"
#include "support/event_sink.h"
#include "tensor/device_transfer.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/random.h"
#include "torchapi/install.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <span>

namespace kiln::gpucheck {

namespace {

std::string g_cubinPath;

using tensor::Tensor;

/// Fresh random float32 values (never zeros: they hide unwritten outputs).
Tensor randomHost(tensor::IntList sizes, tensor::DType dtype = tensor::DType::Float32) {
    static tensor::Generator gen(12345);
    Tensor t = tensor::randn(sizes, {}, gen);
    return dtype == tensor::DType::Float32 ? t : tensor::toDType(t, dtype);
}

std::string bitwiseEqual(const Tensor& a, const Tensor& b, std::string_view what) {
    if (!tensor::equal(tensor::contiguous(a), tensor::contiguous(b)))
        return std::string(what) + ": the round trip changed values";
    return {};
}

std::string probe(std::string& log) {
    const runtime::CudaProbe& p = runtime::probeCuda();
    log += "probe: " + p.describe() + ", " + std::to_string(p.multiprocessors) + " SMs, " +
           runtime::formatMemorySize(p.totalMemory) + "\n";
    if (!p.available()) return p.problem;
    if (p.capabilityMajor < 7) return "compute capability below 7.5";
    return {};
}

std::string roundTrips(std::string& log) {
    tensor::Device cuda{tensor::DeviceType::CUDA, 0};
    for (tensor::DType d : {tensor::DType::Float32, tensor::DType::Float16, tensor::DType::BFloat16,
                            tensor::DType::Float64, tensor::DType::Int64, tensor::DType::Bool}) {
        Tensor host = randomHost(std::vector<int64_t>{257, 1031}, d);
        Tensor dev = runtime::toDevice(host, cuda);
        if (!dev.device().isCuda()) return "toDevice did not give a CUDA tensor";
        if (std::string e = bitwiseEqual(host, tensor::copyToHost(dev), tensor::dtypeName(d));
            !e.empty())
            return e;
    }
    // A transposed (dense, permuted) tensor keeps its strides; a strided slice is compacted.
    Tensor base = randomHost(std::vector<int64_t>{64, 48});
    Tensor t = tensor::transpose(base, 0, 1);
    Tensor dt = runtime::toDevice(t, cuda);
    if (dt.strides() != t.strides()) return "a transposed tensor lost its strides";
    if (auto e = bitwiseEqual(t, tensor::copyToHost(dt), "transposed"); !e.empty()) return e;
    Tensor sliced = tensor::slice(base, 1, 3, 40, 5);
    if (auto e = bitwiseEqual(sliced, tensor::copyToHost(runtime::toDevice(sliced, cuda)), "slice");
        !e.empty())
        return e;
    Tensor empty =
        runtime::toDevice(Tensor::empty(std::vector<int64_t>{0, 3}, tensor::DType::Float32), cuda);
    if (empty.numel() != 0 || !empty.device().isCuda()) return "an empty tensor did not move";
    log +=
        "round trips: 6 dtypes of 257x1031, transposed, sliced and empty tensors: bitwise equal\n";
    return {};
}

std::string allocatorUnderFragmentation(std::string& log) {
    auto cache = runtime::cudaCachingAllocator(0);
    if (!cache) return cache.error().message;
    runtime::CachingAllocator& a = **cache;
    a.emptyCache();
    const auto before = a.stats();
    std::mt19937_64 rng(7);
    std::vector<Tensor> live;
    int64_t expected = before.allocated.current;
    for (int i = 0; i < 600; ++i) {
        int64_t elements = int64_t(1) << (rng() % 22); // 4 bytes .. 16 MiB
        elements += static_cast<int64_t>(rng() % 1000);
        live.push_back(runtime::emptyCuda(std::vector<int64_t>{elements}, tensor::DType::Float32));
        // A block is the rounded request, or a little more where the rest of its segment was
        // too small to split off; memory_allocated counts blocks, as PyTorch's.
        size_t block = a.blockSize(runtime::devicePointer(live.back()));
        size_t rounded = runtime::CachingAllocator::roundSize(size_t(elements) * 4);
        if (block < rounded || block > rounded + runtime::CachingAllocator::kSmallSize)
            return "block of " + std::to_string(block) + " bytes for " + std::to_string(rounded);
        expected += static_cast<int64_t>(block);
    }
    if (a.stats().allocated.current != expected) return "memory_allocated does not add up";
    for (size_t i = 0; i < live.size(); i += 2)
        live[i] = Tensor();
    const auto mid = a.stats();
    const int64_t segmentsMid = mid.deviceAllocs;
    for (size_t i = 0; i < live.size(); i += 2)
        live[i] = runtime::emptyCuda(std::vector<int64_t>{int64_t(1) << (rng() % 18)},
                                     tensor::DType::Float32);
    const auto refill = a.stats();
    live.clear();
    const auto freed = a.stats();
    a.emptyCache();
    const auto after = a.stats();
    log += "allocator: 600 blocks, peak allocated " +
           runtime::formatMemorySize(refill.allocated.peak) + ", reserved " +
           runtime::formatMemorySize(refill.reserved.current) + " in " +
           std::to_string(refill.segments) + " segments; refilling half took " +
           std::to_string(refill.deviceAllocs - segmentsMid) +
           " new segments; after empty_cache "
           "reserved " +
           runtime::formatMemorySize(after.reserved.current) + "\n";
    if (freed.allocated.current != before.allocated.current) return "blocks leaked";
    if (after.reserved.current != 0 && before.reserved.current == 0)
        return "empty_cache kept segments";
    if (refill.reserved.current < refill.allocated.current) return "reserved below allocated";
    return {};
}

std::string outOfMemory(std::string& log) {
    auto cache = runtime::cudaCachingAllocator(0);
    if (!cache) return cache.error().message;
    runtime::CachingAllocator& a = **cache;
    auto huge = a.allocate(size_t(1) << 40, 0); // 1 TiB
    if (huge) return "a 1 TiB allocation succeeded";
    const std::string& m = huge.error().message;
    log += "oom message: " + m.substr(0, m.find(" If reserved")) + "\n";
    if (huge.error().kind != "OutOfMemoryError") return "wrong kind " + huge.error().kind;
    if (m.rfind("CUDA out of memory. Tried to allocate 1024.00 GiB. GPU 0 has a total capacity of ",
                0) != 0)
        return "unexpected message: " + m;
    // Retry after releasing the cache: hold 60% of free memory cached, then ask for 70%.
    auto ctx = runtime::cudaContext(0);
    auto info = (*ctx)->memoryInfo();
    if (!info) return info.error().message;
    size_t freeBytes = info->first;
    const int64_t flushes = a.stats().cacheFlushes;
    auto big = a.allocate(freeBytes / 10 * 6, 0);
    if (!big) return "60% of free memory: " + big.error().message;
    a.deallocate(*big);
    auto bigger = a.allocate(freeBytes / 10 * 7, 0);
    if (!bigger) return "70% after freeing 60%: " + bigger.error().message;
    a.deallocate(*bigger);
    a.emptyCache();
    if (a.stats().cacheFlushes != flushes + 1) return "the cache was not released before retrying";
    log += "oom retry: 70% of " + runtime::formatMemorySize(freeBytes) +
           " free succeeded after the cached 60% went back\n";
    return {};
}

const char* kPtx = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry kiln_check_axpb(.param .u64 x, .param .u64 y, .param .f32 a, .param .f32 b,
                                .param .u64 n)
{
	.reg .pred %p<2>;
	.reg .f32 %f<5>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd2, [x];
	ld.param.u64 %rd3, [y];
	ld.param.f32 %f1, [a];
	ld.param.f32 %f2, [b];
	ld.param.u64 %rd4, [n];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mul.wide.u32 %rd5, %r1, %r2;
	mov.u32 %r3, %tid.x;
	cvt.u64.u32 %rd6, %r3;
	add.s64 %rd1, %rd5, %rd6;
	setp.ge.s64 %p1, %rd1, %rd4;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd7, %rd2;
	shl.b64 %rd8, %rd1, 2;
	add.s64 %rd9, %rd7, %rd8;
	ld.global.f32 %f3, [%rd9];
	fma.rn.f32 %f4, %f3, %f1, %f2;
	cvta.to.global.u64 %rd10, %rd3;
	add.s64 %rd11, %rd10, %rd8;
	st.global.f32 [%rd11], %f4;
DONE:
	ret;
}
)";

/// Launches y = a*x + b from `image` and compares with the host; the output is poisoned first.
std::string launchFrom(std::span<const std::byte> image, const char* what, std::string& log) {
    auto ctx = runtime::cudaContext(0);
    if (!ctx) return ctx.error().message;
    auto module = runtime::CudaModule::load(**ctx, image);
    if (!module) return module.error().message;
    auto kernel = (*module)->kernel("kiln_check_axpb");
    if (!kernel) return kernel.error().message;
    const int64_t n = 1000003;
    Tensor x = randomHost(std::vector<int64_t>{n});
    Tensor dx = runtime::toDevice(x, {tensor::DeviceType::CUDA, 0});
    Tensor poison = tensor::full(std::vector<int64_t>{n}, tensor::Scalar(NAN), {});
    Tensor dy = runtime::toDevice(poison, {tensor::DeviceType::CUDA, 0});
    runtime::DevicePtr px = runtime::devicePointer(dx), py = runtime::devicePointer(dy);
    float a = 1.5f, b = -0.25f;
    long long count = n;
    void* args[] = {&px, &py, &a, &b, &count};
    auto stream = runtime::currentStream(**ctx);
    auto start = runtime::CudaEvent::create(**ctx, true);
    auto end = runtime::CudaEvent::create(**ctx, true);
    if (!start || !end) return "events";
    (void)(*start)->record(*stream);
    Status s = kernel->launch({unsigned((n + 255) / 256)}, {256}, 0, *stream, args);
    if (!s) return s.error().message;
    (void)(*end)->record(*stream);
    if (Status sync = (*end)->synchronize(); !sync) return sync.error().message;
    auto ms = (*start)->elapsedMs(**end);
    if (!ms) return ms.error().message;
    Tensor y = tensor::copyToHost(dy);
    const float* xs = x.data<float>();
    const float* ys = y.data<float>();
    for (int64_t i = 0; i < n; ++i)
        if (ys[i] != std::fma(xs[i], a, b))
            return std::string(what) + ": element " + std::to_string(i) + " is wrong";
    auto regs = kernel->attribute(4); // CU_FUNC_ATTRIBUTE_NUM_REGS
    log += std::string(what) + " kernel: 1000003 elements exact, " + std::to_string(*ms * 1000.0f) +
           " us between events, " + std::to_string(regs ? *regs : -1) + " registers\n";
    return {};
}

std::string launchPtx(std::string& log) {
    std::string text(kPtx);
    std::vector<std::byte> image(text.size() + 1);
    std::memcpy(image.data(), text.c_str(), text.size() + 1);
    return launchFrom(image, "PTX", log);
}

std::string launchCubin(std::string& log) {
    if (g_cubinPath.empty()) {
        log += "cubin: no file given, not checked\n";
        return {};
    }
    std::ifstream in(g_cubinPath, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    if (bytes.empty()) return "cannot read " + g_cubinPath;
    std::vector<std::byte> image(bytes.size());
    std::memcpy(image.data(), bytes.data(), bytes.size());
    return launchFrom(image, "cubin", log);
}

/// A script through the interpreter, as kiln runs it; returns its output or the error line.
std::string runScript(const std::string& source) {
    struct Sink final : EventSink {
        void output(OutputStream, std::string_view text) override { out += text; }
        std::string out;
    } sink;
    lang::Interpreter interp(sink);
    torchapi::installTorch(interp);
    auto parsed = lang::parseModule(std::make_shared<SourceFile>("<gpu-check>", source));
    if (!parsed.ok()) return parsed.error().render();
    try {
        interp.runMain(*parsed);
    } catch (lang::PyException& e) {
        return sink.out + lang::formatExceptionOnly(interp, e.exception);
    }
    return sink.out;
}

std::string expectScript(const char* name, const std::string& source, const std::string& expected,
                         std::string& log) {
    std::string out = runScript(source);
    if (out != expected) return std::string(name) + ": got\n" + out + "\nexpected\n" + expected;
    log += std::string(name) + ": as expected\n";
    return {};
}

std::string scriptTensors(std::string& log) {
    return expectScript(
        "script tensors",
        "import torch\n"
        "x = torch.arange(6, device='cuda').view(2, 3).float()\n"
        "print(x)\nprint(x.device, x.is_cuda, x.dtype, x.shape)\n"
        "y = torch.tensor([[1.5, -2.0], [0.25, 4.0]], device='cuda:0', dtype=torch.bfloat16)\n"
        "print(y)\nprint(y.cpu().float().tolist(), y.t().cpu())\n"
        "z = torch.ones(3).cuda()\nprint(z, z.to('cpu', torch.int64), z[1].item())\n"
        "print(torch.zeros(2, 2).to('cuda', torch.float16))\n",
        "tensor([[0., 1., 2.],\n        [3., 4., 5.]], device='cuda:0')\n"
        "cuda:0 True torch.float32 torch.Size([2, 3])\n"
        "tensor([[ 1.5000, -2.0000],\n        [ 0.2500,  4.0000]], device='cuda:0', "
        "dtype=torch.bfloat16)\n"
        "[[1.5, -2.0], [0.25, 4.0]] tensor([[ 1.5000,  0.2500],\n"
        "        [-2.0000,  4.0000]], dtype=torch.bfloat16)\n"
        "tensor([1., 1., 1.], device='cuda:0') tensor([1, 1, 1]) 1.0\n"
        "tensor([[0., 0.],\n        [0., 0.]], device='cuda:0', dtype=torch.float16)\n",
        log);
}

std::string scriptCudaModule(std::string& log) {
    const runtime::CudaProbe& p = runtime::probeCuda();
    return expectScript(
        "script torch.cuda",
        "import torch\n"
        "print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.current_device())\n"
        "print(torch.cuda.get_device_name(0), torch.cuda.get_device_capability())\n"
        "torch.cuda.empty_cache()\ntorch.cuda.reset_peak_memory_stats()\n"
        "base = torch.cuda.memory_allocated()\n"
        "x = torch.empty(1000, device='cuda')\n"
        "print(torch.cuda.memory_allocated() - base, torch.cuda.max_memory_allocated() - base)\n"
        "del x\nprint(torch.cuda.memory_allocated() - base, torch.cuda.max_memory_allocated() - "
        "base)\n"
        "print(torch.cuda.memory_reserved() >= 2097152)\n"
        "torch.cuda.manual_seed(3)\na = torch.randn(4, device='cuda')\n"
        "torch.cuda.manual_seed_all(3)\nb = torch.randn(4, device='cuda')\n"
        "print(a.cpu().tolist() == b.cpu().tolist())\n"
        "s = torch.cuda.Stream()\ne1 = torch.cuda.Event(enable_timing=True)\n"
        "e2 = torch.cuda.Event(enable_timing=True)\ne1.record()\n"
        "w = torch.ones(1 << 20, device='cuda')\ne2.record()\ne2.synchronize()\n"
        "print(e1.elapsed_time(e2) >= 0.0, e2.query(), s.query())\n"
        "s.wait_stream(torch.cuda.current_stream())\ns.synchronize()\ntorch.cuda.synchronize()\n"
        "print(torch.cuda.current_stream() == torch.cuda.default_stream())\n",
        "True " + std::to_string(p.deviceCount) + " 0\n" + p.deviceName + " (" +
            std::to_string(p.capabilityMajor) + ", " + std::to_string(p.capabilityMinor) +
            ")\n"
            "4096 4096\n0 4096\nTrue\nTrue\nTrue True True\nTrue\n",
        log);
}

std::string scriptErrors(std::string& log) {
    std::string r = expectScript(
        "script errors",
        "import torch\nx = torch.ones(3, device='cuda')\n"
        "try:\n    x + torch.ones(3)\nexcept RuntimeError as e:\n    print(e)\n"
        "try:\n    x * 2\nexcept NotImplementedError as e:\n    print(str(e)[:60])\n"
        "try:\n    torch.empty(1 << 40, device='cuda')\nexcept torch.cuda.OutOfMemoryError as e:\n"
        "    print(type(e).__name__, str(e)[:50])\n"
        "print(torch.cuda.memory_allocated() < (1 << 30))\n",
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
        "and cpu!\n"
        "Could not run 'operator *' with arguments from the 'CUDA' ba\n"
        "OutOfMemoryError CUDA out of memory. Tried to allocate 4096.00 GiB.\n"
        "True\n",
        log);
    return r;
}

} // namespace

void setCubinPath(std::string path) {
    g_cubinPath = std::move(path);
}

const std::vector<Check>& checks() {
    static const std::vector<Check> all = {
        {"probe", probe},
        {"round trips", roundTrips},
        {"allocator under fragmentation", allocatorUnderFragmentation},
        {"out of memory", outOfMemory},
        {"PTX module launch", launchPtx},
        {"cubin module launch", launchCubin},
        {"script tensors", scriptTensors},
        {"script torch.cuda", scriptCudaModule},
        {"script errors", scriptErrors},
    };
    return all;
}

} // namespace kiln::gpucheck
