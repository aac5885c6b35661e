// SPDX-License-Identifier: MIT
/// \file
/// A synthetic trace shaped like a real `kiln run` of a large model, written through the real
/// TraceWriter: frames compiled and recompiled, graphs with nodes and readable code, kernels of
/// every kind with source code, pre- and post-fusion diagrams, compiler passes, guards,
/// recompiles, graph breaks, output lines, and kernel launches of compiled graphs called in a
/// loop where a few hot graphs run most often (as the layers of a model's step do).
#pragma once

#include "trace/trace_writer.h"

#include <cstdint>
#include <string>

namespace kiln::bench {

struct SyntheticShape {
    int graphs = 1000;
    int64_t launches = 100'000;
    int kernelsPerGraph = 4;
    int nodesPerGraph = 14;
};

struct SyntheticCounts {
    int64_t runId = 0;
    int64_t compiles = 0;
    int64_t graphs = 0;
    int64_t kernels = 0;
    int64_t launches = 0;
    int64_t extentNs = 0; ///< run-relative end of the last launch
};

/// Writes one finished run of \p shape into the trace at \p path (created or appended to).
SyntheticCounts writeSyntheticRun(const std::string& path, const SyntheticShape& shape);

/// Emits one compiled graph (frame, compile, guards, graph, kernels, diagrams, passes) into the
/// open run of \p writer, starting at monotonic time \p atNs; returns the compile's end. The
/// kernels get ids kernelBase .. kernelBase + kernelsPerGraph - 1.
int64_t emitCompiledGraph(trace::TraceWriter& writer, const SyntheticShape& shape, int graph,
                          int64_t kernelBase, int64_t atNs);
/// Emits the launches of one call of graph \p graph from \p atNs; returns when the call ended.
int64_t emitGraphCall(trace::TraceWriter& writer, const SyntheticShape& shape, int graph,
                      int64_t kernelBase, int64_t atNs);

} // namespace kiln::bench
