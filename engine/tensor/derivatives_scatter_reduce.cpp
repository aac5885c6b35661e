// SPDX-License-Identifier: MIT
// Derivative of scatter_reduce with 'prod', 'mean', 'amax' and 'amin' (with or without
// include_self), PyTorch's scatter_reduce_backward: a product's gradient is the product of the
// others (exact where one factor is zero), a mean's is divided by the count, and a maximum's or
// minimum's is shared among the elements equal to it. With include_self=False the scattered
// places of self take none.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/error.h"
#include "tensor/ops.h"

namespace kiln::tensor {

namespace {

using derivative::div;
using derivative::mul;
using derivative::num;
using derivative::wanted;

Tensor isEqual(const Tensor& a, const Tensor& b) {
    return binary(BinaryOp::Eq, a, b);
}

/// 0/1 as `like`'s dtype.
Tensor asValues(const Tensor& mask, const Tensor& like) {
    return toDType(mask, like.dtype());
}

class ScatterReduceBackward final : public GradNode {
public:
    ScatterReduceBackward(std::string_view name, const Tensor& self, int64_t dim,
                          const Tensor& index, const Tensor& src, ScatterReduce reduce,
                          bool includeSelf, const Tensor& out)
        : GradNode(name)
        , m_self(self)
        , m_index(index)
        , m_src(src)
        , m_result(out, true)
        , m_dim(dim)
        , m_reduce(reduce)
        , m_includeSelf(includeSelf) {}

    void releaseSaved() override {
        m_self.release();
        m_index.release();
        m_src.release();
        m_result.release();
    }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        Tensor self = m_self.unpack(*this);
        Tensor index = m_index.unpack(*this);
        Tensor src = m_src.unpack(*this);
        Tensor gradSelf, gradSrc;
        switch (m_reduce) {
        case ScatterReduce::Prod:
            prodGrads(g, self, index, src, gradSelf, gradSrc);
            break;
        case ScatterReduce::Mean: {
            Tensor n = m_includeSelf ? onesLike(g) : zerosLike(g);
            n = scatter(n, m_dim, index, onesLike(src), ScatterReduce::Sum, true, "scatter_add");
            n = maskedFill(n, isEqual(n, num(0)), num(1));
            gradSelf = div(g, n);
            gradSrc = div(gather(g, m_dim, index), gather(n, m_dim, index));
            break;
        }
        default: { // Amax, Amin: shared among the elements equal to the result
            Tensor result = m_result.unpack(*this);
            Tensor value = gather(result, m_dim, index);
            Tensor selfIs = asValues(isEqual(self, result), self);
            Tensor srcIs = asValues(isEqual(src, value), self);
            Tensor count =
                scatter(selfIs, m_dim, index, srcIs, ScatterReduce::Sum, true, "scatter_add");
            Tensor shared = div(g, count);
            gradSelf = mul(selfIs, shared);
            gradSrc = mul(srcIs, gather(shared, m_dim, index));
            break;
        }
        }
        std::vector<Tensor> out(2);
        if (wanted(*this, 0)) {
            if (!m_includeSelf)
                gradSelf = scatterValue(gradSelf, m_dim, index, Scalar(0.0), ScatterReduce::None);
            out[0] = toDType(gradSelf, self.dtype());
        }
        if (wanted(*this, 1)) out[1] = toDType(gradSrc, src.dtype());
        return out;
    }

private:
    static Tensor onesLike(const Tensor& t) {
        return ones(t.sizes(), TensorOptions{t.dtype(), t.device(), false});
    }
    static Tensor zerosLike(const Tensor& t) {
        return zeros(t.sizes(), TensorOptions{t.dtype(), t.device(), false});
    }

    /// The product of the others: self's from the product with its zeros taken as ones; a
    /// source element's from the result divided by it, or (the only zero of its group) from
    /// the product with it taken as one.
    void prodGrads(const Tensor& g, const Tensor& self, const Tensor& index, const Tensor& src,
                   Tensor& gradSelf, Tensor& gradSrc) const {
        const auto product = [&](const Tensor& into, const Tensor& from) {
            return scatter(into, m_dim, index, from, ScatterReduce::Prod, m_includeSelf,
                           "scatter_reduce");
        };
        Tensor maskedSelf = maskedFill(self, isEqual(self, num(0)), num(1));
        gradSelf = div(mul(g, product(maskedSelf, src)), maskedSelf);
        Tensor srcZero = isEqual(src, num(0));
        Tensor zerosPerGroup =
            gather(scatter(zerosLike(self), m_dim, index, asValues(srcZero, self),
                           ScatterReduce::Sum, true, "scatter_add"),
                   m_dim, index);
        Tensor singleZero = binary(BinaryOp::LogicalAnd, srcZero, isEqual(zerosPerGroup, num(1)));
        Tensor withoutIt = product(self, maskedFill(src, singleZero, num(1)));
        Tensor result = m_result.unpack(*this);
        gradSrc =
            where(singleZero, gather(mul(g, withoutIt), m_dim, index),
                  div(gather(mul(g, result), m_dim, index), maskedFill(src, srcZero, num(1))));
    }

    SavedTensor m_self;
    SavedTensor m_index;
    SavedTensor m_src;
    SavedTensor m_result;
    int64_t m_dim;
    ScatterReduce m_reduce;
    bool m_includeSelf;
};

/// scatter with reduce= (PyTorch's deprecated form): torch has no derivative for it and raises
/// at backward.
class ScatterNotImplemented final : public GradNode {
public:
    ScatterNotImplemented()
        : GradNode("NotImplemented") {}
    std::vector<Tensor> apply(std::vector<Tensor>) override {
        failRuntime("derivative for aten::scatter is not implemented");
    }
};

} // namespace

void attachScatterReduceDerivative(Tensor& out, const Tensor& self, int64_t dim,
                                   const Tensor& index, const Tensor& src, ScatterReduce reduce,
                                   bool includeSelf) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<ScatterReduceBackward>(out.gradFn(), self, dim, index, src,
                                                         reduce, includeSelf, out));
}

void attachScatterNotImplemented(Tensor& out) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<ScatterNotImplemented>());
}

} // namespace kiln::tensor
