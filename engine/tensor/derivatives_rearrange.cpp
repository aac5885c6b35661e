// SPDX-License-Identifier: MIT
// Derivatives of the ops that rearrange or repeat elements (flip, roll, repeat) and of lerp
// (PyTorch's derivatives.yaml): a flip's gradient is flipped back, a roll's rolled back, a
// repeat's summed over the copies; lerp's is split between its ends by the weight.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/ops.h"

namespace kiln::tensor {

namespace {

using namespace derivative;

class FlipBackward final : public GradNode {
public:
    FlipBackward(std::string_view name, IntList dims)
        : GradNode(name)
        , m_dims(dims) {}
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        return {flip(grads[0], m_dims)};
    }

private:
    DimVector m_dims;
};

class RollBackward final : public GradNode {
public:
    RollBackward(std::string_view name, IntList shifts, IntList dims)
        : GradNode(name)
        , m_dims(dims) {
        for (int64_t s : shifts)
            m_back.push_back(-s);
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        return {roll(grads[0], m_back, m_dims)};
    }

private:
    DimVector m_back;
    DimVector m_dims;
};

/// repeat: the output is (r0, s0, r1, s1, ...) with the input's sizes s (padded with leading
/// ones to the repeats' count); the gradient sums over the r's.
class RepeatBackward final : public GradNode {
public:
    RepeatBackward(std::string_view name, const Tensor& a, IntList repeats)
        : GradNode(name)
        , m_sizes(a.sizes())
        , m_repeats(repeats) {}
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const size_t lead = m_repeats.size() - m_sizes.size();
        DimVector pairs;
        std::vector<int64_t> copies;
        for (size_t i = 0; i < m_repeats.size(); ++i) {
            pairs.push_back(m_repeats[i]);
            pairs.push_back(i < lead ? 1 : m_sizes[i - lead]);
            copies.push_back(static_cast<int64_t>(2 * i));
        }
        Tensor g = sum(reshape(grads[0], pairs), copies, false);
        return {reshape(g, m_sizes)};
    }

private:
    DimVector m_sizes;
    DimVector m_repeats;
};

/// lerp(a, b, w) = a + w (b - a): a's gradient is g (1 - w), b's g w, a tensor weight's
/// g (b - a).
class LerpBackward final : public GradNode {
public:
    LerpBackward(std::string_view name, const Tensor& a, const Tensor& b, const Tensor& weight)
        : GradNode(name)
        , m_a(a)
        , m_b(b)
        , m_weight(weight) {}
    void releaseSaved() override {
        m_a.release();
        m_b.release();
        m_weight.release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        Tensor w = m_weight.unpack(*this);
        std::vector<Tensor> out(3);
        auto fit = [](const Tensor& grad, const Tensor& like) {
            return toDType(sumToSize(grad, like.sizes()), like.dtype());
        };
        if (wanted(*this, 0)) {
            Tensor a = m_a.unpack(*this);
            out[0] = fit(mul(g, sub(num(1), w)), a);
        }
        if (wanted(*this, 1)) out[1] = fit(mul(g, w), m_b.unpack(*this));
        if (wanted(*this, 2)) out[2] = fit(mul(g, sub(m_b.unpack(*this), m_a.unpack(*this))), w);
        return out;
    }

private:
    SavedTensor m_a;
    SavedTensor m_b;
    SavedTensor m_weight;
};

} // namespace

void attachFlipDerivative(Tensor& out, IntList dims) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<FlipBackward>(out.gradFn(), dims));
}

void attachRollDerivative(Tensor& out, IntList shifts, IntList dims) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<RollBackward>(out.gradFn(), shifts, dims));
}

void attachRepeatDerivative(Tensor& out, const Tensor& a, IntList repeats) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<RepeatBackward>(out.gradFn(), a, repeats));
}

void attachLerpDerivative(Tensor& out, const Tensor& a, const Tensor& b, const Tensor& weight) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<LerpBackward>(out.gradFn(), a, b, weight));
}

} // namespace kiln::tensor
