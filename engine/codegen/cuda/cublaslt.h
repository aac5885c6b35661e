// SPDX-License-Identifier: MIT
/// \file
/// cuBLASLt, loaded at run time (dlopen of libcublasLt.so.13): row-major matrix products
/// C[m,n] = A[m,k] @ B[k,n] (optionally batched, with strides) in float32 (TF32 on or off),
/// bf16 or fp16 with float32 accumulation, and the library's fused epilogues: + bias (one value
/// per output column, a linear layer's bias), GELU, GELU(+ bias). The caller owns the memory:
/// device pointers and a stream (a CUstream passed as void*) come from the runtime layer.
///
/// cuBLASLt's GELU epilogue is the tanh approximation (F.gelu(approximate="tanh")); the erf
/// form of nn.GELU() must stay a separate kernel.
#pragma once

#include "support/expected.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace kiln::codegen::cuda {

enum class MatmulDType : uint8_t { Float32, BFloat16, Float16 };
enum class MatmulEpilogue : uint8_t { None, Bias, Gelu, GeluBias };

struct MatmulShape {
    MatmulDType dtype = MatmulDType::Float32;
    bool allowTf32 = false; ///< float32 only: torch.backends.cuda.matmul.allow_tf32
    int64_t m = 0, n = 0, k = 0;
    /// A stored as [k, m] (used transposed); B stored as [n, k] (a weight: x @ W^T).
    bool transposeA = false, transposeB = false;
    int64_t batch = 1;
    /// Elements between consecutive matrices of a batch (0: packed, m*k / k*n / m*n).
    int64_t strideA = 0, strideB = 0, strideC = 0;
    /// Elements between consecutive rows of A and B as stored (0: packed); a slice of a wider
    /// matrix, such as one of a projection's q, k, v, has more.
    int64_t lda = 0, ldb = 0;
    MatmulEpilogue epilogue = MatmulEpilogue::None;
    /// The byte alignment every matrix of A, B and C has (a head of a projection, 128 bytes
    /// in, is less aligned than the 256 bytes cuBLASLt's heuristic otherwise assumes).
    uint32_t alignA = 256, alignB = 256, alignC = 256;
    float alpha = 1, beta = 0; ///< C = alpha * A @ B + beta * C (then the epilogue)
};

/// A chosen algorithm for one shape (the heuristic's first answer) and the descriptors it
/// runs with; reusable for every call of that shape.
class MatmulPlan {
public:
    ~MatmulPlan();
    MatmulPlan(const MatmulPlan&) = delete;
    MatmulPlan& operator=(const MatmulPlan&) = delete;

    const MatmulShape& shape() const { return m_shape; }
    size_t workspaceBytes() const { return m_workspace; }
    /// How many algorithms the heuristic offered.
    int candidates() const { return m_candidates; }

    /// Enqueues C = A @ B (+ epilogue) on `stream`; `bias` has n elements of the matmul dtype
    /// (Bias, GeluBias), `workspace` at least workspaceBytes().
    Status run(const void* a, const void* b, void* c, const void* bias, void* workspace,
               void* stream) const;

private:
    friend class CublasLt;
    MatmulPlan() = default;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    MatmulShape m_shape;
    size_t m_workspace = 0;
    int m_candidates = 0;
};

class CublasLt {
public:
    /// The process's cuBLASLt (one handle), or "cuBLASLt unavailable: ...".
    static Expected<CublasLt*> instance();
    /// "13.1.0" (cublasLtGetVersion).
    std::string version() const;

    /// Asks the heuristic for an algorithm for `shape` that needs at most `maxWorkspace` bytes.
    Expected<std::unique_ptr<MatmulPlan>> plan(const MatmulShape& shape, size_t maxWorkspace);

private:
    CublasLt() = default;
};

} // namespace kiln::codegen::cuda
