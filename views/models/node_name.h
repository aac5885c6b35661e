// SPDX-License-Identifier: MIT
/// \file
/// How Studio names a graph node for people: a call_module node by the module it calls, as the
/// code reads it, and its class ("net.0 (Linear)"), rather than Dynamo's mangled node name
/// (`l__self___net_0`), which stays the node's identity; every other node by its name.
#pragma once

#include "trace/trace_types.h"

#include <span>
#include <string>
#include <unordered_map>

namespace kiln::views {

/// "net.0 (Linear)" for a call_module node whose module the trace names (the `self.` of a
/// method's own modules left out), else the node's name ("matmul", "add_1").
std::string nodeLabel(const trace::GraphNodeRow& node);

/// The nodes of a graph whose label is not their name (call_module nodes that name their
/// module): name -> label. Built once per graph: kernels look their nodes up in it.
using NodeLabels = std::unordered_map<std::string, std::string>;
NodeLabels moduleNodeLabels(std::span<const trace::GraphNodeRow> nodes);

/// A kernel's `fused_nodes` ("l__self___net_5,l__self___net_6") as people read them:
/// "net.5 (LayerNorm), net.6 (ReLU)"; a node without a label keeps its name.
std::string fusedNodesLabel(const std::string& fusedNodes, const NodeLabels& labels);

} // namespace kiln::views
