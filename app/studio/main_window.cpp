// SPDX-License-Identifier: MIT
#include "main_window.h"

#include "compare_panel.h"
#include "counted.h"
#include "graph_panel.h"
#include "run_provenance.h"
#include "run_toolbar.h"
#include "source_panel.h"
#include "timeline_panel.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <utility>

namespace kiln::studio {

namespace {

/// The text of a workload that has no run yet, for the source panel; what cannot be read (or
/// is larger than a workload may be) shows as nothing, and the run will say why.
QString readWorkloadText(const QString& path) {
    constexpr qint64 kMaxWorkloadBytes = 64 << 20; // as `kiln run` accepts
    QFile file(path);
    if (file.size() > kMaxWorkloadBytes || !file.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(tr("Kiln Studio"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    m_toolbar = new RunToolBar(this);
    addToolBar(m_toolbar);
    createProblemBar();
    createPanels();
    createMenus();
    m_statusTrace = new QLabel(this);
    m_statusRun = new QLabel(this);
    statusBar()->addWidget(m_statusRun, 1);
    statusBar()->addPermanentWidget(m_statusTrace);
    createImportStatus();
    connect(m_toolbar->runAction(), &QAction::triggered, this, &MainWindow::runWorkload);
    connect(m_toolbar->stopAction(), &QAction::triggered, this, &MainWindow::stopRun);
    connect(m_toolbar->compareModesAction(), &QAction::triggered, this, &MainWindow::compareModes);
    connect(&m_session, &views::TraceSession::runsChanged, this, &MainWindow::onRunsChanged);
    connect(&m_session, &views::TraceSession::snapshotReady, this, &MainWindow::onSnapshotReady);
    connect(&m_session, &views::TraceSession::graphRunFound, this, &MainWindow::onGraphRunFound);
    connect(&m_session, &views::TraceSession::failed, this, [this](const QString& message) {
        // A trace our child is creating can be read before its schema is committed: retry
        // until the child has written it (or ended).
        if (m_awaitingTrace && m_controller.isRunning())
            return QTimer::singleShot(100, this, [this] { m_session.open(m_tracePath); });
        if (!m_session.runs()) {
            // The file could not be opened at all: show nothing of the previous one.
            m_selection.selectRun(0);
            m_session.close();
            m_recentOnceRead.clear();
        }
        showProblem(message);
    });
    connect(&m_selection, &views::Selection::selectionChanged, this,
            [this](const views::SelectionState& s) {
                if (s.runId && !m_session.snapshot(s.runId)) m_session.requestSnapshot(s.runId);
                if (auto snap = m_session.snapshot(s.runId); snap && snap != m_selection.snapshot())
                    m_selection.setSnapshot(snap);
                updateStatus();
                updatePolling();
            });
    connect(&m_controller, &RunController::started, this, &MainWindow::onRunStarted);
    m_traceWatch.setInterval(50);
    connect(&m_traceWatch, &QTimer::timeout, this, [this] {
        if (!QFileInfo::exists(m_tracePath) && m_controller.isRunning()) return;
        m_traceWatch.stop();
        if (QFileInfo::exists(m_tracePath)) openTrace(m_tracePath);
    });
    connect(&m_controller, &RunController::finished, this, &MainWindow::onRunFinished);
    // Between two runs of a sequence no child is running for a moment: only the sequence's end
    // says that Compare modes recorded everything it will.
    connect(&m_controller, &RunController::sequenceFinished, this, [this] {
        m_compareSequenceDone = true;
        finishComparison();
    });
    restoreSettings();
    updateStatus();
}

MainWindow::~MainWindow() {
    // The panels refer to the session and the selection, which are members: they go first.
    qDeleteAll(m_docks);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Open &Workload…"), QKeySequence::Open, this, [this] {
        QString path =
            QFileDialog::getOpenFileName(this, tr("Open workload"), {}, tr("Workloads (*.py)"));
        if (!path.isEmpty()) openFile(path);
    });
    file->addAction(tr("Open &Trace…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                    [this] {
                        QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), {},
                                                                    tr("Kiln traces (*.kiln)"));
                        if (!path.isEmpty()) openFile(path);
                    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    QAction* import =
        file->addAction(tr("&Import PyTorch Trace…"), QKeySequence(Qt::CTRL | Qt::Key_I), this,
                        [this] { importWithDialog(); });
    import->setObjectName(QStringLiteral("importAction"));
    import->setToolTip(tr("A TORCH_TRACE directory or log, optionally with a torch.profiler "
                          "trace (.json), as a Kiln trace (kiln import)"));
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(tr("&Diagram (SVG, PNG, DOT)…"), m_graph,
                          &views::GraphPanel::exportWithDialog);
    exportMenu->addAction(m_timeline->exportAction());
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_toolbar->runAction());
    run->addAction(m_toolbar->stopAction());
    run->addAction(m_toolbar->compareModesAction());

    connect(m_source, &views::SourcePanel::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addAction(m_source->nextBreakAction());
    go->addAction(m_source->previousBreakAction());

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : std::as_const(m_docks))
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    createLayoutMenu(m_viewMenu);
    m_viewMenu->addAction(tr("&Reset layout"), this, [this] {
        m_raisedPanel.clear(); // the journey's own tabs in front, not the last panel shown
        arrangeDocks();
    });
    createHelpMenu();
}

void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        QMessageBox::information(this, tr("Keyboard shortcuts"), shortcutsText());
    });
    help->addAction(tr("&About Kiln Studio"), this, [this] {
        QMessageBox::about(
            this, tr("About Kiln Studio"),
            tr("<b>Kiln Studio %1</b><p>What torch.compile did, run by run: graph breaks, guards "
               "and recompiles, graphs before and after fusion, kernels and their timings.</p>"
               "<p>Everything shown is also available from the <tt>kiln</tt> command line "
               "(<tt>kiln --help</tt>); the documentation is in docs/studio.md.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

QString MainWindow::shortcutsText() const {
    // From the actions themselves, so the list cannot drift from the keys that work.
    QStringList lines;
    for (QAction* a :
         {m_toolbar->runAction(), m_toolbar->stopAction(), m_toolbar->compareModesAction(),
          m_source->nextBreakAction(), m_source->previousBreakAction()})
        lines << QStringLiteral("%1\t%2").arg(a->shortcut().toString(QKeySequence::NativeText),
                                              QString(a->text()).remove(u'&'));
    return lines.join(u'\n');
}

bool MainWindow::openFile(const QString& path) {
    m_problemBar->hide(); // the last file's problem is not this one's
    QFileInfo info(path);
    if (!info.exists()) {
        showProblem(tr("%1 does not exist").arg(path));
        return false;
    }
    if (isWorkload(path)) {
        m_workload = info.absoluteFilePath();
        addRecent(m_workload);
        QString trace = tracePathFor(m_workload, QFileInfo(info.absolutePath()).isWritable());
        if (QFileInfo::exists(trace)) {
            openTrace(trace);
        } else {
            // Nothing recorded yet: the workload's text, and a summary that says "press F5".
            m_tracePath = trace;
            m_selection.selectRun(0);
            m_session.close();
            m_source->setUnrunWorkload(m_workload, readWorkloadText(m_workload));
            QTimer::singleShot(0, this, [this] {
                if (!m_controller.isRunning() && !m_session.isOpen()) Q_EMIT ready();
            });
        }
        updateStatus();
        return true;
    }
    if (isTrace(path)) {
        m_workload.clear(); // taken from the trace's last run when the runs arrive
        m_recentOnceRead = info.absoluteFilePath(); // remembered once it proves readable
        openTrace(info.absoluteFilePath());
        return true;
    }
    showProblem(tr("%1 is neither a workload (.py) nor a trace (.kiln)").arg(path));
    return false;
}

void MainWindow::openTrace(const QString& tracePath) {
    m_traceWatch.stop(); // whoever opens the trace first, it is opened once
    m_source->setUnrunWorkload({}, {});
    m_childStarted = m_controller.isRunning();
    m_tracePath = tracePath;
    m_selection.selectRun(0);
    m_session.open(tracePath);
    updateStatus();
}

void MainWindow::runWorkload() {
    if (m_toolbar->isImported()) {
        showProblem(tr("This run was imported from PyTorch's logs: there is no workload for Kiln "
                       "to run (File > Open Workload opens one)"));
        return;
    }
    if (m_workload.isEmpty()) {
        showProblem(tr("Open a workload (.py) first: File > Open Workload"));
        return;
    }
    m_comparing = false;
    m_controller.start({m_toolbar->request(m_workload, m_tracePath)});
}

void MainWindow::compareModes() {
    if (m_toolbar->isImported()) {
        showProblem(tr("This run was imported from PyTorch's logs: Compare runs compares two "
                       "imported runs, Compare modes needs a workload Kiln runs"));
        return;
    }
    if (m_workload.isEmpty()) {
        showProblem(tr("Open a workload (.py) first: File > Open Workload"));
        return;
    }
    RunRequest base = m_toolbar->request(m_workload, m_tracePath);
    // A comparison is a measurement: without the toolbar's own count, 20 timed calls each.
    if (base.measureCalls == 0) base.measureCalls = kCompareMeasuredCalls;
    RunRequest tuned = base;
    base.mode = QStringLiteral("default");
    tuned.mode = QStringLiteral("max-autotune");
    m_runsBeforeCompare = m_session.runs() ? m_session.runs()->size() : 0;
    m_comparing = true;
    m_compareSequenceDone = false;
    m_compareStarted = 0;
    // In turn, several times: the machine's speed drifts between runs (on a shared machine a
    // matrix product ran 1.55x slower for tens of seconds), and only runs recorded in turn let
    // the comparison tell that drift from a difference between the modes.
    QList<RunRequest> requests;
    for (int i = 0; i < kCompareRounds; ++i)
        requests << base << tuned;
    m_controller.start(requests);
}

void MainWindow::setRunMode(const QString& mode) {
    m_toolbar->setMode(mode);
}

void MainWindow::stopRun() {
    m_controller.stop();
}

void MainWindow::onRunStarted(qint64 pid, const RunRequest& request) {
    m_childStarted = true;
    if (m_comparing) ++m_compareStarted;
    followNewRun(pid);
    m_toolbar->setRunning(true);
    statusBar()->showMessage(
        tr("running %1 (pid %2)").arg(QFileInfo(request.script).fileName()).arg(pid));
    if (!m_session.isOpen() || m_session.path() != request.trace) {
        // The child creates a new trace file as it starts: open it once it is there.
        m_tracePath = request.trace;
        m_awaitingTrace = true;
        m_traceWatch.start();
    }
    updatePolling();
}

void MainWindow::onRunFinished(const RunOutcome& outcome) {
    if (!m_controller.isRunning()) m_toolbar->setRunning(false);
    statusBar()->clearMessage();
    if (outcome.kind == RunOutcome::Kind::Failed) {
        // No run was recorded: show again what was shown before.
        if (m_follow.pid && !m_selection.state().runId) m_selection.selectRun(m_follow.previousRun);
        m_follow = {};
        showProblem(outcome.message);
    }
    // The script's own error (exit 1): its `kiln:` summary names the error and where it is.
    if (outcome.kind == RunOutcome::Kind::Finished && outcome.exitCode != 0)
        statusBar()->showMessage(outcome.message, 30000);
    if (outcome.kind == RunOutcome::Kind::Crashed || outcome.kind == RunOutcome::Kind::Stopped)
        statusBar()->showMessage(outcome.message, 15000);
    if (m_session.path() != m_tracePath && QFileInfo::exists(m_tracePath))
        openTrace(m_tracePath);
    else
        m_session.refresh(); // the final rows (and a crash mark) are committed now
    updatePolling();
}

void MainWindow::onRunsChanged() {
    m_awaitingTrace = false;
    const views::RunRows& runs = m_session.runs();
    if (runs && !m_recentOnceRead.isEmpty()) addRecent(std::exchange(m_recentOnceRead, {}));
    if (!runs || runs->empty()) {
        updateStatus();
        // A trace without runs is all there is to show, unless a child of ours is about to
        // record one (this list may have been read before its run began).
        if (runs && !m_controller.isRunning() && !m_childStarted) Q_EMIT ready();
        return;
    }
    const trace::RunRow& last = runs->back();
    // An imported run's workload_path is its log, which Kiln cannot run.
    if (m_workload.isEmpty() && !views::isImportedRun(last))
        m_workload = QString::fromStdString(last.workloadPath);
    // The run our child records takes the selection once it exists, even when the child has
    // already ended (a quick run can be over before the poll sees it); after that, and without
    // a child, what the user picked stays.
    if (m_pendingRun) {
        m_selection.selectRun(std::exchange(m_pendingRun, 0));
    } else if (const trace::RunRow* started = followedRun()) {
        const qint64 id = started->id;
        m_follow = {};
        if (m_selection.state().runId != id) m_selection.selectRun(id);
    } else if (!m_follow.pid && m_selection.state().runId == 0) {
        m_selection.selectRun(last.id);
    }
    if (m_selection.state().runId) m_session.requestSnapshot(m_selection.state().runId);
    finishComparison();
    updateStatus();
    updatePolling();
}

void MainWindow::finishComparison() {
    const views::RunRows& runs = m_session.runs();
    // Every run a child started must be listed (the last may not be read yet).
    if (!m_comparing || !m_compareSequenceDone || !runs ||
        runs->size() < m_runsBeforeCompare + m_compareStarted)
        return;
    // The runs it recorded, by mode; a run that failed or was stopped is not a measurement.
    QList<qint64> a, b;
    for (size_t i = m_runsBeforeCompare; i < runs->size(); ++i) {
        const trace::RunRow& r = (*runs)[i];
        if (r.status == trace::RunStatus::Running) return; // its end is not read yet
        if (r.status != trace::RunStatus::Ok) continue;
        if (r.mode == "default") a << r.id;
        if (r.mode == "max-autotune") b << r.id;
    }
    m_comparing = false;
    if (a.isEmpty() || b.isEmpty()) return; // the failed run's message is already shown
    const qint64 runA = a.takeLast(), runB = b.takeLast();
    m_compare->compareRuns(runA, runB, a, b);
    showPanel(QStringLiteral("compare"));
}

void MainWindow::onSnapshotReady(qint64 runId, const views::SnapshotPtr& snapshot) {
    if (runId != m_selection.state().runId) return;
    m_selection.setSnapshot(snapshot);
    if (snapshot->running()) m_toolbar->showProgress(*snapshot);
    applyPendingSelection();
    selectFirstCompileIfNothingIs();
    updateStatus();
    updatePolling();
    if (!snapshot->running() && !m_controller.isRunning() && !m_follow.pid) Q_EMIT ready();
}

void MainWindow::followNewRun(qint64 pid) {
    // The panels leave the previous run at once (its banner and output are not this run's);
    // onRunsChanged selects the new run as soon as the child has recorded it.
    m_follow.pid = pid;
    if (!m_follow.pid) m_follow.previousRun = m_selection.state().runId;
    m_follow.afterId = 0;
    if (const views::RunRows& runs = m_session.runs(); runs && !runs->empty())
        m_follow.afterId = runs->back().id;
    m_selection.selectRun(0);
}

const trace::RunRow* MainWindow::followedRun() const {
    const views::RunRows& runs = m_session.runs();
    if (!m_follow.pid || !runs) return nullptr;
    // Newer than every run known when the child started, and recorded by that child.
    for (auto it = runs->rbegin(); it != runs->rend() && it->id > m_follow.afterId; ++it)
        if (it->pid == m_follow.pid) return &*it;
    return nullptr;
}

void MainWindow::selectFirstCompileIfNothingIs() {
    // A run on its own shows empty graph, kernel and guard views: start at its first compile
    // that produced a graph, as a debugger starts at the first frame.
    const views::SelectionState& s = m_selection.state();
    if (!s.compileId.isEmpty() || s.breakOrder || s.kernelId >= 0 || s.sourceLine) return;
    for (const trace::CompileRow& c : m_selection.snapshot()->compiles) {
        if (!m_selection.snapshot()->graphsOf(c.compileId).empty()) {
            m_selection.selectCompile(QString::fromStdString(c.compileId));
            return;
        }
    }
}

void MainWindow::updatePolling() {
    auto snap = m_selection.snapshot();
    bool live = m_controller.isRunning() || (snap && snap->running());
    m_session.setPolling(live);
}

bool MainWindow::selectItem(const QString& spec) {
    static const QStringList kinds{"run", "compile", "graph", "kernel", "break", "line"};
    if (!kinds.contains(spec.section(':', 0, 0)) || spec.section(':', 1).isEmpty()) return false;
    // Applied once the trace's runs (run:N) or the selected run's snapshot (the rest) are in.
    if (spec.startsWith("run:"))
        m_pendingRun = spec.section(':', 1).toLongLong();
    else
        m_pendingSelect = spec;
    applyPendingSelection();
    return true;
}

void MainWindow::applyPendingSelection() {
    if (m_pendingSelect.isEmpty() || !m_selection.snapshot()) return;
    const QString kind = m_pendingSelect.section(':', 0, 0);
    const QString value = m_pendingSelect.section(':', 1);
    const views::RunSnapshot& run = *m_selection.snapshot();
    // A run still going (or one a child of ours is about to record) may record it later.
    const bool mayComeLater = run.running() || m_controller.isRunning();
    bool found = false;
    if (kind == "compile" && (found = run.compile(value.toStdString()) != nullptr))
        m_selection.selectCompile(value);
    if (kind == "graph" && (found = run.graph(value.toLongLong()) != nullptr))
        m_selection.selectGraph(value.toLongLong());
    if (kind == "kernel" && (found = run.kernel(value.toLongLong()) != nullptr))
        m_selection.selectKernel(value.toLongLong());
    if (kind == "break" && (found = run.graphBreak(value.toInt()) != nullptr))
        m_selection.selectBreak(value.toInt());
    if (kind == "line" &&
        (found = value.toInt() > 0 && value.toInt() <= run.source.count('\n') + 1))
        m_selection.selectSourceLine(value.toInt());
    if (!found && !mayComeLater && kind == "graph" && value.toLongLong() > 0) {
        // Graph ids are unique in the trace: the graph may be another run's (graphRunFound).
        m_session.requestGraphRun(value.toLongLong());
        return;
    }
    if (found || !mayComeLater) m_pendingSelect.clear();
    if (!found && !mayComeLater)
        showProblem(tr("run #%1 has no %2 %3").arg(run.run.id).arg(kind, value));
}

void MainWindow::onGraphRunFound(qint64 graphId, qint64 runId) {
    if (m_pendingSelect != QStringLiteral("graph:%1").arg(graphId)) return; // asked for before
    if (runId > 0 && runId != m_selection.state().runId) {
        m_selection.selectRun(runId); // the pending selection applies when its snapshot is in
        m_session.requestSnapshot(runId);
        return;
    }
    m_pendingSelect.clear();
    showProblem(
        tr("the trace has no graph %1 (kiln compiles lists each run's graphs)").arg(graphId));
}

void MainWindow::updateStatus() {
    QString title = tr("Kiln Studio");
    if (!m_workload.isEmpty()) title = QFileInfo(m_workload).fileName() + " — " + title;
    setWindowTitle(title);
    m_statusTrace->setText(m_tracePath.isEmpty() ? tr("no trace") : m_tracePath);
    auto snap = m_selection.snapshot();
    m_toolbar->setImported(snap ? views::importedOriginText(snap->run) : QString());
    if (!snap) {
        m_statusRun->setText(m_workload.isEmpty() ? tr("Open a workload or a trace")
                                                  : tr("Press F5 to run the workload"));
        m_statusRun->setToolTip({});
        return;
    }
    const trace::RunRow& run = snap->run;
    QString status =
        snap->looksCrashed ? QStringLiteral("crashed") : QString(trace::runStatusName(run.status));
    QStringList parts{tr("run #%1").arg(run.id), run.mode.empty()
                                                     ? QStringLiteral("default")
                                                     : QString::fromStdString(run.mode)};
    if (!run.backend.empty()) parts << QString::fromStdString(run.backend);
    parts << status << views::counted(qsizetype(snap->compiles.size()), "compile")
          << views::counted(qsizetype(snap->graphBreaks.size()), "graph break")
          << views::counted(qsizetype(snap->kernels.size()), "kernel")
          << views::counted(qsizetype(snap->launches.size()), "launch");
    m_statusRun->setText(parts.join(QStringLiteral(" · ")));
    // Where the run ran: what its timings belong to.
    m_statusRun->setToolTip(views::machineDetailsText(run));
}

void MainWindow::createProblemBar() {
    // A trace that cannot be read, a GPU that is missing, a workload that cannot run: said in
    // a bar under the toolbar that stays until it is dismissed or the next file opens, not
    // only in the status bar, where it was gone in 15 s and easy to miss.
    addToolBarBreak();
    m_problemBar = new QToolBar(tr("Problem"), this);
    m_problemBar->setObjectName(QStringLiteral("problemBar"));
    m_problemBar->setMovable(false);
    m_problemBar->setStyleSheet(
        QStringLiteral("QToolBar { background: #fdecea; border-bottom: 1px solid #f5c2c0; }"));
    m_problemText = new QLabel(m_problemBar);
    m_problemText->setWordWrap(true);
    m_problemText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problemText->setStyleSheet(QStringLiteral("color: #8a1c1c; padding: 2px 6px;"));
    m_problemText->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_problemBar->addWidget(m_problemText);
    QAction* dismiss = m_problemBar->addAction(tr("Dismiss"));
    connect(dismiss, &QAction::triggered, this, [this] { m_problemBar->hide(); });
    addToolBar(Qt::TopToolBarArea, m_problemBar);
    m_problemBar->hide();
}

void MainWindow::showProblem(const QString& message) {
    statusBar()->showMessage(message, 15000);
    m_problemText->setText(message);
    m_problemBar->show();
    Q_EMIT problem(message);
}

QString MainWindow::problemText() const {
    return m_problemBar->isVisible() ? m_problemText->text() : QString();
}

QString MainWindow::tracePathFor(const QString& script, bool directoryWritable) {
    QFileInfo info(script);
    const QString name = info.completeBaseName() + QStringLiteral(".kiln");
    if (directoryWritable) return info.absoluteDir().filePath(name);
    // An installed example (/usr/share/kiln/workloads) cannot have its trace next to it.
    QDir traces(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                QStringLiteral("/traces"));
    traces.mkpath(QStringLiteral("."));
    return traces.filePath(name);
}

bool MainWindow::isWorkload(const QString& path) {
    return path.endsWith(QStringLiteral(".py"), Qt::CaseInsensitive);
}

bool MainWindow::isTrace(const QString& path) {
    return path.endsWith(QStringLiteral(".kiln"), Qt::CaseInsensitive);
}

} // namespace kiln::studio
