// SPDX-License-Identifier: MIT
/// \file
/// Internal to the api layer: what the fatal-signal handlers of installCrashHandlers() say
/// about the open run. After the trace's emergency flush they print `kiln: crashed: killed by
/// SIGSEGV` and where the run was recorded, like the summary of a run that ended normally.
#pragma once

#include <cstdint>
#include <string>

namespace kiln::api {

/// The run a crash from now on reports: "recorded as run N in PATH".
void armCrashReport(int64_t runId, const std::string& tracePath);
/// No run is open any more: a crash reports only the signal.
void disarmCrashReport();

} // namespace kiln::api
