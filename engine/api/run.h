// SPDX-License-Identifier: MIT
/// \file
/// The engine's public facade for running a workload: what app/ (the kiln CLI, and later Kiln
/// Studio through its child process) calls. No exception crosses this boundary; everything a
/// script does, including how it failed, comes back in RunResult and is recorded in the trace.
#pragma once

#include "support/compile_overrides.h"
#include "support/event_sink.h"
#include "support/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::api {

struct RunConfig {
    std::string scriptPath;
    /// Trace database; empty means next to the script ("demo.py" -> "demo.kiln"). An existing
    /// trace is appended to, never overwritten.
    std::string dbPath;
    std::string device = "cpu";    ///< "cpu" or "cuda"
    double timeoutSeconds = 0;     ///< 0: no limit
    bool echoOutput = true;        ///< copy the script's stdout/stderr to this process's
    std::vector<std::string> argv; ///< the command line, recorded in the runs table
    CompileOverrides compile;      ///< applied to every torch.compile call of the script
};

enum class RunStatus { Ok, Error, Cancelled };

struct RunResult {
    RunStatus status = RunStatus::Ok;
    int exitCode = 0;
    int64_t runId = 0;
    std::string dbPath;
    std::string errorType; ///< "ZeroDivisionError", "SyntaxError", ...
    std::string errorMessage;
    std::string errorLocation; ///< "/abs/path/x.py:3:12" when known
    double wallSeconds = 0;
    int64_t outputLines = 0;
};

/// Runs a workload to completion. Fails (a Diagnostic) only when the run could not start: the
/// script cannot be read, the trace cannot be opened, the device is unavailable.
/// `observer`, when given, also receives everything the script prints.
Expected<RunResult> runWorkload(const RunConfig& config, EventSink* observer = nullptr);

/// Default trace path for a script: same directory, extension replaced by ".kiln".
std::string defaultTracePath(const std::string& scriptPath);

/// Installs handlers for fatal signals that flush the trace and mark the run crashed before
/// the process dies. Call once at startup of a process that runs workloads.
void installCrashHandlers();

/// Kiln's version string ("0.1.0").
std::string engineVersion();

} // namespace kiln::api
