// SPDX-License-Identifier: MIT
/// \file
/// The epilogue of a graph that writes tensors in place (AtenGraph::mutations): AOTAutograd's
/// functionalization computes each new value out of place and returns it after the user's
/// outputs; after the kernels ran, it is copied into the graph input or module tensor
/// (a batch norm's running statistics, `x.add_(1)` on an input, an optimizer's parameters).
#pragma once

#include "compiler/aten_graph.h"
#include "lang/interpreter.h"

#include <span>
#include <vector>

namespace kiln::inductor {

/// The tensor a mutation writes: a graph input or a module tensor (the graph's constant).
tensor::Tensor mutatedTensor(const compiler::AtenGraph& graph, std::span<const lang::Value> inputs,
                             const compiler::AtenGraph::Mutation& m);

/// Whether a tensor the graph writes shares memory with another tensor it reads: the kernels
/// would read values the write-back changes, or the other way round. The call then runs
/// through the eager kernels (AOTAutograd handles such aliased inputs by regenerating them
/// from a common base; too rare here to be worth a compiled path).
bool mutatedTensorAliased(const compiler::AtenGraph& graph, std::span<const lang::Value> inputs);

/// Copies each mutation's new value (`outputs`, per graph output) into its tensor, as an
/// in-place op writes (its version counter moves on once).
void writeMutations(lang::Interpreter& interp, const compiler::AtenGraph& graph,
                    std::span<const lang::Value> inputs,
                    const std::vector<tensor::Tensor>& outputs);

} // namespace kiln::inductor
