// SPDX-License-Identifier: MIT
#include "trace/compiler_inserter.h"

#include "trace/schema.h"

namespace kiln::trace {

namespace {

// The graph a kernel or diagram belongs to, when capture already reported it; NULL otherwise
// (the graphs_link_compiled trigger fills it in when the graph row arrives).
#define KILN_GRAPH_OF                                                                              \
    "(SELECT id FROM graphs WHERE run_id = ?1 AND compile_id = ?2 AND graph_index = ?3 "           \
    "ORDER BY id DESC LIMIT 1)"
// From version 8 on, AOT graphs share their Dynamo graph's compile id and index: kernels and
// diagrams belong to the Dynamo graph.
#define KILN_DYNAMO_GRAPH_OF                                                                       \
    "(SELECT id FROM graphs WHERE run_id = ?1 AND compile_id = ?2 AND graph_index = ?3 "           \
    "AND coalesce(kind, 'dynamo') = 'dynamo' ORDER BY id DESC LIMIT 1)"

// Last write wins: a kernel reported again (same run-unique id) replaces its facts and keeps its
// row id.
constexpr const char* kUpsertKernel =
    "INSERT INTO kernels(run_id, graph_id, compile_id, graph_index, kernel_id, name, kind, "
    "fused_nodes, source_code, launch_config) "
    "VALUES (?1, " KILN_GRAPH_OF ", ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
    "ON CONFLICT(run_id, kernel_id) DO UPDATE SET graph_id = excluded.graph_id, "
    "compile_id = excluded.compile_id, graph_index = excluded.graph_index, "
    "name = excluded.name, kind = excluded.kind, fused_nodes = excluded.fused_nodes, "
    "source_code = excluded.source_code, launch_config = excluded.launch_config";

constexpr const char* kUpsertKernelWithGraphKind =
    "INSERT INTO kernels(run_id, graph_id, compile_id, graph_index, kernel_id, name, kind, "
    "fused_nodes, source_code, launch_config, graph_kind) "
    "VALUES (?1, " KILN_DYNAMO_GRAPH_OF ", ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
    "ON CONFLICT(run_id, kernel_id) DO UPDATE SET graph_id = excluded.graph_id, "
    "compile_id = excluded.compile_id, graph_index = excluded.graph_index, "
    "name = excluded.name, kind = excluded.kind, fused_nodes = excluded.fused_nodes, "
    "source_code = excluded.source_code, launch_config = excluded.launch_config, "
    "graph_kind = excluded.graph_kind";

constexpr const char* kInsertAutotune =
    "INSERT INTO autotune_choices(run_id, kernel_id, candidate, time_ns, chosen, runs, min_ns, "
    "max_ns, stopped_early, from_cache) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

// A version-3 schema has no measurement columns (tests write such files to upgrade them).
constexpr const char* kInsertAutotuneVersion3 =
    "INSERT INTO autotune_choices(run_id, kernel_id, candidate, time_ns, chosen) "
    "VALUES (?1, ?2, ?3, ?4, ?5)";

constexpr const char* kInsertLaunch =
    "INSERT INTO kernel_launches(run_id, kernel_id, start_ns, end_ns, device, grid, block, "
    "registers, shared_memory) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

// One diagram per graph and kind: a graph drawn again replaces its DOT text.
constexpr const char* kUpsertDiagram =
    "INSERT INTO diagrams(run_id, graph_id, compile_id, graph_index, kind, dot) "
    "VALUES (?1, " KILN_GRAPH_OF ", ?2, ?3, ?4, ?5) "
    "ON CONFLICT(run_id, compile_id, graph_index, kind) DO UPDATE SET dot = excluded.dot, "
    "graph_id = coalesce(excluded.graph_id, graph_id)";

constexpr const char* kUpsertDiagramOfDynamoGraph =
    "INSERT INTO diagrams(run_id, graph_id, compile_id, graph_index, kind, dot) "
    "VALUES (?1, " KILN_DYNAMO_GRAPH_OF ", ?2, ?3, ?4, ?5) "
    "ON CONFLICT(run_id, compile_id, graph_index, kind) DO UPDATE SET dot = excluded.dot, "
    "graph_id = coalesce(excluded.graph_id, graph_id)";

#undef KILN_GRAPH_OF
#undef KILN_DYNAMO_GRAPH_OF

constexpr const char* kWhat = "cannot write to";

} // namespace

Expected<CompilerInserter> CompilerInserter::prepare(const Connection& connection,
                                                     int schemaVersion) {
    CompilerInserter inserter;
    const bool withMeasurement = schemaVersion >= kMeasurementSchemaVersion;
    inserter.m_withMeasurement = withMeasurement;
    inserter.m_graphKinds = schemaVersion >= kAotGraphSchemaVersion;
    struct Target {
        Statement* stmt;
        const char* sql;
    };
    const Target targets[] = {
        {&inserter.m_kernel, inserter.m_graphKinds ? kUpsertKernelWithGraphKind : kUpsertKernel},
        {&inserter.m_autotune, withMeasurement ? kInsertAutotune : kInsertAutotuneVersion3},
        {&inserter.m_launch, kInsertLaunch},
        {&inserter.m_diagram, inserter.m_graphKinds ? kUpsertDiagramOfDynamoGraph : kUpsertDiagram},
    };
    for (const Target& target : targets) {
        auto stmt = Statement::prepare(connection, target.sql);
        if (!stmt) return std::move(stmt).takeError();
        *target.stmt = std::move(stmt).value();
    }
    inserter.m_prepared = true;
    return inserter;
}

Status CompilerInserter::insert(int64_t runId, const CompilerEvent& event) {
    KILN_ASSERT(m_prepared, "CompilerInserter used before prepare()");
    return std::visit([&](const auto& typed) { return insertRow(runId, typed); }, event);
}

Status CompilerInserter::insertRow(int64_t runId, const KernelEvent& event) {
    m_kernel.bindInt(1, runId);
    m_kernel.bindText(2, event.compileId);
    m_kernel.bindInt(3, event.graphIndex);
    m_kernel.bindInt(4, event.kernelId);
    m_kernel.bindText(5, event.name);
    m_kernel.bindText(6, event.kind);
    m_kernel.bindTextOrNull(7, event.fusedNodes);
    m_kernel.bindTextOrNull(8, event.sourceCode);
    m_kernel.bindTextOrNull(9, event.launchConfig);
    if (m_graphKinds) m_kernel.bindTextOrNull(10, event.graphKind);
    return m_kernel.run(kWhat);
}

Status CompilerInserter::insertRow(int64_t runId, const AutotuneChoiceEvent& event) {
    m_autotune.bindInt(1, runId);
    m_autotune.bindInt(2, event.kernelId);
    m_autotune.bindText(3, event.candidate);
    m_autotune.bindInt(4, event.timeNs);
    m_autotune.bindInt(5, event.chosen ? 1 : 0);
    if (m_withMeasurement) {
        // Without a count of timed runs their fastest and slowest mean nothing: all NULL.
        if (event.runs > 0) {
            m_autotune.bindInt(6, event.runs);
            m_autotune.bindInt(7, event.minNs);
            m_autotune.bindInt(8, event.maxNs);
        } else {
            for (int column : {6, 7, 8})
                m_autotune.bindNull(column);
        }
        m_autotune.bindInt(9, event.stoppedEarly ? 1 : 0);
        m_autotune.bindInt(10, event.fromCache ? 1 : 0);
    }
    return m_autotune.run(kWhat);
}

Status CompilerInserter::insertRow(int64_t runId, const DiagramEvent& event) {
    m_diagram.bindInt(1, runId);
    m_diagram.bindText(2, event.compileId);
    m_diagram.bindInt(3, event.graphIndex);
    m_diagram.bindText(4, event.kind);
    m_diagram.bindText(5, event.dot);
    return m_diagram.run(kWhat);
}

Status CompilerInserter::insertLaunch(int64_t runId, const KernelLaunchEvent& event) {
    KILN_ASSERT(m_prepared, "CompilerInserter used before prepare()");
    m_launch.bindInt(1, runId);
    m_launch.bindInt(2, event.kernelId);
    m_launch.bindInt(3, event.startNs);
    m_launch.bindInt(4, event.endNs);
    m_launch.bindText(5, event.device);
    m_launch.bindTextOrNull(6, event.grid);
    m_launch.bindTextOrNull(7, event.block);
    m_launch.bindInt(8, event.registers);
    m_launch.bindInt(9, event.sharedMemory);
    return m_launch.run(kWhat);
}

} // namespace kiln::trace
