// SPDX-License-Identifier: MIT
#include "inductor/graph_mutations.h"

#include "inductor/eager_device_writes.h"
#include "tensor/autograd.h"

namespace kiln::inductor {

using compiler::AtenGraph;
using tensor::Tensor;

Tensor mutatedTensor(const AtenGraph& graph, std::span<const lang::Value> inputs,
                     const AtenGraph::Mutation& m) {
    auto position = static_cast<size_t>(m.position);
    return m.constant ? graph.constants[position] : inputs[position].asTensor();
}

bool mutatedTensorAliased(const AtenGraph& graph, std::span<const lang::Value> inputs) {
    if (graph.mutations.empty()) return false;
    std::vector<Tensor> read;
    for (const lang::Value& v : inputs)
        if (v.isTensor()) read.push_back(v.asTensor());
    read.insert(read.end(), graph.constants.begin(), graph.constants.end());
    for (const AtenGraph::Mutation& m : graph.mutations) {
        Tensor written = mutatedTensor(graph, inputs, m);
        int same = 0; // the written tensor itself is among those read, once
        for (const Tensor& t : read) {
            if (t.storage().get() != written.storage().get()) continue;
            if (!t.sameImpl(written) || ++same > 1) return true;
        }
    }
    return false;
}

void writeMutations(lang::Interpreter& interp, const AtenGraph& graph,
                    std::span<const lang::Value> inputs, const std::vector<Tensor>& outputs) {
    // Without grad, as the writes were traced (a leaf that requires grad is written only so):
    // autograd records none of them.
    tensor::GradModeGuard noGrad(false);
    for (const AtenGraph::Mutation& m : graph.mutations) {
        Tensor target = mutatedTensor(graph, inputs, m);
        // As an in-place op: checked, converted, and the version counter moves on.
        writeResultInto(interp, lang::Value(target),
                        lang::Value(outputs[static_cast<size_t>(m.output)]));
    }
}

} // namespace kiln::inductor
