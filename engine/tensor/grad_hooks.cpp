// SPDX-License-Identifier: MIT
// Tensor hooks: register_hook's functions and retain_grad, run by the autograd engine on a
// tensor's gradient before the gradient is used (grad_node.h, GradHooks).
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/ops.h"

namespace kiln::tensor {

namespace {

/// Where `t`'s hooks live: its grad_fn's (a non-leaf) or its own (a leaf), made on first use.
GradHooks& hooksOf(const Tensor& t) {
    if (GradNode* node = t.gradNode().get()) {
        if (!node->hooks) node->hooks = std::make_unique<GradHooks>();
        return *node->hooks;
    }
    if (!t.impl()->leafHooks) t.impl()->leafHooks = std::make_shared<GradHooks>();
    return *t.impl()->leafHooks;
}

} // namespace

Tensor GradHooks::run(uint32_t outputNr, Tensor grad) const {
    for (const auto* list : {&hooks, &retainHooks})
        for (const Hook& h : *list) {
            if (h.outputNr != outputNr || !grad.defined()) continue;
            Tensor replaced = h.fn(grad);
            if (replaced.defined()) grad = replaced;
        }
    return grad;
}

void addGradHook(const Tensor& t, GradHookFn fn) {
    if (!t.requiresGrad())
        failRuntime("cannot register a hook on a tensor that doesn't require gradient");
    hooksOf(t).hooks.push_back({t.impl()->gradOutputNr, std::move(fn)});
}

void retainGrad(const Tensor& t) {
    if (!t.requiresGrad()) failRuntime("can't retain_grad on Tensor that has requires_grad=False");
    if (!t.gradNode() || t.impl()->retainedGrad) return; // a leaf keeps its .grad anyway
    t.impl()->retainedGrad = std::make_shared<Ref<TensorImpl>>();
    std::weak_ptr<Ref<TensorImpl>> slot = t.impl()->retainedGrad;
    hooksOf(t).retainHooks.push_back(
        {t.impl()->gradOutputNr, [slot](const Tensor& grad) {
             std::shared_ptr<Ref<TensorImpl>> kept = slot.lock();
             if (!kept) return Tensor(); // the tensor is gone
             if (*kept) {
                 *kept = binary(BinaryOp::Add, Tensor(*kept), grad).implRef();
                 return Tensor();
             }
             Tensor own = clone(grad);
             if (!gradModeEnabled()) { // not create_graph
                 own.impl()->requiresGrad = false;
                 clearGradFn(own);
             }
             *kept = own.implRef();
             return Tensor();
         }});
}

} // namespace kiln::tensor
