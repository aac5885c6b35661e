// SPDX-License-Identifier: MIT
/// \file
/// Runs a graph op by op through the interpreter's object protocol: what the `eager` backend
/// does, and what GraphModule.forward does for a custom backend. Kiln's compiler replaces this
/// with generated kernels later; this stays the reference.
#pragma once

#include "graph/graph.h"
#include "lang/interpreter.h"

#include <vector>

namespace kiln::graph {

/// Runs `graph` on `inputs` (one per placeholder, in order) and returns the output node's value
/// (a tuple for graphs captured by Kiln).
lang::Value runGraph(lang::Interpreter& interp, const Graph& graph,
                     const std::vector<lang::Value>& inputs);

/// Runs one call node with `env` holding the values of the nodes before it (by node index);
/// what a compiled graph does for an op its compiler leaves to the eager kernels.
lang::Value runNode(lang::Interpreter& interp, const Node& node,
                    const std::vector<lang::Value>& env);

} // namespace kiln::graph
