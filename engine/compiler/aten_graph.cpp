// SPDX-License-Identifier: MIT
#include "compiler/aten_graph.h"

#include "support/assert.h"

#include <algorithm>
#include <cstdio>

namespace kiln::compiler {

int32_t AtenGraph::add(AtenNode node) {
    nodes.push_back(std::move(node));
    return static_cast<int32_t>(nodes.size() - 1);
}

std::vector<int32_t> AtenGraph::userCounts() const {
    std::vector<int32_t> users(nodes.size(), 0);
    for (const AtenNode& n : nodes)
        for (int32_t i : n.inputs)
            ++users[static_cast<size_t>(i)];
    for (int32_t o : outputs)
        if (o >= 0) ++users[static_cast<size_t>(o)];
    return users;
}

bool AtenGraph::isMutationOutput(size_t k) const {
    return std::any_of(mutations.begin(), mutations.end(),
                       [k](const Mutation& m) { return static_cast<size_t>(m.output) == k; });
}

void AtenGraph::removeUnread(const std::vector<int32_t>& candidates) {
    std::vector<int32_t> users = userCounts();
    std::vector<bool> removed(nodes.size(), false);
    bool any = false;
    for (int32_t c : candidates) {
        if (removed[static_cast<size_t>(c)] || users[static_cast<size_t>(c)] != 0) continue;
        removed[static_cast<size_t>(c)] = any = true;
        for (int32_t in : nodes[static_cast<size_t>(c)].inputs)
            if (--users[static_cast<size_t>(in)] == 0 &&
                nodes[static_cast<size_t>(in)].op == "constant_tensor")
                removed[static_cast<size_t>(in)] = true;
    }
    if (!any) return;
    std::vector<int32_t> renumbered(nodes.size(), -1);
    std::vector<AtenNode> kept;
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (removed[i]) continue;
        renumbered[i] = static_cast<int32_t>(kept.size());
        kept.push_back(std::move(nodes[i]));
    }
    auto map = [&](int32_t& i) {
        if (i >= 0) i = renumbered[static_cast<size_t>(i)];
    };
    for (AtenNode& n : kept)
        for (int32_t& in : n.inputs) {
            map(in);
            KILN_ASSERT(in >= 0, "a removed node is still read");
        }
    for (int32_t& o : outputs)
        map(o);
    for (int32_t& c : nodeOfCaptured)
        map(c);
    nodes = std::move(kept);
}

std::string toString(const AtenGraph& g) {
    auto list = [&](const std::vector<Index>& v) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? ", " : "") + toString(v[i], nullptr, &g.symbolNames);
        return s + "]";
    };
    std::string text;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const AtenNode& n = g.nodes[i];
        text += "%" + std::to_string(i) + " = " + n.op + "(";
        std::string args;
        for (int32_t in : n.inputs)
            args += (args.empty() ? "%" : ", %") + std::to_string(in);
        if (n.op == "placeholder" || n.op == "constant_tensor" || n.op == "fallback")
            args += (args.empty() ? "" : ", ") +
                    std::string(n.op == "fallback" ? "node=" : "input=") +
                    std::to_string(n.position);
        if (!n.ints.empty())
            args += (args.empty() ? "" : ", ") +
                    std::string(n.op == "placeholder" ? "strides=" : "") + list(n.ints);
        if (n.op == "constant" || n.op == "full" || n.op == "addmm") {
            char v[40];
            std::snprintf(v, sizeof v, "%.9g", n.scalar);
            args += (args.empty() ? "" : ", ") + std::string(v);
        }
        if (n.flag) args += ", keepdim=True";
        text += args + ") : " + std::string(tensor::dtypeName(n.dtype)) + list(n.sizes);
        if (!n.origin.empty()) text += "  # " + n.origin;
        text += "\n";
    }
    text += "return";
    for (int32_t o : g.outputs)
        text += " %" + std::to_string(o);
    return text + "\n";
}

} // namespace kiln::compiler
