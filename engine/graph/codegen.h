// SPDX-License-Identifier: MIT
/// \file
/// Graphs as Python source, the way torch.fx prints them: GraphModule.code (a `forward`
/// function) and print_readable() (the same inside `class GraphModule`, with shape/dtype
/// annotations and `# File: ..., code: ...` comments giving the user line of each group of
/// nodes). Both drop each value after its last use (`;  x = None`) as fx does.
#pragma once

#include "graph/graph.h"

#include <functional>
#include <string>

namespace kiln::graph {

/// Prints a constant argument (repr of the value); supplied by the caller because only the
/// interpreter knows how to repr every value.
using ConstantPrinter = std::function<std::string(const lang::Value&)>;

/// One argument as generated code spells it: a node's name, a constant, a tuple, a slice.
std::string argText(const Graph& graph, const Arg& a, const ConstantPrinter& printConstant);

std::string pythonCode(const Graph& graph, const ConstantPrinter& printConstant);
std::string readableCode(const Graph& graph, const ConstantPrinter& printConstant);

} // namespace kiln::graph
