// SPDX-License-Identifier: MIT
#include "support/min_cut.h"

#include "support/assert.h"

#include <algorithm>
#include <deque>

namespace kiln {

FlowNetwork::FlowNetwork(int32_t nodes)
    : m_out(static_cast<size_t>(nodes)) {}

void FlowNetwork::addEdge(int32_t from, int32_t to, int64_t capacity) {
    KILN_ASSERT(capacity >= 0, "flow capacities are not negative");
    m_out[static_cast<size_t>(from)].push_back(static_cast<int32_t>(m_edges.size()));
    m_edges.push_back({to, std::min(capacity, kInfinite)});
    m_out[static_cast<size_t>(to)].push_back(static_cast<int32_t>(m_edges.size()));
    m_edges.push_back({from, 0});
}

bool FlowNetwork::levelGraph(int32_t source, int32_t sink) {
    m_level.assign(m_out.size(), -1);
    m_level[static_cast<size_t>(source)] = 0;
    std::deque<int32_t> queue{source};
    while (!queue.empty()) {
        int32_t node = queue.front();
        queue.pop_front();
        for (int32_t e : m_out[static_cast<size_t>(node)]) {
            const Edge& edge = m_edges[static_cast<size_t>(e)];
            if (edge.capacity == 0 || m_level[static_cast<size_t>(edge.to)] >= 0) continue;
            m_level[static_cast<size_t>(edge.to)] = m_level[static_cast<size_t>(node)] + 1;
            queue.push_back(edge.to);
        }
    }
    return m_level[static_cast<size_t>(sink)] >= 0;
}

int64_t FlowNetwork::push(int32_t node, int32_t sink, int64_t limit) {
    if (node == sink) return limit;
    const std::vector<int32_t>& out = m_out[static_cast<size_t>(node)];
    for (size_t& k = m_next[static_cast<size_t>(node)]; k < out.size(); ++k) {
        Edge& edge = m_edges[static_cast<size_t>(out[k])];
        if (edge.capacity == 0 ||
            m_level[static_cast<size_t>(edge.to)] != m_level[static_cast<size_t>(node)] + 1)
            continue;
        int64_t pushed = push(edge.to, sink, std::min(limit, edge.capacity));
        if (pushed == 0) continue;
        edge.capacity -= pushed;
        m_edges[static_cast<size_t>(out[k] ^ 1)].capacity += pushed;
        return pushed;
    }
    return 0;
}

int64_t FlowNetwork::maxFlow(int32_t source, int32_t sink) {
    int64_t flow = 0;
    while (flow < kInfinite && levelGraph(source, sink)) {
        m_next.assign(m_out.size(), 0);
        while (int64_t pushed = push(source, sink, kInfinite)) {
            flow += pushed;
            if (flow >= kInfinite) break;
        }
    }
    return flow;
}

std::vector<bool> FlowNetwork::sourceSide(int32_t source) const {
    std::vector<bool> reached(m_out.size(), false);
    reached[static_cast<size_t>(source)] = true;
    std::vector<int32_t> stack{source};
    while (!stack.empty()) {
        int32_t node = stack.back();
        stack.pop_back();
        for (int32_t e : m_out[static_cast<size_t>(node)]) {
            const Edge& edge = m_edges[static_cast<size_t>(e)];
            if (edge.capacity == 0 || reached[static_cast<size_t>(edge.to)]) continue;
            reached[static_cast<size_t>(edge.to)] = true;
            stack.push_back(edge.to);
        }
    }
    return reached;
}

} // namespace kiln
