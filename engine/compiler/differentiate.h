// SPDX-License-Identifier: MIT
/// \file
/// AOTAutograd's joint graph: the decomposed forward graph followed by its backward, built by
/// reverse-mode differentiation of the core ops. Each graph output that requires grad gets a
/// tangent (its incoming gradient, a placeholder); each graph input and module parameter that
/// requires grad gets the node computing its gradient. partition_joint then splits the joint
/// graph into the forward and backward graphs that are compiled.
#pragma once

#include "compiler/aten_graph.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::compiler {

/// What a gradient is for: graph input `position`, or constant (parameter) `position`.
struct GradTarget {
    bool constant = false;
    int32_t position = 0;
    int32_t node = -1; ///< the joint graph node computing the gradient
};

struct JointGraph {
    /// Nodes [0, forwardNodes) are the forward graph as decomposed; the tangents and the
    /// backward nodes follow. `graph.outputs` are the forward graph's outputs.
    AtenGraph graph;
    int32_t forwardNodes = 0;
    /// Per forward output: its tangent's placeholder node, -1 for an output needing no grad.
    std::vector<int32_t> tangentOf;
    /// The inputs that get a gradient, in input order then constant order. An input that
    /// requires grad but no output depends on is left out (its .grad stays None, as PyTorch's).
    std::vector<GradTarget> grads;
};

struct DifferentiateResult {
    std::optional<JointGraph> joint; ///< empty: nothing to differentiate, or refused
    /// Why not: an op on a path from a parameter to an output has no derivative here yet.
    std::string refusal;
};

/// Whether `graph`, run with grad mode on, has an output that requires grad.
bool needsBackward(const AtenGraph& graph);

/// The joint forward-backward graph of `forward` (which needsBackward).
DifferentiateResult differentiate(const AtenGraph& forward);

} // namespace kiln::compiler
