// SPDX-License-Identifier: MIT
/// \file
/// The values that travel between the engine and the trace database: what a run is started
/// with, how it ends, and the rows a reader gets back. Plain structs shared by TraceWriter and
/// TraceReader so that the CLI, the GUI's models and the tests all speak the same types.
#pragma once

#include "support/event_sink.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::trace {

/// Keys of the `meta` table that Kiln defines; docs/trace-schema.md says what each holds. The
/// writer sets the first four itself; the runner sets the device keys once it knows them.
namespace metakeys {
inline constexpr const char* kSchemaVersion = "schema_version";
inline constexpr const char* kEngineVersion = "engine_version";
inline constexpr const char* kCreatedAtNs = "created_at_ns";
inline constexpr const char* kHost = "host";
inline constexpr const char* kDevice = "device";
inline constexpr const char* kCudaDriver = "cuda_driver";
inline constexpr const char* kCupti = "cupti";
} // namespace metakeys

/// A run's lifecycle state; stored in runs.status as the lower-case names below.
enum class RunStatus { Running, Ok, Error, Crashed, Cancelled };

/// "running", "ok", "error", "crashed" or "cancelled".
const char* runStatusName(RunStatus status);
/// The inverse of runStatusName; nullopt for any other text.
std::optional<RunStatus> parseRunStatus(std::string_view name);
/// The inverse of outputStreamName; nullopt for any other text.
std::optional<OutputStream> parseOutputStream(std::string_view name);

/// What beginRun records about a run. Empty strings are stored as NULL.
struct RunInfo {
    std::string workloadPath;
    std::string workloadHash; ///< sha256Hex of the script's bytes
    std::string mode;         ///< torch.compile mode: "default", "max-autotune", ...
    std::string backend;      ///< "inductor", "eager", ...
    std::string optionsJson;  ///< the user's options dict as JSON text
    std::string device;       ///< "cpu", "cuda:0", ...
    std::vector<std::string> argv;
    int64_t pid = 0;         ///< 0: the calling process
    int64_t startedAtNs = 0; ///< wall clock, Unix epoch ns; 0: now
};

/// The script's uncaught exception (or Kiln's own failure) when a run ends with an error.
struct RunError {
    std::string type; ///< "ZeroDivisionError", "TraceError", ...
    std::string message;
    std::string traceback; ///< formatted as Python prints it, several lines
};

/// One row of `runs`, every column.
struct RunRow {
    int64_t id = 0;
    std::string workloadPath;
    std::string workloadHash;
    std::string mode;
    std::string backend;
    std::string optionsJson;
    std::string device;
    std::vector<std::string> argv;
    std::string host;
    int64_t pid = 0;
    int64_t startedAtNs = 0;
    std::optional<int64_t> endedAtNs; ///< nullopt while running (or after a crash not yet seen)
    RunStatus status = RunStatus::Running;
    std::optional<int64_t> exitCode;
    std::string errorType;
    std::string errorMessage;
    std::string errorTraceback;
};

/// One row of `output`: a complete line of one stream.
struct OutputLine {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t seq = 0; ///< 1-based order within the run, across streams
    OutputStream stream = OutputStream::Stdout;
    int64_t tNs = 0;  ///< monotonic ns since the run started, taken when the line completed
    std::string text; ///< without its newline
};

} // namespace kiln::trace
