// SPDX-License-Identifier: MIT
/// \file
/// The script-visible face of a captured graph, shaped like torch.fx 2.3 because it is what
/// users' custom backends poke at: a GraphModule (callable; .graph, .code, .forward,
/// .print_readable()), its Graph (.nodes, str(), .print_tabular()) and its Nodes (.op, .name,
/// .target, .args, .kwargs, .meta, .users, ...). Plus the `operator` module whose functions are
/// the targets of nodes recorded from Python operators.
///
/// Differences from fx: the objects are read-only views of an immutable graph (no graph
/// rewriting, no recompile); meta['example_value'] is a real zero-filled CPU tensor of the
/// traced sizes (fx has a FakeTensor; symbolic sizes show as their example values, the symbols
/// are in meta['sym_shape']).
#pragma once

#include "graph/graph.h"
#include "lang/interpreter.h"

#include <memory>

namespace kiln::graph {

/// The Python object a backend receives: torch.fx.GraphModule over a captured graph.
lang::Value makeGraphModule(lang::Interpreter& interp, std::shared_ptr<const Graph> graph);

/// The graph behind a GraphModule value, or null.
std::shared_ptr<const Graph> graphOf(const lang::Value& graphModule);

/// Registers the `operator` module so scripts can `import operator`; its functions are what
/// operator nodes' `target` returns.
void installOperatorModule(lang::Interpreter& interp);

/// The operator-module function for a node's operator (the value of node.target); Empty when
/// the node records no operator. Needs installOperatorModule.
lang::Value operatorFunction(lang::Interpreter& interp, const Node& node);

} // namespace kiln::graph
