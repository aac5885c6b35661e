// SPDX-License-Identifier: MIT
/// \file
/// The engine's public facade for running a workload: what app/ (the kiln CLI, and later Kiln
/// Studio through its child process) calls. No exception crosses this boundary; everything a
/// script does, including how it failed, comes back in RunResult and is recorded in the trace.
#pragma once

#include "api/call_timer.h"
#include "support/compile_overrides.h"
#include "support/event_sink.h"
#include "support/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::api {

/// The longest --timeout: 30 days (README, "Running workloads"); longer is a usage error.
constexpr double kMaxTimeoutSeconds = 30.0 * 24 * 3600;

struct RunConfig {
    /// A regular file of at most 64 MiB (api/script_file.h).
    std::string scriptPath;
    /// Trace database; empty means next to the script ("demo.py" -> "demo.kiln"). An existing
    /// trace is appended to, never overwritten.
    std::string dbPath;
    std::string device = "cpu"; ///< "cpu" or "cuda"
    /// 0: no limit; else a finite number of seconds up to kMaxTimeoutSeconds, counted from the
    /// start of runWorkload (reading the script included).
    double timeoutSeconds = 0;
    bool echoOutput = true;        ///< copy the script's stdout/stderr to this process's
    std::vector<std::string> argv; ///< the command line, recorded in the runs table
    /// Applied to every torch.compile call of the script. A mode must be one of torch.compile's
    /// and a backend one of the built-in ones: a custom backend exists only inside its script.
    CompileOverrides compile;
    /// The directory torch.compile's debug traces (TORCH_COMPILE_DEBUG, trace.enabled) may be
    /// written under; empty: $TORCH_COMPILE_DEBUG_DIR/torch_compile_debug or
    /// <cwd>/torch_compile_debug. The script's debug_dir_root and trace.debug_dir must lie inside.
    std::string debugDir;
    /// calls > 0: once the script has finished, each torch.compile'd function it called is
    /// called again with its latest arguments, warm-up then timed calls (kiln run --measure).
    CallTimingPlan measure;
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
    /// Empty unless the trace could not take everything: which rows it lost and why, or that
    /// the run's end could not be recorded. The run is then never 'ok'; a run that was ok has
    /// status Error, exit code 2 and errorType "TraceError" with this text as its message.
    std::string traceProblem;
};

/// Runs a workload to completion. Fails (a Diagnostic) only when the run could not start: a bad
/// setting (kind "UsageError": timeout, mode, backend, device, a trace path that is the script),
/// the script cannot be read, the trace cannot be opened, the device is unavailable.
/// `observer`, when given, also receives everything the script prints.
Expected<RunResult> runWorkload(const RunConfig& config, EventSink* observer = nullptr);

/// Default trace path for a script: same directory, extension replaced by ".kiln".
std::string defaultTracePath(const std::string& scriptPath);

/// Installs handlers for fatal signals that flush the trace and mark the run crashed before
/// the process dies, then print a `kiln: crashed` line naming the run. Call once at startup of
/// a process that runs workloads.
void installCrashHandlers();

/// Installs handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
/// SIGVTALRM and SIGXCPU (api/run_supervisor.h):
/// a first SIGINT raises KeyboardInterrupt in the script, the others (and a second SIGINT)
/// record the run as cancelled and end the process with 128 + signal. Also ignores SIGXFSZ, so
/// a file-size limit fails the trace's writes (recorded as lost rows) instead of killing the
/// process. Call once in a process that runs workloads and may be stopped by signals.
void installStopSignalHandlers();

/// Kiln's version string ("0.1.0").
std::string engineVersion();

} // namespace kiln::api
