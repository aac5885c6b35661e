// SPDX-License-Identifier: MIT
// Matrix-multiply kernels: OpenBLAS for float32/float64 (operands passed with transpose flags
// and leading dimensions instead of being copied whenever their layout allows), float32
// compute for the 16-bit floats, and a wrapping integer loop.
#include "tensor/gemm.h"

#include "support/assert.h"
#include "tensor/convert.h"

#include <cblas.h>
#include <limits>
#include <optional>
#include <type_traits>

namespace kiln::tensor::detail {

namespace {

struct BlasOperand {
    CBLAS_TRANSPOSE trans;
    blasint ld;
};

bool fitsBlasInt(int64_t v) {
    return v <= std::numeric_limits<blasint>::max();
}

/// How BLAS can read a rows x cols matrix with the given element strides: row-major with
/// leading dimension rowStride, or column-major (a transposed row-major matrix) with leading
/// dimension colStride. Strides of size-1 dimensions do not matter.
std::optional<BlasOperand> blasLayout(int64_t rows, int64_t cols, int64_t rowStride,
                                      int64_t colStride) {
    const int64_t minRow = std::max<int64_t>(cols, 1), minCol = std::max<int64_t>(rows, 1);
    if ((colStride == 1 || cols == 1) && (rows == 1 || rowStride >= minRow))
        return fitsBlasInt(rows == 1 ? minRow : rowStride)
                   ? std::optional(BlasOperand{
                         CblasNoTrans, static_cast<blasint>(rows == 1 ? minRow : rowStride)})
                   : std::nullopt;
    if ((rowStride == 1 || rows == 1) && (cols == 1 || colStride >= minCol))
        return fitsBlasInt(cols == 1 ? minCol : colStride)
                   ? std::optional(BlasOperand{
                         CblasTrans, static_cast<blasint>(cols == 1 ? minCol : colStride)})
                   : std::nullopt;
    return std::nullopt;
}

/// The 3-D operand itself when BLAS can read its matrices in place, else a contiguous copy.
Tensor blasReady(const Tensor& t, BlasOperand& layout) {
    auto direct = blasLayout(t.sizes()[1], t.sizes()[2], t.strides()[1], t.strides()[2]);
    if (direct) {
        layout = *direct;
        return t;
    }
    Tensor copy = contiguous(t);
    auto packed = blasLayout(t.sizes()[1], t.sizes()[2], copy.strides()[1], copy.strides()[2]);
    KILN_ASSERT(packed, "a contiguous matrix is always BLAS-readable");
    layout = *packed;
    return copy;
}

template <typename T>
void gemmBlas(const Tensor& a, const Tensor& b, const Tensor& out, T alpha, T beta) {
    BlasOperand la{}, lb{};
    Tensor ar = blasReady(a, la);
    Tensor br = blasReady(b, lb);
    const int64_t batch = out.sizes()[0], n = out.sizes()[1], p = out.sizes()[2];
    const int64_t m = a.sizes()[2];
    const blasint ldc = static_cast<blasint>(std::max<int64_t>(p, 1));
    for (int64_t i = 0; i < batch; ++i) {
        const T* pa = ar.data<T>() + i * ar.strides()[0];
        const T* pb = br.data<T>() + i * br.strides()[0];
        T* pc = out.data<T>() + i * n * p;
        if constexpr (std::is_same_v<T, float>)
            cblas_sgemm(CblasRowMajor, la.trans, lb.trans, static_cast<blasint>(n),
                        static_cast<blasint>(p), static_cast<blasint>(m), alpha, pa, la.ld, pb,
                        lb.ld, beta, pc, ldc);
        else
            cblas_dgemm(CblasRowMajor, la.trans, lb.trans, static_cast<blasint>(n),
                        static_cast<blasint>(p), static_cast<blasint>(m), alpha, pa, la.ld, pb,
                        lb.ld, beta, pc, ldc);
    }
}

/// Integers wrap on overflow as in PyTorch; unsigned arithmetic makes that well defined.
template <typename T>
T wrapMulAdd(T acc, T x, T y) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(acc) + static_cast<U>(x) * static_cast<U>(y));
    } else {
        return acc + x * y;
    }
}

/// The reference triple loop (integers, and empty inner dimensions for every dtype).
template <typename T>
void gemmLoop(const Tensor& a, const Tensor& b, const Tensor& out, T alpha, T beta) {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* pc = out.data<T>();
    const int64_t batch = out.sizes()[0], n = out.sizes()[1], p = out.sizes()[2];
    const int64_t m = a.sizes()[2];
    const auto& sa = a.strides();
    const auto& sb = b.strides();
    for (int64_t bi = 0; bi < batch; ++bi)
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < p; ++j) {
                T acc = T(0);
                for (int64_t k = 0; k < m; ++k)
                    acc = wrapMulAdd(acc, pa[bi * sa[0] + i * sa[1] + k * sa[2]],
                                     pb[bi * sb[0] + k * sb[1] + j * sb[2]]);
                T& c = pc[(bi * n + i) * p + j];
                c = beta == T(0) ? wrapMulAdd(T(0), alpha, acc)
                                 : wrapMulAdd(wrapMulAdd(T(0), beta, c), alpha, acc);
            }
}

bool blasSized(const Tensor& a, const Tensor& out) {
    return a.sizes()[2] > 0 && fitsBlasInt(a.sizes()[2]) && fitsBlasInt(out.sizes()[1]) &&
           fitsBlasInt(out.sizes()[2]);
}

} // namespace

void batchedGemm(const Tensor& a, const Tensor& b, const Tensor& out, Scalar alpha, Scalar beta) {
    KILN_ASSERT(a.dim() == 3 && b.dim() == 3 && out.dim() == 3 && out.isContiguous(),
                "batchedGemm takes 3-D operands and a contiguous output");
    if (out.numel() == 0) return;
    const DType dtype = out.dtype();
    if (dtype == DType::Float16 || dtype == DType::BFloat16) {
        Tensor outF = beta.toDouble() != 0.0 ? toDType(out, DType::Float32, true)
                                             : Tensor::empty(out.sizes(), DType::Float32);
        batchedGemm(toDType(a, DType::Float32), toDType(b, DType::Float32), outF, alpha, beta);
        copyInto(out, outF);
        return;
    }
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
            if (blasSized(a, out)) return gemmBlas<T>(a, b, out, alpha.to<T>(), beta.to<T>());
        }
        if constexpr (!std::is_same_v<T, Half> && !std::is_same_v<T, BFloat16>)
            gemmLoop<T>(a, b, out, alpha.to<T>(), beta.to<T>());
    });
}

Tensor dotProduct(const Tensor& a, const Tensor& b) {
    const int64_t n = a.numel();
    Tensor out = Tensor::empty({}, a.dtype());
    // One 1 x n by n x 1 product: BLAS or the loop, as for any other matrix product.
    Tensor row = Tensor::view(a.storage(), a.offset(), DimVector{1, 1, n},
                              DimVector{0, n, n == 0 ? 1 : a.strides()[0]}, a.dtype());
    Tensor col = Tensor::view(b.storage(), b.offset(), DimVector{1, n, 1},
                              DimVector{0, n == 0 ? 1 : b.strides()[0], 1}, b.dtype());
    batchedGemm(row, col,
                Tensor::view(out.storage(), 0, DimVector{1, 1, 1}, DimVector{1, 1, 1}, out.dtype()),
                Scalar(int64_t(1)), Scalar(int64_t(0)));
    return out;
}

} // namespace kiln::tensor::detail
