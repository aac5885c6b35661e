// SPDX-License-Identifier: MIT
/// \file
/// The trace database's identity and versions, and the only place its SQL schema is written.
/// A file is a Kiln trace when its header's application_id is kApplicationId; its user_version
/// is the schema version. The schema is built by an ordered list of migration steps, step N
/// upgrading version N to N+1, and a new file is just "version 0" upgraded to the latest: so
/// creating and upgrading share one code path, and every later schema change is one appended
/// step (docs/trace-schema.md keeps the changelog).
#pragma once

#include "support/expected.h"
#include "trace/sqlite_handle.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::trace {

/// "KILN" in ASCII; the header field that tells a Kiln trace from any other SQLite file.
inline constexpr int32_t kApplicationId = 0x4B494C4E;

/// One upgrade step from \c fromVersion to fromVersion + 1. Runs inside the upgrade transaction,
/// so a failing step leaves the file as it was.
struct Migration {
    int fromVersion = 0;
    const char* summary = "";
    const char* sql = ""; ///< one or more statements
};

/// The ordered steps from version 0 (an empty file) to the latest version.
class SchemaHistory {
public:
    /// Asserts that step i upgrades version i.
    explicit SchemaHistory(std::vector<Migration> steps);

    int latestVersion() const { return int(m_steps.size()); }
    const std::vector<Migration>& steps() const { return m_steps; }

private:
    std::vector<Migration> m_steps;
};

/// The first schema version with the capture tables (frames, compiles, ... events). A writer
/// opened against an older history (only tests do that) cannot record capture events.
inline constexpr int kCaptureSchemaVersion = 2;
/// The first schema version with the compiler tables (kernels, autotune_choices,
/// kernel_launches, diagrams); a writer of an older history cannot record compiler events.
inline constexpr int kCompilerSchemaVersion = 3;
/// The first schema version that says how autotuning times were measured (autotune_choices'
/// runs, min_ns, max_ns, stopped_early, from_cache) and where each run ran (runs.machine). A
/// writer of an older history leaves those facts out, as an older Kiln did.
inline constexpr int kMeasurementSchemaVersion = 4;
/// The first schema version with `import_extras` (runs imported from PyTorch's structured trace,
/// engine/import/); written by the importer on a connection of its own.
inline constexpr int kImportSchemaVersion = 5;
/// The first schema version that names the module of a call_module graph node
/// (graph_nodes.module_path, module_type); a writer of an older history leaves them out.
inline constexpr int kModuleSchemaVersion = 6;
/// The first schema version that says whether a guard is installed (guards.installed); a writer
/// of an older history writes only installed guards, as an older Kiln did.
inline constexpr int kGuardInstalledSchemaVersion = 7;
/// The first schema version with AOT autograd's graphs (graphs.kind, dynamo_graph_id, saved_*;
/// kernels.graph_kind); a writer of an older history writes Dynamo graphs only.
inline constexpr int kAotGraphSchemaVersion = 8;

/// The schema this Kiln writes and reads.
const SchemaHistory& currentSchema();
/// currentSchema().latestVersion().
int currentSchemaVersion();

/// What a file's header says it is.
struct FileIdentity {
    int64_t applicationId = 0;
    int64_t userVersion = 0;
    bool empty = true; ///< no tables, views or indexes: a new file we may claim
};

/// Reads the header fields and whether the file has any schema, without writing anything.
/// A file that is not a SQLite database is refused here with "... is not a Kiln trace".
Expected<FileIdentity> readIdentity(Connection& connection);

/// Refuses a file that is neither empty nor a Kiln trace, and a trace newer than \p history.
Status checkCompatible(const FileIdentity& identity, const std::string& path,
                       const SchemaHistory& history);

/// Sets the pragmas every writing connection uses: WAL, synchronous=NORMAL, foreign keys.
Status configureWriter(Connection& connection);

/// Brings the file to \p history's latest version in one BEGIN IMMEDIATE transaction: claims an
/// empty file (application_id), applies the missing steps, sets user_version and meta's
/// schema_version. Re-checks the identity inside the transaction, so two processes opening the
/// same new file do not both create it. A no-op for a file already at the latest version.
Status upgradeSchema(Connection& connection, const SchemaHistory& history);

} // namespace kiln::trace
