// SPDX-License-Identifier: MIT
/// \file
/// `kiln import FILE... [-o TRACE]` and `kiln import PROFILE.json... --into TRACE [--run N]`:
/// PyTorch structured-trace logs and torch.profiler Chrome traces into a Kiln trace.
#pragma once

#include <string>
#include <vector>

namespace kiln::app {

struct ImportRequest {
    std::vector<std::string> files; ///< logs and profiles (.json), in command-line order
    std::string trace;              ///< -o, or the default next to the first file
    bool outputGiven = false;
    std::string into; ///< --into TRACE: profiles go into an existing run
    std::string run;  ///< --run N with --into; empty: the trace's last run
};

/// Imports each log as a run of the trace and each profile into the run of the log before it
/// (a new run when none), or with --into into run N of that trace, printing a summary per file.
/// Returns 0; 2 for a usage error, a file that cannot be read or is not what it should be, or a
/// trace that cannot be written (the files before it stay imported).
int importFiles(const ImportRequest& request);

} // namespace kiln::app
