// SPDX-License-Identifier: MIT
/// \file
/// Reads a trace file, finished or still being written, through one code path: the CLI, the
/// GUI's models and the tests all use it. A growing file is read with a read-only connection
/// in WAL mode, so each query sees the rows committed so far and never blocks the writer;
/// tailing is "give me the rows after the last id I have", polled (dataVersion() says cheaply
/// whether anything changed).
///
/// Versions: a newer file is refused with the writer's message. An older file is copied into
/// memory and upgraded there through the same migration steps the writer uses, so the reader's
/// queries only ever see the latest schema; such a reader shows a snapshot taken at open, and
/// reopening refreshes it (live tailing needs a writer of this version, which upgrades the file).
#pragma once

#include "support/expected.h"
#include "trace/schema.h"
#include "trace/sqlite_handle.h"
#include "trace/trace_types.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln::trace {

/// Not thread-safe: one thread at a time per reader (open one reader per thread).
class TraceReader {
public:
    static Expected<std::unique_ptr<TraceReader>> open(const std::string& path);
    /// The same against another schema history; for tests of the upgrade path.
    static Expected<std::unique_ptr<TraceReader>> open(const std::string& path,
                                                       const SchemaHistory& history);

    const std::string& path() const { return m_path; }
    /// The schema version recorded in the file (older than the latest for an upgraded copy).
    int schemaVersion() const { return m_schemaVersion; }
    /// True when the file was older and is read through an upgraded in-memory snapshot.
    bool isUpgradedSnapshot() const { return m_upgradedSnapshot; }

    /// Every run, oldest first.
    Expected<std::vector<RunRow>> listRuns() const;
    /// One run; an error naming the id when the file has no such run.
    Expected<RunRow> run(int64_t runId) const;
    /// Up to \p limit lines of \p runId with id > \p afterId, in id order. Pass the last id
    /// received to tail a growing run.
    Expected<std::vector<OutputLine>> outputLines(int64_t runId, int64_t afterId = 0,
                                                  int limit = 1000) const;
    /// The whole `meta` table.
    Expected<std::map<std::string, std::string>> meta() const;
    /// SQLite's data_version: changes whenever another connection has committed to the file.
    Expected<int64_t> dataVersion() const;

    /// True for a 'running' run recorded on this host whose process is gone: its writer died
    /// without finishing it. A run from another host is never judged (its pid means nothing
    /// here).
    static bool runLooksCrashed(const RunRow& run);

private:
    TraceReader(Connection connection, std::string path, int schemaVersion, bool upgraded);
    Expected<std::vector<RunRow>> queryRuns(const char* where, int64_t runId) const;
    Expected<std::vector<std::string>> decodeArgv(const std::string& json) const;

    Connection m_db;
    std::string m_path;
    int m_schemaVersion = 0;
    bool m_upgradedSnapshot = false;
};

} // namespace kiln::trace
