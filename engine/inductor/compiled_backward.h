// SPDX-License-Identifier: MIT
/// \file
/// The autograd node of a compiled graph's outputs (PyTorch's CompiledFunctionBackward): it
/// keeps the tensors the forward saved for the backward, and runs the compiled backward graph
/// (AotBackward) on them and the outputs' gradients, giving each graph input and parameter
/// that requires grad its gradient.
#pragma once

#include "inductor/compiled_graph.h"
#include "tensor/autograd.h"
#include "tensor/grad_node.h"

namespace kiln::inductor {

class CompiledFunctionBackward final : public tensor::GradNode {
public:
    /// `saved`: the forward's extra outputs; `outputs`: its user outputs (for the sizes of the
    /// zero gradients of outputs nothing reached); `symbols`: the call's size symbol values;
    /// `targets`: per AotBackward::grads entry, the input or parameter it is the gradient of.
    CompiledFunctionBackward(std::shared_ptr<const GraphArtifacts> forward,
                             lang::Interpreter& interp, EventSink* sink,
                             const std::vector<tensor::Tensor>& saved,
                             const std::vector<tensor::Tensor>& outputs,
                             std::vector<int64_t> symbols,
                             const std::vector<tensor::Tensor>& targets);

    std::vector<tensor::Tensor> apply(std::vector<tensor::Tensor> gradOutputs) override;
    void releaseSaved() override;

private:
    std::shared_ptr<const GraphArtifacts> m_forward; ///< holds the backward's artifacts too
    lang::Interpreter& m_interp;
    EventSink* m_sink;
    std::vector<tensor::SavedTensor> m_saved;
    struct OutputShape {
        tensor::DimVector sizes;
        tensor::DType dtype;
        tensor::Device device;
    };
    std::vector<OutputShape> m_outputs;
    std::vector<int64_t> m_symbols;
};

} // namespace kiln::inductor
