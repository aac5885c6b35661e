// SPDX-License-Identifier: MIT
/// \file
/// The values that travel between the engine and the trace database: what a run is started
/// with, how it ends, and the rows a reader gets back. Plain structs shared by TraceWriter and
/// TraceReader so that the CLI, the GUI's models and the tests all speak the same types.
#pragma once

#include "support/event_sink.h"
#include "trace/machine_info.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
inline constexpr const char* kCpu = "cpu";         ///< the CPU's model name
inline constexpr const char* kCpuIsa = "cpu_isa";  ///< the eager kernels' instruction set
inline constexpr const char* kThreads = "threads"; ///< threads of parallel loops
inline constexpr const char* kMatmulLibrary = "matmul_library"; ///< per dtype, with code path
// Set when the run has a usable GPU (device 0's facts).
inline constexpr const char* kGpuName = "gpu_name";             ///< "NVIDIA H200"
inline constexpr const char* kGpuCapability = "gpu_capability"; ///< compute capability, "9.0"
inline constexpr const char* kGpuMemory = "gpu_memory_bytes";   ///< device memory in bytes
inline constexpr const char* kGpuDriver = "gpu_driver";         ///< kernel module, "580.95.05"
inline constexpr const char* kCudaVersion = "cuda_version";     ///< the driver's CUDA, "13.0"
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
    /// Where the run ran, as a JSON object: {"cpu": model name, "isa": the eager kernels'
    /// instruction set, "threads": N, "matmul": {"float32": ..., "bfloat16": ..., "float64":
    /// ...}} (library, version and code path), so runs from two machines compare knowingly.
    std::string machineJson;
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
    /// Column `machine` (schema version 4) as written; empty when NULL.
    std::string machineJson;
    /// machineJson decoded; nothing recorded() when the column is NULL or not a JSON object.
    MachineInfo machine;
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

// Rows of the capture tables (schema version 2). Field names follow support/capture_events.h;
// what differs from the event is said at the field. Every row carries its table's id, the
// cursor for tailing (`afterId`).

/// One row of `frames`: a code object torch.compile saw.
struct FrameRow {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t frameId = 0;
    std::string function;
    std::string file;
    int32_t line = 0;
    std::string kind;           ///< "function" or "resume"
    int64_t parentFrameId = -1; ///< -1 when none (column NULL)
    int32_t resumeLine = 0;     ///< 0 when none (column NULL)
};

/// One row of `compiles`: written when the compile starts, completed in place when it ends.
struct CompileRow {
    int64_t id = 0;
    int64_t runId = 0;
    std::string compileId; ///< "f/c"
    int64_t frameId = 0;
    int32_t compileIndex = 0;
    std::string reason;  ///< "first" or "recompile"
    int64_t startNs = 0; ///< monotonic ns since the run started (like OutputLine::tNs)
    std::optional<int64_t> durationNs; ///< nullopt while compiling
    std::string status; ///< empty while compiling; then ok, break, skipped, no_ops or failed
    std::string failure;
    std::string backend;
    std::string mode;
    std::vector<std::pair<std::string, int64_t>> phases; ///< (name, ns) in the order reported

    bool finished() const { return !status.empty(); }
};

/// One row of `guards`.
struct GuardRow {
    int64_t id = 0;
    int64_t runId = 0;
    std::string compileId;
    std::string kind;
    std::string source;
    std::string expression;
    std::string expected;
    int32_t userLine = 0;  ///< 0 when none (column NULL)
    bool installed = true; ///< false: a read through an nn.Module that the entry does not check
};

/// One row of `recompiles`: for the new compile, the first failing guard of one older entry.
struct RecompileRow {
    int64_t id = 0;
    int64_t runId = 0;
    std::string compileId;
    std::string failedCompileId;
    std::string guardSource;
    std::string expected;
    std::string actual;
    std::string reason;
};

/// One row of `graph_breaks`.
struct GraphBreakRow {
    int64_t id = 0;
    int64_t runId = 0;
    std::string compileId;
    int32_t order = 0; ///< column `ord`: 1-based execution order within the run
    std::string file;
    int32_t line = 0;
    int32_t column = 0; ///< column `col`
    std::string reasonKind;
    std::string reason;
    std::string userStack;
};

/// One row of `graphs`, without its nodes (TraceReader::graphNodes reads those).
struct GraphRow {
    int64_t id = 0; ///< what graph_nodes.graph_id refers to
    int64_t runId = 0;
    std::string compileId;
    int32_t graphIndex = 0;
    std::string readableCode;
    int32_t nodeCount = 0;
    int32_t opCount = 0;
    // Schema version 8: AOT autograd's graphs. Older files hold Dynamo graphs only.
    std::string kind = "dynamo"; ///< dynamo, aot_joint, aot_forward, aot_backward, aot_inference
    int64_t dynamoGraphId = 0;   ///< an AOT graph's Dynamo graph; 0 for a Dynamo graph
    /// aot_forward: what it saves for the backward, as JSON [{"name", "shape", "dtype",
    /// "bytes"}], their number and bytes; empty and 0 for other graphs.
    std::string savedTensors;
    int32_t savedCount = 0;
    int64_t savedBytes = 0;
};

/// One value an aot_forward graph saves for its backward (GraphRow::savedTensors).
struct SavedTensor {
    std::string name;  ///< the forward graph's node ("addmm", "primals_1")
    std::string shape; ///< "[4, 16]"
    std::string dtype; ///< "torch.float32"
    int64_t bytes = 0; ///< at the example sizes
};

/// The saved values of GraphRow::savedTensors; empty for other graphs or unreadable text.
std::vector<SavedTensor> savedTensorsOf(const GraphRow& graph);

/// One row of `graph_nodes`.
struct GraphNodeRow {
    int64_t id = 0;
    int64_t graphId = 0;
    int32_t order = 0; ///< column `ord`: 0-based position in the graph
    std::string name;
    std::string op;
    std::string target;
    std::string args;
    std::string shape;
    std::string dtype;
    int32_t sourceLine = 0; ///< 0 when none (column NULL)
    /// call_module: the module as the code reads it ("self.net.0") and its class ("Linear");
    /// empty otherwise and in traces written before schema version 6.
    std::string modulePath;
    std::string moduleType;
};

/// One row of `config`: an effective option of the run.
struct ConfigRow {
    int64_t id = 0;
    int64_t runId = 0;
    std::string key;
    std::string value;
    std::string defaultValue;
    std::string source; ///< "default", "mode", "user" or "env"
};

/// One row of `events`: a span or instant on the run's timeline.
struct EventRow {
    int64_t id = 0;
    int64_t runId = 0;
    std::string category;
    std::string name;
    std::string compileId; ///< empty when not tied to a compile (column NULL)
    int64_t startNs = 0;   ///< monotonic ns since the run started
    int64_t durationNs = 0;
    std::string detailJson; ///< a JSON object, "{}" when none
};

// Rows of the compiler tables (schema version 3). Field names follow support/compiler_events.h;
// what differs from the event is said at the field.

/// One row of `kernels`: a generated kernel of a compiled graph.
struct KernelRow {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t graphId = 0; ///< the `graphs` row; 0 while capture has not reported it (column NULL)
    std::string compileId;
    int32_t graphIndex = 0;
    int64_t kernelId = 0; ///< run-unique; what launches and autotune choices refer to
    std::string name;
    std::string kind; ///< pointwise, reduction, template, extern or fallback
    std::string fusedNodes;
    std::string sourceCode;
    std::string launchConfig;
    /// The AOT graph it computes part of: aot_forward, aot_backward or aot_inference; empty
    /// when not recorded (schema before version 8).
    std::string graphKind;
};

/// One row of `autotune_choices`: a candidate max-autotune measured for a kernel.
struct AutotuneChoiceRow {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t kernelId = 0;
    std::string candidate;
    int64_t timeNs = 0; ///< the median of the timed runs (or the one run of an early stop)
    bool chosen = false;
    // Schema version 4: how timeNs was measured. Rows of older files have none of it.
    int32_t runs = 0;  ///< timed runs; 0 when not known (column NULL)
    int64_t minNs = 0; ///< the fastest timed run; 0 when runs is 0
    int64_t maxNs = 0; ///< the slowest timed run; 0 when runs is 0
    /// Timing stopped after one run, already far slower than the best: it could not win.
    /// nullopt for rows written before version 4 (column NULL).
    std::optional<bool> stoppedEarly;
    /// The times come from the on-disk tuning cache (measured by an earlier run on the same
    /// CPU), not from this run; nullopt for rows written before version 4 (column NULL).
    std::optional<bool> fromCache;

    bool hasSpread() const { return runs > 1; }
};

/// One row of `kernel_launches`: one execution of a kernel.
struct KernelLaunchRow {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t kernelId = 0;
    int64_t startNs = 0; ///< monotonic ns since the run started
    int64_t endNs = 0;
    std::string device;
    std::string grid;
    std::string block;
    int32_t registers = 0;
    int32_t sharedMemory = 0;

    int64_t durationNs() const { return endNs - startNs; }
};

/// The launches of one kernel of a run, summed up (TraceReader::kernelLaunchStats).
struct KernelLaunchStats {
    int64_t kernelId = 0;
    int64_t count = 0;
    int64_t totalNs = 0;
    /// The middle duration; for an even count the mean of the two middle ones (rounded down).
    int64_t medianNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
};

/// One row of `diagrams`: a graph drawn as DOT text.
struct DiagramRow {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t graphId = 0; ///< 0 while capture has not reported the graph (column NULL)
    std::string compileId;
    int32_t graphIndex = 0;
    std::string kind; ///< pre_fusion or post_fusion
    std::string dot;
};

} // namespace kiln::trace
