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
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
    // The capture tables (schema version 2), one run at a time. Rows come in id order, which is
    // the order the capture layer reported them; \p afterId and \p limit page through a
    // growing run (pass the last id received; a negative limit means all). Two tables change
    // rows in place, which an id cursor does not notice: `compiles` (a compile's row gets its
    // outcome when it finishes; re-read from the first unfinished row) and `config` (last write
    // wins; re-read it whole).

    Expected<std::vector<FrameRow>> frames(int64_t runId, int64_t afterId = 0,
                                           int limit = -1) const;
    Expected<std::vector<CompileRow>> compiles(int64_t runId, int64_t afterId = 0,
                                               int limit = -1) const;
    /// The guards of one compile ("f/c"), or of every compile of the run when \p compileId is
    /// empty.
    Expected<std::vector<GuardRow>> guards(int64_t runId, std::string_view compileId = {},
                                           int64_t afterId = 0, int limit = -1) const;
    Expected<std::vector<RecompileRow>> recompiles(int64_t runId, int64_t afterId = 0,
                                                   int limit = -1) const;
    Expected<std::vector<GraphBreakRow>> graphBreaks(int64_t runId, int64_t afterId = 0,
                                                     int limit = -1) const;
    /// The run's Dynamo graphs (what backends receive) without their nodes.
    Expected<std::vector<GraphRow>> graphs(int64_t runId, int64_t afterId = 0,
                                           int limit = -1) const;
    /// What AOT autograd made of one Dynamo graph (GraphRow::id): its joint, forward and
    /// backward graphs, or its inference graph, in the order they were reported; none for a
    /// graph that was not compiled by Kiln's inductor, or in files before schema version 8.
    Expected<std::vector<GraphRow>> aotGraphs(int64_t dynamoGraphId) const;
    /// Every AOT graph of a run, without nodes (GraphRow::dynamoGraphId says whose).
    Expected<std::vector<GraphRow>> aotGraphsOfRun(int64_t runId, int64_t afterId = 0,
                                                   int limit = -1) const;
    /// The nodes of one graph (GraphRow::id), in graph order. A graph's nodes are committed with
    /// it, so a graph a reader can see always has all its nodes.
    Expected<std::vector<GraphNodeRow>> graphNodes(int64_t graphId) const;
    /// The nodes of every graph of a run with GraphRow::id > \p afterGraphId, by graph then
    /// order: one query where a viewer would otherwise ask graph by graph.
    Expected<std::vector<GraphNodeRow>> graphNodesOfRun(int64_t runId,
                                                        int64_t afterGraphId = 0) const;
    /// The run's effective options, by key.
    Expected<std::vector<ConfigRow>> config(int64_t runId) const;
    /// The run's timeline events.
    Expected<std::vector<EventRow>> events(int64_t runId, int64_t afterId = 0,
                                           int limit = -1) const;

    // The compiler tables (schema version 3). Kernels belong to a graph (GraphRow::id) and are
    // named elsewhere by their run-unique kernel id (KernelRow::kernelId). Rows come in id
    // order; `kernels` and `diagrams` change rows in place (a kernel or diagram reported again
    // replaces its row; graphId is filled in when the graph arrives after them), so re-read
    // them rather than tail them.

    /// One graph by its row id (what `kiln compiles` and the GUI show); nullopt when the file
    /// has no such graph.
    Expected<std::optional<GraphRow>> graph(int64_t graphId) const;
    /// The kernels of a run.
    Expected<std::vector<KernelRow>> kernels(int64_t runId, int64_t afterId = 0,
                                             int limit = -1) const;
    /// The kernels of one graph (GraphRow::id).
    Expected<std::vector<KernelRow>> graphKernels(int64_t graphId) const;
    /// The candidates max-autotune measured for one kernel, in the order they were reported.
    Expected<std::vector<AutotuneChoiceRow>> autotuneChoices(int64_t runId, int64_t kernelId) const;
    /// Every candidate of a run with id > \p afterId, in the order they were reported.
    Expected<std::vector<AutotuneChoiceRow>> autotuneChoicesOfRun(int64_t runId,
                                                                  int64_t afterId = 0) const;
    /// Every kernel launch of a run (the timeline); page with \p afterId and \p limit.
    Expected<std::vector<KernelLaunchRow>> kernelLaunches(int64_t runId, int64_t afterId = 0,
                                                          int limit = -1) const;
    /// The launches of one kernel.
    Expected<std::vector<KernelLaunchRow>>
    launchesOfKernel(int64_t runId, int64_t kernelId, int64_t afterId = 0, int limit = -1) const;
    /// Count, total, median, min and max duration of the launches of each kernel of a run that
    /// was launched at least once, by kernel id.
    Expected<std::vector<KernelLaunchStats>> kernelLaunchStats(int64_t runId) const;
    /// The same for one kernel; count 0 (and zero times) when it was never launched.
    Expected<KernelLaunchStats> kernelLaunchStats(int64_t runId, int64_t kernelId) const;
    /// Every diagram of one graph, by kind.
    Expected<std::vector<DiagramRow>> diagrams(int64_t graphId) const;
    /// The diagram of \p kind ("pre_fusion" or "post_fusion") of one graph; nullopt when that
    /// graph has none of that kind.
    Expected<std::optional<DiagramRow>> diagram(int64_t graphId, std::string_view kind) const;

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
    Expected<MachineInfo> decodeMachine(const std::string& json) const;
    Expected<std::vector<std::pair<std::string, int64_t>>>
    decodePhases(const std::string& json) const;

    Connection m_db;
    std::string m_path;
    int m_schemaVersion = 0;
    bool m_upgradedSnapshot = false;
};

} // namespace kiln::trace
