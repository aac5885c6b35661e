// SPDX-License-Identifier: MIT
#include "compiler/partition_joint.h"

#include "compiler/choose_saved_values.h"

#include <algorithm>

namespace kiln::compiler {

namespace {

enum class Place : uint8_t { Unused, Saved, Backward };

std::vector<Place> placeNodes(const JointGraph& joint, const std::vector<bool>& recomputed) {
    const AtenGraph& g = joint.graph;
    std::vector<Place> place(g.nodes.size(), Place::Unused);
    std::vector<int32_t> stack;
    for (const GradTarget& t : joint.grads)
        stack.push_back(t.node);
    for (int32_t t : joint.tangentOf)
        if (t >= 0) stack.push_back(t);
    while (!stack.empty()) {
        int32_t i = stack.back();
        stack.pop_back();
        if (place[static_cast<size_t>(i)] != Place::Unused) continue;
        if (i < joint.forwardNodes && !recomputed[static_cast<size_t>(i)]) {
            place[static_cast<size_t>(i)] = Place::Saved;
            continue;
        }
        place[static_cast<size_t>(i)] = Place::Backward;
        for (int32_t in : g.nodes[static_cast<size_t>(i)].inputs)
            stack.push_back(in);
    }
    return place;
}

AtenGraph forwardGraph(const JointGraph& joint, const std::vector<int32_t>& saved) {
    AtenGraph f = joint.graph;
    f.nodes.resize(static_cast<size_t>(joint.forwardNodes));
    f.outputs.insert(f.outputs.end(), saved.begin(), saved.end());
    return f;
}

} // namespace

PartitionedGraphs partitionJoint(const JointGraph& joint, std::span<const int64_t> exampleSymbols) {
    const AtenGraph& g = joint.graph;
    std::vector<Place> place = placeNodes(joint, chooseRecomputed(joint, exampleSymbols));
    std::vector<int32_t> saved;
    for (int32_t i = 0; i < joint.forwardNodes; ++i)
        if (place[static_cast<size_t>(i)] == Place::Saved) saved.push_back(i);

    PartitionedGraphs p;
    p.forward = forwardGraph(joint, saved);
    p.userOutputs = static_cast<int32_t>(g.outputs.size());
    p.saved = static_cast<int32_t>(saved.size());
    p.grads = joint.grads;

    AtenGraph& b = p.backward;
    b.constants = g.constants;
    b.symbolNames = g.symbolNames;
    std::vector<int32_t> renumbered(g.nodes.size(), -1);
    auto addInput = [&](int32_t joint, int32_t position) {
        const AtenNode& n = g.nodes[static_cast<size_t>(joint)];
        AtenNode in;
        in.op = "placeholder";
        in.position = position;
        in.sizes = n.sizes;
        in.dtype = n.dtype;
        in.origin = n.origin;
        in.originOp = n.originOp;
        renumbered[static_cast<size_t>(joint)] = b.add(std::move(in));
    };
    for (size_t k = 0; k < saved.size(); ++k)
        addInput(saved[k], static_cast<int32_t>(k));
    for (int32_t t : joint.tangentOf) {
        if (t < 0) {
            p.tangentOf.push_back(-1);
            continue;
        }
        p.tangentOf.push_back(p.saved + p.tangents);
        addInput(t, p.saved + p.tangents++);
    }
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        if (place[i] != Place::Backward || renumbered[i] >= 0) continue;
        AtenNode n = g.nodes[i];
        for (int32_t& in : n.inputs)
            in = renumbered[static_cast<size_t>(in)];
        renumbered[i] = b.add(std::move(n));
    }
    for (GradTarget& t : p.grads) {
        t.node = renumbered[static_cast<size_t>(t.node)];
        b.outputs.push_back(t.node);
    }
    b.inputCount = p.saved + p.tangents + static_cast<int32_t>(g.symbolNames.size());
    for (size_t s = 0; s < g.symbolNames.size(); ++s) {
        AtenGraph::SymbolSource source;
        source.input = p.saved + p.tangents + static_cast<int32_t>(s);
        b.symbolSources.push_back(source);
    }
    return p;
}

} // namespace kiln::compiler
