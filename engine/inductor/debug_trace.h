// SPDX-License-Identifier: MIT
/// \file
/// trace.enabled (TORCH_COMPILE_DEBUG=1): the debug directory of reference §9, per graph:
///   <root>/run_<date>-pid_<pid>/torchinductor/model__<graph>_inference_<n>.<n>/
///     fx_graph_readable.py   the captured graph as print_readable shows it
///     fx_graph_transformed.py the decomposed graph (core ops)
///     fx_graph_runnable.py   a standalone repro that runs under `kiln run`
///     ir_pre_fusion.txt, ir_post_fusion.txt   the loop IR before and after fusion
///     output_code.py         every kernel's loop IR and generated LLVM IR
///     graph_diagram.svg      with trace.graph_diagram (the post-fusion diagram)
/// <root> is trace.debug_dir when set, else debug_dir_root ($TORCH_COMPILE_DEBUG_DIR/
/// torch_compile_debug or ./torch_compile_debug) with one run directory per process.
#pragma once

#include "inductor/pipeline.h"

#include <string>

namespace kiln::inductor {

struct DebugTraceInput {
    const GraphArtifacts& artifacts;
    const PipelineResult& pipeline;
    const OptionValues& options;
    std::string compileId;
    int32_t graphIndex = 0;
    std::string readableGraph; ///< the captured graph, print_readable style
    std::string reproScript;   ///< fx_graph_runnable.py
    std::string postFusionDot; ///< the diagram, rendered when trace.graph_diagram is set
    std::string debugDirRoot;  ///< debug_dir_root as the script set it; empty: the sandbox root
};

/// Writes the graph's folder; returns its path, or an error when the folder cannot be written
/// (the compile goes on; the caller logs the problem).
Expected<std::string> writeDebugTrace(const DebugTraceInput& input);

} // namespace kiln::inductor
