// SPDX-License-Identifier: MIT
/// \file
/// Headless views of what the compiler produced in a run: `kiln kernels` (the generated kernels
/// with their launch statistics) and `kiln export-diagram` (a graph's pre- or post-fusion
/// diagram as SVG, PNG or DOT). They read the trace database, so they also work on a run that is
/// still going.
#pragma once

#include <string>

namespace kiln::app {

/// What `kiln export-diagram` was asked for; empty strings mean "not given".
struct ExportDiagramRequest {
    std::string tracePath;
    std::string graphId; ///< --graph: a `graphs` row id, as `kiln compiles` shows it
    bool preFusion = false;
    std::string format; ///< --format: svg, png or dot; default: from the output's extension
    std::string output; ///< -o / --output: the file to write, "-" for stdout
};

/// Writes the diagram. 0 on success; 1 when the graph, or its diagram of the asked kind, is
/// missing or cannot be rendered or written; 2 for usage errors and unreadable traces.
int exportDiagram(const ExportDiagramRequest& request);

/// The kernels of a run (\p runFlag, "" for the last) or of one graph (\p graphFlag, a
/// `graphs` row id): name, kind, launches, total and median time, fused nodes; then, for the
/// kernels max-autotune tuned, each candidate's median time, timed runs, spread, whether it was
/// measured in this run or read from the tuning cache, and whether it was chosen or stopped
/// early.
int listKernels(const std::string& tracePath, const std::string& runFlag,
                const std::string& graphFlag);

} // namespace kiln::app
