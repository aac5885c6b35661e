// SPDX-License-Identifier: MIT
#include "inductor/compiled_backward.h"

#include "lang/objects.h"
#include "support/assert.h"
#include "tensor/convert.h"
#include "tensor/ops.h"

namespace kiln::inductor {

using lang::Value;
using tensor::Tensor;

CompiledFunctionBackward::CompiledFunctionBackward(std::shared_ptr<const GraphArtifacts> forward,
                                                   lang::Interpreter& interp, EventSink* sink,
                                                   const std::vector<Tensor>& saved,
                                                   const std::vector<Tensor>& outputs,
                                                   std::vector<int64_t> symbols,
                                                   const std::vector<Tensor>& targets)
    : GradNode("CompiledFunctionBackward")
    , m_forward(std::move(forward))
    , m_interp(interp)
    , m_sink(sink)
    , m_symbols(std::move(symbols)) {
    for (const Tensor& t : saved)
        m_saved.emplace_back(t);
    for (const Tensor& t : outputs)
        m_outputs.push_back({t.sizes(), t.dtype(), t.device()});
    outputCount = static_cast<uint32_t>(outputs.size());
    for (const Tensor& t : targets)
        next.push_back(tensor::gradEdgeOf(t));
}

std::vector<Tensor> CompiledFunctionBackward::apply(std::vector<Tensor> gradOutputs) {
    const AotBackward& aot = *m_forward->backward;
    std::vector<Value> inputs;
    for (const tensor::SavedTensor& s : m_saved)
        inputs.emplace_back(tensor::contiguous(s.unpack(*this)));
    // As AOTAutograd: an output nothing reached has a zero tangent; tangents are contiguous.
    for (size_t k = 0; k < m_outputs.size(); ++k) {
        if (aot.tangentOf[k] < 0) continue;
        const OutputShape& out = m_outputs[k];
        Tensor g = k < gradOutputs.size() ? gradOutputs[k] : Tensor();
        if (!g.defined()) g = tensor::zeros(out.sizes, {out.dtype, out.device});
        inputs.emplace_back(tensor::contiguous(tensor::toDType(g, out.dtype)));
    }
    for (int64_t s : m_symbols)
        inputs.push_back(Value::fromInt(s));
    CompiledGraph backward(aot.graph, m_sink, nullptr, std::string());
    Value result = backward.run(m_interp, inputs);
    const auto& items = result.as<lang::TupleObject>()->items;
    KILN_ASSERT(items.size() == next.size(), "one gradient per compiled backward output");
    std::vector<Tensor> grads;
    for (const Value& v : items)
        grads.push_back(v.asTensor());
    return grads;
}

void CompiledFunctionBackward::releaseSaved() {
    for (tensor::SavedTensor& s : m_saved)
        s.release();
}

} // namespace kiln::inductor
