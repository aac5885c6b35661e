// SPDX-License-Identifier: MIT
// Node names after the user's locals: Dynamo 2.3's STORE_FAST renames the node of a tensor it
// stores (TensorVariable.rename), so `y = torch.relu(x)` prints as `y = torch.relu(l_x_)` and a
// second `y = y + 1` as `y_1 = y + 1`. The node's old name stays taken, as in fx. Only tensors
// are renamed (a SymInt keeps `size`, `mul`), and only frame locals (not globals or cells).
#include "capture/tracer.h"

namespace kiln::capture {

void Tracer::localStore(lang::Symbol name, const lang::Value& value) {
    if (!value.isTensor()) return;
    // torch's own Python is not bytecode Dynamo 2.3 runs: it calls a Sequential's children
    // one by one, so `input = module(input)` in Sequential.forward renames nothing.
    const lang::Frame* frame = m_interp.currentFrame();
    if (frame && frame->globals && frame->globals->name.starts_with("torch")) return;
    tensor::TensorImpl* impl = value.tensorImpl();
    if (m_traced.count(impl)) {
        m_graph.renameNode(nodeOf(value), name.str());
        return;
    }
    // An input not yet read by an op has no placeholder: it is named when it gets one.
    if (m_tensorSources.count(impl)) m_pendingNames.emplace_back(impl, name.str());
}

void Tracer::applyPendingNames(tensor::TensorImpl* impl, int32_t node) {
    for (const auto& [pending, name] : m_pendingNames)
        if (pending == impl) m_graph.renameNode(node, name);
}

void Tracer::undoNamesSince(const NameMark& mark) {
    m_graph.undoRenames(mark.renames);
    m_pendingNames.resize(std::min(m_pendingNames.size(), mark.pending));
}

} // namespace kiln::capture
