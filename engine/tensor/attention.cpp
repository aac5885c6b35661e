// SPDX-License-Identifier: MIT
// F.scaled_dot_product_attention: softmax(q @ k^T * scale + mask) @ v, computed in float32
// (float64 for double inputs) and rounded once. Rows whose every score is masked out give zeros,
// as torch's CPU kernels do, instead of the NaN a plain softmax would give.
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/random.h"
#include "tensor/shape.h"

#include <cmath>
#include <limits>
#include <string>

namespace kiln::tensor {

namespace {

void checkAttentionArgs(const Tensor& q, const Tensor& k, const Tensor& v,
                        const std::optional<Tensor>& mask, bool isCausal) {
    if (q.dtype() != k.dtype() || q.dtype() != v.dtype())
        failRuntime("Expected query, key, and value to have the same dtype, but got query.dtype: " +
                    std::string(detail::typeMetaName(q.dtype())) +
                    " key.dtype: " + std::string(detail::typeMetaName(k.dtype())) +
                    " and value.dtype: " + std::string(detail::typeMetaName(v.dtype())) +
                    " instead.");
    if (q.dim() < 2 || k.dim() < 2 || v.dim() < 2)
        failRuntime("Expected query, key, and value to all be  at least 2 dimensional, but got "
                    "query.dim: " +
                    std::to_string(q.dim()) + " key.dim: " + std::to_string(k.dim()) +
                    " and value.dim: " + std::to_string(v.dim()) + " instead.");
    if (mask && mask->dtype() != DType::Bool && mask->dtype() != q.dtype())
        failRuntime("Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                    "attn_mask.dtype: " +
                    std::string(detail::typeMetaName(mask->dtype())) + " and  query.dtype: " +
                    std::string(detail::typeMetaName(q.dtype())) + " instead.");
    if (mask && isCausal)
        failRuntime("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                    "is_causal=True");
    if (!isFloating(q.dtype()))
        failRuntime("expected scalar type Float but found " +
                    std::string(dtypeLegacyName(q.dtype())));
}

/// Applies the mask to contiguous scores (..., L, S) in place: bool masks keep where true,
/// float masks are added; the causal mask keeps key j for query i when j <= i.
template <typename C>
void applyMask(const Tensor& scores, const std::optional<Tensor>& mask, bool isCausal) {
    const int64_t L = scores.sizes()[scores.dim() - 2], S = scores.sizes().back();
    C* s = scores.data<C>();
    const int64_t n = scores.numel();
    const C negInf = -std::numeric_limits<C>::infinity();
    if (isCausal) {
        for (int64_t i = 0; i < n; ++i)
            if (i % S > (i / S) % L) s[i] = negInf;
        return;
    }
    if (!mask) return;
    // torch reports a bad mask against the 4-D (batch, heads, L, S) scores it works on.
    DimVector reported = scores.sizes();
    if (reported.size() == 3) reported.insert(1, 1);
    broadcastShapes(reported, mask->sizes());
    Tensor m = contiguous(
        expand(toDType(*mask, mask->dtype() == DType::Bool ? DType::Bool : scores.dtype()),
               scores.sizes()));
    for (int64_t i = 0; i < n; ++i) {
        if (mask->dtype() == DType::Bool)
            s[i] = m.data<bool>()[i] ? s[i] : negInf;
        else
            s[i] += m.data<C>()[i];
    }
}

/// Softmax over each row of S scores; a row of only -inf becomes zeros. Then dropout.
template <typename C>
void softmaxRows(const Tensor& scores, double dropoutP, Generator& gen) {
    const int64_t S = scores.sizes().back();
    const int64_t rows = S == 0 ? 0 : scores.numel() / S;
    const C keepScale = C(1) / static_cast<C>(1.0 - dropoutP);
    for (int64_t r = 0; r < rows; ++r) {
        C* row = scores.data<C>() + r * S;
        C top = -std::numeric_limits<C>::infinity();
        for (int64_t j = 0; j < S; ++j)
            top = std::max(top, row[j]);
        double sum = 0.0;
        for (int64_t j = 0; j < S; ++j) {
            row[j] = std::isinf(top) && top < 0 ? C(0) : std::exp(row[j] - top);
            sum += static_cast<double>(row[j]);
        }
        for (int64_t j = 0; j < S; ++j) {
            row[j] = sum > 0.0 ? static_cast<C>(row[j] / sum) : C(0);
            if (dropoutP > 0.0) row[j] = gen.uniform() < 1.0 - dropoutP ? row[j] * keepScale : C(0);
        }
    }
}

/// The node torch's CPU dispatch leaves: the fused flash kernel for same-batch 4-D inputs (3-D
/// ones are unsqueezed into it and squeezed back), the math path's last matmul otherwise.
std::string_view attentionGradFn(const Tensor& q, const Tensor& k, const Tensor& v) {
    bool sameRank = q.dim() == k.dim() && q.dim() == v.dim();
    bool sameBatch = sameRank;
    for (int64_t d = 0; sameBatch && d + 2 < q.dim(); ++d)
        sameBatch = q.sizes()[d] == k.sizes()[d] && q.sizes()[d] == v.sizes()[d];
    if (sameBatch && q.dim() == 4) return "ScaledDotProductFlashAttentionForCpuBackward0";
    if (sameBatch && q.dim() == 3) return "SqueezeBackward1";
    return q.dim() == 2 && k.dim() == 2 && v.dim() == 2 ? "MmBackward0" : "UnsafeViewBackward0";
}

/// Attention with dropout whose inputs need gradients: spelled out in recorded ops (scores,
/// the mask as an additive 0/-inf bias, softmax, dropout's MulBackward0, the products), so the
/// backward has the dropout mask the forward drew. (The kernel below keeps no mask.)
Tensor attentionWithDropout(const Tensor& q, const Tensor& k, const Tensor& v,
                            const std::optional<Tensor>& attnMask, double dropoutP, bool isCausal,
                            double scale, Generator& gen) {
    const DType ct = q.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
    Tensor qc = toDType(q, ct), kc = toDType(k, ct), vc = toDType(v, ct);
    Tensor scores =
        binary(BinaryOp::Mul, matmul(qc, transpose(kc, -2, -1)), wrapNumber(Scalar(scale)));
    if (isCausal || attnMask) {
        Tensor bias = zeros(scores.sizes(), TensorOptions{ct, scores.device(), false});
        dispatchDType(ct, [&]<DType D>() {
            using C = CType<D>;
            if constexpr (std::is_floating_point_v<C>) applyMask<C>(bias, attnMask, isCausal);
        });
        scores = binary(BinaryOp::Add, scores, bias);
    }
    Tensor kept = dropout(softmax(scores, -1), dropoutP, true, gen);
    // PyTorch takes its math path with dropout too: its result shows matmul's node.
    return toDType(matmul(kept, vc), q.dtype());
}

} // namespace

Tensor scaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                                 const std::optional<Tensor>& attnMask, double dropoutP,
                                 bool isCausal, std::optional<double> scale, Generator& gen) {
    checkAttentionArgs(q, k, v, attnMask, isCausal);
    if (dropoutP > 0.0 && gradModeEnabled() &&
        (q.requiresGrad() || k.requiresGrad() || v.requiresGrad()))
        return attentionWithDropout(
            q, k, v, attnMask, dropoutP, isCausal,
            scale ? *scale : 1.0 / std::sqrt(static_cast<double>(q.sizes().back())), gen);
    Tensor out;
    {
        detail::NoGradGuard noGrad;
        const DType ct = q.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
        Tensor qc = toDType(q, ct), kc = toDType(k, ct), vc = toDType(v, ct);
        Tensor scores = contiguous(matmul(qc, transpose(kc, -2, -1)));
        const double s = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(q.sizes().back()));
        dispatchDType(ct, [&]<DType D>() {
            using C = CType<D>;
            if constexpr (std::is_floating_point_v<C>) {
                C* p = scores.data<C>();
                for (int64_t i = 0; i < scores.numel(); ++i)
                    p[i] *= static_cast<C>(s);
                applyMask<C>(scores, attnMask, isCausal);
                softmaxRows<C>(scores, dropoutP, gen);
            }
        });
        out = toDType(matmul(scores, vc), q.dtype());
    }
    recordGradFn(out, attentionGradFn(q, k, v), {&q, &k, &v});
    // With dropout the backward needs the forward's mask: not kept yet (the node raises).
    if (dropoutP == 0.0)
        attachAttentionDerivative(out, q, k, v, attnMask, isCausal,
                                  scale ? *scale
                                        : 1.0 / std::sqrt(static_cast<double>(q.sizes().back())));
    return out;
}

} // namespace kiln::tensor
