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

std::string fusedNodesLabel(const std::string& fusedNodes,
                            std::span<const trace::GraphNodeRow> nodes) {
    std::string out;
    size_t start = 0;
    while (start <= fusedNodes.size()) {
        size_t end = std::min(fusedNodes.find(',', start), fusedNodes.size());
        std::string name = fusedNodes.substr(start, end - start);
        start = end + 1;
        if (name.empty()) continue;
        auto node = std::find_if(nodes.begin(), nodes.end(),
                                 [&](const trace::GraphNodeRow& n) { return n.name == name; });
        if (!out.empty()) out += ", ";
        out += node == nodes.end() ? name : nodeLabel(*node);
    }
    return out;
}

} // namespace kiln::views
