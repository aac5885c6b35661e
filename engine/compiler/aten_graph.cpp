// SPDX-License-Identifier: MIT
#include "compiler/aten_graph.h"

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
