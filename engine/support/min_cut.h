// SPDX-License-Identifier: MIT
/// \file
/// Minimum s-t cut of a small directed flow network (Dinic's max-flow algorithm). AOT
/// autograd's partitioner (compiler/choose_saved_values) cuts a joint graph of a few thousand
/// nodes at most, where this is microseconds of work; a graph library (Boost.Graph) would
/// add a dependency and template-heavy headers to the build for these sixty lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace kiln {

class FlowNetwork {
public:
    /// A capacity no finite cut reaches: an edge that must never be cut.
    static constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;

    explicit FlowNetwork(int32_t nodes);

    /// A directed edge; capacities are summed into kInfinite at most.
    void addEdge(int32_t from, int32_t to, int64_t capacity);

    /// The maximum flow from `source` to `sink`, which equals the minimum cut's capacity
    /// (kInfinite or more when every cut crosses an infinite edge). Call once.
    int64_t maxFlow(int32_t source, int32_t sink);

    /// After maxFlow: per node, whether it is on the source's side of a minimum cut (reachable
    /// from the source through edges with capacity left). The cut is the edges from that side
    /// to the other.
    std::vector<bool> sourceSide(int32_t source) const;

private:
    struct Edge {
        int32_t to;
        int64_t capacity; ///< what is left
    };
    bool levelGraph(int32_t source, int32_t sink);
    int64_t push(int32_t node, int32_t sink, int64_t limit);

    std::vector<Edge> m_edges;               ///< edge 2k and its reverse 2k+1
    std::vector<std::vector<int32_t>> m_out; ///< per node: its edges' indices
    std::vector<int32_t> m_level;
    std::vector<std::size_t> m_next; ///< per node: the next edge push tries
};

} // namespace kiln
