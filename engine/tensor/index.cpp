// SPDX-License-Identifier: MIT
// a[items] and a[items] = value with the semantics of torch's Python indexing.
//
// Indexing happens in two stages, as in torch. Basic items (integers, slices, None, Ellipsis,
// Python bools) walk the index list left to right and turn into views; tensor items are only
// collected, keyed by the view dimension they index. If any were collected, the advanced stage
// (index_advanced.cpp) moves the indexed elements between the view and a contiguous buffer: the
// result for a[items], the value for a[items] = value.
#include "support/assert.h"
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"
#include "tensor/index_advanced.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <string>

namespace kiln::tensor {

namespace {

using Kind = IndexItem::Kind;
using detail::accumulate;
using detail::AdvancedPlan;
using detail::PendingIndex;
using detail::planAdvanced;
using detail::transfer;

struct BasicResult {
    Tensor view;
    std::vector<PendingIndex> pending;
    bool madeView = false;
};

bool isIndexDType(DType d) {
    return d == DType::Int64 || d == DType::Int32 || d == DType::Bool;
}

int64_t countSpecifiedDims(const std::vector<IndexItem>& items) {
    int64_t count = 0;
    for (const IndexItem& item : items) {
        if (item.kind == Kind::Integer || item.kind == Kind::Slice)
            ++count;
        else if (item.kind == Kind::Tensor)
            count += item.tensor.dtype() == DType::Bool ? item.tensor.dim() : 1;
    }
    return count;
}

/// The index tensor torch substitutes for a Python bool: [0] for True, an empty list for False.
Tensor boolIndexTensor(bool value) {
    Tensor t = Tensor::empty(DimVector{value ? 1 : 0}, DType::Int64);
    if (value) t.data<int64_t>()[0] = 0;
    return t;
}

/// Applies the basic items of an index list in order, as torch's applySlicing does.
class BasicIndexer {
public:
    BasicIndexer(const Tensor& a, const std::vector<IndexItem>& items, bool keepFullSlices)
        : m_items(items)
        , m_keepFullSlices(keepFullSlices) {
        m_result.view = a;
        m_rank = a.dim();
        m_specified = countSpecifiedDims(items);
        if (m_specified > m_rank)
            fail(ErrorKind::IndexError,
                 "too many indices for tensor of dimension " + std::to_string(m_rank));
    }

    BasicResult run() {
        for (size_t i = 0; i < m_items.size(); ++i)
            apply(m_items[i], static_cast<int64_t>(i));
        return std::move(m_result);
    }

private:
    void apply(const IndexItem& item, int64_t position) {
        switch (item.kind) {
        case Kind::Integer:
            return applyInteger(item.integer, position);
        case Kind::Slice:
            return applySlice(item);
        case Kind::None:
            setView(unsqueeze(m_result.view, m_dim++));
            return;
        case Kind::Ellipsis:
            m_dim += m_rank - m_specified;
            return;
        case Kind::Boolean:
            return applyBoolean(item.boolean);
        case Kind::Tensor:
            return applyTensor(item.tensor, position);
        }
    }

    /// Size of the dimension the next item indexes (repeated ellipses can run past the end).
    int64_t currentSize() const {
        if (m_dim >= m_result.view.dim())
            fail(ErrorKind::IndexError,
                 "too many indices for tensor of dimension " + std::to_string(m_rank));
        return m_result.view.sizes()[m_dim];
    }

    void applyInteger(int64_t index, int64_t position) {
        int64_t size = currentSize();
        if (index < -size || index >= size)
            fail(ErrorKind::IndexError,
                 "index " + std::to_string(index) + " is out of bounds for dimension " +
                     std::to_string(position) + " with size " + std::to_string(size));
        setView(select(m_result.view, m_dim, index));
    }

    void applySlice(const IndexItem& item) {
        if (item.step == 0) fail(ErrorKind::ValueError, "slice step cannot be zero");
        if (item.step < 0) fail(ErrorKind::ValueError, "step must be greater than zero");
        int64_t size = currentSize();
        // torch skips a slice that keeps everything, unless it is the whole index (x[:]).
        bool full =
            item.step == 1 && item.start.value_or(0) == 0 && item.stop.value_or(size) >= size;
        if (!full || m_keepFullSlices)
            setView(slice(m_result.view, m_dim, item.start, item.stop, item.step));
        ++m_dim;
    }

    void applyBoolean(bool value) {
        setView(unsqueeze(m_result.view, m_dim));
        m_result.pending.push_back({m_dim++, boolIndexTensor(value)});
    }

    void applyTensor(const Tensor& t, int64_t position) {
        if (!isIndexDType(t.dtype()))
            fail(ErrorKind::IndexError,
                 "tensors used as indices must be long, int, byte or bool tensors");
        if (t.dim() == 0 && t.dtype() == DType::Bool) return applyBoolean(item(t).toBool());
        if (t.dim() == 0) return applyInteger(item(t).toInt(), position);
        m_result.pending.push_back({m_dim, t});
        m_dim += t.dtype() == DType::Bool ? t.dim() : 1;
    }

    void setView(Tensor view) {
        m_result.view = std::move(view);
        m_result.madeView = true;
    }

    const std::vector<IndexItem>& m_items;
    bool m_keepFullSlices;
    BasicResult m_result;
    int64_t m_rank = 0;
    int64_t m_specified = 0;
    int64_t m_dim = 0;
};

/// torch's Python entry points handle a lone item before the general path; for a 0-dim tensor
/// they raise their own messages.
void checkLoneItemOnScalar(const Tensor& a, const std::vector<IndexItem>& items) {
    if (a.dim() != 0 || items.size() != 1) return;
    if (items[0].kind == Kind::Integer)
        fail(ErrorKind::IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in "
                                    "Python or `tensor.item<T>()` in C++ to convert a 0-dim "
                                    "tensor to a number");
    if (items[0].kind == Kind::Slice)
        fail(ErrorKind::IndexError, "slice() cannot be applied to a 0-dim tensor.");
}

BasicResult applyBasic(const Tensor& a, const std::vector<IndexItem>& items, bool getItem) {
    checkLoneItemOnScalar(a, items);
    bool loneSlice = getItem && items.size() == 1 && items[0].kind == Kind::Slice;
    return BasicIndexer(a, items, loneSlice).run();
}

// ---------------------------------------------------------------------------------------------
// Assignment helpers

/// The value with leading size-1 dims dropped, as torch does before broadcasting it.
Tensor stripLeadingOnes(const Tensor& value) {
    size_t first = 0;
    while (first < static_cast<size_t>(value.dim()) && value.sizes()[first] == 1)
        ++first;
    if (first == 0) return value;
    IntList sizes = IntList(value.sizes()).subspan(first);
    IntList strides = IntList(value.strides()).subspan(first);
    Tensor out = Tensor::view(value.storage(), value.offset(), sizes, strides, value.dtype());
    out.impl()->wrappedNumber = value.isWrappedNumber();
    return out;
}

/// Byte range [first, last] a non-empty tensor's elements occupy in its storage.
std::pair<int64_t, int64_t> byteRange(const Tensor& t) {
    int64_t lo = t.offset(), hi = t.offset();
    for (int64_t d = 0; d < t.dim(); ++d) {
        int64_t span = (t.sizes()[d] - 1) * t.strides()[d];
        (span < 0 ? lo : hi) += span;
    }
    int64_t item = itemSize(t.dtype());
    return {lo * item, hi * item + item - 1};
}

/// torch refuses to copy between tensors whose memory overlaps without being the same.
void checkNoPartialOverlap(const Tensor& target, const Tensor& value) {
    if (target.storage() != value.storage() || target.numel() == 0 || value.numel() == 0) return;
    bool same = target.offset() == value.offset() && target.dtype() == value.dtype() &&
                target.sizes() == value.sizes() && target.strides() == value.strides();
    auto [tLo, tHi] = byteRange(target);
    auto [vLo, vHi] = byteRange(value);
    if (!same && tLo <= vHi && vLo <= tHi)
        failRuntime("unsupported operation: some elements of the input tensor and the written-to "
                    "tensor refer to a single memory location. Please clone() the tensor before "
                    "performing the operation.");
}

void checkLeafInPlace(const Tensor& a, const BasicResult& basic) {
    if (!gradModeEnabled() || !a.requiresGrad() || !a.gradFn().empty()) return;
    failRuntime(basic.madeView ? "a view of a leaf Variable that requires grad is being used in "
                                 "an in-place operation."
                               : "a leaf Variable that requires grad is being used in an in-place "
                                 "operation.");
}

/// After a[items] = value, `a` shows the node torch's in-place op leaves on it.
void markWritten(const Tensor& a, const Tensor& value, std::string_view gradFn) {
    Tensor written = a;
    recordGradFn(written, gradFn, {&a, &value});
}

std::string_view basicWriteGradFn(const BasicResult& basic, const Tensor& value) {
    if (basic.madeView) return "CopySlices";
    return value.dim() == 0 ? "FillBackward3" : "CopyBackwards";
}

std::string_view advancedWriteGradFn(const BasicResult& basic, const Tensor& value) {
    if (!value.isWrappedNumber() || basic.pending.size() != 1) return "IndexPutBackward0";
    return basic.pending[0].tensor.dtype() == DType::Bool ? "MaskedFillBackward0"
                                                          : "IndexFillBackward0";
}

/// The value as the write's node sees it, as torch's setitem makes it: its leading size-1
/// dims viewed away (ViewBackward0), then expanded to the written shape (ExpandBackward0) unless it
/// is a 0-dim value or has that shape already. `stripped` is the value without those dims.
Tensor recordedValue(const Tensor& value, const Tensor& stripped, IntList shape) {
    if (!gradModeEnabled() || !value.requiresGrad()) return value;
    Tensor v = stripped.dim() == value.dim() ? value : view(value, stripped.sizes());
    if (value.dim() == 0 || v.sizes() == DimVector(shape)) return v;
    return expand(v, shape);
}

bool broadcastsTo(IntList from, IntList to) {
    if (from.size() > to.size()) return false;
    for (size_t i = 0; i < from.size(); ++i) {
        int64_t f = from[from.size() - 1 - i];
        if (f != 1 && f != to[to.size() - 1 - i]) return false;
    }
    return true;
}

/// The value broadcast to the indexing result's shape as a contiguous tensor of the view's
/// dtype (a private copy whenever the value lives in the view's storage).
Tensor valueBuffer(const Tensor& value, IntList shape, const Tensor& view) {
    if (!broadcastsTo(value.sizes(), shape))
        failRuntime("shape mismatch: value tensor of shape " + shapeString(value.sizes()) +
                    " cannot be broadcast to indexing result of shape " + shapeString(shape));
    if (value.dtype() == view.dtype() && value.sizes() == DimVector(shape) &&
        value.isContiguous() && value.storage() != view.storage())
        return value;
    Tensor buffer = Tensor::empty(shape, view.dtype());
    copyInto(buffer, value);
    return buffer;
}

} // namespace

Tensor index(const Tensor& a, const std::vector<IndexItem>& items) {
    BasicResult basic = applyBasic(a, items, true);
    if (basic.pending.empty()) return basic.madeView ? basic.view : alias(a);
    AdvancedPlan plan = planAdvanced(basic.view, basic.pending);
    Tensor out = Tensor::empty(plan.resultShape, a.dtype());
    if (out.numel() > 0) transfer(plan, basic.view, out.rawData(), false);
    recordGradFn(out, "IndexBackward0", {&a});
    attachIndexDerivative(out, a, items);
    return out;
}

Tensor indexBackward(const Tensor& grad, IntList sizes, const std::vector<IndexItem>& items) {
    Tensor out = zeros(sizes, TensorOptions{grad.dtype(), grad.device(), false});
    BasicResult basic = applyBasic(out, items, false);
    KILN_ASSERT(!basic.pending.empty(), "IndexBackward0 is made by advanced indexing only");
    AdvancedPlan plan = planAdvanced(basic.view, basic.pending);
    Tensor buffer = contiguous(grad);
    if (buffer.numel() > 0) accumulate(plan, basic.view, buffer.rawData());
    return out;
}

void indexPut(const Tensor& a, const std::vector<IndexItem>& items, const Tensor& value) {
    BasicResult basic = applyBasic(a, items, false);
    checkLeafInPlace(a, basic);
    beginInPlaceWrite(a); // what autograd saved of `a` is stale from here on; a view's base rebases
    Tensor v = stripLeadingOnes(value);
    if (basic.pending.empty()) {
        Tensor source = expand(v, basic.view.sizes()); // torch's copy_ messages
        checkNoPartialOverlap(basic.view, value);
        copyInto(basic.view, source);
        Tensor recorded = recordedValue(value, v, basic.view.sizes());
        markWritten(a, recorded, basicWriteGradFn(basic, value));
        Tensor written = a;
        attachBasicWriteDerivative(written, items, basic.madeView, recorded);
        return;
    }
    AdvancedPlan plan = planAdvanced(basic.view, basic.pending);
    checkNoPartialOverlap(basic.view, value);
    Tensor buffer = valueBuffer(v, plan.resultShape, basic.view);
    if (buffer.numel() > 0) transfer(plan, basic.view, buffer.rawData(), true);
    markWritten(a, value, advancedWriteGradFn(basic, value));
    Tensor written = a;
    attachIndexPutDerivative(written, items, value);
}

} // namespace kiln::tensor
