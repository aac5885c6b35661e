// SPDX-License-Identifier: MIT
// Derivatives of the ops that pick, join or mask elements: cat, where, masked_fill, clamp,
// index_select, gather and scatter. Each gradient goes back to the places its elements came from;
// masked-out, clamped and unpicked places get zero (PyTorch's derivatives.yaml).
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <optional>

namespace kiln::tensor {

namespace {

using derivative::wanted;

Tensor zerosShaped(IntList sizes, DType dtype, Device device) {
    return zeros(sizes, TensorOptions{dtype, device, false});
}

/// `grad` where `keep` holds, zero elsewhere.
Tensor keepWhere(const Tensor& keep, const Tensor& grad) {
    return where(keep, grad, zerosShaped(DimVector{}, grad.dtype(), grad.device()));
}

/// A gradient summed to an input's shape and cast to its dtype.
struct InputShape {
    DimVector sizes;
    DType dtype;

    explicit InputShape(const Tensor& t)
        : sizes(t.sizes())
        , dtype(t.dtype()) {}
    Tensor fit(const Tensor& grad) const { return toDType(sumToSize(grad, sizes), dtype); }
};

class CatBackward final : public GradNode {
public:
    CatBackward(std::string_view name, const std::vector<Tensor>& inputs, int64_t dim)
        : GradNode(name)
        , m_dim(dim) {
        for (const Tensor& t : inputs) {
            // The legacy empty 1-D tensors cat skips get no gradient.
            const bool skipped = t.dim() == 1 && t.numel() == 0;
            m_lengths.push_back(skipped ? -1 : t.sizes()[static_cast<size_t>(dim)]);
            m_dtypes.push_back(t.dtype());
        }
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        std::vector<Tensor> out(m_lengths.size());
        int64_t start = 0;
        for (size_t i = 0; i < m_lengths.size(); ++i) {
            if (m_lengths[i] < 0) continue;
            if (wanted(*this, i))
                out[i] = toDType(narrow(grads[0], m_dim, start, m_lengths[i]), m_dtypes[i]);
            start += m_lengths[i];
        }
        return out;
    }

private:
    int64_t m_dim;
    std::vector<int64_t> m_lengths;
    std::vector<DType> m_dtypes;
};

/// where(condition, a, b), and masked_fill(a, mask, value) as where(mask, value, a).
class WhereBackward final : public GradNode {
public:
    WhereBackward(std::string_view name, const Tensor& condition, const Tensor& a, const Tensor& b)
        : GradNode(name)
        , m_condition(condition)
        , m_a(a)
        , m_b(b) {}
    void releaseSaved() override { m_condition.release(); }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor c = m_condition.unpack(*this);
        std::vector<Tensor> out(2);
        if (wanted(*this, 0)) out[0] = m_a.fit(keepWhere(c, grads[0]));
        if (wanted(*this, 1)) out[1] = m_b.fit(keepWhere(unary(UnaryOp::LogicalNot, c), grads[0]));
        return out;
    }

private:
    SavedTensor m_condition;
    InputShape m_a;
    InputShape m_b;
};

/// masked_fill: the filled places take no gradient from self; a tensor value takes the sum of
/// theirs.
class MaskedFillBackward final : public GradNode {
public:
    MaskedFillBackward(std::string_view name, const Tensor& a, const Tensor& mask,
                       const Tensor& value)
        : GradNode(name)
        , m_mask(mask)
        , m_a(a)
        , m_value(value) {}
    void releaseSaved() override { m_mask.release(); }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor mask = m_mask.unpack(*this);
        std::vector<Tensor> out(2);
        if (wanted(*this, 0))
            out[0] = m_a.fit(keepWhere(unary(UnaryOp::LogicalNot, mask), grads[0]));
        if (wanted(*this, 1)) out[1] = m_value.fit(sum(keepWhere(mask, grads[0]), {}, false));
        return out;
    }

private:
    SavedTensor m_mask;
    InputShape m_a;
    InputShape m_value;
};

/// clamp: self's gradient passes where it was inside the bounds; a tensor bound takes it
/// where self was beyond that bound.
class ClampBackward final : public GradNode {
public:
    ClampBackward(std::string_view name, const Tensor& a, const std::optional<Tensor>& lo,
                  const std::optional<Tensor>& hi)
        : GradNode(name)
        , m_input(a)
        , m_a(a) {
        if (lo) m_lo.emplace(*lo);
        if (hi) m_hi.emplace(*hi);
        if (lo) m_loShape.emplace(*lo);
        if (hi) m_hiShape.emplace(*hi);
    }
    void releaseSaved() override {
        m_input.release();
        if (m_lo) m_lo->release();
        if (m_hi) m_hi->release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor x = m_input.unpack(*this);
        const Tensor& g = grads[0];
        Tensor inside;
        auto both = [&](const Tensor& m) {
            inside = inside.defined() ? binary(BinaryOp::LogicalAnd, inside, m) : m;
        };
        Tensor lo = m_lo ? m_lo->unpack(*this) : Tensor();
        Tensor hi = m_hi ? m_hi->unpack(*this) : Tensor();
        if (lo.defined()) both(binary(BinaryOp::Ge, x, lo));
        if (hi.defined()) both(binary(BinaryOp::Le, x, hi));
        std::vector<Tensor> out(3);
        if (wanted(*this, 0)) out[0] = m_a.fit(keepWhere(inside, g));
        if (wanted(*this, 1)) out[1] = m_loShape->fit(keepWhere(binary(BinaryOp::Lt, x, lo), g));
        if (wanted(*this, 2)) out[2] = m_hiShape->fit(keepWhere(binary(BinaryOp::Gt, x, hi), g));
        return out;
    }

private:
    SavedTensor m_input;
    std::optional<SavedTensor> m_lo;
    std::optional<SavedTensor> m_hi;
    InputShape m_a;
    std::optional<InputShape> m_loShape;
    std::optional<InputShape> m_hiShape;
};

/// index_select and gather: the gradient is added back at the places the indices picked
/// (repeated indices add up).
class PickBackward final : public GradNode {
public:
    enum class Kind { IndexSelect, Gather };

    PickBackward(std::string_view name, Kind kind, const Tensor& a, int64_t dim,
                 const Tensor& index)
        : GradNode(name)
        , m_kind(kind)
        , m_dim(dim)
        , m_index(index)
        , m_a(a)
        , m_device(a.device()) {}
    void releaseSaved() override { m_index.release(); }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor index = m_index.unpack(*this);
        const Tensor& g = grads[0];
        Tensor base = zerosShaped(m_a.sizes, g.dtype(), m_device);
        Tensor grad = m_kind == Kind::IndexSelect
                          ? indexAdd(base, m_dim, index, g, Scalar(int64_t(1)))
                          : scatter(base, m_dim, index, g, ScatterReduce::Sum, true, "scatter_add");
        return {toDType(grad, m_a.dtype)};
    }

private:
    Kind m_kind;
    int64_t m_dim;
    SavedTensor m_index;
    InputShape m_a;
    Device m_device;
};

/// self.index_add(dim, index, source, alpha): self's gradient passes; source's is the output's
/// gradient picked at the indices, times alpha.
class IndexAddBackward final : public GradNode {
public:
    IndexAddBackward(std::string_view name, int64_t dim, const Tensor& index, const Tensor& source,
                     Scalar alpha)
        : GradNode(name)
        , m_dim(dim)
        , m_index(index)
        , m_source(source)
        , m_alpha(alpha) {}
    void releaseSaved() override { m_index.release(); }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        std::vector<Tensor> out{g, Tensor()};
        if (!derivative::wanted(*this, 1)) return out;
        Tensor picked = g.dim() == 0 ? g : indexSelect(g, m_dim, m_index.unpack(*this));
        picked = binary(BinaryOp::Mul, picked, wrapNumber(m_alpha));
        out[1] = toDType(reshape(picked, m_source.sizes), m_source.dtype);
        return out;
    }

private:
    int64_t m_dim;
    SavedTensor m_index;
    InputShape m_source;
    Scalar m_alpha;
};

/// a[items] with tensor indices: the gradient is added back where each element was read.
class IndexBackward final : public GradNode {
public:
    IndexBackward(std::string_view name, const Tensor& a, const std::vector<IndexItem>& items)
        : GradNode(name)
        , m_items(items)
        , m_a(a) {}
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        return {toDType(indexBackward(grads[0], m_a.sizes, m_items), m_a.dtype)};
    }

private:
    /// Kept after backward (index tensors are small): a second backward through it works where
    /// PyTorch raises.
    std::vector<IndexItem> m_items;
    InputShape m_a;
};

/// a[indices] = value with tensor indices (index_put_): the old a's gradient is the output's
/// with the written places zeroed; the value's is the output's gradient at those places,
/// summed back over the value's broadcast.
class IndexPutBackward final : public GradNode {
public:
    IndexPutBackward(std::string_view name, const std::vector<IndexItem>& items, const Tensor& self,
                     const Tensor& value)
        : GradNode(name)
        , m_items(items)
        , m_self(self)
        , m_value(value) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        std::vector<Tensor> out(2);
        if (wanted(*this, 0)) {
            Tensor kept = clone(g);
            indexPut(kept, m_items, wrapNumber(Scalar(0.0)));
            out[0] = m_self.fit(kept);
        }
        if (wanted(*this, 1)) out[1] = m_value.fit(index(g, m_items));
        return out;
    }

private:
    std::vector<IndexItem> m_items;
    InputShape m_self;
    InputShape m_value;
};

/// scatter (a source or a value), scatter_add and scatter_reduce('sum'): self's gradient is the
/// output's, zero where the scatter overwrote self; the source's is the output's gradient
/// gathered at the indices. A source larger than its index fails as PyTorch's engine fails it.
class ScatterBackward final : public GradNode {
public:
    ScatterBackward(std::string_view name, int64_t dim, const Tensor& index, bool overwrites,
                    const Tensor& self, const Tensor* src)
        : GradNode(name)
        , m_dim(dim)
        , m_index(index)
        , m_overwrites(overwrites)
        , m_self(self)
        , m_src(src ? std::optional<InputShape>(InputShape(*src)) : std::nullopt) {}

    void releaseSaved() override { m_index.release(); }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        Tensor index = m_index.unpack(*this);
        std::vector<Tensor> out(m_src ? 2 : 1);
        if (wanted(*this, 0))
            out[0] = m_self.fit(
                m_overwrites ? scatterValue(g, m_dim, index, Scalar(0.0), ScatterReduce::None) : g);
        if (m_src && wanted(*this, 1)) {
            Tensor picked = gather(g, m_dim, index);
            if (!(picked.sizes() == m_src->sizes)) // an index smaller than the source
                failRuntime("Function " + std::string(name()) +
                            " returned an invalid gradient at index 1 - got " +
                            shapeString(picked.sizes()) + " but expected shape compatible with " +
                            shapeString(m_src->sizes));
            out[1] = m_src->fit(picked);
        }
        return out;
    }

private:
    int64_t m_dim;
    SavedTensor m_index;
    bool m_overwrites;
    InputShape m_self;
    std::optional<InputShape> m_src;
};

} // namespace

void attachIndexDerivative(Tensor& out, const Tensor& a, const std::vector<IndexItem>& items) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<IndexBackward>(out.gradFn(), a, items));
}

void attachCatDerivative(Tensor& out, const std::vector<Tensor>& inputs, int64_t dim) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<CatBackward>(out.gradFn(), inputs, dim));
}

void attachWhereDerivative(Tensor& out, const Tensor& condition, const Tensor& a, const Tensor& b) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<WhereBackward>(out.gradFn(), condition, a, b));
}

void attachMaskedFillDerivative(Tensor& out, const Tensor& a, const Tensor& mask,
                                const Tensor& value) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<MaskedFillBackward>(out.gradFn(), a, mask, value));
}

void attachClampDerivative(Tensor& out, const Tensor& a, const std::optional<Tensor>& lo,
                           const std::optional<Tensor>& hi) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<ClampBackward>(out.gradFn(), a, lo, hi));
}

void attachIndexSelectDerivative(Tensor& out, const Tensor& a, int64_t dim, const Tensor& index) {
    if (!out.gradNode()) return;
    attachDerivative(
        out, makeRef<PickBackward>(out.gradFn(), PickBackward::Kind::IndexSelect, a, dim, index));
}

void attachIndexAddDerivative(Tensor& out, int64_t dim, const Tensor& index, const Tensor& source,
                              Scalar alpha) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<IndexAddBackward>(out.gradFn(), dim, index, source, alpha));
}

void attachScatterDerivative(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor* src, bool overwrites) {
    if (!out.gradNode()) return;
    attachDerivative(out,
                     makeRef<ScatterBackward>(out.gradFn(), dim, index, overwrites, self, src));
}

void attachIndexPutDerivative(Tensor& written, const std::vector<IndexItem>& items,
                              const Tensor& value) {
    // Under no_grad the write records no node: the tensor keeps the one it has.
    if (!gradModeEnabled() || !written.gradNode()) return;
    attachDerivative(written, makeRef<IndexPutBackward>(written.gradFn(), items, written, value));
}

void attachGatherDerivative(Tensor& out, const Tensor& a, int64_t dim, const Tensor& index) {
    if (!out.gradNode()) return;
    attachDerivative(
        out, makeRef<PickBackward>(out.gradFn(), PickBackward::Kind::Gather, a, dim, index));
}

} // namespace kiln::tensor
