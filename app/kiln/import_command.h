// SPDX-License-Identifier: MIT
/// \file
/// `kiln import LOG... [-o TRACE]`: PyTorch structured-trace logs into a Kiln trace.
#pragma once

#include <string>
#include <vector>

namespace kiln::app {

/// Imports each log as a run of \p tracePath and prints a summary per log. Returns 0, or 2 when a
/// log cannot be read or the trace cannot be written (the logs before it stay imported).
int importLogs(const std::vector<std::string>& logs, const std::string& tracePath);

} // namespace kiln::app
