// SPDX-License-Identifier: MIT
#include "trace_session.h"

#include "selection.h"

#include <QTimer>

namespace kiln::views {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

void registerSessionTypes() {
    qRegisterMetaType<RunRows>();
    qRegisterMetaType<SnapshotPtr>();
    qRegisterMetaType<SelectionState>();
}

} // namespace

// --- the worker thread's half

bool SessionWorker::ensureReader() {
    if (m_reader) return true;
    auto reader = trace::TraceReader::open(m_path.toStdString());
    if (!reader) {
        Q_EMIT failed(m_epoch, qs(reader.error().message));
        return false;
    }
    m_reader = std::move(reader).value();
    return true;
}

void SessionWorker::open(const QString& path, quint64 epoch) {
    m_path = path;
    m_epoch = epoch;
    m_reader.reset();
    m_dataVersion = -1;
    loadRuns();
}

void SessionWorker::close() {
    m_path.clear();
    m_reader.reset();
    if (m_timer) m_timer->stop();
}

void SessionWorker::loadRuns() {
    if (!ensureReader()) return;
    // An older file is read through an upgraded in-memory copy taken at open: reopen it so a
    // refresh sees what was added since.
    if (m_reader->isUpgradedSnapshot()) {
        m_reader.reset();
        if (!ensureReader()) return;
    }
    auto runs = m_reader->listRuns();
    if (!runs) return Q_EMIT failed(m_epoch, qs(runs.error().message));
    Q_EMIT runsLoaded(m_epoch, shareRows(std::move(runs).value()));
}

void SessionWorker::loadSnapshot(qint64 runId, const SnapshotPtr& previous) {
    if (!ensureReader()) return;
    auto snapshot = readRunSnapshot(*m_reader, runId, previous.get());
    if (!snapshot) return Q_EMIT failed(m_epoch, qs(snapshot.error().message));
    Q_EMIT snapshotLoaded(m_epoch, runId,
                          std::make_shared<const RunSnapshot>(std::move(snapshot).value()));
}

void SessionWorker::loadDiagram(qint64 graphId, const QString& kind) {
    if (!ensureReader()) return;
    auto diagram = m_reader->diagram(graphId, kind.toStdString());
    if (!diagram) return Q_EMIT failed(m_epoch, qs(diagram.error().message));
    QString dot = diagram.value() ? qs(diagram.value()->dot) : QString();
    Q_EMIT diagramLoaded(m_epoch, graphId, kind, dot);
}

void SessionWorker::loadGraphRun(qint64 graphId) {
    if (!ensureReader()) return;
    auto graph = m_reader->graph(graphId);
    if (!graph) return Q_EMIT failed(m_epoch, qs(graph.error().message));
    Q_EMIT graphRunLoaded(m_epoch, graphId, graph.value() ? graph.value()->runId : 0);
}

void SessionWorker::setPolling(bool on, int intervalMs) {
    if (!m_timer) {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &SessionWorker::poll);
    }
    if (!on) return m_timer->stop();
    m_timer->start(intervalMs);
}

void SessionWorker::poll() {
    if (m_path.isEmpty() || !ensureReader()) return;
    auto version = m_reader->dataVersion();
    if (!version) return;
    if (version.value() != m_dataVersion) {
        bool first = m_dataVersion < 0;
        m_dataVersion = version.value();
        if (!first) Q_EMIT changed(m_epoch);
    }
}

// --- the GUI thread's half

TraceSession::TraceSession(QObject* parent)
    : QObject(parent) {
    registerSessionTypes();
    m_worker = new SessionWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &SessionWorker::runsLoaded, this, &TraceSession::onRuns);
    connect(m_worker, &SessionWorker::snapshotLoaded, this, &TraceSession::onSnapshot);
    connect(m_worker, &SessionWorker::diagramLoaded, this, &TraceSession::onDiagram);
    connect(m_worker, &SessionWorker::graphRunLoaded, this,
            [this](quint64 epoch, qint64 graphId, qint64 runId) {
                if (epoch == m_epoch) Q_EMIT graphRunFound(graphId, runId);
            });
    connect(m_worker, &SessionWorker::changed, this, &TraceSession::onChanged);
    connect(m_worker, &SessionWorker::failed, this, &TraceSession::onFailed);
    m_thread.setObjectName("kiln-trace-reader");
    m_thread.start();
}

TraceSession::~TraceSession() {
    m_thread.quit();
    m_thread.wait();
}

void TraceSession::open(const QString& tracePath) {
    close();
    m_path = tracePath;
    QMetaObject::invokeMethod(m_worker, "open", Qt::QueuedConnection, Q_ARG(QString, tracePath),
                              Q_ARG(quint64, m_epoch));
}

void TraceSession::close() {
    ++m_epoch;
    const bool hadRuns = m_runs != nullptr;
    m_path.clear();
    m_runs.reset();
    m_snapshots.clear();
    m_wanted.clear();
    m_inFlight.clear();
    m_stale.clear();
    QMetaObject::invokeMethod(m_worker, "close", Qt::QueuedConnection);
    if (hadRuns) Q_EMIT runsChanged();
}

SnapshotPtr TraceSession::snapshot(qint64 runId) const {
    auto it = m_snapshots.find(runId);
    return it == m_snapshots.end() ? nullptr : it->second;
}

void TraceSession::requestSnapshot(qint64 runId) {
    if (!isOpen() || runId <= 0) return;
    m_wanted.insert(runId);
    startSnapshotRead(runId);
}

void TraceSession::startSnapshotRead(qint64 runId) {
    if (m_inFlight.contains(runId)) {
        m_stale.insert(runId);
        return;
    }
    m_inFlight.insert(runId);
    QMetaObject::invokeMethod(m_worker, "loadSnapshot", Qt::QueuedConnection, Q_ARG(qint64, runId),
                              Q_ARG(kiln::views::SnapshotPtr, snapshot(runId)));
}

void TraceSession::requestDiagram(qint64 graphId, const QString& kind) {
    if (!isOpen()) return;
    QMetaObject::invokeMethod(m_worker, "loadDiagram", Qt::QueuedConnection, Q_ARG(qint64, graphId),
                              Q_ARG(QString, kind));
}

void TraceSession::requestGraphRun(qint64 graphId) {
    if (!isOpen()) return;
    QMetaObject::invokeMethod(m_worker, "loadGraphRun", Qt::QueuedConnection,
                              Q_ARG(qint64, graphId));
}

void TraceSession::setPolling(bool on, int intervalMs) {
    QMetaObject::invokeMethod(m_worker, "setPolling", Qt::QueuedConnection, Q_ARG(bool, on),
                              Q_ARG(int, intervalMs));
}

void TraceSession::refresh() {
    if (m_path.isEmpty()) return;
    // After a child ended: its run's final rows (or the crash mark) are committed now.
    QMetaObject::invokeMethod(m_worker, "loadRuns", Qt::QueuedConnection);
    for (qint64 runId : std::as_const(m_wanted))
        startSnapshotRead(runId);
}

void TraceSession::onRuns(quint64 epoch, RunRows rows) {
    if (epoch != m_epoch) return;
    m_runs = std::move(rows);
    Q_EMIT runsChanged();
}

void TraceSession::onSnapshot(quint64 epoch, qint64 runId, SnapshotPtr snapshot) {
    if (epoch != m_epoch) return; // read from a file closed since
    m_inFlight.remove(runId);
    m_snapshots[runId] = snapshot;
    Q_EMIT snapshotReady(runId, snapshot);
    if (m_stale.remove(runId)) startSnapshotRead(runId);
}

void TraceSession::onDiagram(quint64 epoch, qint64 graphId, const QString& kind,
                             const QString& dot) {
    if (epoch == m_epoch) Q_EMIT diagramReady(graphId, kind, dot);
}

void TraceSession::onFailed(quint64 epoch, const QString& message) {
    if (epoch == m_epoch) Q_EMIT failed(message);
}

bool TraceSession::mayHaveChanged(qint64 runId) const {
    SnapshotPtr held = snapshot(runId);
    if (!held || held->running()) return true;
    // A finished run changes only when a parent marks it crashed or cancelled, which the run
    // list shows first.
    if (m_runs)
        for (const trace::RunRow& r : *m_runs)
            if (r.id == runId) return r.status != held->run.status;
    return false;
}

void TraceSession::onChanged(quint64 epoch) {
    if (epoch != m_epoch || m_path.isEmpty()) return;
    QMetaObject::invokeMethod(m_worker, "loadRuns", Qt::QueuedConnection);
    for (qint64 runId : std::as_const(m_wanted))
        if (mayHaveChanged(runId)) startSnapshotRead(runId);
}

} // namespace kiln::views
