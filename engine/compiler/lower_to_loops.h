// SPDX-License-Identifier: MIT
/// \file
/// Pass 2, lower_to_loops: turns the decomposed graph into the loop IR. Pointwise ops and views
/// stay lazy (an index -> scalar function, as Inductor's TensorBox/Pointwise inner functions)
/// and are inlined into their consumers; a value is realized into a buffer when it is a graph
/// output, a reduction, a matrix product's operand, a fallback's input, or when inlining it
/// would recompute too much (realize_reads_threshold / realize_opcount_threshold).
#pragma once

#include "compiler/aten_graph.h"
#include "compiler/loop_ir.h"

namespace kiln::compiler {

struct LoweringOptions {
    int realizeReadsThreshold = 4;    ///< realize a value read by more users than this
    int realizeOpcountThreshold = 30; ///< ... or read twice or more with more ops than this
    /// split_reductions: a reduction to a single value over many elements becomes partial
    /// reductions of chunks (run in parallel) and a reduction of the partials.
    bool splitReductions = true;
    /// Every output in a contiguous buffer the program computes: an output that would be a
    /// view of an input (or a strided view of anything) is copied (the eager device ops'
    /// `clone` and `contiguous`, whose single-op graphs compute nothing else).
    bool freshOutputs = false;
};

/// Where a graph output lives once the program ran: a strided view of a buffer.
using OutputView = BufferView;

struct LoweredGraph {
    LoopProgram program;
    std::vector<OutputView> outputs;
};

LoweredGraph lowerToLoops(const AtenGraph& graph, const LoweringOptions& options);

} // namespace kiln::compiler
