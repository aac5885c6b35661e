// SPDX-License-Identifier: MIT
// Derivatives of the writes that overwrite a tensor's elements: a[1:3] = v and the other writes
// through basic indexing (PyTorch's CopySlices), and the whole-tensor copy_, fill_ and zero_
// (CopyBackwards, FillBackward2/3, ZeroBackward0). The written places take no gradient from
// what was there before; the value's gradient is the output's at those places, summed back over
// the value's broadcast (PyTorch's derivatives.yaml and CopySlices).
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <optional>

namespace kiln::tensor {

namespace {

using derivative::wanted;

/// A value's gradient from the gradient of the places it was written to: summed over the
/// broadcast (the value's leading size-1 dims are dropped first, as the write drops them) and
/// cast to the value's dtype.
struct WrittenValue {
    DimVector sizes;
    DType dtype;

    explicit WrittenValue(const Tensor& value)
        : sizes(value.sizes())
        , dtype(value.dtype()) {}

    Tensor fit(const Tensor& regionGrad) const {
        size_t first = 0;
        while (first < sizes.size() && sizes[first] == 1)
            ++first;
        DimVector stripped(IntList(sizes).subspan(first));
        Tensor g = sumToSize(regionGrad, stripped);
        if (!(g.sizes() == sizes)) g = reshape(g, sizes);
        return toDType(g, dtype);
    }
};

/// a[items] = value where the basic items made a view of a (CopySlices), or kept all of it
/// (CopyBackwards, FillBackward3). Edges: a as it was, the value.
class BasicWriteBackward final : public GradNode {
public:
    BasicWriteBackward(std::string_view name, const std::vector<IndexItem>& items, bool madeView,
                       const Tensor& self, const Tensor& value)
        : GradNode(name)
        , m_items(items)
        , m_madeView(madeView)
        , m_selfSizes(self.sizes())
        , m_selfDType(self.dtype())
        , m_value(value) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        std::vector<Tensor> out(2);
        if (wanted(*this, 0)) {
            Tensor kept;
            if (m_madeView) {
                // The gradient times a mask that is zero at the written places: differentiable
                // again with create_graph.
                Tensor mask = ones(m_selfSizes, TensorOptions{g.dtype(), g.device(), false});
                {
                    GradModeGuard off(false);
                    indexPut(mask, m_items, wrapNumber(Scalar(0.0)));
                }
                kept = binary(BinaryOp::Mul, g, mask);
            } else {
                kept = zeros(m_selfSizes, TensorOptions{g.dtype(), g.device(), false});
            }
            out[0] = toDType(kept, m_selfDType);
        }
        if (wanted(*this, 1)) out[1] = m_value.fit(m_madeView ? index(g, m_items) : g);
        return out;
    }

private:
    std::vector<IndexItem> m_items;
    bool m_madeView;
    DimVector m_selfSizes;
    DType m_selfDType;
    WrittenValue m_value;
};

/// copy_(src), fill_(value), zero_(): self's old values are all gone (its gradient is zero, as
/// PyTorch's zeros_like(grad)); src's gradient is the output's, summed over src's broadcast; a
/// fill value's is the output's sum.
class OverwriteBackward final : public GradNode {
public:
    OverwriteBackward(std::string_view name, const Tensor& self, const Tensor* value)
        : GradNode(name)
        , m_selfSizes(self.sizes())
        , m_selfDType(self.dtype()) {
        if (value) m_value.emplace(*value);
    }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        std::vector<Tensor> out(next.size());
        if (wanted(*this, 0))
            out[0] = zeros(m_selfSizes, TensorOptions{m_selfDType, g.device(), false});
        if (m_value && wanted(*this, 1)) out[1] = m_value->fit(g);
        return out;
    }

private:
    DimVector m_selfSizes;
    DType m_selfDType;
    std::optional<WrittenValue> m_value;
};

} // namespace

void attachBasicWriteDerivative(Tensor& written, const std::vector<IndexItem>& items, bool madeView,
                                const Tensor& value) {
    // Under no_grad the write records no node: the tensor keeps the one it has.
    if (!gradModeEnabled() || !written.gradNode()) return;
    attachDerivative(
        written, makeRef<BasicWriteBackward>(written.gradFn(), items, madeView, written, value));
}

void attachOverwriteDerivative(Tensor& written, const Tensor* value) {
    if (!gradModeEnabled() || !written.gradNode()) return; // no_grad: as above
    attachDerivative(written, makeRef<OverwriteBackward>(written.gradFn(), written, value));
}

} // namespace kiln::tensor
