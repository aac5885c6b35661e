// SPDX-License-Identifier: MIT
// TraceReader's queries of the capture tables (schema version 2). Each returns the rows of one
// run (or one graph) in id order, optionally after a cursor, so views can tail a growing run.
#include "trace/trace_reader.h"

namespace kiln::trace {

namespace {

// "... WHERE <filter> AND id > ?2 ORDER BY id LIMIT ?3"; run ids and graph ids bind as ?1.
constexpr const char* kPage = " AND id > ?2 ORDER BY id LIMIT ?3";

Expected<Statement> preparePage(const Connection& db, std::string_view select, int64_t ownerId,
                                int64_t afterId, int limit) {
    auto stmt = Statement::prepare(db, std::string(select) + kPage);
    if (!stmt) return std::move(stmt).takeError();
    stmt->bindInt(1, ownerId);
    stmt->bindInt(2, afterId);
    stmt->bindInt(3, limit);
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

// SQL NULL marks "none" where the events use a sentinel; give the sentinel back.
int32_t lineOrZero(const Statement& stmt, int column) {
    return int32_t(stmt.columnOptionalInt(column).value_or(0));
}

FrameRow frameRow(const Statement& stmt) {
    FrameRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.frameId = stmt.columnInt(2);
    row.function = stmt.columnText(3);
    row.file = stmt.columnText(4);
    row.line = int32_t(stmt.columnInt(5));
    row.kind = stmt.columnText(6);
    row.parentFrameId = stmt.columnOptionalInt(7).value_or(-1);
    row.resumeLine = lineOrZero(stmt, 8);
    return row;
}

GuardRow guardRow(const Statement& stmt) {
    GuardRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.compileId = stmt.columnText(2);
    row.kind = stmt.columnText(3);
    row.source = stmt.columnText(4);
    row.expression = stmt.columnText(5);
    row.expected = stmt.columnText(6);
    row.userLine = lineOrZero(stmt, 7);
    row.installed = stmt.columnOptionalInt(8).value_or(1) != 0;
    return row;
}

RecompileRow recompileRow(const Statement& stmt) {
    RecompileRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.compileId = stmt.columnText(2);
    row.failedCompileId = stmt.columnText(3);
    row.guardSource = stmt.columnText(4);
    row.expected = stmt.columnText(5);
    row.actual = stmt.columnText(6);
    row.reason = stmt.columnText(7);
    return row;
}

GraphBreakRow graphBreakRow(const Statement& stmt) {
    GraphBreakRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.compileId = stmt.columnText(2);
    row.order = int32_t(stmt.columnInt(3));
    row.file = stmt.columnText(4);
    row.line = int32_t(stmt.columnInt(5));
    row.column = int32_t(stmt.columnInt(6));
    row.reasonKind = stmt.columnText(7);
    row.reason = stmt.columnText(8);
    row.userStack = stmt.columnText(9);
    return row;
}

constexpr const char* kGraphColumns =
    "SELECT id, run_id, compile_id, graph_index, readable_code, node_count, op_count, kind, "
    "dynamo_graph_id, saved_tensors, saved_count, saved_bytes FROM graphs ";

GraphRow graphRow(const Statement& stmt) {
    GraphRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.compileId = stmt.columnText(2);
    row.graphIndex = int32_t(stmt.columnInt(3));
    row.readableCode = stmt.columnText(4);
    row.nodeCount = int32_t(stmt.columnInt(5));
    row.opCount = int32_t(stmt.columnInt(6));
    row.kind = stmt.columnText(7);
    if (row.kind.empty()) row.kind = "dynamo";
    row.dynamoGraphId = stmt.columnOptionalInt(8).value_or(0);
    row.savedTensors = stmt.columnText(9);
    row.savedCount = int32_t(stmt.columnOptionalInt(10).value_or(0));
    row.savedBytes = stmt.columnOptionalInt(11).value_or(0);
    return row;
}

GraphNodeRow graphNodeRow(const Statement& stmt) {
    GraphNodeRow row;
    row.id = stmt.columnInt(0);
    row.graphId = stmt.columnInt(1);
    row.order = int32_t(stmt.columnInt(2));
    row.name = stmt.columnText(3);
    row.op = stmt.columnText(4);
    row.target = stmt.columnText(5);
    row.args = stmt.columnText(6);
    row.shape = stmt.columnText(7);
    row.dtype = stmt.columnText(8);
    row.sourceLine = lineOrZero(stmt, 9);
    row.modulePath = stmt.columnText(10);
    row.moduleType = stmt.columnText(11);
    return row;
}

ConfigRow configRow(const Statement& stmt) {
    ConfigRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.key = stmt.columnText(2);
    row.value = stmt.columnText(3);
    row.defaultValue = stmt.columnText(4);
    row.source = stmt.columnText(5);
    return row;
}

EventRow eventRow(const Statement& stmt) {
    EventRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.category = stmt.columnText(2);
    row.name = stmt.columnText(3);
    row.compileId = stmt.columnText(4);
    row.startNs = stmt.columnInt(5);
    row.durationNs = stmt.columnInt(6);
    row.detailJson = stmt.columnText(7);
    return row;
}

CompileRow compileRow(const Statement& stmt) {
    CompileRow row;
    row.id = stmt.columnInt(0);
    row.runId = stmt.columnInt(1);
    row.compileId = stmt.columnText(2);
    row.frameId = stmt.columnInt(3);
    row.compileIndex = int32_t(stmt.columnInt(4));
    row.reason = stmt.columnText(5);
    row.startNs = stmt.columnInt(6);
    row.durationNs = stmt.columnOptionalInt(7);
    row.status = stmt.columnText(8);
    row.failure = stmt.columnText(9);
    row.backend = stmt.columnText(10);
    row.mode = stmt.columnText(11);
    return row; // phases: decoded by the caller from column 12
}

} // namespace

Expected<std::vector<FrameRow>> TraceReader::frames(int64_t runId, int64_t afterId,
                                                    int limit) const {
    return collectRows<FrameRow>(
        preparePage(m_db,
                    "SELECT id, run_id, frame_id, function, file, line, kind, parent_frame_id, "
                    "resume_line FROM frames WHERE run_id = ?1",
                    runId, afterId, limit),
        frameRow);
}

Expected<std::vector<CompileRow>> TraceReader::compiles(int64_t runId, int64_t afterId,
                                                        int limit) const {
    auto stmt = preparePage(m_db,
                            "SELECT id, run_id, compile_id, frame_id, compile_index, reason, "
                            "start_ns, duration_ns, status, failure, backend, mode, phases_json "
                            "FROM compiles WHERE run_id = ?1",
                            runId, afterId, limit);
    if (!stmt) return std::move(stmt).takeError();
    std::vector<CompileRow> rows;
    for (;;) {
        auto more = stmt->step("cannot read");
        if (!more) return std::move(more).takeError();
        if (!more.value()) return rows;
        CompileRow row = compileRow(*stmt);
        auto phases = decodePhases(stmt->columnText(12));
        if (!phases) return std::move(phases).takeError();
        row.phases = std::move(phases).value();
        rows.push_back(std::move(row));
    }
}

Expected<std::vector<GuardRow>> TraceReader::guards(int64_t runId, std::string_view compileId,
                                                    int64_t afterId, int limit) const {
    constexpr const char* kSelect = "SELECT id, run_id, compile_id, kind, source, expression, "
                                    "expected, user_line, installed FROM guards WHERE run_id = ?1";
    if (compileId.empty())
        return collectRows<GuardRow>(preparePage(m_db, kSelect, runId, afterId, limit), guardRow);
    // Bound before stepping, and compileId outlives the statement: bindText does not copy.
    auto stmt =
        preparePage(m_db, std::string(kSelect) + " AND compile_id = ?4", runId, afterId, limit);
    if (stmt) stmt->bindText(4, compileId);
    return collectRows<GuardRow>(std::move(stmt), guardRow);
}

Expected<std::vector<RecompileRow>> TraceReader::recompiles(int64_t runId, int64_t afterId,
                                                            int limit) const {
    return collectRows<RecompileRow>(
        preparePage(m_db,
                    "SELECT id, run_id, compile_id, failed_compile_id, guard_source, expected, "
                    "actual, reason FROM recompiles WHERE run_id = ?1",
                    runId, afterId, limit),
        recompileRow);
}

Expected<std::vector<GraphBreakRow>> TraceReader::graphBreaks(int64_t runId, int64_t afterId,
                                                              int limit) const {
    return collectRows<GraphBreakRow>(
        preparePage(m_db,
                    "SELECT id, run_id, compile_id, ord, file, line, col, reason_kind, reason, "
                    "user_stack FROM graph_breaks WHERE run_id = ?1",
                    runId, afterId, limit),
        graphBreakRow);
}

Expected<std::vector<GraphRow>> TraceReader::graphs(int64_t runId, int64_t afterId,
                                                    int limit) const {
    return collectRows<GraphRow>(
        preparePage(m_db,
                    std::string(kGraphColumns) +
                        "WHERE run_id = ?1 AND coalesce(kind, 'dynamo') = 'dynamo'",
                    runId, afterId, limit),
        graphRow);
}

Expected<std::optional<GraphRow>> TraceReader::graph(int64_t graphId) const {
    auto stmt = Statement::prepare(m_db, std::string(kGraphColumns) + "WHERE id = ?1");
    if (!stmt) return std::move(stmt).takeError();
    stmt->bindInt(1, graphId);
    auto more = stmt->step("cannot read");
    if (!more) return std::move(more).takeError();
    if (!more.value()) return std::optional<GraphRow>();
    return std::optional<GraphRow>(graphRow(*stmt));
}

Expected<std::vector<GraphRow>> TraceReader::aotGraphsOfRun(int64_t runId, int64_t afterId,
                                                            int limit) const {
    return collectRows<GraphRow>(
        preparePage(m_db,
                    std::string(kGraphColumns) +
                        "WHERE run_id = ?1 AND coalesce(kind, 'dynamo') <> 'dynamo'",
                    runId, afterId, limit),
        graphRow);
}

Expected<std::vector<GraphRow>> TraceReader::aotGraphs(int64_t dynamoGraphId) const {
    auto stmt = Statement::prepare(m_db, std::string(kGraphColumns) +
                                             "WHERE dynamo_graph_id = ?1 ORDER BY id");
    if (stmt) stmt->bindInt(1, dynamoGraphId);
    return collectRows<GraphRow>(std::move(stmt), graphRow);
}

Expected<std::vector<GraphNodeRow>> TraceReader::graphNodes(int64_t graphId) const {
    auto stmt = Statement::prepare(m_db, "SELECT id, graph_id, ord, name, op, target, args, "
                                         "shape, dtype, source_line, module_path, module_type "
                                         "FROM graph_nodes "
                                         "WHERE graph_id = ?1 ORDER BY ord");
    if (stmt) stmt->bindInt(1, graphId);
    return collectRows<GraphNodeRow>(std::move(stmt), graphNodeRow);
}

Expected<std::vector<GraphNodeRow>> TraceReader::graphNodesOfRun(int64_t runId,
                                                                 int64_t afterGraphId) const {
    auto stmt = Statement::prepare(
        m_db, "SELECT n.id, n.graph_id, n.ord, n.name, n.op, n.target, n.args, n.shape, "
              "n.dtype, n.source_line, n.module_path, n.module_type FROM graph_nodes n "
              "JOIN graphs g ON g.id = n.graph_id "
              "WHERE g.run_id = ?1 AND g.id > ?2 AND coalesce(g.kind, 'dynamo') = 'dynamo' "
              "ORDER BY n.graph_id, n.ord");
    if (stmt) {
        stmt->bindInt(1, runId);
        stmt->bindInt(2, afterGraphId);
    }
    return collectRows<GraphNodeRow>(std::move(stmt), graphNodeRow);
}

Expected<std::vector<ConfigRow>> TraceReader::config(int64_t runId) const {
    auto stmt = Statement::prepare(m_db, "SELECT id, run_id, key, value, default_value, source "
                                         "FROM config WHERE run_id = ?1 ORDER BY key");
    if (stmt) stmt->bindInt(1, runId);
    return collectRows<ConfigRow>(std::move(stmt), configRow);
}

Expected<std::vector<EventRow>> TraceReader::events(int64_t runId, int64_t afterId,
                                                    int limit) const {
    return collectRows<EventRow>(
        preparePage(m_db,
                    "SELECT id, run_id, category, name, compile_id, start_ns, duration_ns, "
                    "detail_json FROM events WHERE run_id = ?1",
                    runId, afterId, limit),
        eventRow);
}

Expected<std::vector<std::pair<std::string, int64_t>>>
TraceReader::decodePhases(const std::string& json) const {
    std::vector<std::pair<std::string, int64_t>> phases;
    if (json.empty()) return phases;
    // json_each walks an object in document order, which is the order the phases ran.
    auto stmt = Statement::prepare(m_db, "SELECT key, value FROM json_each(?1) ORDER BY id");
    if (!stmt) return std::move(stmt).takeError();
    stmt->bindText(1, json);
    for (;;) {
        auto more = stmt->step("cannot read the phases of a compile in");
        if (!more) return std::move(more).takeError();
        if (!more.value()) return phases;
        phases.emplace_back(stmt->columnText(0), stmt->columnInt(1));
    }
}

} // namespace kiln::trace
