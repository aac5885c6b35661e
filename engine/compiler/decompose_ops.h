// SPDX-License-Identifier: MIT
/// \file
/// Pass 1, decompose: turns a captured graph (torch-level calls, methods, modules) into an
/// AtenGraph of core ops. Composite ops are decomposed (layer_norm into mean/variance math,
/// gelu into erf, softmax into amax/exp/sum/div, linear into addmm on a transposed weight, ...).
/// An op without a decomposition becomes a fallback node (it runs through the eager kernels).
/// A graph whose non-tensor values the compiler cannot follow is refused as a whole: the
/// backend then runs it eagerly and says why.
#pragma once

#include "compiler/aten_graph.h"
#include "graph/graph.h"
#include "lang/interpreter.h"

#include <optional>
#include <string>

namespace kiln::compiler {

struct DecomposeResult {
    std::optional<AtenGraph> graph;
    std::string refusal; ///< why the graph cannot be compiled, when graph is empty
};

struct DecomposeOptions {
    /// Inductor's fallback_random: random ops (rand, randn, rand_like, randn_like, dropout in
    /// training) run through the eager kernels, bit-exact with eager, instead of becoming
    /// kernel code that generates from a per-call seed. The pipeline passes the compile's
    /// options (torch._inductor.config with torch.compile's mode/options applied).
    bool fallbackRandom = false;
    /// Inductor's pattern_matcher: attention written out by hand becomes one flash_attention
    /// node where it fits (match_attention.h). Off, the graph keeps its products and softmax.
    bool matchAttention = true;
    /// Inductor's freezing in inference (no grad): parameters are constants, and a
    /// convolution's batch norm in eval mode is folded into its weights (fold_batch_norm.h).
    bool freezing = false;
};

/// The name a captured node's op goes by for the decomposition rules: a method's name, a
/// module's class, an operator's ("add", "matmul", "truediv"), a function's last component.
std::string capturedOpName(lang::Interpreter& interp, const graph::Node& n);

DecomposeResult decomposeGraph(lang::Interpreter& interp, const graph::Graph& captured,
                               const DecomposeOptions& options = {});

} // namespace kiln::compiler
