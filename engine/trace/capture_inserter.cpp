// SPDX-License-Identifier: MIT
#include "trace/capture_inserter.h"

#include "trace/json_text.h"
#include "trace/schema.h"

#include <sqlite3.h>

namespace kiln::trace {

namespace {

// Last write wins: a frame reported again (e.g. with its resume line known) replaces its facts
// but keeps its row id, so a view's cursor stays valid.
constexpr const char* kInsertFrame =
    "INSERT INTO frames(run_id, frame_id, function, file, line, kind, parent_frame_id, "
    "resume_line) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
    "ON CONFLICT(run_id, frame_id) DO UPDATE SET function = excluded.function, "
    "file = excluded.file, line = excluded.line, kind = excluded.kind, "
    "parent_frame_id = excluded.parent_frame_id, resume_line = excluded.resume_line";

// The start report inserts; the finish report (same compile id) fills in the outcome. What the
// start already said (frame, index, reason, start time) stays; facts the finish leaves empty do
// not erase what the start recorded.
constexpr const char* kUpsertCompile =
    "INSERT INTO compiles(run_id, compile_id, frame_id, compile_index, reason, start_ns, "
    "duration_ns, status, failure, backend, mode, phases_json) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) "
    "ON CONFLICT(run_id, compile_id) DO UPDATE SET duration_ns = excluded.duration_ns, "
    "status = excluded.status, failure = coalesce(excluded.failure, failure), "
    "backend = coalesce(excluded.backend, backend), mode = coalesce(excluded.mode, mode), "
    "phases_json = coalesce(excluded.phases_json, phases_json)";

constexpr const char* kInsertGuard =
    "INSERT INTO guards(run_id, compile_id, kind, source, expression, expected, user_line, "
    "installed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
constexpr const char* kInsertGuardWithoutInstalled =
    "INSERT INTO guards(run_id, compile_id, kind, source, expression, expected, user_line) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

constexpr const char* kInsertRecompile =
    "INSERT INTO recompiles(run_id, compile_id, failed_compile_id, guard_source, expected, "
    "actual, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

constexpr const char* kInsertGraphBreak =
    "INSERT INTO graph_breaks(run_id, compile_id, ord, file, line, col, reason_kind, reason, "
    "user_stack) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

constexpr const char* kInsertGraph =
    "INSERT INTO graphs(run_id, compile_id, graph_index, readable_code, node_count, op_count) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

// Version 8: AOT graphs are rows too, linked to the latest Dynamo graph of their compile and
// index (reported just before them).
constexpr const char* kInsertGraphWithKind =
    "INSERT INTO graphs(run_id, compile_id, graph_index, readable_code, node_count, op_count, "
    "kind, dynamo_graph_id, saved_tensors, saved_count, saved_bytes) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CASE WHEN ?7 = 'dynamo' THEN NULL ELSE "
    "(SELECT id FROM graphs WHERE run_id = ?1 AND compile_id = ?2 AND graph_index = ?3 "
    "AND coalesce(kind, 'dynamo') = 'dynamo' ORDER BY id DESC LIMIT 1) END, ?8, ?9, ?10)";

constexpr const char* kInsertGraphNode =
    "INSERT INTO graph_nodes(graph_id, ord, name, op, target, args, shape, dtype, source_line, "
    "module_path, module_type) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
// Before schema version 6 (a test's older history) the table has no module columns.
constexpr const char* kInsertGraphNodeWithoutModule =
    "INSERT INTO graph_nodes(graph_id, ord, name, op, target, args, shape, dtype, source_line) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

constexpr const char* kUpsertConfig =
    "INSERT INTO config(run_id, key, value, default_value, source) VALUES (?1, ?2, ?3, ?4, ?5) "
    "ON CONFLICT(run_id, key) DO UPDATE SET value = excluded.value, "
    "default_value = excluded.default_value, source = excluded.source";

constexpr const char* kInsertEvent =
    "INSERT INTO events(run_id, category, name, compile_id, start_ns, duration_ns, detail_json) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

constexpr const char* kWhat = "cannot write to";

// Line 0 means "none" in the events; the column says so with NULL.
void bindLineOrNull(Statement& stmt, int index, int32_t line) {
    if (line == 0)
        stmt.bindNull(index);
    else
        stmt.bindInt(index, line);
}

} // namespace

size_t captureRowCount(const CaptureEvent& event) {
    if (const auto* graph = std::get_if<GraphEvent>(&event)) return 1 + graph->nodes.size();
    return 1;
}

Expected<CaptureInserter> CaptureInserter::prepare(const Connection& connection,
                                                   int schemaVersion) {
    CaptureInserter inserter;
    inserter.m_db = &connection;
    const bool moduleColumns = schemaVersion >= kModuleSchemaVersion;
    inserter.m_moduleColumns = moduleColumns;
    inserter.m_installedColumn = schemaVersion >= kGuardInstalledSchemaVersion;
    inserter.m_graphKinds = schemaVersion >= kAotGraphSchemaVersion;
    struct Target {
        Statement* stmt;
        const char* sql;
    };
    const Target targets[] = {
        {&inserter.m_frame, kInsertFrame},
        {&inserter.m_compile, kUpsertCompile},
        {&inserter.m_guard,
         inserter.m_installedColumn ? kInsertGuard : kInsertGuardWithoutInstalled},
        {&inserter.m_recompile, kInsertRecompile},
        {&inserter.m_graphBreak, kInsertGraphBreak},
        {&inserter.m_graph, inserter.m_graphKinds ? kInsertGraphWithKind : kInsertGraph},
        {&inserter.m_graphNode, moduleColumns ? kInsertGraphNode : kInsertGraphNodeWithoutModule},
        {&inserter.m_config, kUpsertConfig},
        {&inserter.m_event, kInsertEvent},
    };
    for (const Target& target : targets) {
        auto stmt = Statement::prepare(connection, target.sql);
        if (!stmt) return std::move(stmt).takeError();
        *target.stmt = std::move(stmt).value();
    }
    return inserter;
}

Status CaptureInserter::insert(int64_t runId, const CaptureEvent& event) {
    KILN_ASSERT(m_db != nullptr, "CaptureInserter used before prepare()");
    return std::visit([&](const auto& typed) { return insertRows(runId, typed); }, event);
}

Status CaptureInserter::insertRows(int64_t runId, const FrameEvent& event) {
    m_frame.bindInt(1, runId);
    m_frame.bindInt(2, event.frameId);
    m_frame.bindText(3, event.function);
    m_frame.bindText(4, event.file);
    m_frame.bindInt(5, event.line);
    m_frame.bindText(6, event.kind);
    if (event.parentFrameId >= 0)
        m_frame.bindInt(7, event.parentFrameId);
    else
        m_frame.bindNull(7);
    bindLineOrNull(m_frame, 8, event.resumeLine);
    return m_frame.run(kWhat);
}

Status CaptureInserter::insertRows(int64_t runId, const CompileEvent& event) {
    bool finished = !event.status.empty();
    // Bound by reference: the text must live until run() below.
    std::string phases = event.phases.empty() ? std::string() : jsonIntObject(event.phases);
    m_compile.bindInt(1, runId);
    m_compile.bindText(2, event.compileId);
    m_compile.bindInt(3, event.frameId);
    m_compile.bindInt(4, event.compileIndex);
    m_compile.bindText(5, event.reason);
    m_compile.bindInt(6, event.startNs);
    if (finished) m_compile.bindInt(7, event.durationNs); // else NULL: still compiling
    m_compile.bindTextOrNull(8, event.status);
    m_compile.bindTextOrNull(9, event.failure);
    m_compile.bindTextOrNull(10, event.backend);
    m_compile.bindTextOrNull(11, event.mode);
    m_compile.bindTextOrNull(12, phases);
    return m_compile.run(kWhat);
}

Status CaptureInserter::insertRows(int64_t runId, const GuardEvent& event) {
    m_guard.bindInt(1, runId);
    m_guard.bindText(2, event.compileId);
    m_guard.bindText(3, event.kind);
    m_guard.bindTextOrNull(4, event.source);
    m_guard.bindText(5, event.expression);
    m_guard.bindTextOrNull(6, event.expected);
    bindLineOrNull(m_guard, 7, event.userLine);
    if (m_installedColumn)
        m_guard.bindInt(8, event.installed ? 1 : 0);
    else if (!event.installed)
        return Status::success(); // an older history has no way to say it is not checked
    return m_guard.run(kWhat);
}

Status CaptureInserter::insertRows(int64_t runId, const RecompileEvent& event) {
    m_recompile.bindInt(1, runId);
    m_recompile.bindText(2, event.compileId);
    m_recompile.bindText(3, event.failedCompileId);
    m_recompile.bindTextOrNull(4, event.guardSource);
    m_recompile.bindTextOrNull(5, event.expected);
    m_recompile.bindTextOrNull(6, event.actual);
    m_recompile.bindText(7, event.reason);
    return m_recompile.run(kWhat);
}

Status CaptureInserter::insertRows(int64_t runId, const GraphBreakEvent& event) {
    m_graphBreak.bindInt(1, runId);
    m_graphBreak.bindText(2, event.compileId);
    m_graphBreak.bindInt(3, event.order);
    m_graphBreak.bindText(4, event.file);
    m_graphBreak.bindInt(5, event.line);
    m_graphBreak.bindInt(6, event.column);
    m_graphBreak.bindText(7, event.reasonKind);
    m_graphBreak.bindText(8, event.reason);
    m_graphBreak.bindTextOrNull(9, event.userStack);
    return m_graphBreak.run(kWhat);
}

Status CaptureInserter::insertRows(int64_t runId, const GraphEvent& event) {
    if (!m_graphKinds && event.kind != "dynamo") return Status::success(); // no place for it
    m_graph.bindInt(1, runId);
    m_graph.bindText(2, event.compileId);
    m_graph.bindInt(3, event.graphIndex);
    m_graph.bindText(4, event.readableCode);
    m_graph.bindInt(5, event.nodeCount);
    m_graph.bindInt(6, event.opCount);
    if (m_graphKinds) {
        m_graph.bindText(7, event.kind);
        // An imported PyTorch run's forward graphs do not say what they save: NULL.
        bool saves = event.kind == "aot_forward" && !event.savedTensors.empty();
        if (saves) {
            m_graph.bindText(8, event.savedTensors);
            m_graph.bindInt(9, event.savedCount);
            m_graph.bindInt(10, event.savedBytes);
        } else {
            for (int column : {8, 9, 10})
                m_graph.bindNull(column);
        }
    }
    if (Status status = m_graph.run(kWhat); !status) return status;
    int64_t graphId = sqlite3_last_insert_rowid(m_db->get());
    for (size_t i = 0; i < event.nodes.size(); ++i) {
        const GraphNodeInfo& node = event.nodes[i];
        m_graphNode.bindInt(1, graphId);
        m_graphNode.bindInt(2, int64_t(i));
        m_graphNode.bindText(3, node.name);
        m_graphNode.bindText(4, node.op);
        m_graphNode.bindTextOrNull(5, node.target);
        m_graphNode.bindTextOrNull(6, node.args);
        m_graphNode.bindTextOrNull(7, node.shape);
        m_graphNode.bindTextOrNull(8, node.dtype);
        bindLineOrNull(m_graphNode, 9, node.sourceLine);
        if (m_moduleColumns) {
            m_graphNode.bindTextOrNull(10, node.modulePath);
            m_graphNode.bindTextOrNull(11, node.moduleType);
        }
        if (Status status = m_graphNode.run(kWhat); !status) return status;
    }
    return Status::success();
}

Status CaptureInserter::insertRows(int64_t runId, const ConfigEvent& event) {
    m_config.bindInt(1, runId);
    m_config.bindText(2, event.key);
    m_config.bindText(3, event.value);
    m_config.bindText(4, event.defaultValue);
    m_config.bindText(5, event.source);
    return m_config.run(kWhat);
}

Status CaptureInserter::insertRows(int64_t runId, const TimelineEvent& event) {
    m_event.bindInt(1, runId);
    m_event.bindText(2, event.category);
    m_event.bindText(3, event.name);
    m_event.bindTextOrNull(4, event.compileId);
    m_event.bindInt(5, event.startNs);
    m_event.bindInt(6, event.durationNs);
    m_event.bindText(7, event.detailJson.empty() ? std::string_view("{}") : event.detailJson);
    return m_event.run(kWhat);
}

} // namespace kiln::trace
