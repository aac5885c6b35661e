// SPDX-License-Identifier: MIT
/// \file
/// Headless views of a trace database: `kiln runs` and `kiln output`.
#pragma once

#include "trace/trace_reader.h"

#include <memory>
#include <string>

namespace kiln::app {

/// Opens a trace and picks a run: `runFlag` ("" for the last run). False after a message.
bool openRun(const std::string& tracePath, const std::string& runFlag,
             std::unique_ptr<trace::TraceReader>& reader, int64_t& runId);

int listRuns(const std::string& tracePath);
int printOutput(const std::string& tracePath, const std::string& runFlag);

} // namespace kiln::app
