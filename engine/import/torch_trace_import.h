// SPDX-License-Identifier: MIT
/// \file
/// Maps PyTorch structured-trace logs (import/log_reader.h) into Kiln's trace schema through the
/// ordinary TraceWriter, one run per log, so a real PyTorch run reads like a Kiln run. What has
/// no place in the schema is kept verbatim in `import_extras` (docs/trace-schema.md, "Imported
/// PyTorch runs"); nothing in a log's content is fatal, only a file that cannot be read.
#pragma once

#include "import/import_options.h"
#include "import/log_reader.h"
#include "support/expected.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kiln::trace {
class TraceWriter;
}

namespace kiln::importer {

/// What one log became.
struct ImportSummary {
    std::string logPath;
    int64_t runId = 0;
    int64_t records = 0;
    int64_t frames = 0;
    int64_t compiles = 0; ///< distinct compile ids "f/c"
    int64_t attempts = 0; ///< distinct [frame/compile/attempt]: restarts count (tlparse's dirs)
    int64_t breaks = 0;
    int64_t recompiles = 0;    ///< recompile_reasons artifacts: one per recompile
    int64_t recompileRows = 0; ///< `recompiles` rows: one per older entry that failed
    int64_t guards = 0;
    int64_t graphs = 0;
    int64_t aotGraphs = 0; ///< aot_joint/forward/backward/inference_graph records, as graphs rows
    int64_t postGradGraphs = 0; ///< inductor_post_grad_graph artifacts, as graphs rows
    /// create_symbol, guard_added_fast and propagate_real_tensors records, as events rows
    int64_t symbolicShapes = 0;
    int64_t kernels = 0;
    int64_t events = 0;
    int64_t extras = 0;
    std::map<std::string, int64_t> extraKinds; ///< extras by kind, for the summary
    int64_t md5Mismatches = 0;
    int64_t linesRead = 0;
    int64_t problemCount = 0;
    std::vector<LogProblem> problems; ///< the first LogReader::kMaxProblems
    /// Where the log came from, from its records: `pytorch_version`, `python_version` and
    /// `cuda_version` of the first compilation_metrics that has them, the envelopes' `rank`
    /// (-1: none). Stored as the run's `machine` JSON (docs/trace-schema.md).
    std::string pytorchVersion, pythonVersion, cudaVersion;
    int64_t rank = -1;
};

/// The logs a TORCH_TRACE path holds: a file is itself; a directory its `.log` files, one per
/// process (rank), in rank order (`..._rank_2_...` before `..._rank_10_...`), then by name.
/// Empty for a path that does not exist or a directory without logs.
std::vector<std::string> torchTraceLogsIn(const std::string& path);

/// Imports the log at \p logPath as a new run of \p writer (which must have no open run) and
/// stores its extras in \p tracePath (the writer's file). Fails only when the file cannot be
/// opened or the trace cannot be written, or when \p options' progress callback cancels: then
/// the run keeps what was read and ends `cancelled` (error ImportCancelled), without extras.
Expected<ImportSummary> importTorchTraceLog(const std::string& logPath, trace::TraceWriter& writer,
                                            const ImportOptions& options = {});

} // namespace kiln::importer
