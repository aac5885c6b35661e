// SPDX-License-Identifier: MIT
// Derivatives of the neural-network functions: layer_norm, embedding, nll_loss (and
// cross_entropy with class-index targets, label smoothing included) and
// scaled_dot_product_attention. They are written with tensor ops, so they run on the device
// the forward ran on; 16-bit inputs compute their gradients in float32, as PyTorch's kernels
// accumulate.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/ops.h"

#include <cmath>
#include <limits>

namespace kiln::tensor {

namespace {

using namespace derivative;

/// The dtype a gradient of `dtype` is computed in.
DType computeType(DType dtype) {
    return dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : dtype;
}
Tensor computeIn(const Tensor& t) {
    return toDType(t, computeType(t.dtype()));
}
DimVector range(int64_t begin, int64_t end) {
    DimVector dims;
    for (int64_t d = begin; d < end; ++d)
        dims.push_back(d);
    return dims;
}

/// layer_norm: with x̂ the normalised input and ĝ = g * weight, over the normalised dims
/// dx = rstd * (ĝ - mean(ĝ) - x̂ * mean(ĝ * x̂)); dweight = Σ g * x̂ and dbias = Σ g over the
/// leading dims. Mean and rstd are recomputed from the saved input.
class LayerNormBackward final : public GradNode {
public:
    LayerNormBackward(std::string_view name, const Tensor& x, const std::optional<Tensor>& weight,
                      const std::optional<Tensor>& bias, int64_t normalizedDims, double eps)
        : GradNode(name)
        , m_x(x)
        , m_biasDType(bias ? bias->dtype() : x.dtype())
        , m_normalizedDims(normalizedDims)
        , m_eps(eps) {
        if (weight) m_weight.emplace(*weight);
    }
    void releaseSaved() override {
        m_x.release();
        if (m_weight) m_weight->release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor x = m_x.unpack(*this);
        Tensor w = m_weight ? m_weight->unpack(*this) : Tensor();
        const DimVector norm = range(x.dim() - m_normalizedDims, x.dim());
        const DimVector lead = range(0, x.dim() - m_normalizedDims);
        Tensor xf = computeIn(x), g = computeIn(grads[0]);
        Tensor centered = sub(xf, mean(xf, norm, true));
        Tensor rstd =
            unary(UnaryOp::Rsqrt, add(mean(mul(centered, centered), norm, true), num(m_eps)));
        Tensor xhat = mul(centered, rstd);
        std::vector<Tensor> out(3);
        if (wanted(*this, 0)) {
            Tensor gw = w.defined() ? mul(g, computeIn(w)) : g;
            Tensor inner =
                sub(sub(gw, mean(gw, norm, true)), mul(xhat, mean(mul(gw, xhat), norm, true)));
            out[0] = toDType(mul(rstd, inner), x.dtype());
        }
        auto overLead = [&](const Tensor& t) { return lead.empty() ? t : sum(t, lead, false); };
        if (wanted(*this, 1)) out[1] = toDType(overLead(mul(g, xhat)), w.dtype());
        if (wanted(*this, 2)) out[2] = toDType(overLead(g), m_biasDType);
        return out;
    }

private:
    SavedTensor m_x;
    std::optional<SavedTensor> m_weight;
    DType m_biasDType;
    int64_t m_normalizedDims;
    double m_eps;
};

/// embedding: each looked-up row's gradient is added to its row of the weight; the
/// padding_idx row gets none.
class EmbeddingBackward final : public GradNode {
public:
    EmbeddingBackward(std::string_view name, const Tensor& weight, const Tensor& indices,
                      std::optional<int64_t> paddingIdx)
        : GradNode(name)
        , m_indices(indices)
        , m_rows(weight.sizes()[0])
        , m_width(weight.sizes()[1])
        , m_dtype(weight.dtype())
        , m_device(weight.device())
        , m_paddingIdx(paddingIdx) {}
    void releaseSaved() override { m_indices.release(); }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor flat = toDType(reshape(m_indices.unpack(*this), DimVector{-1}), DType::Int64);
        Tensor g = reshape(computeIn(grads[0]), DimVector{flat.numel(), m_width});
        if (m_paddingIdx) {
            Tensor padding = unsqueeze(binary(BinaryOp::Eq, flat, num(double(*m_paddingIdx))), 1);
            g = where(padding, zeros(DimVector{}, TensorOptions{g.dtype(), m_device, false}), g);
        }
        Tensor base = zeros(DimVector{m_rows, m_width}, TensorOptions{g.dtype(), m_device, false});
        return {toDType(indexAdd(base, 0, flat, g, Scalar(int64_t(1))), m_dtype)};
    }

private:
    SavedTensor m_indices;
    int64_t m_rows;
    int64_t m_width;
    DType m_dtype;
    Device m_device;
    std::optional<int64_t> m_paddingIdx;
};

/// nll_loss of log-probabilities, with cross_entropy's label smoothing: the loss is
/// (1 - ls) * nll + ls / C * smooth, so each sample's class row gets -(1 - ls) w[t] at its
/// target and -ls / C * w[c] everywhere, times the sample's share of the upstream gradient
/// (its own for 'none', all of it for 'sum', divided by the targets' total weight for
/// 'mean'). Ignored targets get nothing.
class NllLossBackward final : public GradNode {
public:
    struct Spec {
        bool sum = false, mean = false;
        int64_t ignoreIndex = -100;
        double labelSmoothing = 0.0;
    };

    NllLossBackward(std::string_view name, const Tensor& logp, const Tensor& target,
                    const std::optional<Tensor>& weight, Spec spec)
        : GradNode(name)
        , m_target(target)
        , m_sizes(logp.sizes())
        , m_dtype(logp.dtype())
        , m_device(logp.device())
        , m_spec(spec) {
        if (weight) m_weight.emplace(*weight);
    }
    void releaseSaved() override {
        m_target.release();
        if (m_weight) m_weight->release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const DType ct = computeType(m_dtype);
        const TensorOptions options{ct, m_device, false};
        const int64_t classDim = m_sizes.size() == 1 ? 0 : 1;
        const int64_t classes = m_sizes[static_cast<size_t>(classDim)];
        Tensor target = toDType(m_target.unpack(*this), DType::Int64);
        Tensor weight = m_weight ? toDType(m_weight->unpack(*this), ct) : Tensor();
        Tensor valid = binary(BinaryOp::Ne, target, num(double(m_spec.ignoreIndex)));
        Tensor safe =
            where(valid, target, zeros(DimVector{}, TensorOptions{DType::Int64, m_device, false}));
        Tensor wt = weight.defined() ? reshape(indexSelect(weight, 0, reshape(safe, DimVector{-1})),
                                               target.sizes())
                                     : ones(target.sizes(), options);
        wt = where(valid, wt, zeros(DimVector{}, options));
        Tensor share = computeIn(grads[0]);
        if (m_spec.mean) share = div(share, sum(wt, {}, false));
        share = where(valid, share, zeros(DimVector{}, options)); // 'none' shares per sample
        const double ls = m_spec.labelSmoothing;
        Tensor atTarget = mul(mul(wt, share), num(-(1.0 - ls)));
        Tensor grad =
            scatter(zeros(m_sizes, options), classDim, unsqueeze(safe, classDim),
                    unsqueeze(atTarget, classDim), ScatterReduce::Sum, true, "scatter_add");
        if (ls > 0.0) {
            Tensor everywhere =
                mul(unsqueeze(expand(share, target.sizes()), classDim), num(-ls / double(classes)));
            if (weight.defined()) everywhere = mul(everywhere, classWeights(weight, classDim));
            grad = add(grad, everywhere);
        }
        return {toDType(grad, m_dtype), Tensor()};
    }

private:
    /// The class weights shaped to broadcast along the class dim ([C] or [C, 1, ...]).
    Tensor classWeights(const Tensor& weight, int64_t classDim) const {
        DimVector shape(m_sizes.size() - static_cast<size_t>(classDim), 1);
        shape[0] = weight.numel();
        return reshape(weight, shape);
    }

    SavedTensor m_target;
    std::optional<SavedTensor> m_weight;
    DimVector m_sizes;
    DType m_dtype;
    Device m_device;
    Spec m_spec;
};

/// scaled_dot_product_attention without dropout, recomputing P = softmax(q kᵀ s + mask):
/// dv = Pᵀ g, dP = g vᵀ, dS = P ∘ (dP - rowsum(dP ∘ P)), dq = dS k s, dk = dSᵀ q s.
class AttentionBackward final : public GradNode {
public:
    AttentionBackward(std::string_view name, const Tensor& q, const Tensor& k, const Tensor& v,
                      const std::optional<Tensor>& mask, bool isCausal, double scale)
        : GradNode(name)
        , m_q(q)
        , m_k(k)
        , m_v(v)
        , m_isCausal(isCausal)
        , m_scale(scale) {
        if (mask) m_mask.emplace(*mask);
    }
    void releaseSaved() override {
        m_q.release();
        m_k.release();
        m_v.release();
        if (m_mask) m_mask->release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor q0 = m_q.unpack(*this), k0 = m_k.unpack(*this), v0 = m_v.unpack(*this);
        Tensor q = computeIn(q0), k = computeIn(k0), v = computeIn(v0);
        Tensor g = computeIn(grads[0]);
        Tensor p = probabilities(q, k);
        Tensor dp = matmul(g, transpose(v, -2, -1));
        Tensor ds = mul(p, sub(dp, sum(mul(dp, p), DimVector{-1}, true)));
        std::vector<Tensor> out(3);
        auto fit = [](const Tensor& grad, const Tensor& like) {
            return toDType(sumToSize(grad, like.sizes()), like.dtype());
        };
        if (wanted(*this, 0)) out[0] = fit(mul(matmul(ds, k), num(m_scale)), q0);
        if (wanted(*this, 1)) out[1] = fit(mul(matmul(transpose(ds, -2, -1), q), num(m_scale)), k0);
        if (wanted(*this, 2)) out[2] = fit(matmul(transpose(p, -2, -1), g), v0);
        return out;
    }

private:
    /// softmax(q kᵀ s + mask) over keys; a row with every key masked is zeros, as the forward.
    Tensor probabilities(const Tensor& q, const Tensor& k) const {
        Tensor scores = mul(matmul(q, transpose(k, -2, -1)), num(m_scale));
        const TensorOptions options{scores.dtype(), scores.device(), false};
        Tensor negInf =
            full(DimVector{}, Scalar(-std::numeric_limits<double>::infinity()), options);
        const int64_t L = scores.sizes()[static_cast<size_t>(scores.dim() - 2)];
        const int64_t S = scores.sizes().back();
        if (m_isCausal) {
            Tensor keep =
                tril(ones(DimVector{L, S}, TensorOptions{DType::Bool, scores.device(), false}), 0);
            scores = where(keep, scores, negInf);
        } else if (m_mask) {
            Tensor mask = m_mask->unpack(*this);
            scores = mask.dtype() == DType::Bool ? where(mask, scores, negInf)
                                                 : add(scores, toDType(mask, scores.dtype()));
        }
        Tensor top = amax(scores, DimVector{-1}, true);
        top = where(binary(BinaryOp::Eq, top, negInf), zeros(DimVector{}, options), top);
        Tensor e = unary(UnaryOp::Exp, sub(scores, top));
        Tensor total = sum(e, DimVector{-1}, true);
        Tensor safeTotal = where(binary(BinaryOp::Eq, total, num(0.0)), num(1.0), total);
        return div(e, safeTotal);
    }

    SavedTensor m_q;
    SavedTensor m_k;
    SavedTensor m_v;
    std::optional<SavedTensor> m_mask;
    bool m_isCausal;
    double m_scale;
};

/// cross_entropy against class probabilities t (smoothed: t' = (1 - ls) t + ls / C), weights w
/// over the classes: per position L = -sum_c w_c t'_c log_softmax(x)_c, so
/// dL/dx = softmax(x) sum_c w_c t'_c - w t', and dL/dt = -(1 - ls) w log_softmax(x).
class ProbabilityCrossEntropyBackward final : public GradNode {
public:
    ProbabilityCrossEntropyBackward(std::string_view name, const Tensor& x, const Tensor& target,
                                    const std::optional<Tensor>& weight, bool mean, double ls)
        : GradNode(name)
        , m_x(x)
        , m_target(target)
        , m_weight(weight ? SavedTensor(*weight) : SavedTensor())
        , m_mean(mean)
        , m_ls(ls) {}

    void releaseSaved() override {
        m_x.release();
        m_target.release();
        m_weight.release();
    }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        using namespace derivative;
        Tensor x = m_x.unpack(*this), t = m_target.unpack(*this), w = m_weight.unpack(*this);
        const int64_t classDim = x.dim() == 1 ? 0 : 1;
        const int64_t classes = x.sizes()[static_cast<size_t>(classDim)];
        Tensor classWeight = w.defined() ? classShaped(w, x.dim(), classDim) : num(1);
        Tensor smoothed = m_ls > 0 ? add(mul(t, num(1 - m_ls)), num(m_ls / double(classes))) : t;
        Tensor weighted = mul(smoothed, classWeight);
        Tensor g = grads[0];
        if (g.dim() > 0) g = unsqueeze(g, classDim); // 'none': one gradient per position
        if (m_mean) g = div(g, num(double(x.numel() / std::max<int64_t>(classes, 1))));
        std::vector<Tensor> out(2);
        if (wanted(*this, 0)) {
            Tensor total = sum(weighted, std::vector<int64_t>{classDim}, true);
            out[0] = toDType(mul(sub(mul(softmax(x, classDim), total), weighted), g), x.dtype());
        }
        if (wanted(*this, 1)) {
            Tensor dt = mul(mul(logSoftmax(x, classDim), classWeight), num(-(1 - m_ls)));
            out[1] = toDType(mul(dt, g), t.dtype());
        }
        return out;
    }

private:
    /// The class weights shaped to broadcast along `classDim` of a rank-`rank` input.
    static Tensor classShaped(const Tensor& w, int64_t rank, int64_t classDim) {
        DimVector shape(static_cast<size_t>(rank), 1);
        shape[static_cast<size_t>(classDim)] = w.numel();
        return reshape(w, shape);
    }

    SavedTensor m_x;
    SavedTensor m_target;
    SavedTensor m_weight;
    bool m_mean;
    double m_ls;
};

} // namespace

void attachLayerNormDerivative(Tensor& out, const Tensor& x, const std::optional<Tensor>& weight,
                               const std::optional<Tensor>& bias, int64_t normalizedDims,
                               double eps) {
    if (!out.gradNode()) return;
    attachDerivative(
        out, makeRef<LayerNormBackward>(out.gradFn(), x, weight, bias, normalizedDims, eps));
}

void attachEmbeddingDerivative(Tensor& out, const Tensor& weight, const Tensor& indices,
                               std::optional<int64_t> paddingIdx) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<EmbeddingBackward>(out.gradFn(), weight, indices, paddingIdx));
}

void attachNllLossDerivative(Tensor& out, const Tensor& logp, const Tensor& target,
                             const std::optional<Tensor>& weight, bool sum, bool mean,
                             int64_t ignoreIndex, double labelSmoothing) {
    if (!out.gradNode()) return;
    NllLossBackward::Spec spec{sum, mean, ignoreIndex, labelSmoothing};
    attachDerivative(out, makeRef<NllLossBackward>(out.gradFn(), logp, target, weight, spec));
}

void attachAttentionDerivative(Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                               const std::optional<Tensor>& mask, bool isCausal, double scale) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<AttentionBackward>(out.gradFn(), q, k, v, mask, isCausal, scale));
}

void attachProbabilityCrossEntropyDerivative(Tensor& out, const Tensor& x, const Tensor& target,
                                             const std::optional<Tensor>& weight, bool mean,
                                             double labelSmoothing) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<ProbabilityCrossEntropyBackward>(out.gradFn(), x, target, weight,
                                                                   mean, labelSmoothing));
}

} // namespace kiln::tensor
