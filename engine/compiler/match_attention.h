// SPDX-License-Identifier: MIT
/// \file
/// Part of pass 1 (decompose): attention written out by hand, the way model code computes it
/// without scaled_dot_product_attention (nanoGPT's CausalSelfAttention when flash is off),
///
///     att = (q @ k.transpose(-2, -1)) * scale        # or / d, or no scale
///     att = att.masked_fill(masked, float("-inf"))    # optional
///     y = F.softmax(att, dim=-1) @ v
///
/// found in a captured graph, so that decompose emits one flash_attention node for it instead
/// of two batched products around a softmax over the whole score matrix (B*H*T*T scores
/// through memory three times). Inductor rewrites such patterns into
/// scaled_dot_product_attention (its fuse_attention pass) for the same reason.
///
/// A match needs what the fused kernel handles: a graph on a CUDA device, q, k and v of rank 4
/// in bf16 or fp16 with a head size flash_attention supports, a boolean mask, and every
/// intermediate (scores, scaled scores, masked scores, probabilities) used only by the next
/// step, so nothing else reads what the fused kernel never materializes. Results keep eager's
/// semantics: a row masked out entirely is NaN. They are computed as flash attention does
/// (scores in float32, probabilities rounded to the input type once), so they differ from
/// eager's by the roundings of the written-out steps (within bf16/fp16 tolerances).
#pragma once

#include "graph/graph.h"
#include "lang/interpreter.h"

#include <cstdint>
#include <vector>

namespace kiln::compiler {

struct WrittenAttention {
    int32_t q = -1, k = -1, v = -1; ///< captured nodes
    int32_t masked = -1;            ///< the boolean mask's node (true: -inf), or -1 for none
    double scale = 1.0;
    int32_t result = -1;           ///< the final product's node: it becomes flash_attention
    std::vector<int32_t> replaced; ///< the intermediate nodes the fused node stands for
};

/// Every written-out attention of `g` that flash_attention can compute, in graph order.
std::vector<WrittenAttention> findWrittenAttention(lang::Interpreter& interp,
                                                   const graph::Graph& g);

} // namespace kiln::compiler
