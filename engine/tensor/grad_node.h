// SPDX-License-Identifier: MIT
/// \file
/// The autograd graph's nodes as the tensor layer sees them: each tensor an op made while grad
/// mode was on and an input required grad points at the node that computes its inputs'
/// gradients from its own (PyTorch's grad_fn), and each node points on at the nodes of its
/// inputs (next_functions). The derivative formulas and the engine that runs backward live in
/// the autograd layer (engine/autograd/); an op it has no formula for yet gets a node that
/// only names itself and says so when backward reaches it.
#pragma once

#include "tensor/tensor.h"

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace kiln::tensor {

class GradNode;

/// Where a gradient goes: input `inputNr` of `node` (null for an input that needs none).
struct GradEdge {
    Ref<GradNode> node;
    uint32_t inputNr = 0;
};

/// A function of the gradient of a tensor, run before that gradient is used (a tensor hook:
/// register_hook, retain_grad). It returns the gradient to use instead, or an undefined tensor
/// to leave it as it is.
using GradHookFn = std::function<Tensor(const Tensor&)>;

/// The hooks of one tensor: a non-leaf's live on its grad_fn (per output), a leaf's on the
/// tensor itself (its AccumulateGrad nodes are made per use).
struct GradHooks {
    struct Hook {
        uint32_t outputNr = 0;
        GradHookFn fn;
    };
    std::vector<Hook> hooks;
    /// retain_grad's, which run after the others (as PyTorch's), so it keeps what they made.
    std::vector<Hook> retainHooks;
    /// `grad` of output `outputNr` after the hooks on it.
    Tensor run(uint32_t outputNr, Tensor grad) const;
};

class GradNode : public AtomicRefCounted {
public:
    /// `name`: PyTorch's node name ("MulBackward0", "AccumulateGrad"), a string literal.
    explicit GradNode(std::string_view name)
        : m_name(name) {}
    /// Releases the edges without recursing: a chain of a million nodes (a loss summed over a
    /// long loop) is freed in a loop, not a million nested destructors.
    virtual ~GradNode();
    std::string_view name() const { return m_name; }
    /// A composite op shows the node PyTorch shows for it (stack is cat of unsqueezes, but
    /// prints StackBackward0); the derivative stays the building block's.
    void setName(std::string_view name) { m_name = name; }
    /// The gradients of the node's inputs (one per edge in `next`; undefined where an input
    /// gets none) from the gradients of its outputs (undefined for an output nothing reached).
    virtual std::vector<Tensor> apply(std::vector<Tensor> gradOutputs) = 0;
    /// Drops what the node saved for backward (after a backward without retain_graph); a
    /// later backward through it is PyTorch's "backward through the graph a second time".
    virtual void releaseSaved() {}
    /// The node's outputs: how many gradients apply() takes.
    uint32_t outputCount = 1;
    std::vector<GradEdge> next;
    /// Hooks of the tensors this node made (null until one is registered).
    std::unique_ptr<GradHooks> hooks;

private:
    std::string_view m_name;
};

/// Drops a reference to a node; the last one is freed from a loop (see ~GradNode).
void releaseGradNode(Ref<GradNode>&& node);

/// The edge from an op's output to `input`'s place in the graph: its grad_fn, or for a leaf
/// that requires grad its gradient accumulator; none for a tensor that needs no gradient.
GradEdge gradEdgeOf(const Tensor& input);

/// Makes `out` (an op's result) require grad with `node` as its grad_fn, output `outputNr`.
void setGradNode(Tensor& out, Ref<GradNode> node, uint32_t outputNr = 0);
/// Names `t`'s node `name` (ops whose PyTorch node name depends on how they were called, and
/// composite ops). No-op for a tensor without grad_fn.
void renameGradFn(Tensor& t, std::string_view name);
/// Makes `t` a leaf: no grad_fn (it keeps requires_grad).
void clearGradFn(Tensor& t);

/// Views and in-place writes through them (autograd_views.cpp; docs/autograd.md).
/// After a view op made `view` over `input`'s storage (and attached its node): records the base
/// (input's own base when input is a view) and the storage version.
void recordViewBase(Tensor& view, const Tensor& input);
/// `piece` is output `outputNr` of split/chunk/unbind (node `creator`): PyTorch refuses to
/// write such views in place while their base needs a gradient.
void markMultiOutputView(Tensor& piece, uint32_t outputNr, std::string_view creator);
/// `t` is no autograd view of what it shares storage with (detach(), _unsafe_view, ...).
void dropViewBase(const Tensor& t);
namespace detail {
void refreshViewGradFnSlow(TensorImpl& view);
}
/// A view whose storage was written since its grad_fn was made gets AsStridedBackward0 of its
/// base's history now, as PyTorch regenerates a view's grad_fn when its version changed.
inline void refreshViewGradFn(const Tensor& t) {
    if (t.impl()->view.base) [[unlikely]]
        detail::refreshViewGradFnSlow(*t.impl());
}
/// Every in-place op calls this just before it writes `target` (checkInPlaceTarget, indexPut):
/// PyTorch's errors for views written in place, then the version bump. The node the op then
/// sets on `target` (setGradNode) rebases a view's base onto CopySlices.
void beginInPlaceWrite(const Tensor& target);
/// From setGradNode: when `out` is the view the in-place write in progress wrote, its base's
/// history becomes CopySlices of `node` and out's AsStridedBackward0 of it; true then.
bool rebaseInPlaceView(Tensor& out, const Ref<GradNode>& node, uint32_t outputNr);
/// The in-place op's node inside CopySlices when `out` is a view just rebased, else null (so
/// attachDerivative and renameGradFn reach the op's node, not the view's AsStridedBackward0).
GradNode* rebasedInPlaceNode(const Tensor& out);
/// attachDerivative's half for a view just rebased: `node` (the op's derivative) replaces the
/// op's node inside CopySlices, keeping its name and edges; false for any other tensor.
bool replaceRebasedInPlaceNode(const Tensor& out, Ref<GradNode>& node);
/// Ends the window in which replaceRebasedInPlaceNode applies (any other node was set since).
void forgetRebasedView();

/// Accumulates the gradient of a leaf that requires grad into its `.grad`.
class AccumulateGrad final : public GradNode {
public:
    explicit AccumulateGrad(Ref<TensorImpl> leaf)
        : GradNode("AccumulateGrad")
        , m_leaf(std::move(leaf)) {}
    std::vector<Tensor> apply(std::vector<Tensor> gradOutputs) override;
    const Ref<TensorImpl>& leaf() const { return m_leaf; }

private:
    Ref<TensorImpl> m_leaf;
};

/// The node of an op whose derivative Kiln does not have yet: backward through it raises.
class UnimplementedBackward final : public GradNode {
public:
    explicit UnimplementedBackward(std::string_view name)
        : GradNode(name) {}
    std::vector<Tensor> apply(std::vector<Tensor> gradOutputs) override;
};

} // namespace kiln::tensor
