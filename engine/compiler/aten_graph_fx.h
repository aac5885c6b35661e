// SPDX-License-Identifier: MIT
/// \file
/// A decomposed graph as PyTorch prints AOT autograd's graphs (TORCH_LOGS=aot_graphs, the
/// `aot_forward_graph` records of TORCH_TRACE): a GraphModule whose forward takes `primals_1`
/// ... (or `arg0_1` ... for an inference graph, the saved values and `tangents_1` ... for a
/// backward graph) and calls `torch.ops.aten` ops, one line per node, each value annotated
/// with its dtype and sizes ("f32[4, 16]"), and the values that die on a line set to None.
///
/// The ops are Kiln's core ops, named as their aten counterparts where one exists (Kiln's own,
/// such as its Welford steps, are `torch.ops.kiln.*`); scalar constants are written into the
/// arguments that read them, as PyTorch's scalar overloads take them.
#pragma once

#include "compiler/aten_graph.h"
#include "support/capture_events.h"

#include <string>
#include <vector>

namespace kiln::compiler {

struct FxPrintOptions {
    /// The name of each placeholder, by its input position (`primals_3`, `tangents_1`, `s0`).
    std::vector<std::string> inputNames;
    /// Graph outputs written as None (a backward's gradients of inputs that need none).
    std::vector<bool> noneOutputs;
};

/// The printed graph: readableCode, nodeCount, opCount and one GraphNodeInfo per line of
/// code (placeholders, ops, output), in graph order. The caller fills in compileId, graphIndex
/// and kind.
GraphEvent printAsFx(const AtenGraph& graph, const FxPrintOptions& options);

/// The names printAsFx gives to the graph's nodes, by node index ("" for a constant written
/// into its readers' arguments): how a backward graph names the values its forward saved.
std::vector<std::string> fxNodeNames(const AtenGraph& graph, const FxPrintOptions& options);

/// `primals_1` ... `primals_n` (training) or `arg0_1` ... (inference) for a forward graph's
/// inputs, then the size symbols' names.
std::vector<std::string> forwardInputNames(const AtenGraph& graph, bool training);

} // namespace kiln::compiler
