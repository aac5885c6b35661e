// SPDX-License-Identifier: MIT
/// \file
/// Where Studio says timings come from, on traces written with the real TraceWriter (so the
/// tests do not wait for a runner that reports every fact): the autotuning candidates' model
/// (median, timed runs, spread, this run or the tuning cache, chosen or stopped early; empty
/// cells for an older trace), the Kernels panel's candidates table and caption, the Runs model's
/// machine column, and the Compare panel's warning when two runs ran on different machines or
/// took autotuning times from the cache.
#include "autotune_choice_model.h"
#include "compare_panel.h"
#include "kernels_panel.h"
#include "run_provenance.h"
#include "studio_fixture.h"
#include "support/clock.h"
#include "trace/trace_writer.h"
#include "trace_models.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <optional>
#include <tuple>

using namespace kiln;
using views::AutotuneChoiceModel;

namespace {

const std::string kEpyc =
    R"json({"cpu": "AMD EPYC 9B14", "isa": "avx512", "threads": 2, "matmul": {"float32": )json"
    R"json("oneDNN 2.6.3 (avx512_core_bf16)", "float64": "BLIS 0.9.0 (zen3)"}})json";
const std::string kXeon =
    R"json({"cpu": "Intel Xeon Platinum 8480+", "isa": "avx512", "threads": 8, "matmul": )json"
    R"json({"float32": "oneDNN 2.6.3 (avx512_core_amx)", "float64": "BLIS 0.9.0 (zen3)"}})json";

trace::AutotuneChoiceRow choice(const std::string& candidate, qint64 timeNs, int runs,
                                std::optional<bool> fromCache, bool chosen = false,
                                bool stoppedEarly = false) {
    trace::AutotuneChoiceRow c;
    c.kernelId = 1;
    c.candidate = candidate;
    c.timeNs = timeNs;
    c.chosen = chosen;
    c.runs = runs;
    if (runs > 0) {
        c.minNs = timeNs - timeNs / 10;
        c.maxNs = timeNs + timeNs / 5;
    }
    if (fromCache) { // version 4 records both flags
        c.fromCache = fromCache;
        c.stoppedEarly = stoppedEarly;
    }
    return c;
}

/// One run of a matmul kernel tuned among three candidates, on \p machineJson; its times from
/// the tuning cache when \p cached.
struct RunSpec {
    std::string machineJson;
    bool cached = false;
};

/// Writes one trace with a run per spec, all of the same workload (so the Compare panel pairs
/// the last two).
QString writeTrace(const QString& path, const std::vector<RunSpec>& specs) {
    auto opened = trace::TraceWriter::open(path.toStdString());
    if (!opened) return {};
    trace::TraceWriter& writer = **opened;
    for (const RunSpec& spec : specs) {
        trace::RunInfo info;
        info.workloadPath = "/w/matmul.py";
        info.workloadHash = std::string(64, 'a');
        info.mode = "max-autotune";
        info.device = "cpu";
        info.machineJson = spec.machineJson;
        if (!writer.beginRun(info)) return {};
        KernelEvent kernel;
        kernel.kernelId = 1;
        kernel.compileId = "0/0";
        kernel.name = "kiln_tem_mm_0";
        kernel.kind = "template";
        kernel.fusedNodes = "mm";
        writer.kernel(kernel);
        const std::tuple<const char*, int64_t, int, bool, bool> candidates[] = {
            {"template tile=64x64x32", 30'000, 9, true, false},
            {"template tile=32x32x16", 41'000, 9, false, false},
            {"extern_mm (BLAS)", 160'000, 1, false, true},
        };
        for (auto [name, timeNs, runs, chosen, stopped] : candidates) {
            AutotuneChoiceEvent c;
            c.kernelId = 1;
            c.candidate = name;
            c.timeNs = timeNs;
            c.runs = runs;
            c.minNs = stopped ? timeNs : timeNs - 2'000;
            c.maxNs = stopped ? timeNs : timeNs + 5'000;
            c.chosen = chosen;
            c.stoppedEarly = stopped;
            c.fromCache = spec.cached;
            writer.autotuneChoice(c);
        }
        for (int i = 0; i < 3; ++i) {
            KernelLaunchEvent launch;
            launch.kernelId = 1;
            launch.startNs = monotonicNs();
            launch.endNs = launch.startNs + 30'000;
            writer.kernelLaunch(launch);
        }
        if (!writer.finishRun(trace::RunStatus::Ok, 0)) return {};
    }
    return path;
}

QString cell(const QAbstractItemModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.index(row, column).data(role).toString();
}

} // namespace

class RunProvenanceTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const char* name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void candidatesShowHowEachTimeWasMeasured() {
        AutotuneChoiceModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setChoices({choice("extern_mm (BLAS)", 160'000, 1, false, false, true),
                          choice("template tile=32x32x16", 41'000, 9, true),
                          choice("template tile=64x64x32", 30'000, 9, false, true)});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(AutotuneChoiceModel::ColumnCount));
        // Fastest first.
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Candidate), QString("template tile=64x64x32"));
        QCOMPARE(cell(model, 2, AutotuneChoiceModel::Candidate), QString("extern_mm (BLAS)"));
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Median), QString("30.0 µs"));
        QCOMPARE(model.index(0, AutotuneChoiceModel::Median).data(AutotuneChoiceModel::SortRole),
                 QVariant::fromValue<qint64>(30'000));
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Runs), QString("9"));
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Spread), QString("27.0–36.0 µs"));
        QVERIFY(cell(model, 0, AutotuneChoiceModel::Spread, Qt::ToolTipRole)
                    .contains("fastest 27.0 µs, median 30.0 µs, slowest 36.0 µs"));
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Measured), QString("this run"));
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Outcome), QString("✓ chosen"));
        QVERIFY(model.index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        // From the cache: said, and explained.
        QCOMPARE(cell(model, 1, AutotuneChoiceModel::Measured), QString("tuning cache"));
        QVERIFY(cell(model, 1, AutotuneChoiceModel::Measured, Qt::ToolTipRole)
                    .contains("earlier run on the same CPU"));
        QVERIFY(cell(model, 1, AutotuneChoiceModel::Outcome).isEmpty());
        // Stopped early: one run, no spread, marked and muted.
        QCOMPARE(cell(model, 2, AutotuneChoiceModel::Runs), QString("1"));
        QVERIFY(!model.index(2, AutotuneChoiceModel::Spread).data().isValid());
        QCOMPARE(cell(model, 2, AutotuneChoiceModel::Outcome),
                 QString("stopped early (could not win)"));
        QVERIFY(cell(model, 2, AutotuneChoiceModel::Outcome, Qt::ToolTipRole)
                    .contains("could not win"));
        QVERIFY(model.index(2, 0).data(Qt::ForegroundRole).value<QColor>().isValid());
        QCOMPARE(model.originSummary(), QString("2 measured in this run, 1 from the tuning cache"));
        QVERIFY(model.headerData(AutotuneChoiceModel::Measured, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("tuning cache"));

        model.setChoices({choice("a", 10, 3, true), choice("b", 20, 3, true, true)});
        QCOMPARE(model.originSummary(), QString("2 candidates, timed by an earlier run (tuning "
                                                "cache)"));
        model.setChoices({choice("a", 10, 3, false, true)});
        QCOMPARE(model.originSummary(), QString("1 candidate, measured in this run"));
        model.setChoices({});
        QCOMPARE(model.rowCount(), 0);
    }

    void anOlderTraceLeavesTheMeasurementEmpty() {
        AutotuneChoiceModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Rows of a version-3 trace: no runs, no spread, no origin, no early stop.
        model.setChoices({choice("extern_mm (BLAS)", 52'000, 0, std::nullopt),
                          choice("template tile=64x64x32", 31'000, 0, std::nullopt, true)});
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Median), QString("31.0 µs"));
        for (int column : {AutotuneChoiceModel::Runs, AutotuneChoiceModel::Spread,
                           AutotuneChoiceModel::Measured}) {
            QVERIFY(!model.index(0, column).data().isValid());
            QVERIFY(!model.columnHasValues(column));
        }
        QVERIFY(cell(model, 0, AutotuneChoiceModel::Measured, Qt::ToolTipRole)
                    .contains("Not recorded"));
        QCOMPARE(cell(model, 0, AutotuneChoiceModel::Outcome), QString("✓ chosen"));
        QVERIFY(model.columnHasValues(AutotuneChoiceModel::Outcome));
        QCOMPARE(model.originSummary(), QString("2 candidates"));
    }

    void theKernelsPanelSaysWhenTimesComeFromTheCache() {
        QString trace = writeTrace(path("cached.kiln"), {{kEpyc, true}});
        QVERIFY(!trace.isEmpty());
        views::SnapshotPtr snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(snapshot);
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(snapshot);
        views::KernelsPanel panel(session, selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        selection.selectKernel(1);
        QCOMPARE(panel.candidates()->model(), panel.candidatesModel());
        QCOMPARE(panel.candidatesModel()->rowCount(), 3);
        const QString text = panel.candidatesText();
        QVERIFY2(text.contains("3 candidates, timed by an earlier run (tuning cache)"),
                 qPrintable(text));
        QVERIFY2(text.contains("template tile=64x64x32 | 30.0 µs | 9 | 28.0–35.0 µs | tuning "
                               "cache | ✓ chosen"),
                 qPrintable(text));
        QVERIFY2(text.contains("extern_mm (BLAS) | 160.0 µs | 1 |  | tuning cache | stopped early "
                               "(could not win)"),
                 qPrintable(text));
        for (int column = 0; column < AutotuneChoiceModel::ColumnCount; ++column)
            QVERIFY(!panel.candidates()->isColumnHidden(column));
        // The caption stays short; its tooltip and the table's say what the cache is.
        QVERIFY(panel.candidates()->toolTip().contains(
            "measured by an earlier run on the same CPU for the same kernel and sizes"));
        QCoreApplication::processEvents();
        panel.grab().save(QDir::temp().filePath("kernels-autotune-cache.png"));
    }

    void theRunsModelShowsTheMachine() {
        QString trace = writeTrace(path("runs.kiln"), {{kEpyc, false}, {"", false}});
        QVERIFY(!trace.isEmpty());
        views::TraceSession session;
        session.open(trace);
        QTRY_VERIFY(session.runs() && session.runs()->size() == 2);
        views::RunsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(session.runs());
        QCOMPARE(model.rowCount(), 2);
        const int machine = model.columnCount() - 1;
        QCOMPARE(model.headerData(machine, Qt::Horizontal).toString(), QString("machine"));
        QCOMPARE(cell(model, 0, machine), QString("AMD EPYC 9B14 (avx512, 2 threads)"));
        const QString details = cell(model, 0, machine, Qt::ToolTipRole);
        QVERIFY2(details.contains("CPU: AMD EPYC 9B14") && details.contains("threads: 2") &&
                     details.contains("float32: oneDNN 2.6.3 (avx512_core_bf16)") &&
                     details.contains("float64: BLIS 0.9.0 (zen3)"),
                 qPrintable(details));
        QCOMPARE(cell(model, 1, machine), QString());
        QVERIFY(cell(model, 1, machine, Qt::ToolTipRole).startsWith("Machine not recorded"));
    }

    void warningsNameWhatDiffers() {
        QString trace =
            writeTrace(path("notes.kiln"), {{kEpyc, false}, {kXeon, true}, {kEpyc, false}, {""}});
        QVERIFY(!trace.isEmpty());
        views::SnapshotPtr epyc = testing::readSnapshot(trace, 1);
        views::SnapshotPtr xeon = testing::readSnapshot(trace, 2);
        views::SnapshotPtr epycAgain = testing::readSnapshot(trace, 3);
        views::SnapshotPtr unknown = testing::readSnapshot(trace, 4);
        QVERIFY(epyc && xeon && epycAgain && unknown);
        QCOMPARE(views::machineWarning(epyc->run, xeon->run),
                 QString("These runs come from different machines (different CPU and threads): "
                         "AMD EPYC 9B14 (avx512, 2 threads) vs Intel Xeon Platinum 8480+ (avx512, "
                         "8 threads); different matmul libraries (float32 matmul: oneDNN 2.6.3 "
                         "(avx512_core_bf16) vs oneDNN 2.6.3 (avx512_core_amx)); timings are not "
                         "directly comparable."));
        QVERIFY(views::machineWarning(epyc->run, epycAgain->run).isEmpty());
        QCOMPARE(views::machineWarning(epyc->run, unknown->run),
                 QString("Run #4 does not record the machine it ran on (run #1 ran on AMD EPYC "
                         "9B14 (avx512, 2 threads)): timings may not be directly comparable."));
        QVERIFY(views::machineWarning(unknown->run, unknown->run).isEmpty());
        // Only a library differs.
        trace::RunRow otherLibrary = epyc->run;
        otherLibrary.machine.matmul[1].second = "OpenBLAS 0.3.21";
        QCOMPARE(views::machineWarning(epyc->run, otherLibrary),
                 QString("These runs used different matmul libraries (float64 matmul: BLIS 0.9.0 "
                         "(zen3) vs OpenBLAS 0.3.21); timings are not directly comparable."));

        QCOMPARE(views::tuningCacheNote(*epyc, *xeon),
                 QString("B's autotuning times (3 of 3 candidates) come from the tuning cache: "
                         "measured by an earlier run on the same CPU, not in the run itself."));
        QVERIFY(views::tuningCacheNote(*xeon, *xeon)
                    .startsWith("A's and B's autotuning times "
                                "(3 of 3 and 3 of 3 candidates)"));
        QVERIFY(views::tuningCacheNote(*epyc, *epycAgain).isEmpty());
        QCOMPARE(views::comparisonNotes(*epyc, *epycAgain), QStringList());
        QCOMPARE(views::comparisonNotes(*epyc, *xeon).size(), 2);
        QVERIFY(views::comparisonNotes(*epyc, *xeon).front().startsWith("⚠ These runs come from"));
    }

    void theComparePanelWarnsAboutDifferentMachines() {
        // Runs 1 (EPYC) and 2 (Xeon, cached times): the panel pairs them itself.
        QString trace = writeTrace(path("compare.kiln"), {{kEpyc, false}, {kXeon, true}});
        QVERIFY(!trace.isEmpty());
        views::TraceSession session;
        views::Selection selection;
        views::ComparePanel panel(session, selection);
        panel.resize(1100, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        session.open(trace);
        QTRY_COMPARE(panel.model().rowCount(), 1);
        QCOMPARE(panel.runA(), qint64(1));
        QCOMPARE(panel.runB(), qint64(2));
        QString notes = panel.notesText();
        QVERIFY2(notes.contains("These runs come from different machines (different CPU and "
                                "threads): AMD EPYC 9B14 (avx512, 2 threads) vs Intel Xeon "
                                "Platinum 8480+ (avx512, 8 threads)"),
                 qPrintable(notes));
        QVERIFY2(notes.contains("timings are not directly comparable"), qPrintable(notes));
        QVERIFY2(notes.contains("B's autotuning times (3 of 3 candidates) come from the tuning "
                                "cache"),
                 qPrintable(notes));
        // The kernel's candidates in B's tooltip say where their times come from.
        const QString tip = panel.model()
                                .index(0, views::CompareModel::KernelsBColumn)
                                .data(Qt::ToolTipRole)
                                .toString();
        QVERIFY2(tip.contains("✓ template tile=64x64x32: 30.0 µs (median of 9 runs, "
                              "28.0–35.0 µs; tuning cache)"),
                 qPrintable(tip));
        QVERIFY2(tip.contains("extern_mm (BLAS): 160.0 µs (stopped early, could not win; tuning "
                              "cache)"),
                 qPrintable(tip));
        QCoreApplication::processEvents();
        panel.grab().save(QDir::temp().filePath("compare-machines.png"));

        // Two runs on one machine, measured: nothing to warn about.
        panel.compareRuns(1, 1);
        QTRY_VERIFY(panel.notesText().isEmpty());
        panel.compareRuns(2, 1);
        QTRY_VERIFY(panel.notesText().contains("A's autotuning times"));
    }
};

QTEST_MAIN(RunProvenanceTest)
#include "tst_run_provenance.moc"
