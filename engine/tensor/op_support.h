// SPDX-License-Identifier: MIT
/// \file
/// Internal helpers shared by the structural op files (views, shape ops, indexing, linear
/// algebra, nn functions): how composite ops name their autograd node. Not part of the public
/// operator API in ops.h.
#pragma once

#include "tensor/grad_node.h"
#include "tensor/tensor.h"

#include <string_view>
#include <vector>

namespace kiln::tensor::detail {

/// recordGradFn over a list of inputs (cat, stack, einsum take any number of tensors).
inline void recordGradFnAny(Tensor& out, std::string_view gradFn,
                            const std::vector<Tensor>& inputs) {
    std::vector<const Tensor*> pointers;
    for (const Tensor& t : inputs)
        pointers.push_back(&t);
    recordGradFn(out, gradFn, pointers);
}

// A composite op built from other ops shows the node torch would show for it, not the node of
// its last building block (stack is cat of unsqueezes, but torch prints StackBackward0):
// tensor::renameGradFn (grad_node.h).

/// Turns grad mode off for a scope, so an op built from other ops records only its own node.
class NoGradGuard : public GradModeGuard {
public:
    NoGradGuard()
        : GradModeGuard(false) {}
};

} // namespace kiln::tensor::detail
