// SPDX-License-Identifier: MIT
/// \file
/// How the capture layer reaches Kiln's compiler without depending on it: the embedding
/// program (engine/api) installs an InductorCompiler, and the `inductor` backend hands it every
/// captured graph. Without one installed, the backend runs graphs through the eager kernels.
#pragma once

#include "graph/graph.h"
#include "lang/interpreter.h"
#include "support/event_sink.h"
#include "support/options.h"
#include "support/torch_logger.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kiln::capture {

struct InductorRequest {
    lang::Interpreter& interp;
    std::shared_ptr<graph::Graph> graph;
    const std::vector<lang::Value>& exampleInputs;
    std::string compileId;
    int32_t graphIndex = 0;   ///< the index the graph gets in the trace (GraphEvent::graphIndex)
    OptionValues options;     ///< the effective torch._inductor.config of this compile
    std::string debugDirRoot; ///< torch._dynamo.config.debug_dir_root (where debug traces go)
    Logger& logger;
    EventSink& sink;
};

struct InductorResult {
    lang::Value callable; ///< called with the graph inputs, returns the outputs tuple
    /// Reports what refers to the graph's trace row (kernels, diagrams); called right after
    /// the graph itself is reported.
    std::function<void()> afterGraphReported;
};

/// Compiles a graph; raises a Python exception (becoming BackendCompilerFailed) on failure.
using InductorCompiler = std::function<InductorResult(const InductorRequest&)>;

} // namespace kiln::capture
