// SPDX-License-Identifier: MIT
// TraceReader's queries of the compiler tables (schema version 3; autotune choices' measurement
// columns from version 4): kernels per run or per graph, autotune choices and launches per
// kernel, launch statistics, and diagrams per graph.
#include "trace/trace_reader.h"

namespace kiln::trace {

namespace {

constexpr const char* kKernelColumns =
    "SELECT id, run_id, graph_id, compile_id, graph_index, kernel_id, name, kind, fused_nodes, "
    "source_code, launch_config, graph_kind FROM kernels ";

constexpr const char* kLaunchColumns =
    "SELECT id, run_id, kernel_id, start_ns, end_ns, device, grid, block, registers, "
    "shared_memory FROM kernel_launches ";

constexpr const char* kDiagramColumns =
    "SELECT id, run_id, graph_id, compile_id, graph_index, kind, dot FROM diagrams ";

/// The choices of run ?1; the caller adds the second condition on ?2 and the order.
constexpr const char* kChoiceColumns =
    "SELECT id, run_id, kernel_id, candidate, time_ns, chosen, runs, min_ns, max_ns, "
    "stopped_early, from_cache FROM autotune_choices WHERE run_id = ?1 ";

/// \p sql with ?1 and ?2 bound.
Expected<Statement> prepareTwoKeys(const Connection& db, const std::string& sql, int64_t first,
                                   int64_t second) {
    auto stmt = Statement::prepare(db, sql);
    if (stmt) {
        stmt->bindInt(1, first);
        stmt->bindInt(2, second);
    }
    return stmt;
}

// Steps \p stmt to its end, turning each result row into a Row with \p fill.
template <typename Row, typename Fill>
Expected<std::vector<Row>> collectRows(Expected<Statement> stmt, Fill fill) {
    if (!stmt) return std::move(stmt).takeError();
    std::vector<Row> rows;
    for (;;) {
        auto more = stmt->step("cannot read");
        if (!more) return std::move(more).takeError();
        if (!more.value()) return rows;
        rows.push_back(fill(*stmt));
    }
}

KernelRow kernelRow(const Statement& stmt) {
    KernelRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.graphId = stmt.columnOptionalInt(2).value_or(0);
    row.compileId = stmt.columnText(3);
    row.graphIndex = int32_t(stmt.columnInt(4));
    row.kernelId = stmt.columnInt(5);
    row.name = stmt.columnText(6);
    row.kind = stmt.columnText(7);
    row.fusedNodes = stmt.columnText(8);
    row.sourceCode = stmt.columnText(9);
    row.launchConfig = stmt.columnText(10);
    row.graphKind = stmt.columnText(11);
    return row;
}

AutotuneChoiceRow autotuneChoiceRow(const Statement& stmt) {
    AutotuneChoiceRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.kernelId = stmt.columnInt(2);
    row.candidate = stmt.columnText(3);
    row.timeNs = stmt.columnInt(4);
    row.chosen = stmt.columnInt(5) != 0;
    // Version 4's measurement columns; NULL in rows an older Kiln wrote.
    row.runs = int32_t(stmt.columnOptionalInt(6).value_or(0));
    if (row.runs > 0) {
        row.minNs = stmt.columnInt(7);
        row.maxNs = stmt.columnInt(8);
    }
    if (auto stopped = stmt.columnOptionalInt(9)) row.stoppedEarly = *stopped != 0;
    if (auto cached = stmt.columnOptionalInt(10)) row.fromCache = *cached != 0;
    return row;
}

KernelLaunchRow launchRow(const Statement& stmt) {
    KernelLaunchRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.kernelId = stmt.columnInt(2);
    row.startNs = stmt.columnInt(3);
    row.endNs = stmt.columnInt(4);
    row.device = stmt.columnText(5);
    row.grid = stmt.columnText(6);
    row.block = stmt.columnText(7);
    row.registers = int32_t(stmt.columnInt(8));
    row.sharedMemory = int32_t(stmt.columnInt(9));
    return row;
}

DiagramRow diagramRow(const Statement& stmt) {
    DiagramRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.graphId = stmt.columnOptionalInt(2).value_or(0);
    row.compileId = stmt.columnText(3);
    row.graphIndex = int32_t(stmt.columnInt(4));
    row.kind = stmt.columnText(5);
    row.dot = stmt.columnText(6);
    return row;
}

// Summarises one kernel's durations, which arrive sorted.
KernelLaunchStats summarise(int64_t kernelId, const std::vector<int64_t>& sorted) {
    KernelLaunchStats stats;
    stats.kernelId = kernelId;
    stats.count = int64_t(sorted.size());
    if (sorted.empty()) return stats;
    for (int64_t d : sorted)
        stats.totalNs += d;
    size_t mid = sorted.size() / 2;
    stats.medianNs = sorted.size() % 2 == 1 ? sorted[mid]
                                            : sorted[mid - 1] + (sorted[mid] - sorted[mid - 1]) / 2;
    stats.minNs = sorted.front();
    stats.maxNs = sorted.back();
    return stats;
}

} // namespace

Expected<std::vector<KernelRow>> TraceReader::kernels(int64_t runId, int64_t afterId,
                                                      int limit) const {
    auto stmt = Statement::prepare(m_db, std::string(kKernelColumns) +
                                             "WHERE run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
    if (stmt) {
        stmt->bindInt(1, runId);
        stmt->bindInt(2, afterId);
        stmt->bindInt(3, limit);
    }
    return collectRows<KernelRow>(std::move(stmt), kernelRow);
}

Expected<std::vector<KernelRow>> TraceReader::graphKernels(int64_t graphId) const {
    auto stmt =
        Statement::prepare(m_db, std::string(kKernelColumns) + "WHERE graph_id = ?1 ORDER BY id");
    if (stmt) stmt->bindInt(1, graphId);
    return collectRows<KernelRow>(std::move(stmt), kernelRow);
}

Expected<std::vector<AutotuneChoiceRow>> TraceReader::autotuneChoices(int64_t runId,
                                                                      int64_t kernelId) const {
    return collectRows<AutotuneChoiceRow>(
        prepareTwoKeys(m_db, std::string(kChoiceColumns) + "AND kernel_id = ?2 ORDER BY id", runId,
                       kernelId),
        autotuneChoiceRow);
}

Expected<std::vector<AutotuneChoiceRow>> TraceReader::autotuneChoicesOfRun(int64_t runId,
                                                                           int64_t afterId) const {
    return collectRows<AutotuneChoiceRow>(
        prepareTwoKeys(m_db, std::string(kChoiceColumns) + "AND id > ?2 ORDER BY id", runId,
                       afterId),
        autotuneChoiceRow);
}

Expected<std::vector<KernelLaunchRow>> TraceReader::kernelLaunches(int64_t runId, int64_t afterId,
                                                                   int limit) const {
    auto stmt = Statement::prepare(m_db, std::string(kLaunchColumns) +
                                             "WHERE run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
    if (stmt) {
        stmt->bindInt(1, runId);
        stmt->bindInt(2, afterId);
        stmt->bindInt(3, limit);
    }
    return collectRows<KernelLaunchRow>(std::move(stmt), launchRow);
}

Expected<std::vector<KernelLaunchRow>>
TraceReader::launchesOfKernel(int64_t runId, int64_t kernelId, int64_t afterId, int limit) const {
    auto stmt = Statement::prepare(m_db, std::string(kLaunchColumns) +
                                             "WHERE run_id = ?1 AND kernel_id = ?2 AND id > ?3 "
                                             "ORDER BY id LIMIT ?4");
    if (stmt) {
        stmt->bindInt(1, runId);
        stmt->bindInt(2, kernelId);
        stmt->bindInt(3, afterId);
        stmt->bindInt(4, limit);
    }
    return collectRows<KernelLaunchRow>(std::move(stmt), launchRow);
}

Expected<std::vector<KernelLaunchStats>> TraceReader::kernelLaunchStats(int64_t runId) const {
    // One pass over the run's launches in (kernel, duration) order; SQLite has no median.
    auto stmt = Statement::prepare(m_db, "SELECT kernel_id, end_ns - start_ns AS d "
                                         "FROM kernel_launches WHERE run_id = ?1 "
                                         "ORDER BY kernel_id, d");
    if (!stmt) return std::move(stmt).takeError();
    stmt->bindInt(1, runId);
    std::vector<KernelLaunchStats> stats;
    std::vector<int64_t> durations;
    int64_t kernelId = 0;
    for (;;) {
        auto more = stmt->step("cannot read");
        if (!more) return std::move(more).takeError();
        bool done = !more.value();
        if (!done && !durations.empty() && stmt->columnInt(0) == kernelId) {
            durations.push_back(stmt->columnInt(1));
            continue;
        }
        if (!durations.empty()) stats.push_back(summarise(kernelId, durations));
        if (done) return stats;
        kernelId = stmt->columnInt(0);
        durations.assign(1, stmt->columnInt(1));
    }
}

Expected<KernelLaunchStats> TraceReader::kernelLaunchStats(int64_t runId, int64_t kernelId) const {
    auto stmt = Statement::prepare(m_db, "SELECT end_ns - start_ns AS d FROM kernel_launches "
                                         "WHERE run_id = ?1 AND kernel_id = ?2 ORDER BY d");
    if (!stmt) return std::move(stmt).takeError();
    stmt->bindInt(1, runId);
    stmt->bindInt(2, kernelId);
    std::vector<int64_t> durations;
    for (;;) {
        auto more = stmt->step("cannot read");
        if (!more) return std::move(more).takeError();
        if (!more.value()) return summarise(kernelId, durations);
        durations.push_back(stmt->columnInt(0));
    }
}

Expected<std::vector<DiagramRow>> TraceReader::diagrams(int64_t graphId) const {
    auto stmt = Statement::prepare(m_db, std::string(kDiagramColumns) +
                                             "WHERE graph_id = ?1 ORDER BY kind, id");
    if (stmt) stmt->bindInt(1, graphId);
    return collectRows<DiagramRow>(std::move(stmt), diagramRow);
}

Expected<std::optional<DiagramRow>> TraceReader::diagram(int64_t graphId,
                                                         std::string_view kind) const {
    auto stmt =
        Statement::prepare(m_db, std::string(kDiagramColumns) + "WHERE graph_id = ?1 AND kind = ?2 "
                                                                "ORDER BY id DESC LIMIT 1");
    if (!stmt) return std::move(stmt).takeError();
    std::string kindText(kind); // bound without a copy: must outlive the step
    stmt->bindInt(1, graphId);
    stmt->bindText(2, kindText);
    auto more = stmt->step("cannot read");
    if (!more) return std::move(more).takeError();
    if (!more.value()) return std::optional<DiagramRow>();
    return std::optional<DiagramRow>(diagramRow(*stmt));
}

} // namespace kiln::trace
