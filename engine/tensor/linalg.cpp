// SPDX-License-Identifier: MIT
// Matrix products with torch's argument checks (in torch's order, so the first failing check
// gives the same message) and torch's decomposition of matmul into dot/mv/mm/bmm, which also
// decides the grad_fn name a script sees.
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/gemm.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <string>

namespace kiln::tensor {

namespace {

std::string legacy(DType d) {
    return std::string(dtypeLegacyName(d));
}

std::string dimText(const Tensor& t) {
    return std::to_string(t.dim()) + "-D tensor";
}

std::string matrixText(const Tensor& t) {
    return std::to_string(t.sizes()[0]) + "x" + std::to_string(t.sizes()[1]);
}

void rejectBool(const Tensor& t, const char* kernel) {
    if (t.dtype() == DType::Bool)
        fail(ErrorKind::NotImplementedError,
             std::string("\"") + kernel + "\" not implemented for 'Bool'");
}

void checkSameDTypeMm(const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype())
        failRuntime("expected m1 and m2 to have the same dtype, but got: " +
                    std::string(detail::typeMetaName(a.dtype())) +
                    " != " + std::string(detail::typeMetaName(b.dtype())));
}

/// A 2-D tensor seen as a batch of one matrix.
Tensor asBatch(const Tensor& m) {
    return unsqueeze(m, 0);
}

/// torch's _unsafe_view: a reshape of a freshly computed result, named UnsafeViewBackward0.
Tensor unsafeView(const Tensor& t, IntList sizes) {
    Tensor out = reshape(t, sizes);
    renameGradFn(out, "UnsafeViewBackward0");
    dropViewBase(out); // no view in PyTorch: an in-place op on it is an ordinary one
    return out;
}

/// a @ b for 2-D operands already checked, optionally accumulated onto a bias of the output's
/// shape (beta * bias + alpha * a @ b).
Tensor product2d(const Tensor& a, const Tensor& b, const Tensor* bias, Scalar beta, Scalar alpha) {
    Tensor out = Tensor::empty(DimVector{a.sizes()[0], b.sizes()[1]}, a.dtype());
    // A linear layer's bias (one value per column, beta = alpha = 1): added by the product.
    bool rowBias = bias && beta.toDouble() == 1.0 && alpha.toDouble() == 1.0 &&
                   isFloating(a.dtype()) && bias->dim() >= 1 && bias->numel() == b.sizes()[1] &&
                   (bias->dim() == 1 || bias->sizes()[0] == 1);
    if (rowBias) {
        detail::gemmBiasEpilogue(a, b, bias, detail::GemmEpilogue::None, out);
        return out;
    }
    bool useBias = bias && beta.toDouble() != 0.0;
    if (useBias) copyInto(out, expand(*bias, out.sizes()));
    detail::batchedGemm(asBatch(a), asBatch(b), asBatch(out), alpha,
                        useBias ? beta : Scalar(int64_t(0)));
    return out;
}

/// torch.mv (mat (n, m) @ vec (m)).
Tensor mv(const Tensor& mat, const Tensor& vec) {
    if (mat.dim() != 2 || vec.dim() != 1)
        failRuntime("vector + matrix @ vector expected, got 1, " + std::to_string(mat.dim()) +
                    ", " + std::to_string(vec.dim()));
    if (mat.sizes()[1] != vec.sizes()[0])
        failRuntime("size mismatch, got input (" + std::to_string(mat.sizes()[0]) + "), mat (" +
                    matrixText(mat) + "), vec (" + std::to_string(vec.sizes()[0]) + ")");
    if (mat.dtype() != vec.dtype())
        failRuntime("addmv input tensors must have the same dtype, but got " + legacy(vec.dtype()) +
                    ", " + legacy(mat.dtype()) + ", and " + legacy(vec.dtype()));
    rejectBool(mat, "addmv_impl_cpu");
    Tensor out = product2d(mat, unsqueeze(vec, 1), nullptr, Scalar(), Scalar(int64_t(1)));
    out = Tensor::view(out.storage(), 0, DimVector{mat.sizes()[0]}, DimVector{1}, out.dtype());
    recordGradFn(out, "MvBackward0", {&mat, &vec});
    attachProductDerivative(out, "MvBackward0", ProductKind::Mv, nullptr, mat, vec, Scalar(),
                            Scalar(int64_t(1)));
    return out;
}

} // namespace

Tensor mm(const Tensor& a, const Tensor& b) {
    if (a.dim() != 2) failRuntime("mm: self must be a matrix, got " + dimText(a));
    if (b.dim() != 2) failRuntime("mm: mat2 must be a matrix, got " + dimText(b));
    if (a.sizes()[1] != b.sizes()[0])
        failRuntime("mm: mat1 and mat2 shapes cannot be multiplied (" + matrixText(a) + " and " +
                    matrixText(b) + ")");
    checkSameDTypeMm(a, b);
    rejectBool(a, "addmm_impl_cpu_");
    Tensor out = product2d(a, b, nullptr, Scalar(), Scalar(int64_t(1)));
    recordGradFn(out, "MmBackward0", {&a, &b});
    attachProductDerivative(out, "MmBackward0", ProductKind::Mm, nullptr, a, b, Scalar(),
                            Scalar(int64_t(1)));
    return out;
}

Tensor bmm(const Tensor& a, const Tensor& b) {
    if (a.dim() != 3) failRuntime("batch1 must be a 3D tensor");
    if (b.dim() != 3) failRuntime("batch2 must be a 3D tensor");
    if (b.sizes()[0] != a.sizes()[0] || b.sizes()[1] != a.sizes()[2])
        failRuntime("Expected size for first two dimensions of batch2 tensor to be: [" +
                    std::to_string(a.sizes()[0]) + ", " + std::to_string(a.sizes()[2]) +
                    "] but got: [" + std::to_string(b.sizes()[0]) + ", " +
                    std::to_string(b.sizes()[1]) + "].");
    if (a.dtype() != b.dtype())
        failRuntime("expected scalar type " + legacy(a.dtype()) + " but found " +
                    legacy(b.dtype()));
    rejectBool(a, "bmm");
    Tensor out = Tensor::empty(DimVector{a.sizes()[0], a.sizes()[1], b.sizes()[2]}, a.dtype());
    detail::batchedGemm(a, b, out, Scalar(int64_t(1)), Scalar(int64_t(0)));
    recordGradFn(out, "BmmBackward0", {&a, &b});
    attachProductDerivative(out, "BmmBackward0", ProductKind::Bmm, nullptr, a, b, Scalar(),
                            Scalar(int64_t(1)));
    return out;
}

Tensor addmm(const Tensor& bias, const Tensor& a, const Tensor& b, Scalar beta, Scalar alpha) {
    if (a.dim() != 2) failRuntime("addmm: self must be a matrix, got " + dimText(a));
    if (b.dim() != 2) failRuntime("addmm: mat2 must be a matrix, got " + dimText(b));
    if (bias.dtype() != b.dtype())
        failRuntime("self and mat2 must have the same dtype, but got " + legacy(bias.dtype()) +
                    " and " + legacy(b.dtype()));
    checkSameDTypeMm(a, b);
    if (a.sizes()[1] != b.sizes()[0])
        failRuntime("addmm: mat1 and mat2 shapes cannot be multiplied (" + matrixText(a) + " and " +
                    matrixText(b) + ")");
    expand(bias, DimVector{a.sizes()[0], b.sizes()[1]}); // torch's message for a bad bias
    rejectBool(a, "addmm_impl_cpu_");
    Tensor out = product2d(a, b, &bias, beta, alpha);
    recordGradFn(out, "AddmmBackward0", {&bias, &a, &b});
    attachProductDerivative(out, "AddmmBackward0", ProductKind::Addmm, &bias, a, b, beta, alpha);
    return out;
}

Tensor dot(const Tensor& a, const Tensor& b) {
    if (a.dim() != 1 || b.dim() != 1)
        failRuntime("1D tensors expected, but got " + std::to_string(a.dim()) + "D and " +
                    std::to_string(b.dim()) + "D tensors");
    if (a.dtype() != b.dtype())
        failRuntime("dot : expected both vectors to have same dtype, but found " +
                    legacy(a.dtype()) + " and " + legacy(b.dtype()));
    if (a.numel() != b.numel())
        failRuntime("inconsistent tensor size, expected tensor [" + std::to_string(a.numel()) +
                    "] and src [" + std::to_string(b.numel()) +
                    "] to have the same number of elements, but got " + std::to_string(a.numel()) +
                    " and " + std::to_string(b.numel()) + " elements respectively");
    rejectBool(a, "dot");
    Tensor out = detail::dotProduct(a, b);
    recordGradFn(out, "DotBackward0", {&a, &b});
    attachProductDerivative(out, "DotBackward0", ProductKind::Dot, nullptr, a, b, Scalar(),
                            Scalar(int64_t(1)));
    return out;
}

Tensor outer(const Tensor& a, const Tensor& b) {
    if (a.dim() != 1)
        failRuntime("outer: Expected 1-D argument self, but got " + std::to_string(a.dim()) + "-D");
    if (b.dim() != 1)
        failRuntime("outer: Expected 1-D argument vec2, but got " + std::to_string(b.dim()) + "-D");
    return binary(BinaryOp::Mul, unsqueeze(a, 1), b);
}

namespace {

Tensor matrixTranspose(const Tensor& t) {
    return transpose(t, -2, -1);
}

/// torch's should_fold: whether the larger operand (>= 3-D, against a 1-D or 2-D one) can be
/// flattened into a matrix for one mm/mv call instead of a broadcast bmm.
bool shouldFold(const Tensor& a, const Tensor& b) {
    const bool aLarger = a.dim() >= b.dim();
    const Tensor big = aLarger ? a : matrixTranspose(b);
    const int64_t smallDim = aLarger ? b.dim() : a.dim();
    if (!(big.dim() >= 3 && smallDim <= 2)) return false;
    // Folding then costs a copy, which torch accepts to keep the other operand's gradient small.
    if ((aLarger ? b : a).requiresGrad()) return true;
    if (a.dim() == 2) return false;
    if (big.numel() == 0) return true;
    for (int64_t i = 0; i + 2 < big.dim(); ++i)
        if (big.strides()[i] != big.strides()[i + 1] * big.sizes()[i + 1]) return false;
    return true;
}

/// The folded product: flatten the larger operand's leading dims into rows, one mm or mv.
Tensor foldedMatmul(const Tensor& a, const Tensor& b) {
    const bool swapped = b.dim() > a.dim();
    const Tensor big = swapped ? matrixTranspose(b) : a;
    const Tensor small = !swapped ? b : a.dim() == 2 ? t(a) : a;
    DimVector shape(IntList(big.sizes()).first(big.sizes().size() - 1));
    int64_t rows = checkedNumel(shape);
    Tensor folded = reshape(big, DimVector{rows, big.sizes().back()});
    if (small.dim() == 1) return unsafeView(mv(folded, small), shape);
    shape.push_back(small.sizes()[1]);
    Tensor out = unsafeView(mm(folded, small), shape);
    if (!swapped) return out;
    Tensor back = matrixTranspose(out);
    if (back.isContiguous()) return back;
    Tensor copy = clone(back);
    recordGradFn(copy, "CloneBackward0", {&back});
    attachCopyDerivative(copy, back);
    return copy;
}

/// Both operands broadcast over their batch dims and multiplied with one bmm.
Tensor batchedMatmul(const Tensor& a, const Tensor& b) {
    const int64_t da = a.dim(), db = b.dim();
    const int64_t n = da > 1 ? a.sizes()[da - 2] : 1, m1 = a.sizes().back();
    const int64_t m2 = db > 1 ? b.sizes()[db - 2] : b.sizes()[0], p = db > 1 ? b.sizes().back() : 1;
    DimVector batch = broadcastShapes(IntList(a.sizes()).first(std::max<int64_t>(da - 2, 0)),
                                      IntList(b.sizes()).first(std::max<int64_t>(db - 2, 0)));
    const int64_t count = checkedNumel(batch);
    DimVector aShape = batch, bShape = batch, outShape = batch;
    aShape.push_back(n);
    aShape.push_back(m1);
    bShape.push_back(m2);
    if (db > 1) bShape.push_back(p);
    Tensor a3 = reshape(expand(a, aShape), DimVector{count, n, m1});
    Tensor b3 = db > 1 ? reshape(expand(b, bShape), DimVector{count, m2, p})
                       : unsqueeze(reshape(expand(b, bShape), DimVector{count, m2}), 2);
    if (da > 1) outShape.push_back(n);
    if (db > 1) outShape.push_back(p);
    return unsafeView(bmm(a3, b3), outShape);
}

} // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
    const int64_t da = a.dim(), db = b.dim();
    if (da == 0 || db == 0)
        failRuntime("both arguments to matmul need to be at least 1D, but they are " +
                    std::to_string(da) + "D and " + std::to_string(db) + "D");
    if (da == 1 && db == 1) return dot(a, b);
    if (da == 2 && db == 1) return mv(a, b);
    if (da == 1 && db == 2) {
        Tensor out = squeeze(mm(unsqueeze(a, 0), b), DimVector{0});
        renameGradFn(out, "SqueezeBackward4"); // torch squeezes in place
        return out;
    }
    if (da == 2 && db == 2) return mm(a, b);
    if (shouldFold(a, b)) return foldedMatmul(a, b);
    return batchedMatmul(a, b);
}

Tensor linear(const Tensor& x, const Tensor& weight, const std::optional<Tensor>& bias) {
    if (x.dim() == 0 || weight.dim() == 0)
        failRuntime("both arguments to linear need to be at least 1D, but they are " +
                    std::to_string(x.dim()) + "D and " + std::to_string(weight.dim()) + "D");
    if (bias && x.dim() == 2)
        return addmm(*bias, x, t(weight), Scalar(int64_t(1)), Scalar(int64_t(1)));
    if (bias && x.isContiguous() && bias->dim() == 1) {
        // torch flattens the leading dims into rows and uses the fused addmm.
        DimVector shape(IntList(x.sizes()).first(x.sizes().size() - 1));
        Tensor rows = reshape(x, DimVector{checkedNumel(shape), x.sizes().back()});
        Tensor out = addmm(*bias, rows, t(weight), Scalar(int64_t(1)), Scalar(int64_t(1)));
        shape.push_back(out.sizes()[1]);
        return unsafeView(out, shape);
    }
    Tensor out = matmul(x, t(weight));
    return bias ? binary(BinaryOp::Add, out, *bias) : out;
}

} // namespace kiln::tensor
