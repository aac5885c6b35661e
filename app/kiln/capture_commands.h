// SPDX-License-Identifier: MIT
/// \file
/// Headless views of what torch.compile did in a run: `kiln compiles`, `kiln breaks` and
/// `kiln graph`. They read the trace database, so they also work while the run is going on.
#pragma once

#include <string>

namespace kiln::app {

/// Every compile in order: id, function, reason, status, time, backend, ops; each recompile
/// with the guard that failed.
int listCompiles(const std::string& tracePath, const std::string& runFlag);
/// Every graph break in execution order with its reason and user stack.
int listBreaks(const std::string& tracePath, const std::string& runFlag);
/// One compile's graph (print_readable) and guards.
int showGraph(const std::string& tracePath, const std::string& compileId,
              const std::string& runFlag);

} // namespace kiln::app
