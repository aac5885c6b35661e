// SPDX-License-Identifier: MIT
#include "node_name.h"

#include <algorithm>

namespace kiln::views {

std::string nodeLabel(const trace::GraphNodeRow& node) {
    if (node.modulePath.empty() || node.moduleType.empty()) return node.name;
    std::string path = node.modulePath;
    if (path.rfind("self.", 0) == 0) path.erase(0, 5);
    return path + " (" + node.moduleType + ")";
}

NodeLabels moduleNodeLabels(std::span<const trace::GraphNodeRow> nodes) {
    NodeLabels labels;
    for (const trace::GraphNodeRow& n : nodes)
        if (!n.modulePath.empty() && !n.moduleType.empty()) labels.emplace(n.name, nodeLabel(n));
    return labels;
}

std::string fusedNodesLabel(const std::string& fusedNodes, const NodeLabels& labels) {
    std::string out;
    size_t start = 0;
    while (start <= fusedNodes.size()) {
        size_t end = std::min(fusedNodes.find(',', start), fusedNodes.size());
        std::string name = fusedNodes.substr(start, end - start);
        start = end + 1;
        if (name.empty()) continue;
        auto label = labels.find(name);
        if (!out.empty()) out += ", ";
        out += label == labels.end() ? name : label->second;
    }
    return out;
}

} // namespace kiln::views
