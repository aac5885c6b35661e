// SPDX-License-Identifier: MIT
// Matrix products through oneDNN's matmul primitive. Primitives are created per call: oneDNN
// keeps created primitives in its own cache, so a repeated shape costs about 2 us
// (kiln-bench-gemm's small shapes include it).
#include "support/assert.h"
#include "support/parallel.h"
#include "tensor/gemm_backend.h"

#include <algorithm>
#include <oneapi/dnnl/dnnl.hpp>
#include <unordered_map>

namespace kiln::tensor::detail {

namespace {

using dnnl::memory;

dnnl::engine& cpuEngine() {
    static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

memory::data_type dataType(DType dtype) {
    switch (dtype) {
    case DType::Float32:
        return memory::data_type::f32;
    case DType::BFloat16:
        return memory::data_type::bf16;
    case DType::Float16:
        return memory::data_type::f16;
    default:
        KILN_UNREACHABLE("oneDNN products take float32, bfloat16 and float16");
    }
}

/// A 3-D operand's descriptor. A stride-0 batch is a batch of one, which oneDNN broadcasts.
memory::desc describe(const Tensor& t, int64_t batch) {
    const auto& sizes = t.sizes();
    const auto& s = t.strides();
    const int64_t rows = sizes[1], cols = sizes[2];
    const bool broadcast = batch > 1 && s[0] == 0;
    const int64_t count = broadcast ? 1 : sizes[0];
    // The stride of a batch of one does not matter; give it the matrix's extent.
    const int64_t extent = std::max<int64_t>({1, rows * s[1], cols * s[2]});
    return memory::desc(memory::dims{count, rows, cols}, dataType(t.dtype()),
                        memory::dims{count == 1 ? extent : s[0], s[1], s[2]});
}

dnnl::algorithm eltwiseOf(GemmEpilogue e) {
    switch (e) {
    case GemmEpilogue::Relu:
        return dnnl::algorithm::eltwise_relu;
    case GemmEpilogue::Gelu:
        return dnnl::algorithm::eltwise_gelu_erf;
    case GemmEpilogue::GeluTanh:
        return dnnl::algorithm::eltwise_gelu_tanh;
    case GemmEpilogue::None:
        break;
    }
    KILN_UNREACHABLE("no eltwise for an empty epilogue");
}

dnnl::primitive_attr attributes(float alpha, float beta, GemmEpilogue epilogue) {
    dnnl::primitive_attr attr;
    if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
    dnnl::post_ops ops;
    if (beta != 0.0f) ops.append_sum(beta);
    if (epilogue != GemmEpilogue::None) ops.append_eltwise(1.0f, eltwiseOf(epilogue), 0.0f, 0.0f);
    attr.set_post_ops(ops);
    return attr;
}

char* address(const Tensor& t) {
    return t.numel() == 0 ? nullptr : t.rawData();
}

bool hasIsa(dnnl::cpu_isa isa) {
    auto have = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
    auto want = static_cast<unsigned>(isa);
    return (have & want) == want;
}

} // namespace

bool onednnMatmul(const Tensor& a, const Tensor& b, const Tensor& out, float alpha, float beta,
                  const Tensor* bias, GemmEpilogue epilogue) {
    configureThreadsForCaller();
    const int64_t batch = out.sizes()[0];
    memory::desc aMd = describe(a, batch), bMd = describe(b, batch);
    memory::desc cMd(memory::dims(out.sizes().begin(), out.sizes().end()), dataType(out.dtype()),
                     memory::format_tag::abc);
    memory::desc biasMd;
    if (bias)
        biasMd = memory::desc({1, 1, out.sizes()[2]}, dataType(bias->dtype()),
                              memory::dims{out.sizes()[2], out.sizes()[2], 1});
    dnnl::engine& engine = cpuEngine();
    dnnl::matmul::primitive_desc pd;
    try {
        dnnl::primitive_attr attr = attributes(alpha, beta, epilogue);
        pd = bias ? dnnl::matmul::primitive_desc(dnnl::matmul::desc(aMd, bMd, biasMd, cMd), attr,
                                                 engine)
                  : dnnl::matmul::primitive_desc(dnnl::matmul::desc(aMd, bMd, cMd), attr, engine);
    } catch (const dnnl::error& e) {
        if (e.status == dnnl_unimplemented) return false;
        throw;
    }
    thread_local dnnl::stream stream(engine);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, memory(aMd, engine, address(a))},
                                            {DNNL_ARG_WEIGHTS, memory(bMd, engine, address(b))},
                                            {DNNL_ARG_DST, memory(cMd, engine, address(out))}};
    if (bias) args.emplace(DNNL_ARG_BIAS, memory(biasMd, engine, address(*bias)));
    dnnl::matmul(pd).execute(stream, args);
    stream.wait();
    return true;
}

bool onednnNativeHalf(DType dtype) {
    if (dtype == DType::BFloat16) return hasIsa(dnnl::cpu_isa::avx512_core_bf16);
    // float16 products need AVX512-FP16 (Sapphire Rapids), which oneDNN 2.6 does not list.
    return false;
}

std::string onednnDescription() {
    const dnnl_version_t* v = dnnl_version();
    std::string isa;
    switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::sse41:
        isa = "sse41";
        break;
    case dnnl::cpu_isa::avx:
        isa = "avx";
        break;
    case dnnl::cpu_isa::avx2:
        isa = "avx2";
        break;
    case dnnl::cpu_isa::avx2_vnni:
        isa = "avx2_vnni";
        break;
    case dnnl::cpu_isa::avx512_core:
        isa = "avx512_core";
        break;
    case dnnl::cpu_isa::avx512_core_vnni:
        isa = "avx512_core_vnni";
        break;
    case dnnl::cpu_isa::avx512_core_bf16:
        isa = "avx512_core_bf16";
        break;
    case dnnl::cpu_isa::avx512_core_amx:
        isa = "avx512_core_amx";
        break;
    default:
        isa = "isa " + std::to_string(static_cast<int>(dnnl::get_effective_cpu_isa()));
    }
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
           std::to_string(v->patch) + " (" + isa + ")";
}

} // namespace kiln::tensor::detail
