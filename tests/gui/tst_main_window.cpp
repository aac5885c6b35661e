// SPDX-License-Identifier: MIT
// Kiln Studio's main window driving real `kiln run` children, offscreen: a run is started,
// read while it grows and selected; a child killed mid-run leaves Studio up with the run marked
// crashed and everything it recorded; Stop records a cancelled run; "Compare modes" records a
// default and a max-autotune run; options from the editor reach the child; files open by drag
// and drop and land in the recent files.
#include "break_details.h"
#include "compare_panel.h"
#include "compiles_panel.h"
#include "graph_panel.h"
#include "kiln_process.h"
#include "main_window.h"
#include "output_panel.h"
#include "run_toolbar.h"
#include "source_panel.h"
#include "studio_fixture.h"
#include "trace/trace_reader.h"

#include <QDockWidget>
#include <QDropEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

using namespace kiln;

namespace {

const char* kQuickWorkload = "import torch\n"
                             "f = torch.compile(lambda x: torch.sin(x) * 2)\n"
                             "print(f(torch.ones(4)).sum().item())\n";

/// Prints, compiles, then keeps calling the compiled function for a long time.
const char* kLongWorkload = "import torch\n"
                            "print('started')\n"
                            "f = torch.compile(lambda x: torch.cos(x) + 1)\n"
                            "x = torch.ones(64)\n"
                            "for i in range(100000000):\n"
                            "    x = f(x)\n";

QString writeScript(const QTemporaryDir& dir, const QString& name, const char* text) {
    QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(text);
    return path;
}

/// Waits until `done()` holds (up to `ms`), processing events.
template <typename Pred>
bool waitFor(Pred done, int ms = 60000) {
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < ms)
        QTest::qWait(20);
    return done();
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    /// The selected run's snapshot once it satisfies `pred`.
    template <typename Pred>
    views::SnapshotPtr waitForSnapshot(studio::MainWindow& w, Pred pred, int ms = 60000) {
        views::SnapshotPtr found;
        waitFor(
            [&] {
                found = w.selection().snapshot();
                return found && pred(*found);
            },
            ms);
        return found && pred(*found) ? found : nullptr;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
        QSettings().clear();
        qputenv("KILN_EXECUTABLE", qgetenv("KILN_BINARY_DIR") + "/bin/kiln");
    }

    void runsAWorkloadAndShowsIt() {
        QString script = writeScript(m_dir, "quick.py", kQuickWorkload);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(script));
        QCOMPARE(w.tracePath(), m_dir.filePath("quick.kiln"));
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        w.runWorkload();
        QVERIFY(w.controller().isRunning());
        QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
        views::SnapshotPtr s = w.selection().snapshot();
        QVERIFY(s);
        QCOMPARE(s->run.status, trace::RunStatus::Ok);
        QCOMPARE(w.selection().state().runId, s->run.id);
        QVERIFY(!s->compiles.empty());
        QVERIFY(!s->output.empty());
        QVERIFY(QString::fromStdString(s->output.front().text).startsWith("6.7317")); // 4·2·sin 1
        // The workload landed in the recent files.
        QVERIFY(QSettings().value("recentFiles").toStringList().contains(script));
    }

    void aKilledChildLeavesStudioUpWithACrashedRun() {
        QString script = writeScript(m_dir, "long.py", kLongWorkload);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(script));
        QSignalSpy finished(&w.controller(), &studio::RunController::finished);
        w.runWorkload();
        // Live: the output and the compile arrive while the child runs.
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot& s) {
            return s.running() && !s.output.empty() && !s.launches.empty();
        }));
        const qint64 pid = w.controller().childPid();
        QVERIFY(pid > 0);
        // The toolbar says what the live run does (compiling, or running with counts).
        auto* toolbar = w.findChild<studio::RunToolBar*>();
        QVERIFY(waitFor([&] { return toolbar->progressText().contains("kernel launches"); }));
        QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
        QVERIFY(waitFor([&] { return !finished.isEmpty(); }));
        auto outcome = finished.at(0).at(0).value<studio::RunOutcome>();
        QCOMPARE(outcome.kind, studio::RunOutcome::Kind::Crashed);
        QVERIFY2(outcome.message.contains("Killed"), qPrintable(outcome.message));
        views::SnapshotPtr s = waitForSnapshot(w, [](const views::RunSnapshot& s) {
            return s.run.status == trace::RunStatus::Crashed;
        });
        QVERIFY(s);
        QCOMPARE(s->run.exitCode.value_or(0), 128 + SIGKILL);
        QCOMPARE(QString::fromStdString(s->output.front().text), QString("started"));
        QVERIFY(!s->compiles.empty());
        QVERIFY(w.isVisible());
        QVERIFY(!w.controller().isRunning());
    }

    void stopRecordsACancelledRun() {
        QString script = writeScript(m_dir, "stop.py", kLongWorkload);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(script));
        QSignalSpy finished(&w.controller(), &studio::RunController::finished);
        w.runWorkload();
        QVERIFY(waitForSnapshot(
            w, [](const views::RunSnapshot& s) { return s.running() && !s.output.empty(); }));
        w.stopRun();
        QVERIFY(waitFor([&] { return !finished.isEmpty(); }));
        QCOMPARE(finished.at(0).at(0).value<studio::RunOutcome>().kind,
                 studio::RunOutcome::Kind::Stopped);
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot& s) {
            return s.run.status == trace::RunStatus::Cancelled;
        }));
    }

    void aNewRunOfATracedWorkloadIsTheOneShown() {
        // Issue 14, finding 1: the workload already has a trace; F5 records run 2, and every
        // panel shows run 2 (a quick run can be over before a poll sees it).
        QString script = writeScript(m_dir, "again.py", kQuickWorkload);
        QCOMPARE(testing::runKilnBinary({"run", script, "--quiet"}, m_dir.path()).exitCode, 0);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(script));
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot& s) { return s.run.id == 1; }));
        for (qint64 expected : {2, 3}) {
            QSignalSpy ready(&w, &studio::MainWindow::ready);
            w.runWorkload();
            QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
            QCOMPARE(w.selection().state().runId, expected);
            QVERIFY(w.selection().snapshot());
            QCOMPARE(w.selection().snapshot()->run.id, expected);
        }
    }

    void rerunningAHangingWorkloadLeavesTheOldRunAtOnce() {
        // Stopped run 1 shows its "cancelled" banner and output; once run 2's child starts, no
        // panel is given run 1 again: they are cleared, then get run 2.
        QString script = writeScript(m_dir, "hang.py", kLongWorkload);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(script));
        QSignalSpy finished(&w.controller(), &studio::RunController::finished);
        w.runWorkload();
        QVERIFY(waitForSnapshot(
            w, [](const views::RunSnapshot& s) { return s.running() && !s.output.empty(); }));
        w.stopRun();
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot& s) {
            return s.run.status == trace::RunStatus::Cancelled;
        }));
        const qint64 first = w.selection().state().runId;
        QSignalSpy started(&w.controller(), &studio::RunController::started);
        int oldRunShown = 0; // snapshots of the old run given to the panels after the start
        connect(&w.selection(), &views::Selection::snapshotChanged, this,
                [&](const views::SnapshotPtr& s) {
                    oldRunShown += !started.isEmpty() && s && s->run.id <= first;
                });
        w.runWorkload();
        QVERIFY(waitFor([&] { return !started.isEmpty(); }));
        QVERIFY(!w.selection().snapshot()); // the old run's banner and output are gone
        QVERIFY(waitForSnapshot(w, [&](const views::RunSnapshot& s) {
            return s.run.id > first && s.running() && !s.output.empty();
        }));
        QCOMPARE(oldRunShown, 0);
        w.stopRun();
        QVERIFY(waitFor([&] { return finished.size() == 2; }));
    }

    void aRecordedTraceIsWholeWithoutItsLog() {
        // Issue 14, finding 4: Studio's reader stays open while the child closes its writer, so
        // SQLite leaves the trace in the -wal sidecar; a copy of the .kiln alone must open.
        QString script = writeScript(m_dir, "copied.py", kQuickWorkload);
        QCOMPARE(testing::runKilnBinary({"run", script, "--quiet"}, m_dir.path()).exitCode, 0);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(script));
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot& s) { return s.run.id == 1; }));
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        w.runWorkload();
        QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
        QVERIFY(w.session().isOpen()); // the reader is still open
        QTemporaryDir elsewhere;
        const QString copy = elsewhere.filePath("copy.kiln");
        QVERIFY(QFile::copy(w.tracePath(), copy));
        auto reader = trace::TraceReader::open(copy.toStdString());
        QVERIFY2(reader, reader ? "" : reader.error().message.c_str());
        auto runs = (*reader)->listRuns();
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(2));
        QCOMPARE(runs->back().status, trace::RunStatus::Ok);
        QVERIFY(QFileInfo(w.tracePath() + "-wal").size() == 0 ||
                !QFileInfo::exists(w.tracePath() + "-wal"));
    }

    void aGraphHasOneIdInStudioAndOnTheCommandLine() {
        // Issue 14, finding 7: the number the Compiles tree names a graph by is the one the
        // graph panel shows, `--select graph:` selects and `kiln export-diagram --graph` takes.
        QTemporaryDir dir;
        const QString trace = testing::graphBreaksTrace(dir.path());
        QVERIFY(!trace.isEmpty());
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(trace));
        auto* compiles = static_cast<views::CompilesPanel*>(w.panel("compiles"));
        views::SnapshotPtr s =
            waitForSnapshot(w, [](const views::RunSnapshot& s) { return s.compile("4/1"); });
        QVERIFY(s);
        const trace::GraphRow* g = s->graphsOf("4/1").front();
        QTRY_VERIFY(compiles->model()->indexOfGraph(g->id).isValid());
        const QString shown = compiles->model()->indexOfGraph(g->id).data().toString();
        const QString name = shown.section(QStringLiteral(" · "), 0, 0);
        QCOMPARE(name, QString("graph %1").arg(g->id));
        QVERIFY(w.selectItem("graph:" + name.section(' ', 1)));
        QCOMPARE(w.selection().state().graphId, g->id);
        auto* graph = static_cast<views::GraphPanel*>(w.panel("graph"));
        QTRY_VERIFY2(graph->statusText().startsWith(name + " · 4/1"),
                     qPrintable(graph->statusText()));
        const QString dot = dir.filePath("g.dot");
        QCOMPARE(testing::runKilnBinary({"export-diagram", trace, "--graph", name.section(' ', 1),
                                         "--format", "dot", "-o", dot},
                                        dir.path())
                     .exitCode,
                 0);
        auto reader = trace::TraceReader::open(trace.toStdString());
        QVERIFY(reader);
        auto diagram = (*reader)->diagram(g->id, "post_fusion");
        QVERIFY(diagram && diagram.value());
        QFile exported(dot);
        QVERIFY(exported.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(exported.readAll()).trimmed(),
                 QString::fromStdString(diagram.value()->dot).trimmed());
    }

    void aGraphOfAnotherRunIsSelectedInItsRun() {
        // Issue 14, finding 7: graph ids are unique in a trace, so --select graph:ID selects a
        // graph of an earlier run too (it said "run #2 has no graph 3").
        QTemporaryDir dir;
        const QString trace = testing::graphBreaksTrace(dir.path());
        QVERIFY(!trace.isEmpty());
        QCOMPARE(
            testing::runKilnBinary({"run", dir.filePath("graph_breaks.py"), "--quiet"}, dir.path())
                .exitCode,
            0);
        views::SnapshotPtr first = testing::readSnapshot(trace, 1);
        QVERIFY(first && !first->graphs.empty());
        const int64_t graphId = first->graphs.front().id;
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(trace));
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot& s) { return s.run.id == 2; }));
        QVERIFY(w.selectItem(QString("graph:%1").arg(graphId)));
        QTRY_COMPARE(w.selection().state().runId, qint64(1));
        QTRY_COMPARE(w.selection().state().graphId, graphId);
        // An id no run has is said so, once every run was asked.
        QVERIFY(w.selectItem("graph:999999"));
        QTRY_VERIFY2(w.statusBar()->currentMessage().contains("no graph 999999"),
                     qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.selection().state().runId, qint64(1));
    }

    void aWorkloadWithoutARunShowsItsSource() {
        // Issue 14, finding 9: a workload with no trace yet showed "No run is selected."
        QTemporaryDir dir;
        const QString script = writeScript(dir, "fresh.py", kQuickWorkload);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(script));
        auto* source = static_cast<views::SourcePanel*>(w.panel("source"));
        QTRY_COMPARE(source->editor()->toPlainText(), QString::fromUtf8(kQuickWorkload));
        QVERIFY2(source->summaryText().contains("fresh.py · not run yet"),
                 qPrintable(source->summaryText()));
        // Its first run replaces the notice with the run's own summary.
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        w.runWorkload();
        QVERIFY(waitFor([&] { return !ready.isEmpty() && w.selection().snapshot(); }));
        QTRY_VERIFY2(!source->summaryText().contains("not run yet"),
                     qPrintable(source->summaryText()));
        QCOMPARE(source->editor()->toPlainText(), QString::fromUtf8(kQuickWorkload));
    }

    void labelsReadAsWrittenAndActionsHaveKeys() {
        // Issue 14, finding 9: "Guards & recompiles" is not "Guards _recompiles" in its tab and
        // the View menu; "1 compile", not "1 compiles"; Compare modes has a key; a Help menu.
        QString script = writeScript(m_dir, "labels.py", kQuickWorkload);
        studio::MainWindow w;
        w.useDefaultLayout();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // What a label shows: "&&" is an ampersand, a lone '&' marks the mnemonic and vanishes.
        auto shown = [](QString text) {
            return text.replace("&&", QString(QChar(1))).remove('&').replace(QChar(1), '&');
        };
        QStringList tabs;
        for (QTabBar* bar : w.findChildren<QTabBar*>())
            for (int i = 0; i < bar->count(); ++i)
                tabs << shown(bar->tabText(i));
        QVERIFY2(tabs.contains("Guards & recompiles"), qPrintable(tabs.join(", ")));
        QStringList viewItems;
        QStringList menus;
        for (QAction* menu : w.menuBar()->actions()) {
            menus << shown(menu->text());
            if (shown(menu->text()) == "View")
                for (QAction* a : menu->menu()->actions())
                    viewItems << shown(a->text());
        }
        QVERIFY2(viewItems.contains("Guards & recompiles"), qPrintable(viewItems.join(", ")));
        QVERIFY2(menus.contains("Help"), qPrintable(menus.join(", ")));
        auto* toolbar = w.findChild<studio::RunToolBar*>();
        QCOMPARE(toolbar->compareModesAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F5));

        QVERIFY(w.openFile(script));
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        w.runWorkload();
        QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
        QStringList status;
        for (QLabel* label : w.statusBar()->findChildren<QLabel*>())
            status << label->text();
        const QString line = status.filter("run #").value(0);
        QVERIFY2(line.contains(" · 1 compile · 0 graph breaks · 1 kernel · 1 launch"),
                 qPrintable(line));
    }

    void optionsFromTheEditorReachTheChild() {
        QString script = writeScript(m_dir, "options.py", kQuickWorkload);
        studio::MainWindow w;
        QVERIFY(w.openFile(script));
        auto* toolbar = w.findChild<studio::RunToolBar*>();
        QVERIFY(toolbar);
        toolbar->setOverrides({{"epilogue_fusion", "False"}});
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        w.runWorkload();
        QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
        views::SnapshotPtr s = w.selection().snapshot();
        QVERIFY(s);
        bool found = false;
        for (const trace::ConfigRow& c : s->config) {
            if (c.key != "epilogue_fusion") continue;
            found = true;
            QCOMPARE(QString::fromStdString(c.value), QString("False"));
            QCOMPARE(QString::fromStdString(c.source), QString("user"));
        }
        QVERIFY(found);
    }

    void compareModesRecordsBothModes() {
        QString script = writeScript(m_dir, "modes.py", kQuickWorkload);
        studio::MainWindow w;
        QVERIFY(w.openFile(script));
        QSignalSpy done(&w.controller(), &studio::RunController::sequenceFinished);
        w.compareModes();
        QVERIFY(waitFor([&] { return !done.isEmpty(); }, 120000));
        // Each mode three times, in turn, so that the machine's drift between runs is in both
        // sides' spread (one run each made a 1.7x drift look like a result).
        const int count = 2 * studio::kCompareRounds;
        QVERIFY(waitFor([&] {
            return w.session().runs() && w.session().runs()->size() == size_t(count) &&
                   (*w.session().runs())[count - 1].status != trace::RunStatus::Running;
        }));
        const auto& runs = *w.session().runs();
        for (int i = 0; i < count; ++i) {
            QCOMPARE(QString::fromStdString(runs[size_t(i)].mode),
                     QString(i % 2 ? "max-autotune" : "default"));
            QCOMPARE(runs[size_t(i)].status, trace::RunStatus::Ok);
        }
        // The newest pair is compared, the earlier runs of each mode pooled with it.
        auto* compare = qobject_cast<views::ComparePanel*>(w.panel("compare"));
        QVERIFY(compare);
        QVERIFY(waitFor([&] { return compare->runA() == 5 && compare->runB() == 6; }));
        QCOMPARE(compare->replicatesA(), (QList<qint64>{1, 3}));
        QCOMPARE(compare->replicatesB(), (QList<qint64>{2, 4}));
        QVERIFY(waitFor([&] { return compare->model().comparison().a.runs == 3; }));
        QCOMPARE(compare->model().comparison().b.runs, 3);
    }

    void opensDroppedFilesAndRefusesOthers() {
        QString script = writeScript(m_dir, "dropped.py", kQuickWorkload);
        studio::MainWindow w;
        w.show();
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(script)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QCOMPARE(w.workload(), script);
        QSignalSpy problem(&w, &studio::MainWindow::problem);
        QVERIFY(!w.openFile(writeScript(m_dir, "notes.txt", "hello")));
        QCOMPARE(problem.count(), 1);
        QVERIFY(problem.at(0).at(0).toString().contains("neither a workload"));
    }

    void openingAnotherTraceShowsOnlyIt() {
        // Reads queued for the first file must not land in the second (run ids restart at 1).
        QTemporaryDir a, b;
        QString first = testing::graphBreaksTrace(a.path());
        QString second = testing::compareModesTrace(b.path());
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        views::SnapshotPtr expected = testing::readSnapshot(second, 2); // the newest run is shown
        QVERIFY(expected);
        studio::MainWindow w;
        w.show();
        QVERIFY(w.openFile(first));
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot&) { return true; }));
        QVERIFY(w.openFile(second)); // while the first file's refreshes may still be queued
        views::SnapshotPtr s = waitForSnapshot(w, [&](const views::RunSnapshot& s) {
            return s.run.workloadPath == expected->run.workloadPath;
        });
        QVERIFY(s);
        QTest::qWait(300); // anything still queued for the first file arrives (and is dropped)
        s = w.selection().snapshot();
        QCOMPARE(s->frames.size(), expected->frames.size());
        QCOMPARE(s->launches.size(), expected->launches.size());
        QCOMPARE(s->graphs.size(), expected->graphs.size());
        QCOMPARE(w.session().runs()->size(), size_t(2));
    }

    void aFileThatCannotBeReadClearsTheWindow() {
        QTemporaryDir dir;
        QString good = testing::graphBreaksTrace(dir.path());
        QVERIFY(!good.isEmpty());
        studio::MainWindow w;
        QVERIFY(w.openFile(good));
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot&) { return true; }));
        QSignalSpy snapshots(&w.selection(), &views::Selection::snapshotChanged);
        QSignalSpy problem(&w, &studio::MainWindow::problem);
        QVERIFY(w.openFile(writeScript(m_dir, "junk.kiln", "not a database")));
        QVERIFY(waitFor([&] { return !problem.isEmpty(); }));
        QVERIFY(problem.at(0).at(0).toString().contains("not a Kiln trace"));
        // Issue 14, finding 9: said in the bar under the toolbar, not only in the status bar.
        w.show();
        QVERIFY2(w.problemText().contains("not a Kiln trace"), qPrintable(w.problemText()));
        QVERIFY(!w.selection().snapshot());
        QVERIFY(!snapshots.isEmpty()); // the panels were told to drop the previous run
        QVERIFY(!snapshots.last().at(0).value<views::SnapshotPtr>());
        QVERIFY(!w.session().runs());
        // A workload without a trace next to it shows nothing of what was open before either.
        QVERIFY(w.openFile(good));
        QVERIFY(w.problemText().isEmpty()); // the next file's window starts without it
        QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot&) { return true; }));
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        QVERIFY(w.openFile(writeScript(m_dir, "fresh.py", kQuickWorkload)));
        QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
        QVERIFY(!w.selection().snapshot());
        QVERIFY(!w.session().runs());
    }

    void aKilnThatCannotStartIsReported() {
        qputenv("KILN_EXECUTABLE", "/nonexistent/kiln");
        studio::MainWindow w;
        QVERIFY(w.openFile(writeScript(m_dir, "nostart.py", kQuickWorkload)));
        QSignalSpy problem(&w, &studio::MainWindow::problem);
        w.runWorkload();
        QVERIFY(waitFor([&] { return !problem.isEmpty(); }));
        qputenv("KILN_EXECUTABLE", qgetenv("KILN_BINARY_DIR") + "/bin/kiln");
        QVERIFY2(problem.at(0).at(0).toString().contains("cannot start"),
                 qPrintable(problem.at(0).at(0).toString()));
        QVERIFY(!w.controller().isRunning());
    }

    void theLayoutIsRememberedAcrossSessions() {
        QSettings().remove("window");
        {
            studio::MainWindow w;
            w.resize(1300, 850);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto* timeline = w.findChild<QDockWidget*>("timelineDock");
            QVERIFY(timeline && timeline->isVisible());
            timeline->hide();
            w.close(); // saves the geometry and the dock state
        }
        studio::MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), QSize(1300, 850));
        QVERIFY(!again.findChild<QDockWidget*>("timelineDock")->isVisible());
        QVERIFY(again.findChild<QDockWidget*>("sourceDock")->isVisible());
        QSettings().remove("window");
    }

    void journeysArrangeTheWindowAndAreRemembered() {
        // Issue 14, finding 8: at 1600x1000 Breaks shows the source (not five lines of it),
        // Compare a comparison table of many rows; Reset layout puts Graph and Timeline in
        // front; the journey picked from View > Layout is the next window's.
        QSettings().remove("window");
        QTemporaryDir dir;
        const QString trace = testing::compareModesTrace(dir.path());
        QVERIFY(!trace.isEmpty());
        {
            studio::MainWindow w;
            w.resize(1600, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.openFile(trace));
            QVERIFY(waitForSnapshot(w, [](const views::RunSnapshot& s) { return s.run.id == 2; }));
            QCOMPARE(w.journey(), QString("breaks"));
            auto* editor = static_cast<views::SourcePanel*>(w.panel("source"))->editor();
            QTRY_VERIFY(editor->viewport()->height() / editor->fontMetrics().height() >= 12);
            auto dock = [&](const char* id) { return w.findChild<QDockWidget*>(id); };
            // A dock behind another tab is "visible" but has no region on screen.
            auto inFront = [&](const char* id) { return !dock(id)->visibleRegion().isEmpty(); };
            w.showPanel("compare");
            w.showPanel("output");
            QAction* reset = nullptr;
            for (QAction* menu : w.menuBar()->actions())
                for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>())
                    if (a->text() == "&Reset layout") reset = a;
            QVERIFY(reset);
            reset->trigger();
            QTRY_VERIFY(inFront("graphDock") && inFront("timelineDock"));
            QVERIFY(!inFront("compareDock") && !inFront("outputDock"));

            w.useJourney("compare");
            QTRY_VERIFY(inFront("compareDock"));
            auto* table = w.panel("compare")->findChild<QTableView*>();
            QVERIFY(table);
            QTRY_VERIFY(table->model()->rowCount() > 0);
            // Every row of the comparison in view (it opened one row tall), room for 8 at least.
            const int rows = std::min(table->model()->rowCount(), 8);
            QTRY_VERIFY(table->viewport()->height() >=
                        rows * table->verticalHeader()->defaultSectionSize());
            w.close();
        }
        studio::MainWindow again;
        QCOMPARE(again.journey(), QString("compare"));
        QSettings().remove("window");
    }

    void aBreakInTheBreaksJourneyLeavesTheCodeReadable() {
        // Issue 14, finding 8: with a break shown, the source kept about 12 lines at 1600x1000
        // (5 before the journeys).
        QSettings().remove("window");
        QTemporaryDir dir;
        const QString trace = testing::graphBreaksTrace(dir.path());
        QVERIFY(!trace.isEmpty());
        studio::MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(trace));
        QVERIFY(
            waitForSnapshot(w, [](const views::RunSnapshot& s) { return !s.graphBreaks.empty(); }));
        QVERIFY(w.selectItem("break:1"));
        auto* source = static_cast<views::SourcePanel*>(w.panel("source"));
        QTRY_VERIFY(!source->details()->isHidden());
        QTRY_VERIFY2(source->editor()->viewport()->height() /
                             source->editor()->fontMetrics().height() >=
                         14, // 11 before; fonts differ by a line between machines
                     qPrintable(QString::number(source->editor()->viewport()->height())));
        // What the script printed, in front of the bottom row, shows 5 lines (it showed 2).
        QVERIFY(w.showPanel("output"));
        auto* output = static_cast<views::OutputPanel*>(w.panel("output"))->view();
        QTRY_VERIFY(output->model()->rowCount() > 0);
        QTRY_VERIFY2(output->viewport()->height() >= 5 * output->rowHeight(0),
                     qPrintable(QString("%1 px, rows of %2 px")
                                    .arg(output->viewport()->height())
                                    .arg(output->rowHeight(0))));
        QSettings().remove("window");
    }

    void tracesOfReadOnlyWorkloadsGoToTheDataDirectory() {
        QCOMPARE(studio::MainWindow::tracePathFor("/home/u/models/mlp.py", true),
                 QString("/home/u/models/mlp.kiln"));
        const QString installed =
            studio::MainWindow::tracePathFor("/usr/share/kiln/workloads/demo.py", false);
        QCOMPARE(installed, QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                                "/traces/demo.kiln");
        QVERIFY(QFileInfo(QFileInfo(installed).absolutePath()).isDir());
    }

    void selectItemAcceptsOnlyKnownKinds() {
        studio::MainWindow w;
        QVERIFY(w.selectItem("break:1"));
        QVERIFY(w.selectItem("kernel:3"));
        QVERIFY(!w.selectItem("frobnicate:1"));
        QVERIFY(!w.selectItem("graph:"));
        QVERIFY(w.showPanel("runs"));
        QVERIFY(!w.showPanel("nope"));
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
