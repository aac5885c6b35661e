// SPDX-License-Identifier: MIT
/// \file
/// AOTAutograd's partitioner: splits a joint graph (differentiate.h) into the forward graph,
/// which also returns the values the backward needs (the saved tensors), and the backward
/// graph, which takes them with the tangents. What is saved and what the backward recomputes
/// is chosen by a minimum cut, as PyTorch's default partitioner chooses (choose_saved_values.h).
#pragma once

#include "compiler/differentiate.h"

#include <cstdint>
#include <span>

namespace kiln::compiler {

struct PartitionedGraphs {
    /// Outputs: the forward graph's own outputs, then the saved values.
    AtenGraph forward;
    /// Inputs: the saved values, the tangents, then one int per size symbol (the forward's
    /// values of them). Outputs: one gradient per JointGraph::grads entry.
    AtenGraph backward;
    int32_t userOutputs = 0;
    int32_t saved = 0;
    int32_t tangents = 0;
    /// Per forward output: its tangent's input position in the backward graph (-1: none).
    std::vector<int32_t> tangentOf;
    std::vector<GradTarget> grads; ///< per backward output: whose gradient it is
};

/// `exampleSymbols`: the size symbols' values in the example inputs (the cut weighs bytes).
PartitionedGraphs partitionJoint(const JointGraph& joint, std::span<const int64_t> exampleSymbols);

} // namespace kiln::compiler
