// SPDX-License-Identifier: MIT
// kiln-gpu-codegen-check: runs Kiln's generated CUDA kernels, cuBLASLt and CUPTI on a real GPU.
// For each fused graph: generate, compile with NVRTC (sm_XX of the device), load the cubin,
// run on fresh random inputs with poisoned outputs and intermediates, compare with a host
// reference (||out - ref|| / ||ref||), then time the kernel alone with CUDA events (median of
// many launches). Then the bf16 MLP's products through cuBLASLt, and CUPTI's kernel records.
// Prints a table and writes JSON (argv[1], default results.json). Without a GPU it says why
// and exits 0. The driver calls go through cuda_driver.h, test code that the runtime layer
// replaces at integration.
#include "../../tests/gpu/cuda_workloads.h"
#include "codegen/cuda/attention_kernel.h"
#include "codegen/cuda/cublaslt.h"
#include "codegen/cuda/cuda_codegen.h"
#include "codegen/cuda/cupti.h"
#include "cuda_driver.h"
#include "host_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

using namespace kiln;
using namespace kiln::codegen::cuda;
using namespace kiln::bench::gpu;
namespace wl = kiln::testing::cuda;

namespace {

Driver& drv = driver();
std::string g_json = "{\n  \"kernels\": [\n";
bool g_firstJson = true;

struct Loaded {
    CudaKernel kernel;
    CUfunction fn = nullptr;
    double compileMs = 0;
    int registers = 0;
};

Loaded load(const wl::FusedGraph& g, int cc, const CudaCodegenOptions& options = {}) {
    KernelCache cache("");
    NvrtcOptions nvrtc;
    nvrtc.computeCapability = cc;
    auto compiled = compileCudaKernel(g.program, g.kernel(), nvrtc, options, &cache);
    if (!compiled) {
        std::fprintf(stderr, "%s\n", compiled.error().render().c_str());
        for (const std::string& n : compiled.error().notes)
            std::fprintf(stderr, "  %s\n", n.c_str());
        std::exit(1);
    }
    Loaded l;
    l.kernel = compiled->kernel;
    l.compileMs = compiled->image.compileMs;
    CUmodule module = nullptr;
    CHECK_CU(drv.cuModuleLoadData(&module, compiled->image.image.data()));
    CHECK_CU(drv.cuModuleGetFunction(&l.fn, module, l.kernel.name.c_str()));
    CHECK_CU(drv.cuFuncGetAttribute(&l.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, l.fn));
    return l;
}

/// One run of a graph: buffers on the device, inputs uploaded, outputs poisoned.
struct Run {
    std::vector<CUdeviceptr> pointers; ///< per buffer id (0: not used by the kernel)
    std::vector<size_t> bytes;
    std::vector<long long> symbols;
    std::vector<void*> args;
    std::vector<CUdeviceptr> argPointers;

    void launch(const Loaded& l) {
        LaunchDims d =
            l.kernel.launch.evaluate(std::vector<int64_t>(symbols.begin(), symbols.end()));
        CHECK_CU(drv.cuLaunchKernel(
            l.fn, static_cast<unsigned>(d.grid[0]), 1, 1, static_cast<unsigned>(d.block[0]), 1, 1,
            static_cast<unsigned>(d.dynamicSharedBytes), nullptr, args.data(), nullptr));
    }
};

Run prepare(const wl::FusedGraph& g, const Loaded& l, std::vector<long long> symbols,
            const std::vector<HostTensor>& inputs) {
    Run r;
    r.symbols = std::move(symbols);
    r.pointers.assign(g.program.buffers.size(), 0);
    r.bytes.assign(g.program.buffers.size(), 0);
    std::vector<int64_t> syms(r.symbols.begin(), r.symbols.end());
    for (const KernelArg& a : l.kernel.args) {
        if (a.kind != KernelArg::Kind::Buffer) continue;
        const compiler::Buffer& b = g.program.buffer(a.id);
        int64_t extent = 1;
        for (size_t d = 0; d < b.sizes.size(); ++d)
            extent += (compiler::evaluate(b.sizes[d], {}, syms) - 1) *
                      compiler::evaluate(b.strides[d], {}, syms);
        r.bytes[a.id] = static_cast<size_t>(extent * tensor::itemSize(b.dtype));
        CHECK_CU(drv.cuMemAlloc(&r.pointers[a.id], r.bytes[a.id]));
        if (b.origin == compiler::Buffer::Origin::Input) {
            const HostTensor& in = inputs.at(static_cast<size_t>(b.inputIndex));
            CHECK_CU(drv.cuMemcpyHtoD(r.pointers[a.id], in.bytes.data(), in.bytes.size()));
        } else {
            CHECK_CU(drv.cuMemsetD8(r.pointers[a.id], 0xff, r.bytes[a.id])); // NaN poison
        }
    }
    for (const KernelArg& a : l.kernel.args)
        r.argPointers.push_back(a.kind == KernelArg::Kind::Buffer ? r.pointers[a.id] : 0);
    for (size_t i = 0; i < l.kernel.args.size(); ++i)
        r.args.push_back(l.kernel.args[i].kind == KernelArg::Kind::Buffer
                             ? static_cast<void*>(&r.argPointers[i])
                             : static_cast<void*>(&r.symbols[l.kernel.args[i].id]));
    return r;
}

HostTensor download(const Run& r, int32_t buffer, tensor::DType t) {
    HostTensor h;
    h.dtype = t;
    h.bytes.resize(r.bytes[buffer]);
    CHECK_CU(drv.cuMemcpyDtoH(h.bytes.data(), r.pointers[buffer], h.bytes.size()));
    return h;
}

void freeRun(Run& r) {
    for (CUdeviceptr p : r.pointers)
        if (p) drv.cuMemFree(p);
}

struct Case {
    std::string name;
    wl::FusedGraph graph;
    std::vector<HostTensor> inputs;
    std::vector<long long> symbols;
    ReferenceFn reference;
    double tolerance = 1e-5;
    int reps = 0; ///< 0: numerics only
    double bytesMoved = 0;
    double targetUs = 0;
};

bool runCase(Case& c, int cc) {
    Loaded l = load(c.graph, cc);
    Run r = prepare(c.graph, l, c.symbols, c.inputs);
    r.launch(l);
    CHECK_CU(drv.cuCtxSynchronize());
    int32_t outBuffer = c.graph.outputs.at(0).buffer;
    HostTensor out = download(r, outBuffer, c.graph.program.buffer(outBuffer).dtype);
    Reference ref = c.reference(c.inputs, c.symbols);
    Comparison cmp = compare(out, ref);
    double us = c.reps ? timeLaunches([&] { r.launch(l); }, c.reps) : 0;
    double tbps = us > 0 ? c.bytesMoved / (us * 1e-6) / 1e12 : 0;
    bool ok = cmp.unwritten == 0 && cmp.relativeError <= c.tolerance;
    std::printf("%-34s %-14s w%d rows=%-13s regs=%3d  rel_err=%.2e unwritten=%zu %s",
                c.name.c_str(), l.kernel.name.substr(0, 14).c_str(), l.kernel.vectorWidth,
                rowStrategyName(l.kernel.rows), l.registers, cmp.relativeError, cmp.unwritten,
                ok ? "ok" : "FAIL");
    if (us > 0)
        std::printf("  %8.1f us  %.2f TB/s%s", us, tbps,
                    c.targetUs > 0 ? (us <= c.targetUs ? "  (<= target)" : "  (ABOVE target)")
                                   : "");
    std::printf("  nvrtc %.0f ms\n", l.compileMs);
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "%s    {\"case\": \"%s\", \"kernel\": \"%s\", \"vector_width\": %d, "
                  "\"rows\": \"%s\", \"registers\": %d, \"rel_err\": %.3e, \"unwritten\": %zu, "
                  "\"ok\": %s, \"median_us\": %.2f, \"tb_per_s\": %.3f, \"target_us\": %.1f, "
                  "\"nvrtc_ms\": %.1f}",
                  g_firstJson ? "" : ",\n", c.name.c_str(), l.kernel.name.c_str(),
                  l.kernel.vectorWidth, rowStrategyName(l.kernel.rows), l.registers,
                  cmp.relativeError, cmp.unwritten, ok ? "true" : "false", us, tbps, c.targetUs,
                  l.compileMs);
    g_json += buf;
    g_firstJson = false;
    freeRun(r);
    return ok;
}

Case makeCase(std::string name, wl::FusedGraph g, std::vector<HostTensor> inputs, ReferenceFn ref,
              double tol, int reps = 0, double bytes = 0, double target = 0,
              std::vector<long long> symbols = {}) {
    Case c;
    c.name = std::move(name);
    c.graph = std::move(g);
    c.inputs = std::move(inputs);
    c.reference = std::move(ref);
    c.tolerance = tol;
    c.reps = reps;
    c.bytesMoved = bytes;
    c.targetUs = target;
    c.symbols = std::move(symbols);
    return c;
}

ReferenceFn softmaxRef(size_t rows, size_t cols) {
    return [=](const std::vector<HostTensor>& in, const std::vector<long long>&) {
        return rowsRef(in[0], rows, cols, cols,
                       [&](const double* v, double* o) { softmaxRow(v, o, cols); });
    };
}

ReferenceFn geluLayerNormRef(size_t rows, size_t cols) {
    return [=](const std::vector<HostTensor>& in, const std::vector<long long>&) {
        return rowsRef(in[0], rows, cols, cols, [&](const double* v, double* o) {
            geluLayerNormRow(v, o, cols, in[1], in[2]);
        });
    };
}

ReferenceFn reductionRef(const std::string& op, size_t rows, size_t cols) {
    return [=](const std::vector<HostTensor>& in, const std::vector<long long>&) {
        return rowsRef(in[0], rows, cols, 1, [&](const double* v, double* o) {
            double acc = op == "amax" ? -INFINITY : 0;
            size_t best = 0;
            for (size_t j = 0; j < cols; ++j) {
                if (op == "amax") acc = std::max(acc, v[j]);
                if (op == "argmax" && v[j] > v[best]) best = j;
                if (op == "sum" || op == "mean" || op == "var") acc += v[j];
            }
            if (op == "mean") acc /= static_cast<double>(cols);
            if (op == "var") {
                double mean = acc / static_cast<double>(cols), m2 = 0;
                for (size_t j = 0; j < cols; ++j)
                    m2 += (v[j] - mean) * (v[j] - mean);
                acc = m2 / static_cast<double>(cols - 1);
            }
            o[0] = op == "argmax" ? static_cast<double>(best) : acc;
        });
    };
}

/// The emitted kernels on the acceptance shapes (timed) and on shapes that take the
/// other code paths (scalar tails, warp rows, bf16, dynamic sizes, every reduction).
std::vector<Case> makeCases() {
    using tensor::DType;
    std::vector<Case> cases;
    uint64_t seed = std::random_device{}();
    const size_t big = size_t(1) << 26;
    cases.push_back(makeCase("sin+cos 2^26", wl::sinCos(big),
                             {randomTensor(big, DType::Float32, seed++)}, sinCosRef, 1e-5, 100,
                             2.0 * 4 * big, 135));
    cases.push_back(makeCase("gelu(layer_norm) 16384x4096", wl::geluLayerNorm(16384, 4096),
                             {randomTensor(16384 * 4096, DType::Float32, seed++),
                              randomTensor(4096, DType::Float32, seed++, 0.5, 1.0),
                              randomTensor(4096, DType::Float32, seed++, 0.5)},
                             geluLayerNormRef(16384, 4096), 1e-5, 100, 2.0 * 4 * 16384 * 4096,
                             150));
    cases.push_back(makeCase("softmax 16384x4096", wl::softmax(16384, 4096),
                             {randomTensor(16384 * 4096, DType::Float32, seed++, 3.0)},
                             softmaxRef(16384, 4096), 1e-5, 100, 2.0 * 4 * 16384 * 4096, 140));
    cases.push_back(makeCase("sin+cos 1001 (scalar)", wl::sinCos(1001),
                             {randomTensor(1001, DType::Float32, seed++)}, sinCosRef, 1e-5));
    cases.push_back(makeCase("sin+cos bf16 2^20", wl::sinCos(1 << 20, DType::BFloat16),
                             {randomTensor(1 << 20, DType::BFloat16, seed++)}, sinCosRef, 1e-2));
    cases.push_back(makeCase("softmax 1000x512 (warp rows)", wl::softmax(1000, 512),
                             {randomTensor(1000 * 512, DType::Float32, seed++, 3.0)},
                             softmaxRef(1000, 512), 1e-5));
    cases.push_back(makeCase("softmax 37x1000", wl::softmax(37, 1000),
                             {randomTensor(37 * 1000, DType::Float32, seed++, 3.0)},
                             softmaxRef(37, 1000), 1e-5));
    cases.push_back(makeCase("softmax s0=777 x 2048 (dynamic)", wl::dynamicSoftmax(2048),
                             {randomTensor(777 * 2048, DType::Float32, seed++, 3.0)},
                             softmaxRef(777, 2048), 1e-5, 0, 0, 0, {777}));
    cases.push_back(makeCase("gelu(layer_norm) bf16 256x768",
                             wl::geluLayerNorm(256, 768, DType::BFloat16),
                             {randomTensor(256 * 768, DType::BFloat16, seed++),
                              randomTensor(768, DType::BFloat16, seed++, 0.5, 1.0),
                              randomTensor(768, DType::BFloat16, seed++, 0.5)},
                             geluLayerNormRef(256, 768), 1e-2));
    for (const char* op : {"sum", "amax", "mean", "var", "argmax"})
        for (int cols : {100, 8192})
            cases.push_back(makeCase(
                std::string(op) + " 64x" + std::to_string(cols), wl::rowReduction(op, 64, cols),
                {randomTensor(64 * size_t(cols), DType::Float32, seed++)},
                reductionRef(op, 64, size_t(cols)), std::string(op) == "argmax" ? 0.0 : 1e-5));
    // x + rand_like(x): the device's Philox against the host's, value for value.
    const size_t rn = size_t(1) << 22;
    cases.push_back(
        makeCase("x + rand 2^22 (philox)", wl::randomAdd(int64_t(rn)),
                 {randomTensor(rn, DType::Float32, seed++)},
                 [rn](const std::vector<HostTensor>& in, const std::vector<long long>& syms) {
                     Reference r;
                     r.values.resize(rn);
                     for (size_t i = 0; i < rn; ++i)
                         r.values[i] = static_cast<float>(in[0].at(i)) +
                                       philoxUniform(static_cast<uint64_t>(syms[0]), i, 0);
                     return r;
                 },
                 1e-6, 0, 0, 0, {static_cast<long long>(seed * 2654435761u) & 0x7fffffffffffLL}));
    return cases;
}

/// Times emitter variants on the acceptance shapes (work per thread, block size, one-pass
/// softmax on/off, vector accesses off), each checked for numerics too: what the defaults
/// were chosen from.
void runVariants(int cc) {
    using tensor::DType;
    struct Variant {
        const char* name;
        /// 0 sin+cos, 1 softmax, 2 gelu(layer_norm), 3 masked attention softmax, 4 bf16 gelu
        int workload;
        CudaCodegenOptions options;
    };
    auto pw = [](int threads, int perThread, int maxWidth = 8) {
        CudaCodegenOptions o;
        o.pointwise.threads = threads;
        o.pointwise.elementsPerThread = perThread;
        o.pointwise.maxVectorWidth = maxWidth;
        return o;
    };
    CudaCodegenOptions online;
    online.reduction.softmax = ReductionConfig::Softmax::Online;
    CudaCodegenOptions perVector;
    perVector.reduction.welfordThreadMoments = false;
    CudaCodegenOptions scalarRows;
    scalarRows.reduction.maxVectorWidth = 1;
    auto rowThreads = [](int threads) {
        CudaCodegenOptions o;
        o.reduction.blockThreads = threads;
        return o;
    };
    CudaCodegenOptions readMasked;
    readMasked.reduction.skipDiscardedLoads = false;
    auto rowWarps = [](int warps) {
        CudaCodegenOptions o;
        o.reduction.warpsPerBlock = warps;
        return o;
    };
    std::vector<Variant> variants = {
        {"sin+cos threads=128 x16", 0, pw(128, 16)},
        {"sin+cos threads=512 x16", 0, pw(512, 16)},
        {"sin+cos scalar x16", 0, pw(256, 16, 1)},
        {"softmax online (forced)", 1, online},
        {"softmax scalar (no vectors)", 1, scalarRows},
        {"gelu(layer_norm) welford per vector", 2, perVector},
        {"gelu(layer_norm) scalar", 2, scalarRows},
        {"gelu(layer_norm) 128 threads/row", 2, rowThreads(128)},
        {"gelu(layer_norm) 512 threads/row", 2, rowThreads(512)},
        {"gelu(layer_norm) 1024 threads/row", 2, rowThreads(1024)},
        {"masked attn softmax", 3, {}},
        {"softmax 128 threads/row", 1, rowThreads(128)},
        {"softmax 512 threads/row", 1, rowThreads(512)},
        {"masked attn softmax 2 warps/block", 3, rowWarps(2)},
        {"masked attn softmax 4 warps/block", 3, rowWarps(4)},
        {"masked attn softmax 16 warps/block", 3, rowWarps(16)},
        {"masked attn softmax, masked scores read", 3, readMasked},
        {"bf16 gelu 8192x3072", 4, {}},
        {"bf16 gelu threads=128 x16", 4, pw(128, 16)},
        {"bf16 gelu threads=512 x16", 4, pw(512, 16)},
        {"bf16 gelu threads=256 x8", 4, pw(256, 8)},
        {"bf16 gelu threads=256 x32", 4, pw(256, 32)},
    };
    const size_t big = size_t(1) << 26, rows = 16384, cols = 4096;
    HostTensor x1 = randomTensor(big, DType::Float32, 11);
    HostTensor x2 = randomTensor(rows * cols, DType::Float32, 12, 3.0);
    HostTensor w = randomTensor(cols, DType::Float32, 13, 0.5, 1.0),
               b = randomTensor(cols, DType::Float32, 14, 0.5);
    std::vector<wl::FusedGraph> graphs;
    graphs.push_back(wl::sinCos(int64_t(big)));
    graphs.push_back(wl::softmax(rows, cols));
    graphs.push_back(wl::geluLayerNorm(rows, cols));
    // The manual attention of the transformer block: 8 x 12 heads of 1024 x 1024 bf16 scores
    // under nanoGPT's causal mask buffer.
    const size_t t = 1024, scoreRows = 8 * 12 * t;
    graphs.push_back(wl::maskedAttentionSoftmax(8, 12, int64_t(t)));
    const size_t mlpHidden = size_t(8192) * 3072; // the block's MLP activations
    graphs.push_back(wl::gelu(int64_t(mlpHidden), DType::BFloat16));
    HostTensor hidden = randomTensor(mlpHidden, DType::BFloat16, 17);
    HostTensor scores = randomTensor(scoreRows * t, DType::BFloat16, 15, 4.0);
    HostTensor mask = randomTensor(t * t, DType::BFloat16, 16, 0.0);
    for (size_t i = 0; i < t; ++i)
        for (size_t j = 0; j < t; ++j) {
            uint16_t one = j <= i ? 0x3f80 : 0; // bf16 1.0 on and below the diagonal
            std::memcpy(mask.bytes.data() + 2 * (i * t + j), &one, 2);
        }
    ReferenceFn maskedRef = [=](const std::vector<HostTensor>& in, const std::vector<long long>&) {
        Reference r;
        r.values.resize(scoreRows * t);
        parallelFor(scoreRows, [&](size_t b, size_t e) {
            std::vector<double> v(t);
            for (size_t row = b; row < e; ++row) {
                for (size_t j = 0; j < t; ++j)
                    v[j] = in[1].at((row % t) * t + j) == 0 ? -INFINITY
                                                            : in[0].at(row * t + j) * 0.125;
                softmaxRow(v.data(), r.values.data() + row * t, t);
            }
        });
        return r;
    };
    std::vector<std::vector<HostTensor>> inputs = {
        {x1}, {x2}, {x2, w, b}, {scores, mask}, {hidden}};
    std::vector<ReferenceFn> refs = {sinCosRef, softmaxRef(rows, cols),
                                     geluLayerNormRef(rows, cols), maskedRef, geluRef};
    std::vector<Reference> computed(refs.size());
    for (size_t i = 0; i < refs.size(); ++i)
        computed[i] = refs[i](inputs[i], {});
    for (const Variant& v : variants) {
        const wl::FusedGraph& g = graphs[v.workload];
        Loaded l = load(g, cc, v.options);
        Run r = prepare(g, l, {}, inputs[v.workload]);
        r.launch(l);
        CHECK_CU(drv.cuCtxSynchronize());
        int32_t outBuffer = g.outputs.at(0).buffer;
        Comparison cmp = compare(download(r, outBuffer, g.program.buffer(outBuffer).dtype),
                                 computed[v.workload]);
        double us = timeLaunches([&] { r.launch(l); }, 50);
        std::printf(
            "variant %-36s w%d regs=%3d rel_err=%.2e unwritten=%zu %8.1f us  nvrtc %.0f ms\n",
            v.name, l.kernel.vectorWidth, l.registers, cmp.relativeError, cmp.unwritten, us,
            l.compileMs);
        freeRun(r);
    }
}

/// Times the flash attention kernel's schedules on the transformer block's attention (bf16,
/// batch 8, 12 heads, 1024 positions, head size 64, causal), each checked against a double
/// precision reference on two (batch, head) pairs.
void runAttentionVariants(int cc) {
    using tensor::DType;
    const int heads = 96, t = 1024, d = 64;
    const size_t n = size_t(heads) * t * d;
    HostTensor q = randomTensor(n, DType::BFloat16, 21), k = randomTensor(n, DType::BFloat16, 22),
               v = randomTensor(n, DType::BFloat16, 23);
    const std::vector<int> checked = {0, heads - 1};
    std::vector<double> want(checked.size() * size_t(t) * d);
    parallelFor(checked.size() * size_t(t), [&](size_t b, size_t e) {
        std::vector<double> p(t);
        for (size_t item = b; item < e; ++item) {
            size_t bh = size_t(checked[item / t]), i = item % t, base = bh * t * d;
            double m = -INFINITY, sum = 0;
            for (size_t j = 0; j <= i; ++j) {
                double dot = 0;
                for (int c = 0; c < d; ++c)
                    dot += q.at(base + i * d + c) * k.at(base + j * d + c);
                p[j] = dot / 8.0;
                m = std::max(m, p[j]);
            }
            for (size_t j = 0; j <= i; ++j)
                sum += (p[j] = std::exp(p[j] - m));
            for (int c = 0; c < d; ++c) {
                double o = 0;
                for (size_t j = 0; j <= i; ++j)
                    o += p[j] * v.at(base + j * d + c);
                want[item * d + c] = o / sum;
            }
        }
    });
    CUdeviceptr dq, dk, dv, dout;
    for (auto [ptr, host] : {std::pair{&dq, &q}, {&dk, &k}, {&dv, &v}}) {
        CHECK_CU(drv.cuMemAlloc(ptr, host->bytes.size()));
        CHECK_CU(drv.cuMemcpyHtoD(*ptr, host->bytes.data(), host->bytes.size()));
    }
    CHECK_CU(drv.cuMemAlloc(&dout, q.bytes.size()));
    struct Variant {
        int warpTiles, keysPerTile, minBlocks;
    };
    for (Variant var : {Variant{1, 64, 1}, Variant{1, 64, 4}, Variant{2, 64, 1}, Variant{2, 64, 2},
                        Variant{1, 128, 1}, Variant{2, 128, 1}}) {
        AttentionKernelSpec spec{DType::BFloat16, d, true, var.warpTiles, var.keysPerTile,
                                 var.minBlocks};
        KernelCache cache("");
        NvrtcOptions nvrtc;
        nvrtc.computeCapability = cc;
        std::string name = attentionKernelName(spec);
        auto image = cache.getOrCompile(attentionKernelSource(spec), name, nvrtc);
        if (!image) {
            std::printf("attention %-24s compile failed: %s\n", name.c_str(),
                        image.error().render().c_str());
            continue;
        }
        CUmodule module = nullptr;
        CUfunction fn = nullptr;
        CHECK_CU(drv.cuModuleLoadData(&module, image->image.data()));
        CHECK_CU(drv.cuModuleGetFunction(&fn, module, name.c_str()));
        int shared = attentionSharedBytes(spec), registers = 0;
        CHECK_CU(
            drv.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
        CHECK_CU(drv.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
        long long sizes[3] = {t, t, heads}, strides[9] = {0, t * d, d, 0, t * d, d, 0, t * d, d};
        float scaleLog2 = float(0.125 * M_LOG2E);
        std::vector<void*> args = {&dq, &dk, &dv, &dout, &sizes[0], &sizes[1], &sizes[2]};
        for (long long& x : strides)
            args.push_back(&x);
        args.push_back(&scaleLog2);
        unsigned tiles = unsigned(t / attentionRowsPerBlock(spec));
        auto launch = [&] {
            CHECK_CU(drv.cuLaunchKernel(fn, tiles, heads, 1, kAttentionThreads, 1, 1,
                                        unsigned(shared), nullptr, args.data(), nullptr));
        };
        CHECK_CU(drv.cuMemsetD8(dout, 0xff, q.bytes.size()));
        launch();
        CHECK_CU(drv.cuCtxSynchronize());
        HostTensor got;
        got.dtype = DType::BFloat16;
        got.bytes.resize(q.bytes.size());
        CHECK_CU(drv.cuMemcpyDtoH(got.bytes.data(), dout, got.bytes.size()));
        double err = 0, scale = 0;
        for (size_t c = 0; c < checked.size(); ++c)
            for (size_t i = 0; i < size_t(t) * d; ++i) {
                double w = want[c * t * d + i];
                double g = got.at(size_t(checked[c]) * t * d + i);
                err = std::max(err, std::isnan(g) ? INFINITY : std::abs(g - w));
                scale = std::max(scale, std::abs(w));
            }
        double us = timeLaunches(launch, 30);
        double tflops = 4.0 * heads * d * (double(t) * (t + 1) / 2) / (us * 1e-6) / 1e12;
        std::printf(
            "attention %-40s regs=%3d rel_err=%.2e %8.1f us  %6.1f TFLOP/s  nvrtc %.0f ms\n",
            name.c_str(), registers, err / scale, us, tflops, image->compileMs);
    }
    for (CUdeviceptr p : {dq, dk, dv, dout})
        drv.cuMemFree(p);
}

} // namespace

int runMatmuls(std::string& json);
int runCupti(std::string& json, int cc);

int main(int argc, char** argv) {
    std::string jsonPath = argc > 1 ? argv[1] : "results.json";
    if (!drv.load() || drv.cuInit(0) != CUDA_SUCCESS) {
        std::printf("no GPU: %s\n", drv.error.empty() ? "cuInit failed" : drv.error.c_str());
        return 0;
    }
    CUdevice dev = 0;
    CHECK_CU(drv.cuDeviceGet(&dev, 0));
    char name[256] = {};
    CHECK_CU(drv.cuDeviceGetName(name, sizeof name, dev));
    int major = 0, minor = 0, driver = 0;
    drv.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    drv.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    drv.cuDriverGetVersion(&driver);
    CUcontext ctx = nullptr;
    CHECK_CU(drv.cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK_CU(drv.cuCtxSetCurrent(ctx));
    int cc = major * 10 + minor;
    std::printf("device: %s, sm_%d, driver %d, NVRTC %s\n", name, cc, driver,
                nvrtcVersion() ? nvrtcVersion()->c_str() : "unavailable");

    std::vector<Case> cases = makeCases();
    int caseFailures = 0;
    for (Case& c : cases)
        caseFailures += runCase(c, cc) ? 0 : 1;
    g_json += "\n  ],\n";
    if (!std::getenv("KILN_SKIP_VARIANTS")) {
        runVariants(cc);
        runAttentionVariants(cc);
    }
    int failures = caseFailures + runMatmuls(g_json);
    failures += runCupti(g_json, cc);
    g_json += "  \"device\": \"" + std::string(name) + "\"\n}\n";
    std::ofstream(jsonPath) << g_json;
    return failures ? 1 : 0;
}
