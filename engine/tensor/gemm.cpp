// SPDX-License-Identifier: MIT
// Matrix-multiply dispatch: operands are given to the libraries in place whenever each matrix
// is row- or column-major (transposes and leading dimensions are strides to them), copied to a
// contiguous layout otherwise; 16-bit floats go through float32 copies where oneDNN has no
// native code for them on this CPU; integers and empty inner dimensions use a wrapping loop.
#include "tensor/gemm.h"

#include "support/assert.h"
#include "tensor/convert.h"
#include "tensor/gemm_backend.h"
#include "tensor/ops.h"

#include <type_traits>

namespace kiln::tensor::detail {

namespace {

/// A 3-D operand whose matrices the libraries can read: each row-major or column-major with a
/// leading dimension of at least its width. Strides of size-1 dimensions do not matter, so
/// they are rewritten to canonical values; any other layout is copied.
Tensor libraryReady(const Tensor& t) {
    const int64_t rows = t.sizes()[1], cols = t.sizes()[2];
    int64_t rs = t.strides()[1], cs = t.strides()[2];
    if (rows == 1) rs = cs == 1 ? cols : 1; // one row: read it row-major or as a column-major 1 x n
    if (cols == 1) cs = rs == 1 ? rows : 1;
    const bool rowMajor = cs == 1 && rs >= std::max<int64_t>(cols, 1);
    const bool colMajor = rs == 1 && cs >= std::max<int64_t>(rows, 1);
    if (!rowMajor && !colMajor) return contiguous(t);
    if (rs == t.strides()[1] && cs == t.strides()[2]) return t;
    return Tensor::view(t.storage(), t.offset(), t.sizes(), DimVector{t.strides()[0], rs, cs},
                        t.dtype());
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

bool isHalf(DType d) {
    return d == DType::Float16 || d == DType::BFloat16;
}

/// The 16-bit product computed in float32 copies and rounded once into out.
void halfThroughFloat(const Tensor& a, const Tensor& b, const Tensor& out, Scalar alpha,
                      Scalar beta, const Tensor* bias, GemmEpilogue epilogue) {
    Tensor outF = beta.toDouble() != 0.0 ? toDType(out, DType::Float32, true)
                                         : Tensor::empty(out.sizes(), DType::Float32);
    Tensor biasF = bias ? toDType(*bias, DType::Float32) : Tensor();
    Tensor aF = toDType(a, DType::Float32), bF = toDType(b, DType::Float32);
    bool done =
        onednnMatmul(libraryReady(aF), libraryReady(bF), outF, static_cast<float>(alpha.toDouble()),
                     static_cast<float>(beta.toDouble()), bias ? &biasF : nullptr, epilogue);
    KILN_ASSERT(done, "oneDNN computes float32 products on every x86-64 CPU");
    copyInto(out, outF);
}

/// A floating product with an optional bias row and epilogue, through the libraries.
void libraryProduct(const Tensor& a, const Tensor& b, const Tensor& out, Scalar alpha, Scalar beta,
                    const Tensor* bias, GemmEpilogue epilogue) {
    const DType dtype = out.dtype();
    if (dtype == DType::Float64) {
        KILN_ASSERT(!bias && epilogue == GemmEpilogue::None, "float64 products take no epilogue");
        return blisGemm(libraryReady(a), libraryReady(b), out, alpha.toDouble(), beta.toDouble());
    }
    if (isHalf(dtype) && !onednnNativeHalf(dtype))
        return halfThroughFloat(a, b, out, alpha, beta, bias, epilogue);
    bool done =
        onednnMatmul(libraryReady(a), libraryReady(b), out, static_cast<float>(alpha.toDouble()),
                     static_cast<float>(beta.toDouble()), bias, epilogue);
    if (!done) {
        KILN_ASSERT(isHalf(dtype), "oneDNN computes float32 products on every x86-64 CPU");
        halfThroughFloat(a, b, out, alpha, beta, bias, epilogue);
    }
}

} // namespace

void batchedGemm(const Tensor& a, const Tensor& b, const Tensor& out, Scalar alpha, Scalar beta) {
    KILN_ASSERT(a.dim() == 3 && b.dim() == 3 && out.dim() == 3 && out.isContiguous(),
                "batchedGemm takes 3-D operands and a contiguous output");
    if (out.numel() == 0) return;
    const DType dtype = out.dtype();
    const bool floating = dtype == DType::Float32 || dtype == DType::Float64 || isHalf(dtype);
    if (floating && a.sizes()[2] > 0)
        return libraryProduct(a, b, out, alpha, beta, nullptr, GemmEpilogue::None);
    if (isHalf(dtype)) { // an empty inner dimension: beta * out in float32, rounded once
        Tensor outF = toDType(out, DType::Float32, true);
        batchedGemm(toDType(a, DType::Float32), toDType(b, DType::Float32), outF, alpha, beta);
        copyInto(out, outF);
        return;
    }
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        if constexpr (!std::is_same_v<T, Half> && !std::is_same_v<T, BFloat16>)
            gemmLoop<T>(a, b, out, alpha.to<T>(), beta.to<T>());
    });
}

void gemmBiasEpilogue(const Tensor& a, const Tensor& b, const Tensor* bias, GemmEpilogue epilogue,
                      const Tensor& out) {
    KILN_ASSERT(a.dim() == 2 && b.dim() == 2 && out.dim() == 2 && out.isContiguous(),
                "gemmBiasEpilogue takes 2-D operands and a contiguous output");
    KILN_ASSERT(!bias || bias->numel() == out.sizes()[1], "the bias is one row of the output");
    if (out.numel() == 0) return;
    Tensor a3 = unsqueeze(a, 0), b3 = unsqueeze(b, 0), out3 = unsqueeze(out, 0);
    const DType dtype = out.dtype();
    const bool fused = (dtype == DType::Float32 || isHalf(dtype)) && a.sizes()[1] > 0;
    if (fused) {
        Tensor row = bias ? contiguous(reshape(*bias, DimVector{out.sizes()[1]})) : Tensor();
        return libraryProduct(a3, b3, out3, Scalar(int64_t(1)), Scalar(int64_t(0)),
                              bias ? &row : nullptr, epilogue);
    }
    if (bias) copyInto(out, expand(*bias, out.sizes()));
    batchedGemm(a3, b3, out3, Scalar(int64_t(1)), Scalar(int64_t(bias ? 1 : 0)));
    switch (epilogue) {
    case GemmEpilogue::None:
        break;
    case GemmEpilogue::Relu:
        unaryInPlace(UnaryOp::Relu, out);
        break;
    case GemmEpilogue::Gelu:
        unaryInPlace(UnaryOp::Gelu, out);
        break;
    case GemmEpilogue::GeluTanh:
        unaryInPlace(UnaryOp::GeluTanh, out);
        break;
    }
}

Tensor dotProduct(const Tensor& a, const Tensor& b) {
    const int64_t n = a.numel();
    Tensor out = Tensor::empty({}, a.dtype());
    // One 1 x n by n x 1 product: a library or the loop, as for any other matrix product.
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

namespace kiln::tensor {

const MatmulLibraries& matmulLibraries() {
    static const MatmulLibraries libraries = [] {
        MatmulLibraries l;
        l.float32 = detail::onednnDescription();
        l.bfloat16 = l.float32 +
                     (detail::onednnNativeHalf(DType::BFloat16) ? ", native" : ", through float32");
        l.float64 = detail::blisDescription();
        return l;
    }();
    return libraries;
}

} // namespace kiln::tensor
