// SPDX-License-Identifier: MIT
// The device check's library half: cuBLASLt products on the bf16 MLP's shapes and float32 with
// TF32 off and on (sampled entries against double-precision dot products, median event times),
// and CUPTI's kernel and memcpy records for launches tagged with external correlation ids.
#include "../../tests/gpu/cuda_workloads.h"
#include "codegen/cuda/cublaslt.h"
#include "codegen/cuda/cuda_codegen.h"
#include "codegen/cuda/cupti.h"
#include "cuda_driver.h"
#include "host_reference.h"

#include <cstdio>
#include <random>

using namespace kiln;
using namespace kiln::codegen::cuda;
using namespace kiln::bench::gpu;

namespace {

Driver& drv = driver();

CUdeviceptr upload(const HostTensor& h) {
    CUdeviceptr p = 0;
    CHECK_CU(drv.cuMemAlloc(&p, h.bytes.size()));
    CHECK_CU(drv.cuMemcpyHtoD(p, h.bytes.data(), h.bytes.size()));
    return p;
}

double tanhGelu(double x) {
    return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

struct Product {
    const char* name;
    MatmulShape shape;
};

/// Runs C = A @ B^T (+ epilogue) for a shape, checks 256 sampled entries, times it.
bool runProduct(const Product& p, std::string& json, bool& first) {
    Expected<CublasLt*> lt = CublasLt::instance();
    if (!lt) {
        std::printf("%s\n", lt.error().message.c_str());
        return false;
    }
    const MatmulShape& s = p.shape;
    tensor::DType t =
        s.dtype == MatmulDType::BFloat16 ? tensor::DType::BFloat16 : tensor::DType::Float32;
    uint64_t seed = std::random_device{}();
    // Batches are packed; the sampled entries come from every batch.
    size_t batch = size_t(s.batch);
    HostTensor a = randomTensor(batch * size_t(s.m * s.k), t, seed),
               b = randomTensor(batch * size_t(s.n * s.k), t, seed + 1),
               bias = randomTensor(size_t(s.n), t, seed + 2);
    CUdeviceptr da = upload(a), db = upload(b), dbias = upload(bias), dc = 0, ws = 0;
    size_t cBytes = batch * size_t(s.m * s.n) * size_t(tensor::itemSize(t));
    CHECK_CU(drv.cuMemAlloc(&dc, cBytes));
    CHECK_CU(drv.cuMemsetD8(dc, 0xff, cBytes));
    auto plan = (*lt)->plan(s, size_t(64) << 20);
    if (!plan) {
        std::printf("%-34s %s\n", p.name, plan.error().render().c_str());
        return false;
    }
    if ((*plan)->workspaceBytes()) CHECK_CU(drv.cuMemAlloc(&ws, (*plan)->workspaceBytes()));
    auto run = [&] {
        Status st = (*plan)->run(reinterpret_cast<void*>(da), reinterpret_cast<void*>(db),
                                 reinterpret_cast<void*>(dc), reinterpret_cast<void*>(dbias),
                                 reinterpret_cast<void*>(ws), nullptr);
        if (!st) {
            std::fprintf(stderr, "%s\n", st.error().render().c_str());
            std::exit(1);
        }
    };
    run();
    CHECK_CU(drv.cuCtxSynchronize());
    HostTensor c;
    c.dtype = t;
    c.bytes.resize(cBytes);
    CHECK_CU(drv.cuMemcpyDtoH(c.bytes.data(), dc, cBytes));
    std::mt19937_64 rng(seed);
    double num = 0, den = 0;
    size_t unwritten = 0;
    for (int i = 0; i < 256; ++i) {
        size_t r = rng() % size_t(s.m), col = rng() % size_t(s.n), bi = rng() % batch;
        size_t aBase = bi * size_t(s.m * s.k), bBase = bi * size_t(s.n * s.k);
        double ref = 0;
        for (int64_t k = 0; k < s.k; ++k)
            ref += a.at(aBase + r * size_t(s.k) + size_t(k)) *
                   b.at(bBase + col * size_t(s.k) + size_t(k));
        if (s.epilogue == MatmulEpilogue::Bias || s.epilogue == MatmulEpilogue::GeluBias)
            ref += bias.at(col);
        if (s.epilogue == MatmulEpilogue::GeluBias || s.epilogue == MatmulEpilogue::Gelu)
            ref = tanhGelu(ref);
        size_t at = bi * size_t(s.m * s.n) + r * size_t(s.n) + col;
        if (c.poisoned(at)) ++unwritten;
        double d = c.at(at) - ref;
        num += d * d;
        den += ref * ref;
    }
    double rel = std::sqrt(num / den);
    double us = timeLaunches(run, 20);
    double tflops =
        2.0 * double(s.m) * double(s.n) * double(s.k) * double(s.batch) / (us * 1e-6) / 1e12;
    double tol = s.dtype == MatmulDType::Float32 && !s.allowTf32 ? 1e-5 : 1e-2;
    bool ok = unwritten == 0 && rel <= tol;
    std::printf("%-34s candidates=%d ws=%zu rel_err=%.2e %s  %8.1f us  %.0f TFLOP/s\n", p.name,
                (*plan)->candidates(), (*plan)->workspaceBytes(), rel, ok ? "ok" : "FAIL", us,
                tflops);
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s    {\"product\": \"%s\", \"rel_err\": %.3e, \"ok\": %s, \"median_us\": %.1f, "
                  "\"tflops\": %.1f}",
                  first ? "" : ",\n", p.name, rel, ok ? "true" : "false", us, tflops);
    json += buf;
    first = false;
    for (CUdeviceptr ptr : {da, db, dbias, dc, ws})
        if (ptr) drv.cuMemFree(ptr);
    return ok;
}

} // namespace

int runMatmuls(std::string& json) {
    json += "  \"matmuls\": [\n";
    bool first = true;
    auto shape = [](MatmulDType t, int64_t m, int64_t n, int64_t k, MatmulEpilogue e, bool tf32) {
        MatmulShape s;
        s.dtype = t;
        s.m = m, s.n = n, s.k = k;
        s.transposeB = true; // x @ W^T, W stored [out, in] as nn.Linear keeps it
        s.epilogue = e;
        s.allowTf32 = tf32;
        return s;
    };
    std::vector<Product> products = {
        {"mlp fc1 bf16 8192x4096->16384 +bias",
         shape(MatmulDType::BFloat16, 8192, 16384, 4096, MatmulEpilogue::Bias, false)},
        {"mlp fc1 bf16 +gelu_bias (tanh)",
         shape(MatmulDType::BFloat16, 8192, 16384, 4096, MatmulEpilogue::GeluBias, false)},
        {"mlp fc2 bf16 8192x16384->4096 +bias",
         shape(MatmulDType::BFloat16, 8192, 4096, 16384, MatmulEpilogue::Bias, false)},
        {"bmm bf16 96 x 1024x1024x64 (q @ k^T)",
         [&] {
             MatmulShape s =
                 shape(MatmulDType::BFloat16, 1024, 1024, 64, MatmulEpilogue::None, false);
             s.batch = 96;
             return s;
         }()},
        {"fp32 4096^3 (no TF32)",
         shape(MatmulDType::Float32, 4096, 4096, 4096, MatmulEpilogue::None, false)},
        {"fp32 4096^3 TF32",
         shape(MatmulDType::Float32, 4096, 4096, 4096, MatmulEpilogue::None, true)},
    };
    int failures = 0;
    for (const Product& p : products)
        failures += runProduct(p, json, first) ? 0 : 1;
    json += "\n  ],\n";
    return failures;
}

int runCupti(std::string& json, int cc) {
    auto session = CuptiSession::start();
    if (!session) {
        std::printf("%s\n", session.error().message.c_str());
        json += "  \"cupti\": \"" + session.error().message + "\",\n";
        return 1;
    }
    // Two generated kernels tagged 101 and 102, and a copy tagged 103.
    KernelCache cache("");
    NvrtcOptions nvrtc;
    nvrtc.computeCapability = cc;
    testing::cuda::FusedGraph g = testing::cuda::softmax(4096, 4096);
    auto k = compileCudaKernel(g.program, g.kernel(), nvrtc, {}, &cache);
    if (!k) return 1;
    CUmodule module = nullptr;
    CUfunction fn = nullptr;
    CHECK_CU(drv.cuModuleLoadData(&module, k->image.image.data()));
    CHECK_CU(drv.cuModuleGetFunction(&fn, module, k->kernel.name.c_str()));
    HostTensor x = randomTensor(4096 * 4096, tensor::DType::Float32, 7);
    std::vector<CUdeviceptr> ptrs;
    for (const KernelArg& a : k->kernel.args) {
        CUdeviceptr p = 0;
        CHECK_CU(drv.cuMemAlloc(&p, x.bytes.size()));
        ptrs.push_back(p);
    }
    std::vector<void*> args;
    for (CUdeviceptr& p : ptrs)
        args.push_back(&p);
    LaunchDims d = k->kernel.launch.evaluate({});
    for (uint64_t id : {101, 102}) {
        (*session)->pushExternalId(id);
        CHECK_CU(drv.cuLaunchKernel(fn, unsigned(d.grid[0]), 1, 1, unsigned(d.block[0]), 1, 1, 0,
                                    nullptr, args.data(), nullptr));
        (*session)->popExternalId();
    }
    (*session)->pushExternalId(103);
    CHECK_CU(drv.cuMemcpyHtoD(ptrs[0], x.bytes.data(), x.bytes.size()));
    (*session)->popExternalId();
    CHECK_CU(drv.cuCtxSynchronize());
    ActivityRecords records = (*session)->flush(); // outside any timed region
    int failures = 0;
    json += "  \"cupti\": [\n";
    bool first = true;
    for (const KernelActivity& a : records.kernels) {
        std::printf("cupti kernel %s ext=%llu grid=%d,%d,%d block=%d,%d,%d regs=%u smem=%d+%d "
                    "stream=%u corr=%u %.1f us\n",
                    a.name.c_str(), (unsigned long long)a.externalId, a.grid[0], a.grid[1],
                    a.grid[2], a.block[0], a.block[1], a.block[2], a.registersPerThread,
                    a.staticSharedBytes, a.dynamicSharedBytes, a.streamId, a.correlationId,
                    double(a.end - a.start) / 1000.0);
        char buf[512];
        std::snprintf(
            buf, sizeof buf,
            "%s    {\"name\": \"%s\", \"external_id\": %llu, \"grid\": %d, \"block\": %d, "
            "\"registers\": %u, \"static_smem\": %d, \"us\": %.2f}",
            first ? "" : ",\n", a.name.c_str(), (unsigned long long)a.externalId, a.grid[0],
            a.block[0], a.registersPerThread, a.staticSharedBytes,
            double(a.end - a.start) / 1000.0);
        json += buf;
        first = false;
        if (a.name == k->kernel.name && (a.grid[0] != d.grid[0] || a.block[0] != d.block[0] ||
                                         (a.externalId != 101 && a.externalId != 102)))
            ++failures;
    }
    for (const MemcpyActivity& m : records.memcpys)
        std::printf("cupti memcpy kind=%u bytes=%llu ext=%llu %.1f us\n", m.copyKind,
                    (unsigned long long)m.bytes, (unsigned long long)m.externalId,
                    double(m.end - m.start) / 1000.0);
    json += "\n  ],\n";
    size_t ours = 0;
    for (const KernelActivity& a : records.kernels)
        ours += a.name == k->kernel.name;
    if (ours != 2 || records.memcpys.empty()) ++failures;
    std::printf("cupti: %zu kernel records (%zu ours), %zu memcpy records, %llu dropped: %s\n",
                records.kernels.size(), ours, records.memcpys.size(),
                (unsigned long long)records.droppedRecords, failures ? "FAIL" : "ok");
    for (CUdeviceptr p : ptrs)
        drv.cuMemFree(p);
    return failures;
}
