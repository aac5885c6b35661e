// SPDX-License-Identifier: MIT
/// \file
/// The `import_extras` table (schema version 5): records of an imported log that Kiln's schema
/// has no place for, kept verbatim so that nothing a newer PyTorch logs is lost.
#pragma once

#include "support/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::importer {

struct ImportSummary;

struct ImportExtra {
    int64_t line = 0;      ///< the envelope's 1-based line in the log
    std::string kind;      ///< record key, or "artifact:NAME" for artifacts
    std::string compileId; ///< "f/c" when the envelope names a frame; empty otherwise
    std::string envelope;  ///< the envelope as JSON text
    std::string payload;   ///< the payload, empty when none
};

/// Appends \p extras for run \p runId to the trace at \p tracePath in one transaction, on a
/// connection of its own: the TraceWriter has committed the run's rows by then.
Status storeImportExtras(const std::string& tracePath, int64_t runId,
                         const std::vector<ImportExtra>& extras);

/// The run's `machine` JSON for an imported log: {"source": "torch_trace", "pytorch",
/// "python", "cuda", "rank"} with the facts the log had (docs/trace-schema.md).
std::string provenanceJson(const ImportSummary& summary);

/// Sets `runs.machine` of run \p runId to \p machineJson, on a connection of its own.
Status storeImportProvenance(const std::string& tracePath, int64_t runId,
                             const std::string& machineJson);

} // namespace kiln::importer
