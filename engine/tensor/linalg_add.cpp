// SPDX-License-Identifier: MIT
// The products that add to an input: baddbmm (input + a batch of products), addbmm (input + the
// sum of a batch of products), addmv (input + matrix @ vector) and addr (input + outer product),
// each beta * input + alpha * product with PyTorch's rules: integral dtypes take beta and alpha
// as integers, and beta == 0 ignores the input (NaN or inf in it does not spread).
#include "tensor/convert.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <string>

namespace kiln::tensor {

namespace {

/// The C++ name PyTorch's dtype messages use ("float", "double", "long int").
std::string cTypeName(DType dtype) {
    return std::string(detail::typeMetaName(dtype));
}

/// A Python number as the dtype's arithmetic takes it: truncated to an integer for integral
/// dtypes, a truth value for bool.
Scalar forDType(Scalar s, DType dtype) {
    if (dtype == DType::Bool) return Scalar(s.toBool());
    if (isIntegral(dtype, false)) return Scalar(s.toInt());
    return s;
}

bool isZero(Scalar s) {
    return s.isFloat() ? s.toDouble() == 0.0 : s.toInt() == 0;
}

/// What alpha == 0 does: the BLAS-backed products (addmv, addbmm) skip the product, so NaN or
/// inf in it does not spread; the others (baddbmm, addr) multiply it by zero.
enum class ZeroAlpha { SkipsProduct, ScalesProduct };

/// beta * input + alpha * product, the input broadcast to the product's shape first (its
/// message when it cannot be).
Tensor blend(const Tensor& input, const Tensor& product, Scalar beta, Scalar alpha,
             ZeroAlpha zeroAlpha = ZeroAlpha::ScalesProduct) {
    const DType dtype = product.dtype();
    Tensor expanded = expand(input, product.sizes());
    beta = forDType(beta, dtype);
    alpha = forDType(alpha, dtype);
    Tensor scaled =
        zeroAlpha == ZeroAlpha::SkipsProduct && isZero(alpha)
            ? zeros(product.sizes(), {dtype, {}, false})
            : binary(BinaryOp::Mul, product, full(DimVector{}, alpha, {dtype, {}, false}));
    if (isZero(beta)) return contiguous(scaled);
    Tensor kept = binary(BinaryOp::Mul, expanded, full(DimVector{}, beta, {dtype, {}, false}));
    return binary(BinaryOp::Add, kept, scaled);
}

void checkInputDTypes(const Tensor& input, const Tensor& b1, const Tensor& b2) {
    if (input.dtype() != b1.dtype() || input.dtype() != b2.dtype())
        failRuntime("Input dtypes must be the same, got: input " + cTypeName(input.dtype()) +
                    ", batch1: " + cTypeName(b1.dtype()) + ", batch2: " + cTypeName(b2.dtype()));
}

} // namespace

Tensor baddbmm(const Tensor& input, const Tensor& b1, const Tensor& b2, Scalar beta, Scalar alpha) {
    checkInputDTypes(input, b1, b2);
    if (b1.dim() != 3) failRuntime("batch1 must be a 3D tensor");
    if (b2.dim() != 3) failRuntime("batch2 must be a 3D tensor");
    // The input's shape is checked before the products' inner sizes, as PyTorch does.
    expand(input, DimVector{b1.sizes()[0], b1.sizes()[1], b2.sizes()[2]});
    Tensor out;
    {
        detail::NoGradGuard noGrad;
        out = blend(input, bmm(b1, b2), beta, alpha);
    }
    recordGradFn(out, "BaddbmmBackward0", {&input, &b1, &b2});
    return out;
}

Tensor addbmm(const Tensor& input, const Tensor& b1, const Tensor& b2, Scalar beta, Scalar alpha) {
    if (input.dtype() != b2.dtype())
        failRuntime("self and mat2 must have the same dtype, but got " +
                    std::string(dtypeLegacyName(input.dtype())) + " and " +
                    std::string(dtypeLegacyName(b2.dtype())));
    if (b1.dim() != 3) failRuntime("batch1 must be a 3D tensor");
    if (b2.dim() != 3) failRuntime("batch2 must be a 3D tensor");
    if (b1.sizes()[0] != b2.sizes()[0])
        failRuntime("batch1 and batch2 must have same number of batches, got " +
                    std::to_string(b1.sizes()[0]) + " and " + std::to_string(b2.sizes()[0]));
    expand(input, DimVector{b1.sizes()[1], b2.sizes()[2]});
    Tensor out;
    {
        detail::NoGradGuard noGrad;
        Tensor summed = sum(bmm(b1, b2), DimVector{0}, false);
        out = blend(input, summed, beta, alpha, ZeroAlpha::SkipsProduct);
    }
    recordGradFn(out, "AddbmmBackward0", {&input, &b1, &b2});
    return out;
}

Tensor addmv(const Tensor& input, const Tensor& mat, const Tensor& vec, Scalar beta, Scalar alpha) {
    if (mat.dim() != 2 || vec.dim() != 1 || input.dim() > 1)
        failRuntime("vector + matrix @ vector expected, got " + std::to_string(input.dim()) + ", " +
                    std::to_string(mat.dim()) + ", " + std::to_string(vec.dim()));
    const bool inputFits =
        input.dim() == 0 || input.sizes()[0] == 1 || input.sizes()[0] == mat.sizes()[0];
    if (mat.sizes()[1] != vec.sizes()[0] || !inputFits)
        failRuntime("size mismatch, got input (" +
                    std::to_string(input.dim() == 0 ? 1 : input.sizes()[0]) + "), mat (" +
                    std::to_string(mat.sizes()[0]) + "x" + std::to_string(mat.sizes()[1]) +
                    "), vec (" + std::to_string(vec.sizes()[0]) + ")");
    Tensor out;
    {
        detail::NoGradGuard noGrad;
        Tensor product = reshape(matmul(mat, unsqueeze(vec, 1)), DimVector{mat.sizes()[0]});
        // The product's dtype, not a promotion (a float64 input to float32 operands is float32).
        out = blend(toDType(input, product.dtype()), product, beta, alpha, ZeroAlpha::SkipsProduct);
    }
    recordGradFn(out, "AddmvBackward0", {&input, &mat, &vec});
    return out;
}

Tensor addr(const Tensor& input, const Tensor& vec1, const Tensor& vec2, Scalar beta,
            Scalar alpha) {
    if (vec1.dim() != 1)
        failRuntime("addr: Expected 1-D argument vec1, but got " + std::to_string(vec1.dim()) +
                    "-D");
    if (vec2.dim() != 1)
        failRuntime("addr: Expected 1-D argument vec2, but got " + std::to_string(vec2.dim()) +
                    "-D");
    // addr alone checks its scalars against the result's dtype (the others truncate them).
    const DType result = promoteTypes(input.dtype(), promoteTypes(vec1.dtype(), vec2.dtype()));
    for (auto [name, s] : {std::pair("beta", beta), std::pair("alpha", alpha)}) {
        if (isIntegral(result, false) && s.isFloat())
            failRuntime(std::string("For integral input tensors, argument ") + name +
                        " must not be a floating point number.");
        if (result != DType::Bool && s.isBool())
            failRuntime(std::string("Boolean ") + name + " only supported for Boolean results.");
    }
    Tensor out;
    {
        detail::NoGradGuard noGrad;
        Tensor product = binary(BinaryOp::Mul, unsqueeze(vec1, 1), vec2);
        const DType dtype = promoteTypes(input.dtype(), product.dtype());
        out = blend(toDType(input, dtype), toDType(product, dtype), beta, alpha);
    }
    recordGradFn(out, "AddrBackward0", {&input, &vec1, &vec2});
    return out;
}

} // namespace kiln::tensor
