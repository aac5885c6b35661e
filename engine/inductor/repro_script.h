// SPDX-License-Identifier: MIT
/// \file
/// fx_graph_runnable.py: a standalone workload that reproduces a compiled graph. It is the
/// decomposed graph written as torch calls, run on random inputs of the recorded sizes both
/// eagerly and through torch.compile, printing the largest difference, so `kiln run` on it
/// replays what the compiler was given without the script that produced it.
#pragma once

#include "compiler/aten_graph.h"
#include "graph/codegen.h"
#include "graph/graph.h"

#include <string>

namespace kiln::inductor {

std::string reproScript(const compiler::AtenGraph& aten, const graph::Graph& captured,
                        const std::string& compileId, const graph::ConstantPrinter& printConstant);

} // namespace kiln::inductor
