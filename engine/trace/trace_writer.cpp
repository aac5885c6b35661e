// SPDX-License-Identifier: MIT
#include "trace/trace_writer.h"

#include "support/assert.h"
#include "support/clock.h"
#include "trace/json_text.h"
#include "trace/process_info.h"
#include "trace/trace_path.h"

#include <algorithm>
#include <ctime>
#include <pthread.h>
#include <sqlite3.h>

#ifndef KILN_ENGINE_VERSION
#define KILN_ENGINE_VERSION "unknown"
#endif

namespace kiln::trace {

namespace {

// The writer a fatal-signal handler should flush: the most recently opened one still alive.
std::atomic<TraceWriter*> g_emergencyWriter{nullptr};

Expected<Connection> openForWriting(const std::string& path, const SchemaHistory& history,
                                    int extraFlags, const WriterOptions& options) {
    if (Status status = checkTracePath(path, TracePathUse::Write); !status) return status.error();
    auto connection = Connection::open(path, SQLITE_OPEN_READWRITE | extraFlags);
    if (!connection) return std::move(connection).takeError();
    // A second writer in a transaction (even the schema upgrade below) is waited for.
    connection->setBusyTimeout(options.busyTimeoutMs);
    // Everything up to here only reads, so a foreign or newer file is refused untouched.
    auto identity = readIdentity(*connection);
    if (!identity) return std::move(identity).takeError();
    if (Status status = checkCompatible(*identity, path, history); !status) return status.error();
    if (Status status = configureWriter(*connection); !status) return status.error();
    if (Status status = upgradeSchema(*connection, history); !status) return status.error();
    if (options.maxPageCount > 0) {
        std::string pragma = "PRAGMA max_page_count = " + std::to_string(options.maxPageCount);
        if (Status status = connection->exec(pragma, "cannot configure"); !status)
            return status.error();
    }
    return std::move(connection).value();
}

} // namespace

Expected<std::unique_ptr<TraceWriter>> TraceWriter::open(const std::string& path,
                                                         const WriterOptions& options) {
    return open(path, currentSchema(), options);
}

Expected<std::unique_ptr<TraceWriter>> TraceWriter::open(const std::string& path,
                                                         const SchemaHistory& history,
                                                         const WriterOptions& options) {
    auto connection = openForWriting(path, history, SQLITE_OPEN_CREATE, options);
    if (!connection) return std::move(connection).takeError();
    std::unique_ptr<TraceWriter> writer(new TraceWriter(std::move(connection).value(), options));
    if (Status status = writer->prepareStatements(history); !status) return status.error();
    if (Status status = writer->writeOpeningMeta(); !status) return status.error();
    TraceWriter* self = writer.get();
    writer->m_thread = std::thread([self] { self->writerLoop(); });
    writer->m_threadHandle = writer->m_thread.native_handle();
    g_emergencyWriter.store(self);
    return writer;
}

TraceWriter::TraceWriter(Connection connection, const WriterOptions& options)
    : m_path(connection.path())
    , m_options(options)
    , m_db(std::move(connection)) {}

TraceWriter::~TraceWriter() {
    TraceWriter* self = this;
    g_emergencyWriter.compare_exchange_strong(self, nullptr);
    if (!m_thread.joinable()) return;
    {
        std::lock_guard lock(m_mutex);
        if (m_runId != 0) completePartialLinesLocked(monotonicNs());
        m_stop = true;
    }
    m_wakeWriter.notify_one();
    m_thread.join();
    // Closing copies the log into the file only as the last connection; with a reader open
    // (Studio following the run) the trace would stay in the -wal sidecar. PASSIVE: copies what
    // no reader still needs, never waits.
    (void)m_db.exec("PRAGMA wal_checkpoint(PASSIVE)", "cannot checkpoint");
}

void TraceWriter::PendingBatch::clear() {
    lines.clear();
    capture.clear();
    compiler.clear();
    launches.clear();
    rows = 0;
}

Status TraceWriter::prepareStatements(const SchemaHistory& history) {
    // A test's older history has fewer tables and columns: write what that version had.
    const int version = history.latestVersion();
    m_hasMachineColumn = version >= kMeasurementSchemaVersion;
    auto begin = Statement::prepare(m_db, "BEGIN IMMEDIATE");
    auto commit = Statement::prepare(m_db, "COMMIT");
    auto rollback = Statement::prepare(m_db, "ROLLBACK");
    auto insert = Statement::prepare(
        m_db, "INSERT INTO output(run_id, seq, stream, t_ns, text) VALUES (?1, ?2, ?3, ?4, ?5)");
    for (auto* stmt : {&begin, &commit, &rollback, &insert})
        if (!*stmt) return stmt->error();
    m_begin = std::move(begin).value();
    m_commit = std::move(commit).value();
    m_rollback = std::move(rollback).value();
    m_insertOutput = std::move(insert).value();
    if (version < kCaptureSchemaVersion) return Status::success();
    auto capture = CaptureInserter::prepare(m_db, version);
    if (!capture) return capture.error();
    m_capture = std::move(capture).value();
    m_hasCaptureTables = true;
    if (version < kCompilerSchemaVersion) return Status::success();
    auto compiler = CompilerInserter::prepare(m_db, version);
    if (!compiler) return compiler.error();
    m_compiler = std::move(compiler).value();
    m_hasCompilerTables = true;
    return Status::success();
}

Status TraceWriter::writeOpeningMeta() {
    // created_at_ns keeps the first writer's value; the others describe the latest writer.
    auto created =
        Statement::prepare(m_db, "INSERT OR IGNORE INTO meta(key, value) VALUES (?1, ?2)");
    if (!created) return created.error();
    std::string now = std::to_string(wallClockNs());
    created->bindText(1, metakeys::kCreatedAtNs);
    created->bindText(2, now);
    if (Status status = created->run("cannot write to"); !status) return status;
    if (Status status = setMeta(metakeys::kEngineVersion, KILN_ENGINE_VERSION); !status)
        return status;
    return setMeta(metakeys::kHost, localHostName());
}

Status TraceWriter::setMeta(std::string_view key, std::string_view value) {
    std::lock_guard dbLock(m_dbMutex);
    auto stmt = Statement::prepare(m_db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
    if (!stmt) return stmt.error();
    stmt->bindText(1, key);
    stmt->bindText(2, value);
    return stmt->run("cannot write to");
}

Expected<int64_t> TraceWriter::beginRun(const RunInfo& info) {
    KILN_ASSERT(activeRunId() == 0, "beginRun() while a run is open");
    if (std::lock_guard lock(m_mutex); m_closed)
        return traceError(m_path, "cannot begin a run in", "the writer was closed");
    int64_t startNs = monotonicNs();
    std::string argv = jsonStringArray(info.argv);
    std::string host = localHostName();
    int64_t runId = 0;
    {
        std::lock_guard dbLock(m_dbMutex);
        auto stmt = Statement::prepare(
            m_db, m_hasMachineColumn
                      ? "INSERT INTO runs(workload_path, workload_hash, mode, backend, "
                        "options_json, device, argv, host, pid, started_at_ns, machine, status) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'running')"
                      : "INSERT INTO runs(workload_path, workload_hash, mode, backend, "
                        "options_json, device, argv, host, pid, started_at_ns, status) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'running')");
        if (!stmt) return stmt.error();
        stmt->bindText(1, info.workloadPath);
        stmt->bindTextOrNull(2, info.workloadHash);
        stmt->bindTextOrNull(3, info.mode);
        stmt->bindTextOrNull(4, info.backend);
        stmt->bindTextOrNull(5, info.optionsJson);
        stmt->bindTextOrNull(6, info.device);
        stmt->bindText(7, argv);
        stmt->bindTextOrNull(8, host);
        stmt->bindInt(9, info.pid != 0 ? info.pid : currentProcessId());
        stmt->bindInt(10, info.startedAtNs != 0 ? info.startedAtNs : wallClockNs());
        if (m_hasMachineColumn) stmt->bindTextOrNull(11, info.machineJson);
        if (Status status = stmt->run("cannot write to"); !status) return status.error();
        runId = sqlite3_last_insert_rowid(m_db.get());
    }
    std::lock_guard lock(m_mutex);
    m_runId = runId;
    m_nextSeq = 1;
    m_runStartNs = startNs;
    return runId;
}

int64_t TraceWriter::activeRunId() const {
    std::lock_guard lock(m_mutex);
    return m_runId;
}

void TraceWriter::output(OutputStream stream, std::string_view text) {
    if (text.empty()) return;
    int64_t nowNs = monotonicNs();
    std::unique_lock lock(m_mutex);
    waitForRoomLocked(lock);
    KILN_ASSERT(m_runId != 0, "output() outside a run");
    std::string& partial = m_partialLines[size_t(stream)];
    size_t start = 0;
    for (size_t newline = text.find('\n'); newline != std::string_view::npos;
         newline = text.find('\n', start)) {
        std::string_view piece = text.substr(start, newline - start);
        if (partial.empty()) {
            enqueueLocked(stream, std::string(piece), nowNs);
        } else {
            partial.append(piece);
            enqueueLocked(stream, std::move(partial), nowNs);
            partial.clear();
        }
        start = newline + 1;
    }
    partial.append(text.substr(start));
}

void TraceWriter::waitForRoomLocked(std::unique_lock<std::mutex>& lock) {
    // The batch being committed counts: what bounds the lag is rows not yet in the file. Once
    // the writer is closed the process is ending: the emitting thread stays here, so that it
    // prints nothing more that the trace would not have.
    m_progress.wait(
        lock, [this] { return !m_closed && m_queue.rows + m_inFlightRows < kMaxUncommittedRows; });
}

void TraceWriter::noteQueuedLocked(size_t rows, int64_t nowNs) {
    bool wasEmpty = m_queue.empty();
    size_t before = m_queue.rows;
    m_queue.rows += rows;
    if (wasEmpty)
        m_firstQueuedAt = std::chrono::steady_clock::time_point(
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::nanoseconds(nowNs)));
    // One wake-up per batch: the writer thread then waits out the batch window on its own.
    if (wasEmpty || (before < kEagerBatchRows && m_queue.rows >= kEagerBatchRows))
        m_wakeWriter.notify_one();
}

void TraceWriter::enqueueLocked(OutputStream stream, std::string text, int64_t nowNs) {
    noteQueuedLocked(1, nowNs);
    m_queue.lines.push_back({m_runId, m_nextSeq++, nowNs - m_runStartNs, stream, std::move(text)});
}

void TraceWriter::completePartialLinesLocked(int64_t nowNs) {
    for (size_t i = 0; i < m_partialLines.size(); ++i) {
        if (m_partialLines[i].empty()) continue;
        enqueueLocked(OutputStream(i), std::move(m_partialLines[i]), nowNs);
        m_partialLines[i].clear();
    }
}

Status TraceWriter::flush() {
    std::unique_lock lock(m_mutex);
    uint64_t ticket = ++m_flushRequested;
    m_wakeWriter.notify_one();
    m_progress.wait(lock, [&] { return m_flushDone >= ticket; });
    return m_writeError;
}

int64_t TraceWriter::batchesCommitted() const {
    std::lock_guard lock(m_mutex);
    return m_batchesCommitted;
}

int64_t TraceWriter::rowsCommitted() const {
    std::lock_guard lock(m_mutex);
    return m_rowsCommitted;
}

std::vector<LostRows> TraceWriter::lostRows() const {
    std::lock_guard lock(m_mutex);
    return m_lost;
}

Status TraceWriter::finishRun(RunStatus status, int exitCode, const RunError* error) {
    KILN_ASSERT(status != RunStatus::Running, "finishRun() needs a final status");
    std::unique_lock lock(m_mutex);
    KILN_ASSERT(m_runId != 0, "finishRun() without beginRun()");
    return finishRunLocked(lock, status, exitCode, error);
}

Status TraceWriter::finishRunAndClose(RunStatus status, int exitCode, const RunError* error) {
    KILN_ASSERT(status != RunStatus::Running, "finishRunAndClose() needs a final status");
    std::unique_lock lock(m_mutex);
    m_closed = true; // emitting threads now wait for the process to end
    if (m_runId == 0) return Status::success();
    return finishRunLocked(lock, status, exitCode, error);
}

Status TraceWriter::finishRunLocked(std::unique_lock<std::mutex>& lock, RunStatus status,
                                    int exitCode, const RunError* error) {
    const int64_t runId = m_runId;
    completePartialLinesLocked(monotonicNs());
    std::vector<LostRows> lost;
    lock.unlock();
    (void)flush(); // a failed batch is in m_lost, which is what the run records
    lock.lock();
    for (const LostRows& rows : m_lost)
        if (rows.runId == runId) lost.push_back(rows);
    lock.unlock();
    RunError recorded = error ? *error : RunError{};
    std::string problem;
    if (!lost.empty()) {
        std::string what = describeLostRows(lost);
        problem = what + " of run " + std::to_string(runId) + " could not be written (" +
                  lost.front().reason + ")";
        // Never 'ok': a failed run keeps its own error, and says what the trace misses.
        if (status == RunStatus::Ok) {
            status = RunStatus::Error;
            recorded = {"TraceError", "the trace lost " + what + ": " + lost.front().reason, ""};
        } else {
            recorded.message +=
                (recorded.message.empty() ? "the trace lost " : "; the trace lost ") + what;
        }
    }
    // Readers judge the run by its end: wait for a locked file as long as for a batch.
    setDegraded(false);
    Status updated =
        writeRunEnd(runId, status, exitCode, error || !lost.empty() ? &recorded : nullptr);
    if (updated && !lost.empty()) writeLossEvents(lost);
    if (!updated)
        problem += (problem.empty() ? "" : "; ") + std::string("the run's end could not be ") +
                   "recorded and it still says 'running' (" + updated.error().message + ")";
    lock.lock();
    m_runId = 0;
    if (problem.empty()) return Status::success();
    return traceError(m_path, "could not write everything to", problem);
}

Status TraceWriter::writeRunEnd(int64_t runId, RunStatus status, int exitCode,
                                const RunError* error) {
    std::lock_guard dbLock(m_dbMutex);
    auto stmt = Statement::prepare(
        m_db, "UPDATE runs SET ended_at_ns = ?1, status = ?2, exit_code = ?3, "
              "error_type = ?4, error_message = ?5, error_traceback = ?6 WHERE id = ?7");
    if (!stmt) return stmt.error();
    stmt->bindInt(1, wallClockNs());
    stmt->bindText(2, runStatusName(status));
    stmt->bindInt(3, exitCode);
    if (error) {
        stmt->bindTextOrNull(4, error->type);
        stmt->bindTextOrNull(5, error->message);
        stmt->bindTextOrNull(6, error->traceback);
    }
    stmt->bindInt(7, runId);
    return stmt->run("cannot write to");
}

bool TraceWriter::emergencyFlush(int signalNumber, int timeoutMs) {
    TraceWriter* writer = g_emergencyWriter.load();
    if (!writer || signalNumber <= 0) return false;
    // The writer thread cannot wait for itself.
    if (pthread_equal(pthread_self(), writer->m_threadHandle)) return false;
    int expected = 0;
    writer->m_crashSignal.compare_exchange_strong(expected, signalNumber);
    const timespec tick{0, 1'000'000};
    for (int waited = 0; waited < timeoutMs; ++waited) {
        if (writer->m_crashDone.load()) return true;
        nanosleep(&tick, nullptr);
    }
    return writer->m_crashDone.load();
}

Expected<int> TraceWriter::markRunsCrashed(const std::string& path, int64_t pid, int exitCode,
                                           std::string_view message) {
    return markRunsEnded(path, pid, RunStatus::Crashed, exitCode, message);
}

Expected<int> TraceWriter::markRunsEnded(const std::string& path, int64_t pid, RunStatus status,
                                         int exitCode, std::string_view message) {
    KILN_ASSERT(status == RunStatus::Crashed || status == RunStatus::Cancelled,
                "markRunsEnded ends a run as crashed or cancelled");
    auto connection = openForWriting(path, currentSchema(), 0, WriterOptions{});
    if (!connection) return std::move(connection).takeError();
    auto stmt = Statement::prepare(*connection,
                                   "UPDATE runs SET ended_at_ns = ?1, status = ?6, exit_code = ?2, "
                                   "error_type = ?7, error_message = ?3 "
                                   "WHERE pid = ?4 AND host IS ?5 AND status = 'running'");
    if (!stmt) return stmt.error();
    std::string host = localHostName();
    stmt->bindInt(1, wallClockNs());
    stmt->bindInt(2, exitCode);
    stmt->bindTextOrNull(3, message);
    stmt->bindInt(4, pid);
    stmt->bindTextOrNull(5, host);
    stmt->bindTextOrNull(6, runStatusName(status));
    stmt->bindTextOrNull(7, status == RunStatus::Crashed ? "Crash" : "KeyboardInterrupt");
    if (Status done = stmt->run("cannot write to"); !done) return done.error();
    return int(sqlite3_changes(connection->get()));
}

Status TraceWriter::checkpoint(const std::string& path, int busyTimeoutMs) {
    if (Status status = checkTracePath(path, TracePathUse::Write); !status) return status;
    auto connection = Connection::open(path, SQLITE_OPEN_READWRITE);
    if (!connection) return connection.error();
    connection->setBusyTimeout(busyTimeoutMs);
    // TRUNCATE also empties the -wal file; its single row's first column says whether a reader
    // kept it from finishing, which leaves a complete (if not emptied) log behind.
    auto busy = connection->queryInt("PRAGMA wal_checkpoint(TRUNCATE)", "cannot checkpoint");
    if (!busy) return busy.error();
    return Status::success();
}

} // namespace kiln::trace
