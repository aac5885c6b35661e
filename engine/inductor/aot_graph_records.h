// SPDX-License-Identifier: MIT
/// \file
/// AOT autograd's graphs as the trace and the logs show them: the joint graph, the forward
/// and backward graphs it is split into (with what the forward saves for the backward), or
/// the inference graph of a graph that needs no gradients; each printed as PyTorch prints
/// them (compiler/aten_graph_fx). They are reported after their Dynamo graph (`graphs` rows of
/// kind aot_joint, aot_forward, aot_backward, aot_inference) and logged under
/// TORCH_LOGS=aot_graphs and aot_joint_graph.
#pragma once

#include "compiler/differentiate.h"
#include "compiler/partition_joint.h"
#include "support/capture_events.h"
#include "support/torch_logger.h"

#include <span>
#include <vector>

namespace kiln::inductor {

/// The joint, forward and backward graphs of a training compile, in that order. The forward's
/// record lists the values it saves (their names, shapes, dtypes and bytes at the example
/// sizes `exampleSyms`).
std::vector<GraphEvent> aotTrainingGraphs(const compiler::JointGraph& joint,
                                          const compiler::PartitionedGraphs& parts,
                                          std::span<const int64_t> exampleSyms);

/// The graph an inference compile hands to the compiler.
GraphEvent aotInferenceGraph(const compiler::AtenGraph& graph);

/// Logs the graphs as PyTorch 2.3 does: "TRACED GRAPH\n ===== Forward graph 0 =====\n ...".
void logAotGraphs(Logger& logger, const std::string& compileId, int32_t graphIndex,
                  const std::vector<GraphEvent>& graphs);

} // namespace kiln::inductor
