// SPDX-License-Identifier: MIT
// TraceWriter's writer thread: waiting for a batch, committing it, and what happens when the
// database refuses it (a lock another connection holds, a full disk): the batch is tried again
// and, failing that, its rows are recorded as lost so that the run cannot end as 'ok'.
#include "support/clock.h"
#include "trace/json_text.h"
#include "trace/process_info.h"
#include "trace/trace_writer.h"

#include <algorithm>
#include <csignal>
#include <pthread.h>
#include <sqlite3.h>

namespace kiln::trace {

namespace {

using namespace std::chrono_literals;

// Rows wait at most this long for company before the writer commits them; with the commit
// itself this keeps a reader within 50 ms of the script.
constexpr auto kBatchWindow = 25ms;
// How often an idle writer thread looks at the crash flag, which a signal handler cannot notify.
constexpr auto kCrashPollInterval = 20ms;
// How long the writer thread tries for the connection when the crashed thread may hold it.
constexpr auto kEmergencyLockTimeout = 500ms;
// Pause before trying a batch again after a failure other than a lock (which SQLite's busy
// timeout already waited out), times the attempt number.
constexpr auto kRetryPause = 100ms;

// After a crash the dead thread may hold the lock for good, so never wait unboundedly. (A loop
// rather than a timed mutex: ThreadSanitizer does not model pthread_mutex_clocklock.)
bool lockWithin(std::unique_lock<std::mutex>& lock, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!lock.try_lock()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

bool isLockConflict(int sqliteCode) {
    return sqliteCode == SQLITE_BUSY || sqliteCode == SQLITE_LOCKED;
}

std::string lineRange(const LostRows& rows) {
    return rows.firstSeq == rows.lastSeq
               ? std::to_string(rows.firstSeq)
               : std::to_string(rows.firstSeq) + "-" + std::to_string(rows.lastSeq);
}

} // namespace

std::string describeLostRows(const std::vector<LostRows>& lost) {
    std::string ranges;
    int64_t lines = 0, others = 0;
    for (const LostRows& rows : lost) {
        others += rows.otherRows;
        if (rows.firstSeq == 0) continue;
        lines += rows.lastSeq - rows.firstSeq + 1;
        ranges += (ranges.empty() ? "" : ", ") + lineRange(rows);
    }
    std::string text;
    if (lines > 0) text = (lines == 1 ? "output line " : "output lines ") + ranges;
    if (others > 0)
        text += (text.empty() ? "" : " and ") + std::to_string(others) +
                (text.empty() ? (others == 1 ? " row" : " rows")
                              : (others == 1 ? " other row" : " other rows"));
    return text;
}

bool TraceWriter::writerShouldWakeLocked() const {
    return m_stop || m_flushRequested > m_flushDone || m_queue.rows >= kEagerBatchRows ||
           (m_crashSignal.load() != 0 && !m_crashDone.load());
}

void TraceWriter::waitForWorkLocked(std::unique_lock<std::mutex>& lock) {
    using Clock = std::chrono::steady_clock;
    while (!writerShouldWakeLocked() && m_queue.empty())
        m_wakeWriter.wait_for(lock, kCrashPollInterval);
    Clock::time_point deadline = m_firstQueuedAt + kBatchWindow;
    for (auto now = Clock::now(); !writerShouldWakeLocked() && now < deadline; now = Clock::now())
        m_wakeWriter.wait_until(lock, std::min(deadline, now + kCrashPollInterval));
}

void TraceWriter::writerLoop() {
    // A process-directed signal never runs its handler here: a fatal-signal handler waits for
    // this thread (emergencyFlush), which it could not do from this thread.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    PendingBatch batch;
    for (;;) {
        uint64_t ticket = 0;
        bool stopping = false;
        int crashSignal = 0;
        int64_t runId = 0;
        {
            std::unique_lock lock(m_mutex);
            waitForWorkLocked(lock);
            if (m_crashSignal.load() != 0 && !m_crashDone.load()) {
                crashSignal = m_crashSignal.load();
                runId = m_runId;
                if (runId != 0) completePartialLinesLocked(monotonicNs());
            }
            std::swap(batch, m_queue);
            m_inFlightRows = batch.rows;
            ticket = m_flushRequested;
            stopping = m_stop;
        }
        Status status = commitWithRetries(batch, crashSignal != 0);
        if (crashSignal != 0) {
            if (runId != 0) markCrashed(runId, crashSignal);
            m_crashDone.store(true);
        }
        {
            std::lock_guard lock(m_mutex);
            if (!status) {
                if (m_writeError) m_writeError = status;
                noteLostLocked(batch, status);
            } else if (!batch.empty()) {
                ++m_batchesCommitted;
                m_rowsCommitted += int64_t(batch.rows);
            }
            m_inFlightRows = 0;
            m_flushDone = ticket;
        }
        batch.clear();
        m_progress.notify_all(); // room for emitting threads, and flush() may be done
        if (stopping) return;
    }
}

Status TraceWriter::commitWithRetries(const PendingBatch& batch, bool emergency) {
    int sqliteCode = SQLITE_OK;
    Status status = commitBatch(batch, emergency, sqliteCode);
    bool degraded = false;
    {
        std::lock_guard dbLock(m_dbMutex);
        degraded = m_degraded;
    }
    // A lock conflict was already retried for the whole busy timeout; other failures (a full
    // disk, an I/O error) get a few more tries, unless rows were lost already: then the
    // database is known to be failing and the script should not wait for it again and again.
    int attempts = degraded || emergency ? 1 : std::max(1, m_options.attempts);
    for (int attempt = 1; !status && !isLockConflict(sqliteCode) && attempt < attempts; ++attempt) {
        std::this_thread::sleep_for(kRetryPause * attempt);
        status = commitBatch(batch, emergency, sqliteCode);
    }
    // Committing again ends the degraded state; the first loss starts it.
    if (!batch.empty() && !emergency && status.ok() == degraded) setDegraded(!status.ok());
    return status;
}

Status TraceWriter::commitBatch(const PendingBatch& batch, bool emergency, int& sqliteCode) {
    sqliteCode = SQLITE_OK;
    if (batch.empty()) return Status::success();
    std::unique_lock dbLock(m_dbMutex, std::defer_lock);
    if (!emergency)
        dbLock.lock();
    else if (!lockWithin(dbLock, kEmergencyLockTimeout))
        return traceError(m_path, "cannot write to", "the connection stayed busy after a crash");
    Status status = m_begin.run("cannot write to");
    if (!status) {
        sqliteCode = m_db.lastErrorCode();
        return status;
    }
    status = insertBatchRows(batch);
    if (status) status = m_commit.run("cannot write to");
    if (!status) {
        sqliteCode = m_db.lastErrorCode();
        (void)m_rollback.run("cannot roll back");
    }
    return status;
}

void TraceWriter::setDegraded(bool degraded) {
    std::lock_guard dbLock(m_dbMutex);
    if (m_degraded == degraded) return;
    m_degraded = degraded;
    m_db.setBusyTimeout(degraded ? m_options.degradedBusyTimeoutMs : m_options.busyTimeoutMs);
}

Status TraceWriter::insertBatchRows(const PendingBatch& batch) {
    for (const PendingLine& line : batch.lines) {
        m_insertOutput.bindInt(1, line.runId);
        m_insertOutput.bindInt(2, line.seq);
        m_insertOutput.bindText(3, outputStreamName(line.stream));
        m_insertOutput.bindInt(4, line.tNs);
        m_insertOutput.bindText(5, line.text);
        if (Status status = m_insertOutput.run("cannot write to"); !status) return status;
    }
    for (const PendingCapture& pending : batch.capture)
        if (Status status = m_capture.insert(pending.runId, pending.event); !status) return status;
    // After the capture events: a kernel or diagram whose graph came in this batch finds it.
    for (const PendingCompiler& pending : batch.compiler)
        if (Status status = m_compiler.insert(pending.runId, pending.event); !status) return status;
    for (const PendingLaunch& pending : batch.launches)
        if (Status status = m_compiler.insertLaunch(pending.runId, pending.event); !status)
            return status;
    return Status::success();
}

void TraceWriter::noteLostLocked(const PendingBatch& batch, const Status& failure) {
    // The statements word it "cannot write to trace 'PATH': <SQLite's message>"; keep SQLite's.
    std::string reason = failure.error().message;
    std::string prefix = "trace '" + m_path + "': ";
    if (size_t at = reason.find(prefix); at != std::string::npos)
        reason = reason.substr(at + prefix.size());
    const int64_t nowNs = monotonicNs() - m_runStartNs;
    auto entryFor = [&](int64_t runId) -> LostRows& {
        if (m_lost.empty() || m_lost.back().runId != runId)
            m_lost.push_back({runId, 0, 0, 0, nowNs, reason});
        return m_lost.back();
    };
    // A batch holds a contiguous piece of the queue, so its lines continue the previous loss
    // of the run when no batch committed in between.
    for (const PendingLine& line : batch.lines) {
        LostRows& rows = entryFor(line.runId);
        if (rows.firstSeq != 0 && rows.lastSeq + 1 != line.seq) {
            m_lost.push_back({line.runId, line.seq, line.seq, 0, nowNs, reason});
            continue;
        }
        if (rows.firstSeq == 0) rows.firstSeq = line.seq;
        rows.lastSeq = line.seq;
    }
    for (const PendingCapture& pending : batch.capture)
        entryFor(pending.runId).otherRows += int64_t(captureRowCount(pending.event));
    for (const PendingCompiler& pending : batch.compiler)
        ++entryFor(pending.runId).otherRows;
    for (const PendingLaunch& pending : batch.launches)
        ++entryFor(pending.runId).otherRows;
}

void TraceWriter::writeLossEvents(const std::vector<LostRows>& lost) {
    if (!m_hasCaptureTables) return; // version 1 has no events table
    std::lock_guard dbLock(m_dbMutex);
    auto stmt = Statement::prepare(
        m_db, "INSERT INTO events(run_id, category, name, compile_id, start_ns, duration_ns, "
              "detail_json) VALUES (?1, 'trace', 'lost_rows', NULL, ?2, 0, ?3)");
    if (!stmt) return;
    for (const LostRows& rows : lost) {
        std::string detail = jsonIntObject({{"first_seq", rows.firstSeq},
                                            {"last_seq", rows.lastSeq},
                                            {"other_rows", rows.otherRows}});
        detail.pop_back(); // the reason is text: append it to the object
        detail += ",\"reason\":" + jsonQuoted(rows.reason) + "}";
        stmt->bindInt(1, rows.runId);
        stmt->bindInt(2, rows.startNs);
        stmt->bindText(3, detail);
        // Best effort: the run's row, written first, already says what was lost.
        if (!stmt->run("cannot write to")) return;
    }
}

void TraceWriter::markCrashed(int64_t runId, int signalNumber) {
    std::unique_lock dbLock(m_dbMutex, std::defer_lock);
    if (!lockWithin(dbLock, kEmergencyLockTimeout)) return;
    auto stmt = Statement::prepare(
        m_db, "UPDATE runs SET ended_at_ns = ?1, status = 'crashed', exit_code = ?2, "
              "error_type = 'Signal', error_message = ?3 WHERE id = ?4 AND status = 'running'");
    if (!stmt) return;
    std::string message = "killed by " + signalName(signalNumber);
    stmt->bindInt(1, wallClockNs());
    stmt->bindInt(2, 128 + signalNumber);
    stmt->bindText(3, message);
    stmt->bindInt(4, runId);
    (void)stmt->run("cannot write to");
}

} // namespace kiln::trace
