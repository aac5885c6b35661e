// SPDX-License-Identifier: MIT
#include "trace/schema.h"

#include <cstdio>
#include <sqlite3.h>

namespace kiln::trace {

namespace {

// Version 1 (2026-11-30): run metadata and the script's output. Column meanings, units and
// allowed values are documented in docs/trace-schema.md; keep the two in step.
constexpr const char* kCreateVersion1 = R"sql(
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
CREATE TABLE runs (
    id              INTEGER PRIMARY KEY,
    workload_path   TEXT NOT NULL,
    workload_hash   TEXT,
    mode            TEXT,
    backend         TEXT,
    options_json    TEXT,
    device          TEXT,
    argv            TEXT,
    host            TEXT,
    pid             INTEGER NOT NULL,
    started_at_ns   INTEGER NOT NULL,
    ended_at_ns     INTEGER,
    status          TEXT NOT NULL DEFAULT 'running',
    exit_code       INTEGER,
    error_type      TEXT,
    error_message   TEXT,
    error_traceback TEXT
);
CREATE TABLE output (
    id     INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    seq    INTEGER NOT NULL,
    stream TEXT NOT NULL,
    t_ns   INTEGER NOT NULL,
    text   TEXT NOT NULL
);
CREATE INDEX output_by_run ON output(run_id, id);
)sql";

// Version 2 (2026-11-30): what torch.compile capture reports (support/capture_events.h). Rows
// name their compile by its text id ('f/c') within the run rather than by a foreign key, so a
// capture-layer slip can never make the writer reject a batch that also holds the run's output.
constexpr const char* kCreateVersion2 = R"sql(
CREATE TABLE frames (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    frame_id        INTEGER NOT NULL,
    function        TEXT NOT NULL,
    file            TEXT NOT NULL,
    line            INTEGER NOT NULL,
    kind            TEXT NOT NULL,
    parent_frame_id INTEGER,
    resume_line     INTEGER,
    UNIQUE (run_id, frame_id)
);
CREATE INDEX frames_by_run ON frames(run_id, id);
CREATE TABLE compiles (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    compile_id    TEXT NOT NULL,
    frame_id      INTEGER NOT NULL,
    compile_index INTEGER NOT NULL,
    reason        TEXT NOT NULL,
    start_ns      INTEGER NOT NULL,
    duration_ns   INTEGER,
    status        TEXT,
    failure       TEXT,
    backend       TEXT,
    mode          TEXT,
    phases_json   TEXT,
    UNIQUE (run_id, compile_id)
);
CREATE INDEX compiles_by_run ON compiles(run_id, id);
CREATE TABLE guards (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    compile_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    source     TEXT,
    expression TEXT NOT NULL,
    expected   TEXT,
    user_line  INTEGER
);
CREATE INDEX guards_by_run ON guards(run_id, id);
CREATE INDEX guards_by_compile ON guards(run_id, compile_id, id);
CREATE TABLE recompiles (
    id                INTEGER PRIMARY KEY,
    run_id            INTEGER NOT NULL REFERENCES runs(id),
    compile_id        TEXT NOT NULL,
    failed_compile_id TEXT NOT NULL,
    guard_source      TEXT,
    expected          TEXT,
    actual            TEXT,
    reason            TEXT NOT NULL
);
CREATE INDEX recompiles_by_run ON recompiles(run_id, id);
CREATE TABLE graph_breaks (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    compile_id  TEXT NOT NULL,
    ord         INTEGER NOT NULL,
    file        TEXT NOT NULL,
    line        INTEGER NOT NULL,
    col         INTEGER NOT NULL,
    reason_kind TEXT NOT NULL,
    reason      TEXT NOT NULL,
    user_stack  TEXT
);
CREATE INDEX graph_breaks_by_run ON graph_breaks(run_id, id);
CREATE TABLE graphs (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    compile_id    TEXT NOT NULL,
    graph_index   INTEGER NOT NULL,
    readable_code TEXT NOT NULL,
    node_count    INTEGER NOT NULL,
    op_count      INTEGER NOT NULL
);
CREATE INDEX graphs_by_run ON graphs(run_id, id);
CREATE TABLE graph_nodes (
    id          INTEGER PRIMARY KEY,
    graph_id    INTEGER NOT NULL REFERENCES graphs(id),
    ord         INTEGER NOT NULL,
    name        TEXT NOT NULL,
    op          TEXT NOT NULL,
    target      TEXT,
    args        TEXT,
    shape       TEXT,
    dtype       TEXT,
    source_line INTEGER
);
CREATE INDEX graph_nodes_by_graph ON graph_nodes(graph_id, ord);
CREATE TABLE config (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    key           TEXT NOT NULL,
    value         TEXT NOT NULL,
    default_value TEXT NOT NULL,
    source        TEXT NOT NULL,
    UNIQUE (run_id, key)
);
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    category    TEXT NOT NULL,
    name        TEXT NOT NULL,
    compile_id  TEXT,
    start_ns    INTEGER NOT NULL,
    duration_ns INTEGER NOT NULL,
    detail_json TEXT NOT NULL
);
CREATE INDEX events_by_run ON events(run_id, id);
)sql";

// Version 3 (2026-12-01): what the compiler and the runtime report (support/compiler_events.h).
// Kernels, autotune choices and launches name their kernel by the run-unique kernel id of the
// events, and kernels and diagrams name their graph by compile id and graph index, like the
// capture tables, so no batch is ever rejected over a slip. `graph_id` is the resolved graphs
// row: the compiler reports kernels and diagrams while the backend compiles, before capture
// reports the graph, so the writer fills it when the graph is already there and the trigger
// fills it when the graph arrives.
constexpr const char* kCreateVersion3 = R"sql(
CREATE INDEX graphs_by_compile ON graphs(run_id, compile_id, graph_index);
CREATE TABLE kernels (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    graph_id      INTEGER REFERENCES graphs(id),
    compile_id    TEXT NOT NULL,
    graph_index   INTEGER NOT NULL,
    kernel_id     INTEGER NOT NULL,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL,
    fused_nodes   TEXT,
    source_code   TEXT,
    launch_config TEXT,
    UNIQUE (run_id, kernel_id)
);
CREATE INDEX kernels_by_graph ON kernels(graph_id, id);
CREATE INDEX kernels_by_compile ON kernels(run_id, compile_id, graph_index);
CREATE TABLE autotune_choices (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES runs(id),
    kernel_id INTEGER NOT NULL,
    candidate TEXT NOT NULL,
    time_ns   INTEGER NOT NULL,
    chosen    INTEGER NOT NULL
);
CREATE INDEX autotune_choices_by_kernel ON autotune_choices(run_id, kernel_id);
CREATE TABLE kernel_launches (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    kernel_id     INTEGER NOT NULL,
    start_ns      INTEGER NOT NULL,
    end_ns        INTEGER NOT NULL,
    device        TEXT NOT NULL,
    grid          TEXT,
    block         TEXT,
    registers     INTEGER NOT NULL,
    shared_memory INTEGER NOT NULL
);
CREATE INDEX kernel_launches_by_run ON kernel_launches(run_id, id);
CREATE INDEX kernel_launches_by_kernel ON kernel_launches(run_id, kernel_id);
CREATE TABLE diagrams (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    graph_id    INTEGER REFERENCES graphs(id),
    compile_id  TEXT NOT NULL,
    graph_index INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    dot         TEXT NOT NULL,
    UNIQUE (run_id, compile_id, graph_index, kind)
);
CREATE INDEX diagrams_by_graph ON diagrams(graph_id, kind);
CREATE TRIGGER graphs_link_compiled AFTER INSERT ON graphs BEGIN
    UPDATE kernels SET graph_id = NEW.id
        WHERE run_id = NEW.run_id AND compile_id = NEW.compile_id
          AND graph_index = NEW.graph_index AND graph_id IS NULL;
    UPDATE diagrams SET graph_id = NEW.id
        WHERE run_id = NEW.run_id AND compile_id = NEW.compile_id
          AND graph_index = NEW.graph_index AND graph_id IS NULL;
END;
)sql";

// Version 4 (2026-12-01): where timings come from. An autotuning time is a median over timed
// runs, possibly cut short (a candidate already far slower than the best stops after one run) or
// taken from the on-disk tuning cache; and a run's timings belong to the CPU, thread count and
// matmul libraries it ran with. Added columns only (SQLite adds them without rewriting a table);
// older rows read NULL: not recorded.
constexpr const char* kCreateVersion4 = R"sql(
ALTER TABLE autotune_choices ADD COLUMN runs INTEGER;
ALTER TABLE autotune_choices ADD COLUMN min_ns INTEGER;
ALTER TABLE autotune_choices ADD COLUMN max_ns INTEGER;
ALTER TABLE autotune_choices ADD COLUMN stopped_early INTEGER;
ALTER TABLE autotune_choices ADD COLUMN from_cache INTEGER;
ALTER TABLE runs ADD COLUMN machine TEXT;
)sql";

// Version 5 (2026-12-02): runs imported from PyTorch's structured trace (`kiln import`). The
// records Kiln's tables have no place for are kept verbatim, one row each, so an import loses
// nothing a newer PyTorch logs.
constexpr const char* kCreateVersion5 = R"sql(
CREATE TABLE import_extras (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    line        INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    compile_id  TEXT,
    envelope    TEXT NOT NULL,
    payload     TEXT
);
CREATE INDEX import_extras_by_run ON import_extras(run_id, kind, id);
)sql";

// Version 6 (2026-12-06): which module a call_module node calls, as the code reads it
// (`self.net.0`) and its class (`Linear`), so that views can name the node after what it
// computes instead of Dynamo's mangled `l__self___net_0`. Older rows read NULL.
constexpr const char* kCreateVersion6 = R"sql(
ALTER TABLE graph_nodes ADD COLUMN module_path TEXT;
ALTER TABLE graph_nodes ADD COLUMN module_type TEXT;
)sql";

// Version 7 (2026-12-07): whether the compiled entry checks a guard. PyTorch 2.3 installs no
// guard on what is read through an nn.Module (guard_nn_modules=False); those reads are kept
// with installed = 0, so a view can show why changing such a value did not recompile. Older
// rows read NULL: installed.
constexpr const char* kCreateVersion7 = R"sql(
ALTER TABLE guards ADD COLUMN installed INTEGER;
)sql";

// Version 8 (2026-12-07): AOT autograd's graphs. A compiled graph that needs gradients becomes
// a joint graph split into a forward and a backward graph (an inference graph otherwise); they
// are `graphs` rows of their own kind, linked to the Dynamo graph they come from, the forward
// with what it saves for the backward. Kernels say which of them they compute part of. The
// trigger links kernels and diagrams to Dynamo graphs only. Older rows read NULL: Dynamo graphs,
// kernels of no recorded AOT graph.
constexpr const char* kCreateVersion8 = R"sql(
ALTER TABLE graphs ADD COLUMN kind TEXT;
ALTER TABLE graphs ADD COLUMN dynamo_graph_id INTEGER REFERENCES graphs(id);
ALTER TABLE graphs ADD COLUMN saved_tensors TEXT;
ALTER TABLE graphs ADD COLUMN saved_count INTEGER;
ALTER TABLE graphs ADD COLUMN saved_bytes INTEGER;
CREATE INDEX graphs_by_dynamo_graph ON graphs(dynamo_graph_id);
ALTER TABLE kernels ADD COLUMN graph_kind TEXT;
DROP TRIGGER graphs_link_compiled;
CREATE TRIGGER graphs_link_compiled AFTER INSERT ON graphs
WHEN coalesce(NEW.kind, 'dynamo') = 'dynamo' BEGIN
    UPDATE kernels SET graph_id = NEW.id
        WHERE run_id = NEW.run_id AND compile_id = NEW.compile_id
          AND graph_index = NEW.graph_index AND graph_id IS NULL;
    UPDATE diagrams SET graph_id = NEW.id
        WHERE run_id = NEW.run_id AND compile_id = NEW.compile_id
          AND graph_index = NEW.graph_index AND graph_id IS NULL;
END;
)sql";

std::string hex32(int64_t value) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "0x%08llx", (unsigned long long)(uint32_t)value);
    return buffer;
}

Diagnostic notKilnTrace(const std::string& path, const std::string& why) {
    return makeDiagnostic("TraceError", "'" + path + "' is not a Kiln trace (" + why + ")");
}

Status applySteps(Connection& connection, int fromVersion, const SchemaHistory& history) {
    for (int version = fromVersion; version < history.latestVersion(); ++version) {
        const Migration& step = history.steps()[size_t(version)];
        if (Status status = connection.exec(step.sql, "cannot upgrade"); !status)
            return traceError(connection.path(), "cannot upgrade",
                              "from schema version " + std::to_string(version) + " to " +
                                  std::to_string(version + 1) + ": " + connection.lastError());
    }
    std::string stamp = "PRAGMA application_id = " + std::to_string(kApplicationId) +
                        "; PRAGMA user_version = " + std::to_string(history.latestVersion()) +
                        "; INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', '" +
                        std::to_string(history.latestVersion()) + "');";
    return connection.exec(stamp, "cannot stamp the version of");
}

} // namespace

SchemaHistory::SchemaHistory(std::vector<Migration> steps)
    : m_steps(std::move(steps)) {
    for (size_t i = 0; i < m_steps.size(); ++i)
        KILN_ASSERT(m_steps[i].fromVersion == int(i), "migration steps must be consecutive");
}

const SchemaHistory& currentSchema() {
    static const SchemaHistory history({
        {0, "runs, output and meta", kCreateVersion1},
        {1,
         "torch.compile capture: frames, compiles, guards, recompiles, graph breaks, graphs, "
         "config, events",
         kCreateVersion2},
        {2, "compiler and runtime: kernels, autotune choices, kernel launches, diagrams",
         kCreateVersion3},
        {3, "how autotuning times were measured; the machine each run ran on", kCreateVersion4},
        {4, "records of imported PyTorch logs that have no table of their own", kCreateVersion5},
        {5, "the module each call_module graph node calls", kCreateVersion6},
        {6, "whether each guard is installed (reads through nn.Modules are not)", kCreateVersion7},
        {7, "AOT autograd's graphs (joint, forward, backward, inference) and saved tensors",
         kCreateVersion8},
    });
    return history;
}

int currentSchemaVersion() {
    return currentSchema().latestVersion();
}

Expected<FileIdentity> readIdentity(Connection& connection) {
    FileIdentity identity;
    auto applicationId = connection.queryInt("PRAGMA application_id", "cannot read");
    if (!applicationId) {
        // SQLite only notices a foreign file when it first reads the header.
        if (sqlite3_errcode(connection.get()) == SQLITE_NOTADB)
            return notKilnTrace(connection.path(), connection.lastError());
        return std::move(applicationId).takeError();
    }
    identity.applicationId = applicationId.value();
    auto userVersion = connection.queryInt("PRAGMA user_version", "cannot read");
    if (!userVersion) return std::move(userVersion).takeError();
    identity.userVersion = userVersion.value();
    auto objects = connection.queryInt("SELECT count(*) FROM sqlite_master", "cannot read");
    if (!objects) return std::move(objects).takeError();
    identity.empty = objects.value() == 0;
    return identity;
}

Status checkCompatible(const FileIdentity& identity, const std::string& path,
                       const SchemaHistory& history) {
    bool claimable = identity.empty && identity.applicationId == 0 && identity.userVersion == 0;
    if (identity.applicationId != kApplicationId && !claimable)
        return notKilnTrace(path, "a SQLite database with application_id " +
                                      hex32(identity.applicationId) + ", Kiln uses " +
                                      hex32(kApplicationId));
    // user_version is a signed 32-bit header field: a damaged file can hold any value there.
    if (identity.userVersion < 0)
        return notKilnTrace(path, "damaged: its schema version is " +
                                      std::to_string(identity.userVersion));
    if (identity.userVersion > history.latestVersion())
        return makeDiagnostic("TraceError", "trace '" + path +
                                                "' was written by a newer Kiln (schema version " +
                                                std::to_string(identity.userVersion) +
                                                "); this Kiln reads up to version " +
                                                std::to_string(history.latestVersion()));
    return Status::success();
}

Status configureWriter(Connection& connection) {
    auto mode = Statement::prepare(connection, "PRAGMA journal_mode=WAL");
    if (!mode) return mode.error();
    auto row = mode->step("cannot set the journal mode of");
    if (!row) return row.error();
    // WAL is what lets readers tail a growing file; some file systems (network mounts) refuse it.
    std::string journal = row.value() ? mode->columnText(0) : std::string();
    if (journal != "wal")
        return traceError(connection.path(), "cannot use WAL mode for",
                          "journal_mode stayed '" + journal + "'");
    return connection.exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
                           "cannot configure");
}

Status upgradeSchema(Connection& connection, const SchemaHistory& history) {
    if (Status status = connection.exec("BEGIN IMMEDIATE", "cannot lock"); !status) return status;
    auto identity = readIdentity(connection);
    Status status = identity ? checkCompatible(*identity, connection.path(), history)
                             : Status(identity.error());
    if (status && identity->userVersion < history.latestVersion())
        status = applySteps(connection, int(identity->userVersion), history);
    if (status) status = connection.exec("COMMIT", "cannot commit to");
    if (!status) (void)connection.exec("ROLLBACK", "cannot roll back");
    return status;
}

} // namespace kiln::trace
