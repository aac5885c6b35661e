// SPDX-License-Identifier: MIT
// Derivatives of prod, cumsum, cumprod and linalg.vector_norm, PyTorch's formulas
// (tools/autograd/derivatives.yaml, FunctionsManual.cpp). prod and the norm are a factor the
// forward computes (the gradient is the output's spread back times it, as logsumexp's);
// cumsum's is a reversed cumulative sum of the gradient.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/reduce_util.h"

#include <cmath>

namespace kiln::tensor {

namespace {

using namespace derivative;

/// `reduced` (a reduction of an input of `dims` dimensions over the dims in `mask`) with its
/// reduced dimensions back as size 1, so that it broadcasts against the input.
Tensor keptDims(Tensor reduced, uint64_t mask, int64_t dims, bool keepdim) {
    for (int64_t d = 0; d < dims && !keepdim; ++d)
        if ((mask >> d) & 1) reduced = unsqueeze(reduced, d);
    return reduced;
}

/// Per element of `x`: the product of the others along `dim`, as the product of those before it
/// and of those after it (exact with zeros, where out / x is not).
Tensor productOfOthers(const Tensor& x, int64_t dim) {
    const int64_t n = x.sizes()[dim];
    if (n == 0) return x;
    Tensor one = ones(narrow(x, dim, 0, 1).sizes(), TensorOptions{x.dtype(), x.device(), false});
    auto exclusive = [&](const Tensor& t) {
        return cat({one, narrow(cumprod(t, dim), dim, 0, n - 1)}, dim);
    };
    Tensor before = exclusive(x);
    const int64_t dims[] = {dim};
    Tensor after = flip(exclusive(flip(x, dims)), dims);
    return mul(before, after);
}

class CumsumBackward final : public GradNode {
public:
    CumsumBackward(std::string_view name, int64_t dim, DType inputDType)
        : GradNode(name)
        , m_dim(dim)
        , m_inputDType(inputDType) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        if (g.dim() == 0) return {toDType(g, m_inputDType)};
        const int64_t dims[] = {m_dim};
        Tensor reversed = flip(cumsum(flip(g, dims), m_dim), dims);
        return {toDType(reversed, m_inputDType)};
    }

private:
    int64_t m_dim;
    DType m_inputDType;
};

std::vector<int64_t> dimsIn(uint64_t mask, int64_t rank) {
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < rank; ++d)
        if ((mask >> d) & 1) dims.push_back(d);
    return dims;
}

/// cumprod: d out_j / d x_i = prod_{k <= j, k != i} x_k, so the gradient of x_i is E_i S_i with
/// E_i the product of the elements before it and S_i = g_i + x_{i+1} S_{i+1}: exact with zeros,
/// one pass each way along the dim, in double.
class CumprodBackward final : public GradNode {
public:
    CumprodBackward(std::string_view name, const Tensor& x, int64_t dim)
        : GradNode(name)
        , m_x(x)
        , m_dim(dim) {}

    void releaseSaved() override { m_x.release(); }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        if (gradModeEnabled())
            fail(ErrorKind::NotImplementedError,
                 "the derivative of cumprod's gradient (create_graph=True) is not implemented in "
                 "Kiln yet");
        Tensor x = m_x.unpack(*this);
        Tensor xd = contiguous(toDType(x, DType::Float64));
        Tensor gd = contiguous(toDType(grads[0], DType::Float64));
        Tensor out = Tensor::empty(x.sizes(), DType::Float64);
        const detail::DimLines l = detail::dimLines(x.sizes(), x.dim() == 0 ? 0 : m_dim);
        const double* px = xd.data<double>();
        const double* pg = gd.data<double>();
        double* po = out.data<double>();
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t in = 0; in < l.inner; ++in) {
                const int64_t base = o * l.size * l.inner + in;
                auto at = [&](int64_t i) { return base + i * l.inner; };
                double tail = 0; // S_{i+1}
                for (int64_t i = l.size; i-- > 0;) {
                    double s = pg[at(i)] + (i + 1 < l.size ? px[at(i + 1)] * tail : 0.0);
                    po[at(i)] = s; // S_i for now
                    tail = s;
                }
                double before = 1; // E_i
                for (int64_t i = 0; i < l.size; ++i) {
                    po[at(i)] *= before;
                    before *= px[at(i)];
                }
            }
        return {toDType(out, x.dtype())};
    }

private:
    SavedTensor m_x;
    int64_t m_dim;
};

/// d ||x||_p / dx, shaped as x; `norm` is the result with the reduced dims kept.
Tensor normFactor(const Tensor& x, const Tensor& norm, double p, uint64_t mask) {
    const Tensor zeroNorm = binary(BinaryOp::Eq, norm, num(0));
    const Tensor sign = unary(UnaryOp::Sign, x);
    const Tensor absX = unary(UnaryOp::Abs, x);
    if (p == 0) return mul(x, num(0));
    if (p == 1) return sign;
    if (p == 2) return maskedFill(div(x, norm), zeroNorm, num(0));
    if (std::isinf(p)) { // amax of |x|: shared among the ties (NaNs count as ties)
        Tensor ties = binary(BinaryOp::LogicalOr, binary(BinaryOp::Eq, absX, norm),
                             unary(UnaryOp::IsNan, absX));
        Tensor count = sum(ties, dimsIn(mask, x.dim()), true);
        return mul(sign, div(toDType(ties, x.dtype()), count));
    }
    if (p < 1) {
        Tensor scaled = mul(sign, maskedFill(binary(BinaryOp::Pow, absX, num(p - 1)),
                                             binary(BinaryOp::Eq, x, num(0)), num(0)));
        return mul(scaled, binary(BinaryOp::Pow, norm, num(1 - p)));
    }
    Tensor scaled = p < 2 ? mul(sign, binary(BinaryOp::Pow, absX, num(p - 1)))
                          : mul(x, binary(BinaryOp::Pow, absX, num(p - 2)));
    Tensor scale =
        maskedFill(div(num(1), binary(BinaryOp::Pow, norm, num(p - 1))), zeroNorm, num(0));
    return mul(scaled, scale);
}

} // namespace

void attachProdDerivative(Tensor& out, const Tensor& input, IntList dims, bool keepdim) {
    if (!out.gradNode()) return;
    detail::NoGradGuard noGrad;
    Tensor factor;
    if (dims.empty()) { // the product of everything: the others are all the other elements
        const int64_t flat[] = {input.numel()};
        factor = reshape(productOfOthers(reshape(input, flat), 0), input.sizes());
    } else {
        factor = productOfOthers(input, wrapDim(dims[0], input.dim()));
    }
    attachFactorDerivative(out, factor, dims, keepdim);
}

void attachCumsumDerivative(Tensor& out, const Tensor& input, int64_t dim) {
    if (!out.gradNode()) return;
    int64_t d = input.dim() == 0 ? 0 : wrapDim(dim, input.dim());
    attachDerivative(out, makeRef<CumsumBackward>(out.gradFn(), d, input.dtype()));
}

void attachCumprodDerivative(Tensor& out, const Tensor& input, int64_t dim) {
    if (!out.gradNode() || !isFloating(input.dtype())) return;
    int64_t d = input.dim() == 0 ? 0 : wrapDim(dim, input.dim());
    attachDerivative(out, makeRef<CumprodBackward>(out.gradFn(), input, d));
}

void attachNormDerivative(Tensor& out, const Tensor& input, double p, IntList dims, bool keepdim) {
    if (!out.gradNode()) return;
    detail::NoGradGuard noGrad;
    const uint64_t mask = detail::reductionMask(dims, input.dim());
    Tensor norm = keptDims(out, mask, input.dim(), keepdim);
    attachFactorDerivative(out, normFactor(input, norm, p, mask), dims, keepdim);
}

} // namespace kiln::tensor
