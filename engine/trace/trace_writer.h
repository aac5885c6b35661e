// SPDX-License-Identifier: MIT
/// \file
/// The SQLite implementation of EventSink: the one writer of a trace file. The interpreter
/// thread only appends to an in-memory queue (output lines, capture and compiler events alike); a
/// background thread commits the queue in batches (BEGIN IMMEDIATE ... COMMIT, at least every
/// 50 ms while rows wait), so a reader on another connection sees a running script's output and
/// torch.compile facts within a fraction of a second without the script paying for a
/// transaction per row. An emitting thread waits while kMaxUncommittedRows rows are not yet
/// committed, so the trace never falls far behind what the script printed. Run start and end
/// are written synchronously.
///
/// Write failures: a lock held by another connection is waited for (WriterOptions); a batch that
/// still cannot be committed is lost, and finishRun() records the run as 'error' naming the lost
/// lines, never as 'ok'.
///
/// Crashes: a run whose process dies keeps status 'running'. Three layers turn that into
/// 'crashed', strongest last: emergencyFlush() from the dying process's fatal-signal handler
/// (best effort, see there); markRunsCrashed() from the parent that saw the child die (the GUI,
/// or `kiln` supervising a child); and TraceReader::runLooksCrashed() for any later reader.
#pragma once

#include "support/event_sink.h"
#include "support/expected.h"
#include "trace/capture_inserter.h"
#include "trace/compiler_inserter.h"
#include "trace/schema.h"
#include "trace/sqlite_handle.h"
#include "trace/trace_types.h"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace kiln::trace {

/// How a writer copes with a database it cannot write at once. The defaults are `kiln run`'s.
struct WriterOptions {
    /// How long one write waits for a lock that another connection holds (SQLite's busy
    /// timeout): a second `kiln run` appending to the file, a `sqlite3` shell in a transaction.
    int busyTimeoutMs = 30000;
    /// The busy timeout after a batch was lost, until a batch commits again: later batches are
    /// each tried once, briefly, so a database that stays locked holds the script up once, not
    /// once per batch.
    int degradedBusyTimeoutMs = 100;
    /// How many times a batch is tried when it fails otherwise (a full disk, an I/O error)
    /// before its rows count as lost; once more rows were lost, only once.
    int attempts = 3;
    /// For tests of a full disk: SQLite's max_page_count for the writer's connection (the file
    /// cannot grow past that many pages); 0 keeps SQLite's limit.
    int64_t maxPageCount = 0;
};

/// Rows a writer could not commit: consecutive output lines of one run (by `output.seq`) and
/// the capture and compiler rows queued with them.
struct LostRows {
    int64_t runId = 0;
    int64_t firstSeq = 0; ///< 0 when no output line was lost, only other rows
    int64_t lastSeq = 0;
    int64_t otherRows = 0;
    int64_t startNs = 0; ///< when the first of them failed, ns since the run started
    std::string reason;  ///< the first failure, in SQLite's words ("database is locked")
};

/// "output lines 5-9 and 20-31 and 3 other rows", as runs.error_message and `kiln` say it.
std::string describeLostRows(const std::vector<LostRows>& lost);

class TraceWriter final : public EventSink {
public:
    /// The most rows (output lines, capture and compiler rows) that may wait uncommitted: past
    /// it an emitting thread waits for the writer thread (docs/trace-schema.md).
    static constexpr size_t kMaxUncommittedRows = 10000;

    /// Creates \p path, or opens an existing Kiln trace to append runs, upgrading an older
    /// schema first. Refuses, without modifying them, a file of a newer Kiln, a SQLite file of
    /// another application and a file that is not SQLite at all; refuses a path that is not a
    /// regular file or that SQLite cannot take (checkTracePath).
    static Expected<std::unique_ptr<TraceWriter>> open(const std::string& path,
                                                       const WriterOptions& options = {});
    /// The same against another schema history; for tests of the upgrade path.
    static Expected<std::unique_ptr<TraceWriter>>
    open(const std::string& path, const SchemaHistory& history, const WriterOptions& options = {});

    /// Drains the queue, including unfinished lines, and stops the writer thread. A run still
    /// open keeps status 'running'.
    ~TraceWriter() override;

    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    const std::string& path() const { return m_path; }

    /// Sets one `meta` row (see metakeys), replacing an earlier value.
    Status setMeta(std::string_view key, std::string_view value);

    /// Inserts a `runs` row with status 'running' and makes it the run that output() feeds,
    /// with where it runs (RunInfo::machineJson, stored as given; schema version 4).
    /// One run at a time: a second beginRun before finishRun is a bug.
    Expected<int64_t> beginRun(const RunInfo& info);
    /// The open run's id, 0 between runs.
    int64_t activeRunId() const;

    /// Appends script text to the open run. Thread-safe; cheap (no I/O on the calling thread).
    /// Calling it outside a run is a bug.
    void output(OutputStream stream, std::string_view text) override;

    /// torch.compile capture facts (support/capture_events.h) for the open run, stored in the
    /// tables of docs/trace-schema.md. Thread-safe and cheap like output(): the event is copied
    /// into the same queue and committed in the same batches, in call order, so a reader that
    /// sees a fact also sees every fact reported before it (a guard's or graph's compile row).
    /// compile() is called twice per compile (start with an empty status, then finish); both land
    /// in one `compiles` row. Event timestamps are monotonicNs() values; the trace stores them
    /// run-relative. Calling these outside a run, or with a value outside a closed set (frame kind,
    /// compile reason or status, config source) or an empty compile id where one is required, is a
    /// bug.
    void frame(const FrameEvent& event) override;
    void compile(const CompileEvent& event) override;
    void guard(const GuardEvent& event) override;
    void recompile(const RecompileEvent& event) override;
    void graphBreak(const GraphBreakEvent& event) override;
    void graph(const GraphEvent& event) override;
    void config(const ConfigEvent& event) override;
    void timeline(const TimelineEvent& event) override;

    /// Compiler and runtime facts (support/compiler_events.h) for the open run, stored in
    /// `kernels`, `autotune_choices` (with how each time was measured, schema version 4),
    /// `kernel_launches` and `diagrams` (schema version 3).
    /// Queued and committed like the capture events, in call order among themselves; launch
    /// times become run-relative. kernelLaunch() is built for high rates from any thread: it
    /// copies the event, then takes the queue lock once to append it (no I/O, no allocation once
    /// the queue has grown to its working size). Kernels and diagrams find their `graphs` row by
    /// compile id and graph index whether capture reports the graph before or after them.
    /// Calling these outside a run, with a kernel kind other than pointwise, reduction, template,
    /// extern or fallback, a diagram kind other than pre_fusion or post_fusion, or an empty
    /// compile id, is a bug.
    void kernel(const KernelEvent& event) override;
    void autotuneChoice(const AutotuneChoiceEvent& event) override;
    void kernelLaunch(const KernelLaunchEvent& event) override;
    void diagram(const DiagramEvent& event) override;

    /// Waits until every queued row is committed. Returns the first write failure since the
    /// writer opened, if any (rows of a failed batch are lost; later batches still go in).
    Status flush();

    /// How many batch transactions the writer thread has committed; for tests and statistics.
    int64_t batchesCommitted() const;
    /// How many rows those batches held; for tests and statistics.
    int64_t rowsCommitted() const;
    /// What could not be committed so far, in the order it was lost, adjacent lines merged.
    std::vector<LostRows> lostRows() const;

    /// Completes unfinished lines, drains the queue and records the end of the run: ended_at_ns,
    /// \p status (not Running), \p exitCode and the error fields from \p error (may be null).
    /// When rows of the run were lost (lostRows()), the run is recorded as 'error' instead of
    /// 'ok' (error_type 'TraceError'; a failed run keeps its error and its message gains the
    /// loss), with one `events` row per lost range (category 'trace', name 'lost_rows'), and
    /// the loss is returned as the error.
    Status finishRun(RunStatus status, int exitCode, const RunError* error = nullptr);
    /// finishRun() for a thread other than the script's, ending the process on a signal or an
    /// expired timeout while the script may still be printing: from now on a thread that emits
    /// output or an event waits until the process ends (so it prints nothing the trace misses),
    /// and no run can begin. Only records the end when a run is open. The caller must then end
    /// the process.
    Status finishRunAndClose(RunStatus status, int exitCode, const RunError* error = nullptr);

    /// For a fatal-signal handler (or a std::terminate handler, passing SIGABRT) of the process
    /// that owns the most recently opened writer. Asks the writer thread to commit what is
    /// queued and mark the open run 'crashed' (exit code 128 + \p signalNumber), and waits for
    /// it up to \p timeoutMs. Uses only atomics, pthread_self and nanosleep on the calling
    /// thread, so it is async-signal-safe there; the SQLite work happens on the healthy writer
    /// thread. Returns whether the writer thread finished that work in time. It cannot help when
    /// the writer thread itself is the one that crashed, or when the crash left the writer's locks
    /// held (a crash inside output()); markRunsCrashed() from the parent covers those. After it
    /// returns, the handler should restore the default action and re-raise the signal.
    static bool emergencyFlush(int signalNumber, int timeoutMs = 2000);

    /// For the parent of a `kiln run` that died: marks every 'running' run of \p pid on this host
    /// in \p path as 'crashed' with \p exitCode and \p message. Returns how many runs it marked.
    static Expected<int> markRunsCrashed(const std::string& path, int64_t pid, int exitCode,
                                         std::string_view message);
    /// The same with \p status Crashed or Cancelled: Cancelled is for a parent that stopped
    /// its child on the user's request (Studio's Stop), recorded as a KeyboardInterrupt.
    static Expected<int> markRunsEnded(const std::string& path, int64_t pid, RunStatus status,
                                       int exitCode, std::string_view message);
    /// Moves everything committed to \p path's write-ahead log into the file itself and empties
    /// the log, so the .kiln alone holds the whole trace (a copy of it opens). For the parent of a
    /// `kiln run` once the child ended: SQLite does this by itself only when the last connection
    /// closes, and a reader left open (Studio's) cannot. Waits up to \p busyTimeoutMs for readers
    /// in a transaction; a reader that stays in one leaves the log as it is (not an error).
    static Status checkpoint(const std::string& path, int busyTimeoutMs = 2000);

private:
    struct PendingLine {
        int64_t runId;
        int64_t seq;
        int64_t tNs;
        OutputStream stream;
        std::string text;
    };
    struct PendingCapture {
        int64_t runId;
        CaptureEvent event;
    };
    struct PendingCompiler {
        int64_t runId;
        CompilerEvent event;
    };
    struct PendingLaunch {
        int64_t runId;
        KernelLaunchEvent event; ///< times already run-relative
    };
    /// What the writer thread commits in one transaction. Lines, capture events, compiler events
    /// and launches each keep their own call order; between them order does not matter, a batch
    /// is seen whole (and kernels find their graph whichever comes first).
    struct PendingBatch {
        std::vector<PendingLine> lines;
        std::vector<PendingCapture> capture;
        std::vector<PendingCompiler> compiler;
        std::vector<PendingLaunch> launches;
        size_t rows = 0; ///< lines, captureRowCount() of each capture event, compiler events and
                         ///< launches

        bool empty() const { return rows == 0; }
        void clear();
    };

    TraceWriter(Connection connection, const WriterOptions& options);
    Status prepareStatements(const SchemaHistory& history);
    Status writeOpeningMeta();
    /// Waits while too many rows are uncommitted, and for good once the writer is closed.
    void waitForRoomLocked(std::unique_lock<std::mutex>& lock);
    void noteQueuedLocked(size_t rows, int64_t nowNs);
    void enqueueLocked(OutputStream stream, std::string text, int64_t nowNs);
    void enqueueCapture(CaptureEvent event);
    void enqueueCompiler(CompilerEvent event);
    void completePartialLinesLocked(int64_t nowNs);
    Status finishRunLocked(std::unique_lock<std::mutex>& lock, RunStatus status, int exitCode,
                           const RunError* error);
    Status writeRunEnd(int64_t runId, RunStatus status, int exitCode, const RunError* error);
    void writeLossEvents(const std::vector<LostRows>& lost);
    bool writerShouldWakeLocked() const;
    void waitForWorkLocked(std::unique_lock<std::mutex>& lock);
    void writerLoop();
    Status commitWithRetries(const PendingBatch& batch, bool emergency);
    Status commitBatch(const PendingBatch& batch, bool emergency, int& sqliteCode);
    Status insertBatchRows(const PendingBatch& batch);
    void noteLostLocked(const PendingBatch& batch, const Status& failure);
    void setDegraded(bool degraded);
    void markCrashed(int64_t runId, int signalNumber);

    // A queue of this many rows is committed at once rather than waiting out the batch window;
    // well under kMaxUncommittedRows, so the script fills the next batch while one commits.
    static constexpr size_t kEagerBatchRows = 4096;

    std::string m_path;
    WriterOptions m_options;

    // The connection and its statements; used by the writer thread for batches and by the
    // caller's thread for run start/end and meta, never by both at once.
    std::mutex m_dbMutex;
    Connection m_db;
    Statement m_begin;
    Statement m_commit;
    Statement m_rollback;
    Statement m_insertOutput;
    CaptureInserter m_capture;
    bool m_hasCaptureTables = false;
    CompilerInserter m_compiler;
    bool m_hasCompilerTables = false;
    bool m_hasMachineColumn = false; ///< runs.machine exists (schema version 4 or later)

    // Shared between the event callers and the writer thread.
    mutable std::mutex m_mutex;
    std::condition_variable m_wakeWriter;
    std::condition_variable m_progress;
    PendingBatch m_queue;
    std::chrono::steady_clock::time_point m_firstQueuedAt;
    std::array<std::string, 3> m_partialLines; ///< indexed by OutputStream
    int64_t m_runId = 0;
    int64_t m_nextSeq = 1;
    int64_t m_runStartNs = 0; ///< monotonic
    uint64_t m_flushRequested = 0;
    uint64_t m_flushDone = 0;
    bool m_stop = false;
    Status m_writeError;
    int64_t m_batchesCommitted = 0;
    int64_t m_rowsCommitted = 0;
    size_t m_inFlightRows = 0; ///< rows of the batch the writer thread is committing
    std::vector<LostRows> m_lost;
    bool m_closed = false;   ///< finishRunAndClose() was called
    bool m_degraded = false; ///< under m_dbMutex: a batch was lost, none committed since

    std::atomic<int> m_crashSignal{0};
    std::atomic<bool> m_crashDone{false};
    std::thread m_thread;
    std::thread::native_handle_type m_threadHandle{}; ///< read by emergencyFlush()
};

} // namespace kiln::trace
