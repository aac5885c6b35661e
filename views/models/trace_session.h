// SPDX-License-Identifier: MIT
/// \file
/// One open trace as Studio sees it: the list of its runs and a snapshot per run that was asked
/// for, kept fresh while runs grow. All SQL runs on the session's worker thread (a
/// SessionWorker with its own TraceReader); the GUI thread only swaps shared pointers to
/// immutable snapshots, so adopting a refresh costs the same whatever the run's size.
///
/// Live runs: while polling is on, the worker checks SQLite's data_version every interval and
/// re-reads the run list and every snapshot asked for when another connection committed
/// (append-only tables are tailed, see RunSnapshot). A refresh is never queued behind another:
/// the next one starts when the previous snapshot has arrived.
#pragma once

#include "run_snapshot.h"
#include "trace_rows.h"

#include <QObject>
#include <QSet>
#include <QString>
#include <QThread>
#include <QTimer>
#include <map>

namespace kiln::views {

class SessionWorker;

class TraceSession final : public QObject {
    Q_OBJECT

public:
    explicit TraceSession(QObject* parent = nullptr);
    ~TraceSession() override;

    /// Opens \p tracePath (closing what was open): runsChanged follows, or failed. Nothing read
    /// from the previous file arrives after this call.
    void open(const QString& tracePath);
    /// Closes the trace: no runs, no snapshots (runsChanged follows at once).
    void close();
    const QString& path() const { return m_path; }
    bool isOpen() const { return !m_path.isEmpty(); }

    /// The runs of the trace, oldest first (empty until the first runsChanged).
    const RunRows& runs() const { return m_runs; }
    /// The newest snapshot of \p runId; null when it has not been read yet.
    SnapshotPtr snapshot(qint64 runId) const;
    /// Reads (or refreshes) run \p runId; snapshotReady follows. Runs asked for are kept fresh
    /// while polling is on.
    void requestSnapshot(qint64 runId);
    /// Reads the DOT text of graph \p graphId's diagram (kind "pre_fusion" or "post_fusion");
    /// diagramReady follows, with empty text when the graph has no such diagram.
    void requestDiagram(qint64 graphId, const QString& kind);
    /// Finds the run graph \p graphId belongs to (graph ids are unique in a trace);
    /// graphRunFound follows, with run 0 when the trace has no such graph.
    void requestGraphRun(qint64 graphId);

    /// Polls the file for new commits every \p intervalMs while on (for live runs).
    void setPolling(bool on, int intervalMs = 200);
    /// Re-reads the run list and every snapshot asked for now (after a child process ended).
    void refresh();

Q_SIGNALS:
    void runsChanged();
    void snapshotReady(qint64 runId, const kiln::views::SnapshotPtr& snapshot);
    void diagramReady(qint64 graphId, const QString& kind, const QString& dot);
    void graphRunFound(qint64 graphId, qint64 runId);
    /// The trace could not be read: the reader's words.
    void failed(const QString& message);

private:
    void onRuns(quint64 epoch, RunRows rows);
    void onSnapshot(quint64 epoch, qint64 runId, SnapshotPtr snapshot);
    void onDiagram(quint64 epoch, qint64 graphId, const QString& kind, const QString& dot);
    void onChanged(quint64 epoch);
    void onFailed(quint64 epoch, const QString& message);
    /// Whether a refresh should read \p runId again: a run not read yet, or still running.
    bool mayHaveChanged(qint64 runId) const;
    void startSnapshotRead(qint64 runId);

    QThread m_thread;
    SessionWorker* m_worker = nullptr;
    QString m_path;
    /// Counts opens: what the worker read for an older open is dropped when it arrives.
    quint64 m_epoch = 0;
    RunRows m_runs;
    std::map<qint64, SnapshotPtr> m_snapshots;
    QSet<qint64> m_wanted;   ///< runs asked for (refreshed on changes)
    QSet<qint64> m_inFlight; ///< snapshot reads started and not back yet
    QSet<qint64> m_stale;    ///< changed while their read was in flight: read again on arrival
};

/// The worker half of a TraceSession (lives on its thread). Public for the queued connections.
class SessionWorker final : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

public Q_SLOTS:
    /// Serves \p path from now on; every signal carries \p epoch.
    void open(const QString& path, quint64 epoch);
    void close();
    void loadRuns();
    void loadSnapshot(qint64 runId, const kiln::views::SnapshotPtr& previous);
    void loadDiagram(qint64 graphId, const QString& kind);
    void loadGraphRun(qint64 graphId);
    void setPolling(bool on, int intervalMs);

Q_SIGNALS:
    void runsLoaded(quint64 epoch, kiln::views::RunRows rows);
    void snapshotLoaded(quint64 epoch, qint64 runId, const kiln::views::SnapshotPtr& snapshot);
    void diagramLoaded(quint64 epoch, qint64 graphId, const QString& kind, const QString& dot);
    void graphRunLoaded(quint64 epoch, qint64 graphId, qint64 runId);
    void changed(quint64 epoch);
    void failed(quint64 epoch, const QString& message);

private:
    bool ensureReader();
    void poll();

    QString m_path;
    std::unique_ptr<trace::TraceReader> m_reader;
    QTimer* m_timer = nullptr;
    int64_t m_dataVersion = -1;
    quint64 m_epoch = 0;
};

} // namespace kiln::views
