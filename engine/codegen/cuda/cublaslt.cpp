// SPDX-License-Identifier: MIT
#include "codegen/cuda/cublaslt.h"

#include <cublasLt.h>
#include <dlfcn.h>
#include <mutex>

namespace kiln::codegen::cuda {

namespace {

#define KILN_CUBLASLT_FUNCS(X)                                                                     \
    X(cublasLtCreate)                                                                              \
    X(cublasLtGetVersion)                                                                          \
    X(cublasLtMatmulDescCreate)                                                                    \
    X(cublasLtMatmulDescDestroy)                                                                   \
    X(cublasLtMatmulDescSetAttribute)                                                              \
    X(cublasLtMatrixLayoutCreate)                                                                  \
    X(cublasLtMatrixLayoutDestroy)                                                                 \
    X(cublasLtMatrixLayoutSetAttribute)                                                            \
    X(cublasLtMatmulPreferenceCreate)                                                              \
    X(cublasLtMatmulPreferenceDestroy)                                                             \
    X(cublasLtMatmulPreferenceSetAttribute)                                                        \
    X(cublasLtMatmulAlgoGetHeuristic)                                                              \
    X(cublasLtMatmul)

struct Library {
#define KILN_DECLARE(f) decltype(&::f) f = nullptr;
    KILN_CUBLASLT_FUNCS(KILN_DECLARE)
#undef KILN_DECLARE
    std::string error;
    cublasLtHandle_t handle = nullptr;
};

Library& library() {
    static Library lib;
    static std::once_flag once;
    std::call_once(once, [] {
        void* h = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* why = dlerror();
            lib.error = std::string("cuBLASLt unavailable: dlopen(libcublasLt.so.13) failed: ") +
                        (why ? why : "unknown error");
            return;
        }
#define KILN_LOAD(f)                                                                               \
    lib.f = reinterpret_cast<decltype(lib.f)>(dlsym(h, #f));                                       \
    if (!lib.f && lib.error.empty()) lib.error = "cuBLASLt unavailable: no symbol " #f;
        KILN_CUBLASLT_FUNCS(KILN_LOAD)
#undef KILN_LOAD
        if (!lib.error.empty()) return;
        // cublasLtCreate needs no GPU; a handle per process is shared by all plans.
        cublasStatus_t s = lib.cublasLtCreate(&lib.handle);
        if (s != CUBLAS_STATUS_SUCCESS)
            lib.error = "cuBLASLt unavailable: cublasLtCreate returned " + std::to_string(s);
    });
    return lib;
}

cudaDataType_t dataType(MatmulDType t) {
    switch (t) {
    case MatmulDType::BFloat16:
        return CUDA_R_16BF;
    case MatmulDType::Float16:
        return CUDA_R_16F;
    default:
        return CUDA_R_32F;
    }
}

Diagnostic failure(const char* what, cublasStatus_t s) {
    return makeDiagnostic("CublasError",
                          std::string(what) + " failed with cuBLAS status " + std::to_string(s));
}

} // namespace

struct MatmulPlan::Impl {
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo{};
};

MatmulPlan::~MatmulPlan() {
    if (!m_impl) return;
    Library& lib = library();
    if (m_impl->a) lib.cublasLtMatrixLayoutDestroy(m_impl->a);
    if (m_impl->b) lib.cublasLtMatrixLayoutDestroy(m_impl->b);
    if (m_impl->c) lib.cublasLtMatrixLayoutDestroy(m_impl->c);
    if (m_impl->desc) lib.cublasLtMatmulDescDestroy(m_impl->desc);
}

Expected<CublasLt*> CublasLt::instance() {
    Library& lib = library();
    if (!lib.error.empty()) return makeDiagnostic("CudaUnavailable", lib.error);
    static CublasLt lt;
    return &lt;
}

std::string CublasLt::version() const {
    size_t v = library().cublasLtGetVersion();
    return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
           std::to_string(v % 100);
}

Expected<std::unique_ptr<MatmulPlan>> CublasLt::plan(const MatmulShape& s, size_t maxWorkspace) {
    Library& lib = library();
    std::unique_ptr<MatmulPlan> plan(new MatmulPlan);
    plan->m_impl = std::make_unique<MatmulPlan::Impl>();
    plan->m_shape = s;
    MatmulPlan::Impl& p = *plan->m_impl;
    cublasComputeType_t compute = s.dtype == MatmulDType::Float32 && s.allowTf32
                                      ? CUBLAS_COMPUTE_32F_FAST_TF32
                                      : CUBLAS_COMPUTE_32F;
    cublasStatus_t st = lib.cublasLtMatmulDescCreate(&p.desc, compute, CUDA_R_32F);
    if (st != CUBLAS_STATUS_SUCCESS) return failure("cublasLtMatmulDescCreate", st);
    // Row-major C = A @ B is column-major C^T = B^T @ A^T: cuBLASLt's first operand is B.
    cublasOperation_t opFirst = s.transposeB ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t opSecond = s.transposeA ? CUBLAS_OP_T : CUBLAS_OP_N;
    auto setDesc = [&](cublasLtMatmulDescAttributes_t attr, const void* v, size_t size) {
        return lib.cublasLtMatmulDescSetAttribute(p.desc, attr, v, size);
    };
    setDesc(CUBLASLT_MATMUL_DESC_TRANSA, &opFirst, sizeof opFirst);
    setDesc(CUBLASLT_MATMUL_DESC_TRANSB, &opSecond, sizeof opSecond);
    cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
    if (s.epilogue == MatmulEpilogue::Bias) epi = CUBLASLT_EPILOGUE_BIAS;
    if (s.epilogue == MatmulEpilogue::Gelu) epi = CUBLASLT_EPILOGUE_GELU;
    if (s.epilogue == MatmulEpilogue::GeluBias) epi = CUBLASLT_EPILOGUE_GELU_BIAS;
    st = setDesc(CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi);
    if (st != CUBLAS_STATUS_SUCCESS) return failure("setting the epilogue", st);
    cudaDataType_t t = dataType(s.dtype);
    if (epi == CUBLASLT_EPILOGUE_BIAS || epi == CUBLASLT_EPILOGUE_GELU_BIAS)
        setDesc(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &t, sizeof t);
    // Column-major shapes: first operand n x k (stored k x n when transposed), second k x m.
    int64_t batch = s.batch;
    auto layout = [&](cublasLtMatrixLayout_t& l, int64_t rows, int64_t cols, int64_t stride,
                      int64_t ld) {
        cublasStatus_t r = lib.cublasLtMatrixLayoutCreate(
            &l, t, static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), ld ? ld : rows);
        if (r != CUBLAS_STATUS_SUCCESS || batch == 1) return r;
        int32_t count = static_cast<int32_t>(batch);
        lib.cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                                             sizeof count);
        return lib.cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                                    &stride, sizeof stride);
    };
    int64_t sa = s.strideA ? s.strideA : s.m * s.k, sb = s.strideB ? s.strideB : s.k * s.n,
            sc = s.strideC ? s.strideC : s.m * s.n;
    if ((st = layout(p.b, s.transposeB ? s.k : s.n, s.transposeB ? s.n : s.k, sb, s.ldb)) ||
        (st = layout(p.a, s.transposeA ? s.m : s.k, s.transposeA ? s.k : s.m, sa, s.lda)) ||
        (st = layout(p.c, s.n, s.m, sc, 0)))
        return failure("cublasLtMatrixLayoutCreate", st);
    cublasLtMatmulPreference_t pref = nullptr;
    lib.cublasLtMatmulPreferenceCreate(&pref);
    lib.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                             &maxWorkspace, sizeof maxWorkspace);
    // cuBLASLt's first operand is B (see above); C is also the output D.
    for (auto [attr, align] : {std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, s.alignB},
                               std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, s.alignA},
                               std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, s.alignC},
                               std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, s.alignC}})
        lib.cublasLtMatmulPreferenceSetAttribute(pref, attr, &align, sizeof align);
    cublasLtMatmulHeuristicResult_t results[8] = {};
    int found = 0;
    st = lib.cublasLtMatmulAlgoGetHeuristic(library().handle, p.desc, p.b, p.a, p.c, p.c, pref, 8,
                                            results, &found);
    lib.cublasLtMatmulPreferenceDestroy(pref);
    if (st != CUBLAS_STATUS_SUCCESS || found == 0)
        return makeDiagnostic(
            "CublasError", "cuBLASLt has no algorithm for this matrix product (status " +
                               std::to_string(st) + ", " + std::to_string(found) + " candidates)");
    p.algo = results[0].algo;
    plan->m_workspace = results[0].workspaceSize;
    plan->m_candidates = found;
    return plan;
}

Status MatmulPlan::run(const void* a, const void* b, void* c, const void* bias, void* workspace,
                       void* stream) const {
    Library& lib = library();
    if (m_shape.epilogue == MatmulEpilogue::Bias || m_shape.epilogue == MatmulEpilogue::GeluBias) {
        if (!bias) return makeDiagnostic("CublasError", "the bias epilogue needs a bias pointer");
        lib.cublasLtMatmulDescSetAttribute(m_impl->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                           sizeof bias);
    }
    float alpha = m_shape.alpha, beta = m_shape.beta;
    cublasStatus_t st = lib.cublasLtMatmul(
        lib.handle, m_impl->desc, &alpha, b, m_impl->b, a, m_impl->a, &beta, c, m_impl->c, c,
        m_impl->c, &m_impl->algo, workspace, m_workspace, static_cast<cudaStream_t>(stream));
    if (st != CUBLAS_STATUS_SUCCESS) return failure("cublasLtMatmul", st);
    return {};
}

} // namespace kiln::codegen::cuda
