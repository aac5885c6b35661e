// SPDX-License-Identifier: MIT
/// \file
/// The `import_extras` table (schema version 5): records of an imported log that Kiln's schema
/// has no place for, kept verbatim so that nothing a newer PyTorch logs is lost.
#pragma once

#include "support/expected.h"

#include <cstdint>
#include <cstdio>
#include <memory>
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

/// Extras on their way to the trace, kept in an unnamed temporary file rather than in memory:
/// a log's unknown records can be most of its bytes, and an import's memory must not grow
/// with the log.
class ExtrasSpool {
public:
    void append(const ImportExtra& extra);
    int64_t size() const { return m_count; }
    /// Writes the spooled extras for run \p runId as storeImportExtras does, one at a time.
    Status store(const std::string& tracePath, int64_t runId);

private:
    struct Close {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    std::unique_ptr<std::FILE, Close> m_file;
    int64_t m_count = 0;
    bool m_failed = false;
};

/// The run's `machine` JSON for an imported log: {"source": "torch_trace", "pytorch",
/// "python", "cuda", "rank"} with the facts the log had (docs/trace-schema.md).
std::string provenanceJson(const ImportSummary& summary);

/// Sets `runs.machine` of run \p runId to \p machineJson and, when \p durationNs > 0, its
/// `ended_at_ns` to its start plus that (the log's last record, not the import's end), on a
/// connection of its own.
Status storeImportProvenance(const std::string& tracePath, int64_t runId,
                             const std::string& machineJson, int64_t durationNs = 0);

} // namespace kiln::importer
