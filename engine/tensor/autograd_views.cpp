// SPDX-License-Identifier: MIT
// Views and in-place writes through them, as PyTorch's autograd handles them. A view op records
// on its result the tensor viewed (TensorImpl::view). An in-place op on a view, with grad mode on
// and something requiring grad, rebases the history: the base's grad_fn becomes CopySlices,
// which runs the in-place op's node on the view's region of the base's gradient (the rest of the
// base passes its gradient on unchanged), and the view's grad_fn becomes AsStridedBackward0 of
// the base's new history. A view whose storage was written since its grad_fn was made gets
// AsStridedBackward0 of its base's current history when next used (PyTorch regenerates it
// likewise), so a sibling view, or a view of a base written in place, sees the write too.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"
#include "tensor/ops.h"

namespace kiln::tensor {

namespace {

/// Sizes, strides and offset of a tensor in its storage.
struct Geometry {
    DimVector sizes;
    DimVector strides;
    int64_t offset = 0;

    explicit Geometry(const TensorImpl& t)
        : sizes(t.sizes)
        , strides(t.strides)
        , offset(t.offset) {}

    /// Elements from the first to one past the last (strides are not negative).
    int64_t extent() const {
        int64_t last = 0;
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d] == 0) return 0;
            last += (sizes[d] - 1) * strides[d];
        }
        return last + 1;
    }
};

/// The base's and the view's geometry: where the view's gradient sits in the base's.
struct ViewPlacement {
    Geometry base;
    Geometry view; // offset relative to the base's

    ViewPlacement(const TensorImpl& b, const TensorImpl& v)
        : base(b)
        , view(v) {
        view.offset -= base.offset;
        base.offset = 0;
    }

    bool fits() const {
        return view.offset >= 0 &&
               (view.extent() == 0 || view.offset + view.extent() <= base.extent());
    }
    /// A buffer laid out as the base (its strides), and the region of it the view covers.
    std::pair<Tensor, Tensor> buffer(DType dtype, Device device) const {
        Tensor flat = Tensor::empty(std::vector<int64_t>{base.extent()}, dtype, device);
        Tensor whole = Tensor::view(flat.storage(), 0, base.sizes, base.strides, dtype);
        Tensor region = Tensor::view(flat.storage(), view.offset, view.sizes, view.strides, dtype);
        return {whole, region};
    }
};

Tensor placedView(const Tensor& whole, const Geometry& view) {
    return recordedRegion(whole, view.offset, view.sizes, view.strides);
}
void writeRecorded(const Tensor& target, const Tensor& value) {
    recordedCopy(target, value);
}

/// A view's grad_fn after its base's history changed: the view's gradient placed into a zero
/// gradient of the base.
class AsStridedBackward final : public GradNode {
public:
    explicit AsStridedBackward(ViewPlacement placement)
        : GradNode("AsStridedBackward0")
        , m_placement(std::move(placement)) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        if (!g.defined() || !derivative::wanted(*this, 0)) return {Tensor()};
        auto [whole, region] = m_placement.buffer(g.dtype(), g.device());
        fill(whole, Scalar(0.0));
        if (gradModeEnabled() && g.requiresGrad()) {
            // create_graph: the same write, recorded (whole's history becomes CopySlices of a
            // copy of g), so the gradient is differentiable again.
            writeRecorded(placedView(whole, m_placement.view), g);
            return {whole};
        }
        copyInto(region, g);
        return {whole};
    }

private:
    ViewPlacement m_placement;
};

/// The base's grad_fn after an in-place op on its view: the op's node (`fn`, whose first input
/// is the view as it was) runs on the view's region of the gradient; its gradient for the view
/// replaces that region, which then goes on to the base's old history. Edges: the base as it
/// was, then fn's other inputs.
class CopySlices final : public GradNode {
public:
    CopySlices(Ref<GradNode> fn, ViewPlacement placement)
        : GradNode("CopySlices")
        , m_fn(std::move(fn))
        , m_placement(std::move(placement)) {}

    GradNode& fn() { return *m_fn; }
    void setFn(Ref<GradNode> fn) { m_fn = std::move(fn); }
    void releaseSaved() override { m_fn->releaseSaved(); }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        std::vector<Tensor> out(next.size());
        const Tensor& g = grads[0];
        if (!g.defined()) return out;
        // create_graph: fn's gradients may depend on what it saved even where g is constant.
        if (gradModeEnabled()) return applyRecorded(g);
        auto [whole, region] = m_placement.buffer(g.dtype(), g.device());
        copyInto(whole, g);
        std::vector<Tensor> res = m_fn->apply({clone(region)});
        if (derivative::wanted(*this, 0)) {
            if (!res.empty() && res[0].defined())
                copyInto(region, res[0]);
            else
                fill(region, Scalar(0.0));
            out[0] = whole;
        }
        for (size_t i = 1; i < out.size() && i < res.size(); ++i)
            out[i] = std::move(res[i]);
        return out;
    }

private:
    /// create_graph: the same steps as recorded ops (a recorded copy, a view, the op's node,
    /// a recorded write into the view), so the gradients are differentiable again.
    std::vector<Tensor> applyRecorded(const Tensor& g) {
        std::vector<Tensor> out(next.size());
        Tensor whole = m_placement.buffer(g.dtype(), g.device()).first;
        writeRecorded(whole, g);
        Tensor region = placedView(whole, m_placement.view);
        Tensor regionCopy = clone(region);
        recordGradFn(regionCopy, "CloneBackward0", {&region});
        attachCopyDerivative(regionCopy, region);
        std::vector<Tensor> res = m_fn->apply({regionCopy});
        if (derivative::wanted(*this, 0)) {
            Tensor value = !res.empty() && res[0].defined()
                               ? res[0]
                               : zeros(region.sizes(), TensorOptions{g.dtype(), g.device(), false});
            writeRecorded(region, value);
            out[0] = whole;
        }
        for (size_t i = 1; i < out.size() && i < res.size(); ++i)
            out[i] = std::move(res[i]);
        return out;
    }

    Ref<GradNode> m_fn;
    ViewPlacement m_placement;
};

} // namespace

Tensor recordedRegion(const Tensor& whole, int64_t offset, IntList sizes, IntList strides) {
    Tensor region = Tensor::view(whole.storage(), whole.offset() + offset, DimVector(sizes),
                                 DimVector(strides), whole.dtype());
    recordGradFn(region, "AsStridedBackward0", {&whole});
    if (region.gradNode())
        attachDerivative(region,
                         makeRef<AsStridedBackward>(ViewPlacement(*whole.impl(), *region.impl())));
    recordViewBase(region, whole);
    return region;
}

void recordedCopy(const Tensor& target, const Tensor& value) {
    beginInPlaceWrite(target);
    copyInto(target, value);
    Tensor written = target;
    recordGradFn(written, "CopyBackwards", {&target, &value});
    attachOverwriteDerivative(written, &value);
}

namespace {

/// The view the in-place write in progress targets (set by beginInPlaceWrite, consumed by the
/// first setGradNode on it; a new view at a dead one's address clears it in recordViewBase), and
/// the last rebase (for attachDerivative after recordGradFn).
thread_local TensorImpl* t_pending = nullptr;
thread_local TensorImpl* t_rebasedView = nullptr;
thread_local CopySlices* t_rebasedNode = nullptr;

bool hasInternalOverlap(const TensorImpl& t) {
    for (size_t d = 0; d < t.sizes.size(); ++d)
        if (t.sizes[d] > 1 && t.strides[d] == 0) return true;
    return false;
}

/// Whether `v`'s base relation still holds (same storage; the view's history, if any, comes
/// from the base's). Drops it otherwise.
bool liveView(TensorImpl& v) {
    if (!v.view.base) return false;
    const TensorImpl& b = *v.view.base;
    if (v.storage != b.storage || (v.requiresGrad && !b.requiresGrad)) {
        v.view = {};
        return false;
    }
    return true;
}

/// PyTorch's errors for a view written in place while `resultRequiresGrad`.
void checkViewWritable(const TensorImpl& v) {
    const TensorImpl& b = *v.view.base;
    switch (v.view.creation) {
    case ViewCreation::NoGrad:
        failRuntime("A view was created in no_grad mode and is being modified inplace with grad "
                    "mode enabled. Given that this use case is ambiguous and error-prone, it is "
                    "forbidden. You can clarify your code by moving both the view and the inplace "
                    "either both inside the no_grad block (if you don't want the inplace to be "
                    "tracked) or both outside (if you want the inplace to be tracked).");
    case ViewCreation::MultiOutput:
        failRuntime("Output " + std::to_string(v.view.outputNr) + " of " +
                    std::string(v.view.creator) +
                    " is a view and is being modified inplace. This view is the output of a "
                    "function that returns multiple views. Such functions do not allow the output "
                    "views to be modified inplace. You should replace the inplace operation by an "
                    "out-of-place one.");
    case ViewCreation::Default:
        break;
    }
    if (b.requiresGrad && !b.gradFn)
        failRuntime("a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation.");
    if (hasInternalOverlap(v))
        failRuntime("unsupported operation: more than one element of the written-to tensor refers "
                    "to a single memory location. Please clone() the tensor before performing the "
                    "operation.");
}

} // namespace

ViewOrigin::ViewOrigin(const ViewOrigin& other)
    : base(other.base)
    , version(other.version)
    , creation(other.creation)
    , outputNr(other.outputNr)
    , creator(other.creator) {
    if (base) ++base->autogradRefs;
}

ViewOrigin& ViewOrigin::operator=(const ViewOrigin& other) {
    if (this == &other) return *this;
    setBase(other.base);
    version = other.version;
    creation = other.creation;
    outputNr = other.outputNr;
    creator = other.creator;
    return *this;
}

ViewOrigin::~ViewOrigin() {
    if (base) --base->autogradRefs;
}

void ViewOrigin::setBase(Ref<TensorImpl> impl) {
    if (base) --base->autogradRefs;
    base = std::move(impl);
    if (base) ++base->autogradRefs;
}

void recordViewBase(Tensor& view, const Tensor& input) {
    TensorImpl& v = *view.impl();
    TensorImpl& in = *input.impl();
    if (view.storage() != input.storage()) return;
    if (t_pending == &v) t_pending = nullptr;
    if (liveView(in)) {
        v.view = in.view; // a view of a view: the same base, and a non-default creation kept
        if (in.view.creation == ViewCreation::Default && !gradModeEnabled())
            v.view.creation = ViewCreation::NoGrad;
    } else {
        v.view.setBase(input.implRef());
        v.view.creation = gradModeEnabled() ? ViewCreation::Default : ViewCreation::NoGrad;
    }
    v.view.version = view.storage()->version();
}

void markMultiOutputView(Tensor& piece, uint32_t outputNr, std::string_view creator) {
    ViewOrigin& o = piece.impl()->view;
    if (!o.base || o.creation != ViewCreation::Default) return;
    o.creation = ViewCreation::MultiOutput;
    o.outputNr = outputNr;
    o.creator = creator;
}

void dropViewBase(const Tensor& t) {
    t.impl()->view = {};
}

void detail::refreshViewGradFnSlow(TensorImpl& v) {
    if (!liveView(v)) return;
    const uint32_t now = v.storage->version();
    if (now == v.view.version) return;
    v.view.version = now;
    TensorImpl& b = *v.view.base;
    if (!b.requiresGrad || v.view.creation == ViewCreation::NoGrad) return;
    auto node = makeRef<AsStridedBackward>(ViewPlacement(b, v));
    node->next.push_back(gradEdgeOf(Tensor(v.view.base)));
    Ref<GradNode> old = std::move(v.gradFn);
    v.gradFn = std::move(node);
    v.gradOutputNr = 0;
    v.requiresGrad = true;
    releaseGradNode(std::move(old));
}

void beginInPlaceWrite(const Tensor& target) {
    TensorImpl& v = *target.impl();
    t_rebasedView = nullptr;
    t_rebasedNode = nullptr;
    t_pending = nullptr;
    if (v.view.base) [[unlikely]] {
        detail::refreshViewGradFnSlow(v);
        // The base needs a gradient: the write will be rebased (a value requiring grad written
        // into a view of a base that needs none is checked when its node is set).
        if (liveView(v) && gradModeEnabled() && v.view.base->requiresGrad) checkViewWritable(v);
        if (v.view.base) t_pending = &v;
    }
    bumpVersion(target);
}

bool rebaseInPlaceView(Tensor& out, const Ref<GradNode>& node, uint32_t outputNr) {
    TensorImpl& v = *out.impl();
    if (t_pending != &v) return false;
    t_pending = nullptr;
    if (!liveView(v) || !node) return false;
    checkViewWritable(v);
    TensorImpl& b = *v.view.base;
    ViewPlacement placement(b, v);
    if (outputNr != 0 || node->outputCount != 1 || node->next.empty() || !placement.fits())
        fail(ErrorKind::NotImplementedError,
             "an in-place write to this view (" + std::string(node->name()) +
                 ") cannot be rebased onto its base's history in Kiln yet");
    auto copySlices = makeRef<CopySlices>(node, placement);
    copySlices->next = node->next;
    copySlices->next[0] = gradEdgeOf(Tensor(v.view.base));
    auto viewNode = makeRef<AsStridedBackward>(std::move(placement));
    viewNode->next.push_back({copySlices, 0});
    t_rebasedView = &v;
    t_rebasedNode = copySlices.get();
    Ref<GradNode> oldBase = std::move(b.gradFn);
    b.gradFn = std::move(copySlices);
    b.gradOutputNr = 0;
    b.requiresGrad = true;
    Ref<GradNode> oldView = std::move(v.gradFn);
    v.gradFn = std::move(viewNode);
    v.gradOutputNr = 0;
    v.requiresGrad = true;
    v.view.version = v.storage->version();
    releaseGradNode(std::move(oldBase));
    releaseGradNode(std::move(oldView));
    return true;
}

void forgetRebasedView() {
    t_rebasedView = nullptr;
}

GradNode* rebasedInPlaceNode(const Tensor& out) {
    if (t_rebasedView != out.impl() || !out.gradNode() || out.gradNode()->next.empty() ||
        out.gradNode()->next[0].node.get() != t_rebasedNode)
        return nullptr;
    return &t_rebasedNode->fn();
}

bool replaceRebasedInPlaceNode(const Tensor& out, Ref<GradNode>& node) {
    GradNode* fn = rebasedInPlaceNode(out);
    if (!fn) return false;
    node->next = fn->next;
    node->setName(fn->name());
    t_rebasedNode->setFn(std::move(node));
    return true;
}

} // namespace kiln::tensor
