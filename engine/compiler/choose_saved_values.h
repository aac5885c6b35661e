// SPDX-License-Identifier: MIT
/// \file
/// What a training graph's forward saves for its backward and what the backward recomputes,
/// chosen as PyTorch's default partitioner does (min_cut_rematerialization_partition): the
/// forward part of the joint graph becomes a flow network whose cut edges are the saved
/// tensors, each costing its bytes, and a minimum cut saves the least memory that still lets
/// the backward compute everything it reads. The backward recomputes cheap fusible values
/// (pointwise math, views, sums and maxima) from what is saved; matrix products, attention,
/// convolutions, random values, opaque fallbacks and ops outside PyTorch's recomputable list
/// are never recomputed, nor is a value a backward matrix product reads (it would have to be
/// written to memory anyway) or a reduction whose result is four times smaller than its inputs.
/// Nodes nearer the backward weigh a little more (1.1 per step), values that would otherwise
/// be fused away weigh double, as in PyTorch. PyTorch's later refinements (banning a
/// recompute that reads values from far apart, or a long fusible chain) are not made.
#pragma once

#include "compiler/differentiate.h"

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::compiler {

/// Per forward node of `joint` (below joint.forwardNodes): whether the backward computes it
/// itself rather than reading it saved. Sizes are evaluated with the symbols' example values.
std::vector<bool> chooseRecomputed(const JointGraph& joint,
                                   std::span<const int64_t> exampleSymbols);

} // namespace kiln::compiler
