// SPDX-License-Identifier: MIT
#include "trace/trace_reader.h"

#include "trace/process_info.h"
#include "trace/trace_path.h"

#include <sqlite3.h>

namespace kiln::trace {

namespace {

constexpr const char* kRunColumns =
    "SELECT id, workload_path, workload_hash, mode, backend, options_json, device, argv, host, "
    "pid, started_at_ns, ended_at_ns, status, exit_code, error_type, error_message, "
    "error_traceback, machine FROM runs ";

// Copies the whole file into a private in-memory database and upgrades that, leaving the file
// (which an older Kiln may still be writing) untouched.
Expected<Connection> upgradedSnapshot(const Connection& file, const SchemaHistory& history) {
    auto memory = Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!memory) return std::move(memory).takeError();
    memory->setDisplayPath(file.path());
    sqlite3_backup* backup = sqlite3_backup_init(memory->get(), "main", file.get(), "main");
    if (!backup) return traceError(file.path(), "cannot copy", memory->lastError());
    int rc = sqlite3_backup_step(backup, -1);
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) return traceError(file.path(), "cannot copy", sqlite3_errstr(rc));
    if (Status status = upgradeSchema(*memory, history); !status) return status.error();
    return std::move(memory).value();
}

} // namespace

Expected<std::unique_ptr<TraceReader>> TraceReader::open(const std::string& path) {
    return open(path, currentSchema());
}

Expected<std::unique_ptr<TraceReader>> TraceReader::open(const std::string& path,
                                                         const SchemaHistory& history) {
    if (Status status = checkTracePath(path, TracePathUse::Read); !status) return status.error();
    auto connection = Connection::open(path, SQLITE_OPEN_READONLY);
    if (!connection) return std::move(connection).takeError();
    auto identity = readIdentity(*connection);
    if (!identity) return std::move(identity).takeError();
    if (identity->applicationId != kApplicationId && identity->empty)
        return makeDiagnostic("TraceError",
                              "'" + path + "' is not a Kiln trace (an empty database)");
    if (Status status = checkCompatible(*identity, path, history); !status) return status.error();
    int version = int(identity->userVersion);
    if (version == history.latestVersion())
        return std::unique_ptr<TraceReader>(
            new TraceReader(std::move(connection).value(), path, version, false));
    auto snapshot = upgradedSnapshot(*connection, history);
    if (!snapshot) return std::move(snapshot).takeError();
    return std::unique_ptr<TraceReader>(
        new TraceReader(std::move(snapshot).value(), path, version, true));
}

TraceReader::TraceReader(Connection connection, std::string path, int schemaVersion, bool upgraded)
    : m_db(std::move(connection))
    , m_path(std::move(path))
    , m_schemaVersion(schemaVersion)
    , m_upgradedSnapshot(upgraded) {}

Expected<std::vector<RunRow>> TraceReader::listRuns() const {
    return queryRuns("ORDER BY id", 0);
}

Expected<RunRow> TraceReader::run(int64_t runId) const {
    auto runs = queryRuns("WHERE id = ?1", runId);
    if (!runs) return std::move(runs).takeError();
    if (runs->empty())
        return makeDiagnostic("TraceError",
                              "trace '" + m_path + "' has no run " + std::to_string(runId));
    return std::move(runs->front());
}

Expected<std::vector<RunRow>> TraceReader::queryRuns(const char* where, int64_t runId) const {
    auto stmt = Statement::prepare(m_db, std::string(kRunColumns) + where);
    if (!stmt) return std::move(stmt).takeError();
    if (runId != 0) stmt->bindInt(1, runId);
    std::vector<RunRow> rows;
    for (;;) {
        auto more = stmt->step("cannot read");
        if (!more) return std::move(more).takeError();
        if (!more.value()) break;
        RunRow row;
        row.id = stmt->columnInt(0);
        row.workloadPath = stmt->columnText(1);
        row.workloadHash = stmt->columnText(2);
        row.mode = stmt->columnText(3);
        row.backend = stmt->columnText(4);
        row.optionsJson = stmt->columnText(5);
        row.device = stmt->columnText(6);
        auto argv = decodeArgv(stmt->columnText(7));
        if (!argv) return std::move(argv).takeError();
        row.argv = std::move(argv).value();
        row.host = stmt->columnText(8);
        row.pid = stmt->columnInt(9);
        row.startedAtNs = stmt->columnInt(10);
        row.endedAtNs = stmt->columnOptionalInt(11);
        std::string status = stmt->columnText(12);
        auto parsed = parseRunStatus(status);
        if (!parsed)
            return traceError(m_path, "cannot read",
                              "run " + std::to_string(row.id) + " has unknown status '" + status +
                                  "'");
        row.status = *parsed;
        row.exitCode = stmt->columnOptionalInt(13);
        row.errorType = stmt->columnText(14);
        row.errorMessage = stmt->columnText(15);
        row.errorTraceback = stmt->columnText(16);
        row.machineJson = stmt->columnText(17);
        auto machine = decodeMachine(row.machineJson);
        if (!machine) return std::move(machine).takeError();
        row.machine = std::move(machine).value();
        rows.push_back(std::move(row));
    }
    return rows;
}

Expected<std::vector<std::string>> TraceReader::decodeArgv(const std::string& json) const {
    std::vector<std::string> argv;
    if (json.empty()) return argv;
    auto stmt = Statement::prepare(m_db, "SELECT value FROM json_each(?1) ORDER BY key");
    if (!stmt) return std::move(stmt).takeError();
    stmt->bindText(1, json);
    for (;;) {
        auto more = stmt->step("cannot read the argv of a run in");
        if (!more) return std::move(more).takeError();
        if (!more.value()) break;
        argv.push_back(stmt->columnText(0));
    }
    return argv;
}

Expected<MachineInfo> TraceReader::decodeMachine(const std::string& json) const {
    MachineInfo machine;
    if (json.empty()) return machine;
    // A malformed or non-object value reads as "not recorded" rather than making the run list
    // unreadable. SQLite's JSON functions fail on malformed text, and only CASE is sure not to
    // evaluate what it does not need, so the checks nest.
    const std::string object =
        "WITH v(m) AS (SELECT coalesce(CASE WHEN json_valid(?1) THEN CASE WHEN json_type(?1) = "
        "'object' THEN ?1 END END, '{}')) ";
    auto facts = Statement::prepare(m_db, object + "SELECT json_extract(m, '$.cpu'), "
                                                   "json_extract(m, '$.isa'), "
                                                   "json_extract(m, '$.threads') FROM v");
    if (!facts) return std::move(facts).takeError();
    facts->bindText(1, json);
    auto row = facts->step("cannot read the machine of a run in");
    if (!row) return std::move(row).takeError();
    if (row.value()) {
        machine.cpu = facts->columnText(0);
        machine.isa = facts->columnText(1);
        machine.threads = facts->columnInt(2);
    }
    // json_each walks the object in document order, the order the runner listed the dtypes.
    auto matmul = Statement::prepare(
        m_db, object + "SELECT e.key, e.value FROM v, json_each(CASE WHEN json_type(v.m, "
                       "'$.matmul') = 'object' THEN json_extract(v.m, '$.matmul') ELSE '{}' "
                       "END) AS e ORDER BY e.id");
    if (!matmul) return std::move(matmul).takeError();
    matmul->bindText(1, json);
    for (;;) {
        auto more = matmul->step("cannot read the machine of a run in");
        if (!more) return std::move(more).takeError();
        if (!more.value()) return machine;
        machine.matmul.emplace_back(matmul->columnText(0), matmul->columnText(1));
    }
}

Expected<std::vector<OutputLine>> TraceReader::outputLines(int64_t runId, int64_t afterId,
                                                           int limit) const {
    auto stmt = Statement::prepare(m_db, "SELECT id, run_id, seq, stream, t_ns, text FROM output "
                                         "WHERE run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
    if (!stmt) return std::move(stmt).takeError();
    stmt->bindInt(1, runId);
    stmt->bindInt(2, afterId);
    stmt->bindInt(3, limit);
    std::vector<OutputLine> lines;
    for (;;) {
        auto more = stmt->step("cannot read");
        if (!more) return std::move(more).takeError();
        if (!more.value()) break;
        OutputLine line;
        line.id = stmt->columnInt(0);
        line.runId = stmt->columnInt(1);
        line.seq = stmt->columnInt(2);
        std::string stream = stmt->columnText(3);
        auto parsed = parseOutputStream(stream);
        if (!parsed)
            return traceError(m_path, "cannot read",
                              "output line " + std::to_string(line.id) + " has unknown stream '" +
                                  stream + "'");
        line.stream = *parsed;
        line.tNs = stmt->columnInt(4);
        line.text = stmt->columnText(5);
        lines.push_back(std::move(line));
    }
    return lines;
}

Expected<std::map<std::string, std::string>> TraceReader::meta() const {
    auto stmt = Statement::prepare(m_db, "SELECT key, value FROM meta");
    if (!stmt) return std::move(stmt).takeError();
    std::map<std::string, std::string> values;
    for (;;) {
        auto more = stmt->step("cannot read");
        if (!more) return std::move(more).takeError();
        if (!more.value()) break;
        values[stmt->columnText(0)] = stmt->columnText(1);
    }
    return values;
}

Expected<int64_t> TraceReader::dataVersion() const {
    return m_db.queryInt("PRAGMA data_version", "cannot read");
}

bool TraceReader::runLooksCrashed(const RunRow& run) {
    if (run.status != RunStatus::Running || run.host.empty()) return false;
    return run.host == localHostName() && !processLooksAlive(run.pid);
}

} // namespace kiln::trace
