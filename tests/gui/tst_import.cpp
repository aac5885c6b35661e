// SPDX-License-Identifier: MIT
// Kiln Studio's import of real PyTorch runs (issue 17), offscreen: the trimmed TORCH_TRACE log
// of a training run and its torch.profiler trace (tests/import/fixtures) imported off the GUI
// thread and opened at the imported run, with its kernels' measured times; a profile dropped on
// an imported run goes into it; a cancelled import leaves no trace; a broken profile is a
// message, not a crash; the run controls and the Runs panel say the run is imported.
#include "import_dialog.h"
#include "import_job.h"
#include "main_window.h"
#include "run_toolbar.h"
#include "runs_panel.h"
#include "source_panel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDir>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace kiln;

namespace {

QString fixture(const QString& name) {
    return qEnvironmentVariable("KILN_SOURCE_DIR") + "/tests/import/fixtures/" + name;
}

const QString kLog = QStringLiteral("cpu_train_default.trimmed.log");
const QString kProfile = QStringLiteral("cpu_train_default.profile.json");

template <typename Pred>
bool waitFor(Pred done, int ms = 30000) {
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < ms)
        QTest::qWait(20);
    return done();
}

/// Every file the directory holds, by name.
QStringList filesIn(const QString& dir) {
    return QDir(dir).entryList(QDir::Files, QDir::Name);
}

} // namespace

class ImportTest : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    /// Imports the training fixture's log into \p trace through \p w, as File > Import does.
    bool importLog(studio::MainWindow& w, const QString& trace) {
        studio::ImportRequest request;
        request.logs = {fixture(kLog)};
        request.trace = m_dir.filePath(trace);
        QSignalSpy finished(&w, &studio::MainWindow::importFinished);
        return w.startImport(request) && finished.wait(30000);
    }

    /// The shown run's snapshot once it has \p launches launches.
    views::SnapshotPtr shownRun(studio::MainWindow& w, size_t launches) {
        views::SnapshotPtr snap;
        waitFor([&] {
            snap = w.selection().snapshot();
            return snap && snap->launches.size() == launches;
        });
        return snap;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void importsTheTrainingRunWithMeasuredKernels() {
        studio::MainWindow w;
        w.show();
        studio::ImportRequest request;
        request.logs = {fixture(kLog)};
        request.profile = fixture(kProfile);
        request.trace = m_dir.filePath("train.kiln");
        QSignalSpy finished(&w, &studio::MainWindow::importFinished);
        QVERIFY(w.startImport(request));
        QVERIFY(w.importJob().isRunning() || finished.count() == 1); // off the GUI thread
        QVERIFY(finished.wait(30000));
        auto result = finished.front().front().value<studio::ImportResult>();
        QCOMPARE(result.kind, studio::ImportResult::Kind::Imported);
        QCOMPARE(result.runId, qint64(1));
        QVERIFY2(result.summary.contains("42 kernel launches"), qPrintable(result.summary));
        // Opened at the run: 25 kernels from the log's output code, 14 extern kernels and 42
        // launches from the profile (as test_profile_import counts them).
        views::SnapshotPtr snap = shownRun(w, 42);
        QVERIFY(snap);
        QCOMPARE(w.tracePath(), request.trace);
        QCOMPARE(snap->run.mode, std::string("imported"));
        QCOMPARE(snap->kernels.size(), size_t(39));
        int forward = 0, backward = 0;
        for (const auto& k : snap->kernels) {
            forward += k.kernel.graphKind == "aot_forward";
            backward += k.kernel.graphKind == "aot_backward";
        }
        QVERIFY(forward > 0 && backward > 0);
        QCOMPARE(w.session().runs()->size(), size_t(1));
        QVERIFY(!QFile::exists(request.trace + ".importing"));
        // The run controls say it is imported and offer nothing that needs Kiln's interpreter.
        auto* toolbar = w.findChild<studio::RunToolBar*>();
        QVERIFY(toolbar->isImported());
        QVERIFY2(toolbar->importedText().contains("PyTorch 2.11.0+cu130"),
                 qPrintable(toolbar->importedText()));
        QVERIFY(!toolbar->runAction()->isEnabled());
        QVERIFY(!toolbar->compareModesAction()->isEnabled());
        w.runWorkload(); // F5 anyway: a message, no child
        QVERIFY(!w.controller().isRunning());
        QVERIFY(w.problemText().contains("imported"));
        // The Runs panel: where the run came from.
        auto* runs = static_cast<views::RunsPanel*>(w.panel("runs"));
        QAbstractItemModelTester tester(const_cast<views::RunsModel*>(&runs->model()));
        const int machine = runs->model().columnCount() - 1;
        QCOMPARE(runs->model().data(runs->model().index(0, machine)).toString(),
                 QString("imported: PyTorch 2.11.0+cu130 · CUDA 13.0"));
        QVERIFY(runs->model()
                    .data(runs->model().index(0, machine), Qt::ToolTipRole)
                    .toString()
                    .contains("Imported from " + fixture(kLog)));
    }

    void sourceShowsTheUserFileOnceLocated() {
        // The log records the workload at /home/user/workloads/gen_traces.py, not on this
        // machine: Source says so and shows the recorded stacks, until the user points it to a
        // copy (gen_torch_traces.py is that file); then the text, with its markers.
        if (QFile::exists("/home/user/workloads/gen_traces.py"))
            QSKIP("this machine has the fixture's recorded source path");
        studio::MainWindow w;
        w.show();
        QVERIFY(importLog(w, "source.kiln"));
        views::SnapshotPtr snap = shownRun(w, 0);
        QVERIFY(snap);
        QCOMPARE(snap->sourceFile, std::string("/home/user/workloads/gen_traces.py"));
        auto* source = static_cast<views::SourcePanel*>(w.panel("source"));
        QVERIFY(source->locateSourceAction()->isVisible());
        auto buttons = source->findChildren<QToolButton*>();
        QVERIFY(std::any_of(buttons.begin(), buttons.end(), [&](QToolButton* b) {
            return b->defaultAction() == source->locateSourceAction() && b->isVisible();
        }));
        QVERIFY(source->editor()->toPlainText().isEmpty());
        QString placeholder = source->editor()->placeholderText();
        QVERIFY2(placeholder.contains("/home/user/workloads/gen_traces.py, which is not on this "
                                      "machine") &&
                     placeholder.contains("forward  /home/user/workloads/gen_traces.py:22") &&
                     placeholder.contains("Graph break 1 (1/0)") &&
                     placeholder.contains("line 55, in run"),
                 qPrintable(placeholder));
        QVERIFY(source->summaryText().startsWith("gen_traces.py · 2 graph breaks"));

        QString copy = m_dir.filePath("gen_traces.py");
        QVERIFY(QFile::copy(fixture("gen_torch_traces.py"), copy));
        source->locateSource(copy);
        QVERIFY(waitFor([&] { return !source->editor()->toPlainText().isEmpty(); }));
        QFile file(copy);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(source->editor()->toPlainText(), QString::fromUtf8(file.readAll()));
        views::LineMarkers markers = views::sourceMarkers(*w.selection().snapshot());
        QVERIFY(markers.count(22) && markers.count(33)); // forward, and the graph break
        // Remembered: the next session reads the located copy at once.
        QCOMPARE(views::locatedSource("/home/user/workloads/gen_traces.py"), copy);
    }

    void profileDroppedOnAnImportedRunGoesIntoIt() {
        studio::MainWindow w;
        w.show();
        QVERIFY(importLog(w, "into.kiln"));
        QSignalSpy finished(&w, &studio::MainWindow::importFinished);
        QVERIFY(shownRun(w, 0));
        QCOMPARE(w.selection().snapshot()->kernels.size(), size_t(25));
        // Dropped (as the drop handler passes it): into run 1, kiln import --into.
        QVERIFY(w.importFiles({fixture(kProfile)}));
        QVERIFY(finished.wait(30000));
        auto result = finished.back().front().value<studio::ImportResult>();
        QCOMPARE(result.kind, studio::ImportResult::Kind::Imported);
        views::SnapshotPtr snap = shownRun(w, 42);
        QVERIFY(snap);
        QCOMPARE(snap->run.id, qint64(1));
        QCOMPARE(w.session().runs()->size(), size_t(1)); // no new run
        // Again: the run has launches now; refused with the engine's words, nothing changes.
        QVERIFY(w.importFiles({fixture(kProfile)}));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.back().front().value<studio::ImportResult>().kind,
                 studio::ImportResult::Kind::Failed);
        QVERIFY2(w.problemText().contains("already has 42 kernel launches"),
                 qPrintable(w.problemText()));
    }

    void cancelledImportLeavesNoTrace() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("cancelled.kiln");
        studio::MainWindow w;
        w.show();
        studio::ImportRequest request;
        request.logs = {fixture(kLog)};
        request.profile = fixture(kProfile);
        request.trace = trace;
        QSignalSpy finished(&w, &studio::MainWindow::importFinished);
        QVERIFY(w.startImport(request));
        w.importJob().cancel(); // before the first report (256 KiB into the 555 kB log)
        QVERIFY(finished.wait(30000));
        auto result = finished.front().front().value<studio::ImportResult>();
        QCOMPARE(result.kind, studio::ImportResult::Kind::Cancelled);
        QVERIFY(result.trace.isEmpty());
        QCOMPARE(filesIn(dir.path()), QStringList()); // no trace, no partial file
        QVERIFY(!w.session().isOpen());
        QVERIFY(w.problemText().isEmpty()); // cancelling is no problem
        QVERIFY(w.importProgressText().isEmpty());

        // The body, cancelled at its second report: still nothing left behind.
        std::atomic<bool> cancelled = false;
        int reports = 0;
        auto body = studio::ImportJob::run(request, cancelled, [&](qint64 done, qint64 total) {
            QVERIFY(done <= total);
            if (++reports == 2) cancelled = true;
        });
        QCOMPARE(body.kind, studio::ImportResult::Kind::Cancelled);
        QCOMPARE(filesIn(dir.path()), QStringList());
    }

    void brokenProfileIsAMessageAndTheLogStays() {
        QTemporaryDir dir;
        QFile bad(dir.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"traceEvents\": [{\"ph\": \"X\", \"name\": ");
        bad.close();
        studio::MainWindow w;
        w.show();
        studio::ImportRequest request;
        request.logs = {fixture(kLog)};
        request.profile = bad.fileName();
        request.trace = dir.filePath("logonly.kiln");
        QSignalSpy finished(&w, &studio::MainWindow::importFinished);
        QVERIFY(w.startImport(request));
        QVERIFY(finished.wait(30000));
        auto result = finished.front().front().value<studio::ImportResult>();
        QCOMPARE(result.kind, studio::ImportResult::Kind::Failed);
        QVERIFY2(w.problemText().contains("the profile was not") &&
                     w.problemText().contains("bad.json"),
                 qPrintable(w.problemText()));
        views::SnapshotPtr snap = shownRun(w, 0); // the log's run is there, without launches
        QVERIFY(snap);
        QCOMPARE(snap->kernels.size(), size_t(25));
        // Nothing to import at all: a message.
        QVERIFY(!w.startImport({}));
    }

    void dialogDefaultsBesideTheLogOrTemporary() {
        studio::ImportDialog dialog;
        QVERIFY(!dialog.problem().isEmpty()); // nothing chosen
        dialog.setSources(fixture(kLog), fixture(kProfile));
        QCOMPARE(dialog.problem(), QString());
        QCOMPARE(dialog.traceEdit()->text(), fixture("cpu_train_default.trimmed.kiln"));
        dialog.temporaryBox()->setChecked(true);
        QVERIFY(dialog.traceEdit()->text().startsWith(QDir::tempPath()));
        QCOMPARE(dialog.request().logs, QStringList{fixture(kLog)});
        QCOMPARE(dialog.request().profile, fixture(kProfile));
        QFile::remove(dialog.traceEdit()->text()); // the reserved temporary name
        // A TORCH_TRACE directory: its .log files, one run each; a directory without any.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(fixture(kLog), dir.filePath("dedicated_log_torch_trace_rank_1.log")));
        QVERIFY(QFile::copy(fixture(kLog), dir.filePath("dedicated_log_torch_trace_rank_0.log")));
        QCOMPARE(studio::ImportJob::logsOf(dir.path()),
                 (QStringList{dir.filePath("dedicated_log_torch_trace_rank_0.log"),
                              dir.filePath("dedicated_log_torch_trace_rank_1.log")}));
        QCOMPARE(studio::ImportJob::defaultTraceFor(dir.path()), dir.path() + ".kiln");
        QTemporaryDir empty;
        dialog.temporaryBox()->setChecked(false);
        dialog.setSources(empty.path(), {});
        QVERIFY(dialog.problem().contains("no .log files"));
    }
};

QTEST_MAIN(ImportTest)
#include "tst_import.moc"
