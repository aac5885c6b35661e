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
        Q_EMIT failed(qs(reader.error().message));
        return false;
    }
    m_reader = std::move(reader).value();
    return true;
}

void SessionWorker::open(const QString& path) {
    m_path = path;
    m_reader.reset();
    m_dataVersion = -1;
    loadRuns();
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
    if (!runs) return Q_EMIT failed(qs(runs.error().message));
    Q_EMIT runsLoaded(std::make_shared<const std::vector<trace::RunRow>>(std::move(runs).value()));
}

void SessionWorker::loadSnapshot(qint64 runId, const SnapshotPtr& previous) {
    if (!ensureReader()) return;
    auto snapshot = readRunSnapshot(*m_reader, runId, previous.get());
    if (!snapshot) return Q_EMIT failed(qs(snapshot.error().message));
    Q_EMIT snapshotLoaded(runId, std::make_shared<const RunSnapshot>(std::move(snapshot).value()));
}

void SessionWorker::loadDiagram(qint64 graphId, const QString& kind) {
    if (!ensureReader()) return;
    auto diagram = m_reader->diagram(graphId, kind.toStdString());
    if (!diagram) return Q_EMIT failed(qs(diagram.error().message));
    QString dot = diagram.value() ? qs(diagram.value()->dot) : QString();
    Q_EMIT diagramLoaded(graphId, kind, dot);
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
    if (!ensureReader()) return;
    auto version = m_reader->dataVersion();
    if (!version) return;
    if (version.value() != m_dataVersion) {
        bool first = m_dataVersion < 0;
        m_dataVersion = version.value();
        if (!first) Q_EMIT changed();
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
    connect(m_worker, &SessionWorker::diagramLoaded, this, &TraceSession::diagramReady);
    connect(m_worker, &SessionWorker::changed, this, &TraceSession::onChanged);
    connect(m_worker, &SessionWorker::failed, this, &TraceSession::failed);
    m_thread.setObjectName("kiln-trace-reader");
    m_thread.start();
}

TraceSession::~TraceSession() {
    m_thread.quit();
    m_thread.wait();
}

void TraceSession::open(const QString& tracePath) {
    m_path = tracePath;
    m_runs.reset();
    m_snapshots.clear();
    m_wanted.clear();
    m_inFlight.clear();
    m_stale.clear();
    QMetaObject::invokeMethod(m_worker, "open", Qt::QueuedConnection, Q_ARG(QString, tracePath));
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

void TraceSession::setPolling(bool on, int intervalMs) {
    QMetaObject::invokeMethod(m_worker, "setPolling", Qt::QueuedConnection, Q_ARG(bool, on),
                              Q_ARG(int, intervalMs));
}

void TraceSession::refresh() {
    onChanged();
}

void TraceSession::onRuns(RunRows rows) {
    m_runs = std::move(rows);
    Q_EMIT runsChanged();
}

void TraceSession::onSnapshot(qint64 runId, SnapshotPtr snapshot) {
    m_inFlight.remove(runId);
    m_snapshots[runId] = snapshot;
    Q_EMIT snapshotReady(runId, snapshot);
    if (m_stale.remove(runId)) startSnapshotRead(runId);
}

void TraceSession::onChanged() {
    if (m_path.isEmpty()) return;
    QMetaObject::invokeMethod(m_worker, "loadRuns", Qt::QueuedConnection);
    for (qint64 runId : std::as_const(m_wanted))
        startSnapshotRead(runId);
}

} // namespace kiln::views
