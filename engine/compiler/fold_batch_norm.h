// SPDX-License-Identifier: MIT
/// \file
/// Part of pass 1 (decompose), under Inductor's `freezing` in inference: a batch norm in eval
/// mode that reads a convolution nothing else reads is folded into that convolution's weights,
/// as Inductor's freezing pass does (torch.nn.utils.fuse_conv_bn_weights):
///
///     scale = bn.weight * rsqrt(bn.running_var + eps)
///     conv.weight' = conv.weight * scale (per output channel)
///     conv.bias'   = (conv.bias - bn.running_mean) * scale + bn.bias
///
/// computed once, when the graph compiles, from the values the parameters and statistics have
/// then: freezing's contract is that they are constants (a later change to them is not seen
/// by the compiled graph, as in PyTorch). The graph then runs one convolution where it ran a
/// convolution and a per-channel affine pass over its output.
#pragma once

#include "compiler/decompose_context.h"

#include <cstdint>
#include <optional>

namespace kiln::compiler {

/// The operands of an eval-mode batch norm, as graph nodes.
struct BatchNormOperands {
    int32_t input = -1, mean = -1, var = -1;
    std::optional<int32_t> weight, bias;
    double eps = 1e-5;
};

/// The folded convolution's node, or nullopt when the norm does not fold (freezing off, an
/// input that is no convolution or has other readers, statistics or weights that are not
/// constants of the graph, or a result that needs gradients).
std::optional<int32_t> foldBatchNormIntoConvolution(OpCall& c, const BatchNormOperands& bn);

} // namespace kiln::compiler
