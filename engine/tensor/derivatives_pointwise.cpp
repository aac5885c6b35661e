// SPDX-License-Identifier: MIT
// Derivatives of the pointwise ops, PyTorch's formulas (tools/autograd/derivatives.yaml): each
// input's gradient is computed in the output's dtype, summed down to the input's shape where
// it was broadcast, and cast to the input's dtype.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/ops.h"

#include <cmath>
#include <numbers>

namespace kiln::tensor {

namespace {

using namespace derivative;

Tensor neg(const Tensor& a) {
    return unary(UnaryOp::Neg, a);
}
Tensor zerosLike(const Tensor& a) {
    return zeros(a.sizes(), TensorOptions{a.dtype(), a.device(), false});
}
/// `grad` where `mask` holds, else 0.
Tensor masked(const Tensor& grad, const Tensor& mask) {
    return where(mask, grad, zerosLike(grad));
}

/// A gradient for an input of shape and dtype `like`.
Tensor fitTo(const Tensor& grad, const Tensor& like) {
    return toDType(sumToSize(grad, like.sizes()), like.dtype());
}

class UnaryBackward final : public GradNode {
public:
    UnaryBackward(UnaryOp op, std::string_view name, const Tensor& a, const Tensor& out)
        : GradNode(name)
        , m_op(op)
        , m_input(a)
        , m_output(needsOutput(op) ? SavedTensor(out, true) : SavedTensor()) {}

    void releaseSaved() override {
        m_input.release();
        m_output.release();
    }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor a = m_input.unpack(*this);
        return {toDType(derivative(grads[0], a), a.dtype())};
    }

    static bool supports(UnaryOp op) {
        using enum UnaryOp;
        switch (op) {
        case Abs:
        case Neg:
        case Exp:
        case Expm1:
        case Log:
        case Log2:
        case Log10:
        case Log1p:
        case Sqrt:
        case Rsqrt:
        case Sin:
        case Cos:
        case Tan:
        case Sinh:
        case Cosh:
        case Tanh:
        case Sigmoid:
        case Erf:
        case Erfc:
        case Reciprocal:
        case Square:
        case Relu:
        case Silu:
        case Gelu:
        case GeluTanh:
        case Floor:
        case Ceil:
        case Round:
        case Trunc:
        case Sign:
        case Frac:
        case Asin:
        case Acos:
        case Atan:
        case Exp2:
            return true;
        default:
            return false;
        }
    }

    /// The derivative reads only the output (its input is kept for its dtype).
    static bool needsOutput(UnaryOp op) {
        using enum UnaryOp;
        return op == Exp || op == Expm1 || op == Sqrt || op == Rsqrt || op == Tan || op == Tanh ||
               op == Sigmoid || op == Reciprocal || op == Relu || op == Exp2;
    }

private:
    Tensor derivative(const Tensor& g, const Tensor& a) const {
        using enum UnaryOp;
        auto out = [&] { return m_output.unpack(*this); };
        switch (m_op) {
        case Abs:
            return mul(g, unary(Sign, a));
        case Neg:
            return neg(g);
        case Exp:
            return mul(g, out());
        case Exp2:
            return mul(g, mul(out(), num(std::numbers::ln2)));
        case Expm1:
            return mul(g, add(out(), num(1)));
        case Log:
            return div(g, a);
        case Log2:
            return div(g, mul(a, num(std::numbers::ln2)));
        case Log10:
            return div(g, mul(a, num(std::numbers::ln10)));
        case Log1p:
            return div(g, add(a, num(1)));
        case Sqrt:
            return div(g, mul(out(), num(2)));
        case Rsqrt:
            return mul(g, mul(unary(Neg, unary(Square, out())), mul(out(), num(0.5))));
        case Sin:
            return mul(g, unary(Cos, a));
        case Cos:
            return neg(mul(g, unary(Sin, a)));
        case Tan:
            return mul(g, add(num(1), unary(Square, out())));
        case Asin:
            return div(g, unary(Sqrt, sub(num(1), unary(Square, a))));
        case Acos:
            return neg(div(g, unary(Sqrt, sub(num(1), unary(Square, a)))));
        case Atan:
            return div(g, add(num(1), unary(Square, a)));
        case Sinh:
            return mul(g, unary(Cosh, a));
        case Cosh:
            return mul(g, unary(Sinh, a));
        case Tanh:
            return mul(g, sub(num(1), unary(Square, out())));
        case Sigmoid:
            return mul(g, mul(out(), sub(num(1), out())));
        case Erf:
            return mul(
                g, mul(num(2 / std::sqrt(std::numbers::pi)), unary(Exp, neg(unary(Square, a)))));
        case Erfc:
            return mul(
                g, mul(num(-2 / std::sqrt(std::numbers::pi)), unary(Exp, neg(unary(Square, a)))));
        case Reciprocal:
            return neg(mul(g, unary(Square, out())));
        case Square:
            return mul(g, mul(a, num(2)));
        case Relu:
            return masked(g, binary(BinaryOp::Gt, out(), num(0)));
        case Silu: {
            Tensor s = unary(Sigmoid, a);
            return mul(g, mul(s, add(num(1), mul(a, sub(num(1), s)))));
        }
        case Gelu: {
            Tensor cdf =
                mul(num(0.5), add(num(1), unary(Erf, mul(a, num(std::numbers::sqrt2 / 2)))));
            Tensor pdf = mul(unary(Exp, mul(unary(Square, a), num(-0.5))),
                             num(1 / std::sqrt(2 * std::numbers::pi)));
            return mul(g, add(cdf, mul(a, pdf)));
        }
        case GeluTanh: { // 0.5 x (1 + tanh(k (x + c x^3))), k = sqrt(2 / pi), c = 0.044715
            const double k = std::numbers::sqrt2 * std::numbers::inv_sqrtpi, c = 0.044715;
            Tensor t = unary(Tanh, mul(num(k), add(a, mul(num(c), mul(a, unary(Square, a))))));
            Tensor inner = mul(num(k), add(num(1), mul(num(3 * c), unary(Square, a))));
            Tensor slope = mul(mul(num(0.5), a), mul(sub(num(1), unary(Square, t)), inner));
            return mul(g, add(mul(num(0.5), add(num(1), t)), slope));
        }
        case Frac:
            return g;
        default:
            return zerosLike(g); // floor, ceil, round, trunc, sign: zero almost everywhere
        }
    }

    UnaryOp m_op;
    SavedTensor m_input;
    SavedTensor m_output;
};

class BinaryBackward final : public GradNode {
public:
    BinaryBackward(BinaryOp op, std::string_view name, const Tensor& a, const Tensor& b,
                   const Tensor& out)
        : GradNode(name)
        , m_op(op)
        , m_a(a)
        , m_b(b)
        , m_output(op == BinaryOp::Pow ? SavedTensor(out, true) : SavedTensor()) {}

    void releaseSaved() override {
        m_a.release();
        m_b.release();
        m_output.release();
    }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        Tensor a = m_a.unpack(*this), b = m_b.unpack(*this);
        std::vector<Tensor> out(2);
        if (wants(0)) out[0] = fitTo(gradA(g, a, b), a);
        if (wants(1)) out[1] = fitTo(gradB(g, a, b), b);
        return out;
    }

    static bool supports(BinaryOp op) {
        using enum BinaryOp;
        switch (op) {
        case Add:
        case Sub:
        case Mul:
        case Div:
        case Pow:
        case Maximum:
        case Minimum:
        case Atan2:
        case TruncDiv:
        case FloorDiv:
        case Remainder:
        case Fmod:
            return true;
        default:
            return false;
        }
    }

private:
    bool wants(size_t i) const { return i < next.size() && next[i].node; }

    Tensor gradA(const Tensor& g, const Tensor& a, const Tensor& b) const {
        using enum BinaryOp;
        switch (m_op) {
        case Add:
        case Sub:
        case Remainder:
        case Fmod:
            return g;
        case Mul:
            return mul(g, b);
        case Div:
            return div(g, b);
        case Pow: {
            // d/da a^b = b * a^(b-1), 0 where b == 0 (PyTorch's pow_backward).
            Tensor d = mul(b, binary(Pow, a, sub(b, num(1))));
            return masked(mul(g, d), binary(Ne, b, num(0)));
        }
        case Maximum:
        case Minimum:
            return extremum(g, a, b);
        case Atan2:
            return mul(g, div(b, add(unary(UnaryOp::Square, a), unary(UnaryOp::Square, b))));
        default:
            return zerosLike(g); // rounded division: zero almost everywhere
        }
    }

    Tensor gradB(const Tensor& g, const Tensor& a, const Tensor& b) const {
        using enum BinaryOp;
        switch (m_op) {
        case Add:
            return g;
        case Sub:
            return neg(g);
        case Mul:
            return mul(g, a);
        case Div:
            return neg(div(mul(g, a), mul(b, b)));
        case Pow: {
            // d/db a^b = a^b * log(a), 0 where a == 0 and b >= 0 (PyTorch's pow_backward_exponent).
            Tensor d = mul(m_output.unpack(*this), unary(UnaryOp::Log, a));
            Tensor zero = binary(LogicalAnd, binary(Eq, a, num(0)), binary(Ge, b, num(0)));
            return masked(mul(g, d), unary(UnaryOp::LogicalNot, zero));
        }
        case Maximum:
        case Minimum:
            return extremum(g, b, a);
        case Atan2:
            return neg(mul(g, div(a, add(unary(UnaryOp::Square, a), unary(UnaryOp::Square, b)))));
        case Remainder:
            return neg(mul(g, binary(FloorDiv, a, b)));
        case Fmod:
            return neg(mul(g, binary(TruncDiv, a, b)));
        default:
            return zerosLike(g);
        }
    }

    /// max/min: the gradient goes to the chosen input, half to each on a tie.
    Tensor extremum(const Tensor& g, const Tensor& self, const Tensor& other) const {
        BinaryOp wins = m_op == BinaryOp::Maximum ? BinaryOp::Gt : BinaryOp::Lt;
        Tensor half = mul(g, num(0.5));
        Tensor tie = binary(BinaryOp::Eq, self, other);
        return where(tie, half, masked(g, binary(wins, self, other)));
    }

    BinaryOp m_op;
    SavedTensor m_a;
    SavedTensor m_b;
    SavedTensor m_output;
};

} // namespace

namespace {

/// a + alpha * b (torch.add/sub with alpha): a's gradient is the output's, b's alpha times it,
/// each summed back over its broadcast and cast to its dtype. Keeps no tensors.
class AddScaledBackward final : public GradNode {
public:
    AddScaledBackward(std::string_view name, const Tensor& a, const Tensor& b, Scalar alpha)
        : GradNode(name)
        , m_aSizes(a.sizes())
        , m_bSizes(b.sizes())
        , m_aType(a.dtype())
        , m_bType(b.dtype())
        , m_alpha(alpha) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        std::vector<Tensor> out(2);
        if (wanted(*this, 0)) out[0] = toDType(sumToSize(g, m_aSizes), m_aType);
        if (wanted(*this, 1))
            out[1] = toDType(sumToSize(mul(g, wrapNumber(m_alpha)), m_bSizes), m_bType);
        return out;
    }

private:
    DimVector m_aSizes, m_bSizes;
    DType m_aType, m_bType;
    Scalar m_alpha;
};

} // namespace

void attachAddScaledDerivative(Tensor& out, const Tensor& a, const Tensor& b, Scalar alpha) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<AddScaledBackward>(out.gradFn(), a, b, alpha));
}

bool unaryDerivativeReadsInput(UnaryOp op) {
    return !UnaryBackward::needsOutput(op);
}

Ref<GradNode> unaryBackward(UnaryOp op, std::string_view name, const Tensor& a, const Tensor& out) {
    if (!UnaryBackward::supports(op)) return {};
    return makeRef<UnaryBackward>(op, name, a, out);
}

Ref<GradNode> binaryBackward(BinaryOp op, std::string_view name, const Tensor& a, const Tensor& b,
                             const Tensor& out) {
    if (!BinaryBackward::supports(op)) return {};
    return makeRef<BinaryBackward>(op, name, a, b, out);
}

} // namespace kiln::tensor
