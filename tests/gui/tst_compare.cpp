// SPDX-License-Identifier: MIT
/// \file
/// Comparing runs on a real trace: a matmul + softmax workload run in default mode (run 1) and
/// max-autotune (run 2). Kernels are matched by graph and the nodes they compute, not by name;
/// every kernel lands in exactly one row; times, ratios and run totals are the sums the
/// snapshots hold; a fused epilogue is one row against the kernels it replaced; the panel
/// picks the newest pair of one script itself (skipping another script's run in between),
/// charts the matched groups and selects a row's kernel.
#include "compare_model.h"
#include "compare_panel.h"
#include "kiln_process.h"
#include "node_name.h"
#include "run_comparison.h"
#include "studio_fixture.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <set>

using namespace kiln;
using views::ComparisonRow;
using views::MatchStatus;

namespace {

/// How many rows hold each kernel id of one side.
std::map<int64_t, int> rowsPerKernel(const views::RunComparison& c, bool inB) {
    std::map<int64_t, int> count;
    for (const ComparisonRow& row : c.rows)
        for (const views::ComparedKernel& k : (inB ? row.b : row.a).kernels)
            ++count[k.kernelId];
    return count;
}

/// The row covering the graph node that computes `x @ w`.
const ComparisonRow* matmulRow(const views::RunComparison& c, const std::string& node) {
    for (const ComparisonRow& row : c.rows)
        if (std::find(row.nodes.begin(), row.nodes.end(), node) != row.nodes.end()) return &row;
    return nullptr;
}

/// The name the captured graph gives `x @ w` (its target is the matmul operator).
std::string matmulNode(const views::RunSnapshot& s) {
    for (const trace::GraphNodeRow& n : s.graphNodes)
        if (n.op == "call_function" && n.target.find("matmul") != std::string::npos) return n.name;
    return {};
}

/// `relu(x @ w) * 2` alone: max-autotune fuses the epilogue into the matmul template, default
/// mode runs the matmul and a pointwise kernel for relu and mul. Templates are the only
/// matrix-product candidates, so the outcome does not depend on which would be faster here.
const char* kEpilogueWorkload = "import torch\n"
                                "\n"
                                "def f(x, w):\n"
                                "    return torch.relu(x @ w) * 2.0\n"
                                "\n"
                                "torch._inductor.config.max_autotune_gemm_backends = 'TRITON'\n"
                                "cf = torch.compile(f)\n"
                                "x, w = torch.randn(64, 32), torch.randn(32, 48)\n"
                                "for i in range(3):\n"
                                "    out = cf(x, w)\n";

/// Runs kEpilogueWorkload in default mode (run 1) and max-autotune (run 2); the trace's path.
QString epilogueTrace(const QString& dir) {
    QString script = QDir(dir).filePath("epilogue.py");
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    file.write(kEpilogueWorkload);
    file.close();
    for (QStringList mode : {QStringList{}, QStringList{"--mode", "max-autotune"}}) {
        testing::KilnProcess p =
            testing::runKilnBinary(QStringList{"run", script, "--quiet"} + mode, dir);
        if (p.exitCode != 0) {
            qWarning("kiln run failed: %s", qPrintable(p.err));
            return {};
        }
    }
    return QDir(dir).filePath("epilogue.kiln");
}

/// A run with one kernel (computing node "mm") launched for these durations, in µs.
views::RunSnapshot oneKernelRun(int64_t runId, const std::vector<double>& micros) {
    views::RunSnapshot s;
    s.run.id = runId;
    views::KernelRecord k;
    k.kernel.kernelId = 7;
    k.kernel.runId = runId;
    k.kernel.compileId = "0/0";
    k.kernel.name = "extern_mm";
    k.kernel.kind = "extern";
    k.kernel.fusedNodes = "mm";
    k.launches.kernelId = 7;
    int64_t t = 0;
    for (double us : micros) {
        trace::KernelLaunchRow l;
        l.runId = runId;
        l.kernelId = 7;
        l.startNs = t;
        l.endNs = t + static_cast<int64_t>(us * 1000);
        t = l.endNs + 1000;
        k.launches.count += 1;
        k.launches.totalNs += l.durationNs();
        s.launches.push_back(l);
    }
    k.launches.medianNs = k.launches.count ? k.launches.totalNs / k.launches.count : 0;
    s.kernels.push_back(k);
    return s;
}

/// The Compare panel's totals over a trace of two runs, once both are read; saved as a PNG to
/// `screenshot` when given.
QString totalsOf(const QString& trace, const QString& screenshot = {}) {
    views::TraceSession session;
    views::Selection selection;
    views::ComparePanel panel(session, selection);
    panel.resize(1100, 650);
    session.open(trace);
    auto* totals = panel.findChild<QLabel*>("compareTotals");
    if (!totals || !QTest::qWaitFor([&] { return panel.runB() == 2; }, 10000) ||
        !QTest::qWaitFor([&] { return totals->text().contains("B #2"); }, 10000))
        return {};
    if (!screenshot.isEmpty()) panel.grab().save(screenshot);
    return totals->text();
}

} // namespace

class CompareTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_trace;
    views::SnapshotPtr m_a;
    views::SnapshotPtr m_b;

private slots:
    void initTestCase() {
        m_trace = testing::compareModesTrace(m_dir.path());
        QVERIFY(!m_trace.isEmpty());
        m_a = testing::readSnapshot(m_trace, 1);
        m_b = testing::readSnapshot(m_trace, 2);
        QVERIFY(m_a && m_b);
        QCOMPARE(m_a->run.mode, std::string("default"));
        QCOMPARE(m_b->run.mode, std::string("max-autotune"));
        QVERIFY(!m_a->kernels.empty());
        QVERIFY(!m_b->kernels.empty());
    }

    void everyKernelIsInExactlyOneRow() {
        views::RunComparison c = views::compareRuns(*m_a, *m_b);
        for (bool inB : {false, true}) {
            const views::RunSnapshot& s = inB ? *m_b : *m_a;
            std::map<int64_t, int> count = rowsPerKernel(c, inB);
            QCOMPARE(count.size(), s.kernels.size());
            for (const views::KernelRecord& k : s.kernels)
                QCOMPARE(count[k.kernel.kernelId], 1);
        }
    }

    void theMatmulIsMatchedAcrossModesDespiteItsNames() {
        std::string node = matmulNode(*m_a);
        QVERIFY(!node.empty());
        views::RunComparison c = views::compareRuns(*m_a, *m_b);
        const ComparisonRow* row = matmulRow(c, node);
        QVERIFY(row);
        QCOMPARE(row->status, MatchStatus::Matched);
        QCOMPARE(row->graph.function, std::string("f"));
        QVERIFY2(row->a.names() != row->b.names(), qPrintable(row->a.names()));
        QVERIFY2(row->a.names().contains("extern_mm"), qPrintable(row->a.names()));
        QVERIFY2(row->b.names().contains("kiln_tem"), qPrintable(row->b.names()));
        // Nothing is left unmatched: both modes compute the same nodes of the same graph.
        for (const ComparisonRow& r : c.rows)
            QCOMPARE(r.status, MatchStatus::Matched);
    }

    void aFusedEpilogueIsComparedWithTheKernelsItReplaced() {
        QString trace = epilogueTrace(m_dir.path());
        QVERIFY(!trace.isEmpty());
        views::SnapshotPtr a = testing::readSnapshot(trace, 1);
        views::SnapshotPtr b = testing::readSnapshot(trace, 2);
        QVERIFY(a && b);
        QCOMPARE(a->kernels.size(), size_t(2)); // extern matmul, then relu and mul
        QCOMPARE(b->kernels.size(), size_t(1)); // one template with the epilogue
        views::RunComparison c = views::compareRuns(*a, *b);
        QCOMPARE(c.rows.size(), size_t(1));
        const ComparisonRow& row = c.rows.front();
        QCOMPARE(row.status, MatchStatus::Matched);
        QCOMPARE(row.nodes, std::vector<std::string>({"matmul", "relu", "mul"})); // graph order
        QCOMPARE(row.a.kernels.size(), size_t(2));
        QCOMPARE(row.b.kernels.size(), size_t(1));
        QCOMPARE(row.b.kernels.front().kind, std::string("template"));
        QCOMPARE(row.a.totalNs, c.a.kernelNs);
        QCOMPARE(row.b.totalNs, c.b.kernelNs);
    }

    void timesAndRatiosAreTheSumsOfTheGroups() {
        views::RunComparison c = views::compareRuns(*m_a, *m_b);
        for (const ComparisonRow& row : c.rows) {
            for (auto [side, s] : {std::pair(&row.a, m_a.get()), std::pair(&row.b, m_b.get())}) {
                int64_t total = 0;
                int64_t median = 0;
                for (const views::ComparedKernel& k : side->kernels) {
                    const views::KernelRecord* record = s->kernel(k.kernelId);
                    QVERIFY(record);
                    QCOMPARE(k.name, record->kernel.name);
                    total += record->launches.totalNs;
                    median += record->launches.medianNs;
                }
                QCOMPARE(side->totalNs, total);
                QCOMPARE(side->medianNs, median);
                QVERIFY(total > 0); // each kernel of the workload ran 5 times
            }
            QVERIFY(row.ratio());
            // Each kernel ran 5 times: 4 warm launches, a measurement, so the ratio is of one
            // warm call (the sums of the kernels' warm medians).
            QVERIFY(row.a.measured() && row.b.measured());
            QCOMPARE(*row.ratio(), static_cast<double>(row.b.warmMedianNs) /
                                       static_cast<double>(row.a.warmMedianNs));
            // The difference is of the same per-call times as the ratio (it was of the totals:
            // an 8.658 ms difference next to a 1.045 ratio).
            QCOMPARE(row.deltaNs(), row.b.warmMedianNs - row.a.warmMedianNs);
        }
    }

    void runTotalsAreSumsOverTheSnapshots() {
        views::RunComparison c = views::compareRuns(*m_a, *m_b);
        for (auto [totals, s] : {std::pair(c.a, m_a.get()), std::pair(c.b, m_b.get())}) {
            int64_t launches = 0;
            for (const trace::KernelLaunchRow& l : s->launches)
                launches += l.durationNs();
            int64_t compiles = 0;
            for (const trace::CompileRow& cr : s->compiles)
                compiles += cr.durationNs.value_or(0);
            QCOMPARE(totals.kernelNs, launches);
            QCOMPARE(totals.compileNs, compiles);
            QVERIFY(compiles > 0);
            QCOMPARE(totals.wallNs, std::optional<int64_t>(*s->run.endedAtNs - s->run.startedAtNs));
            QCOMPARE(totals.kernelCount, static_cast<int64_t>(s->kernels.size()));
            QCOMPARE(totals.launchCount, static_cast<int64_t>(s->launches.size()));
        }
        int64_t rowsA = 0;
        for (const ComparisonRow& row : c.rows)
            rowsA += row.a.totalNs;
        QCOMPARE(rowsA, c.a.kernelNs);
    }

    void theModelShowsNumbersAndColoursTheRatio() {
        views::CompareModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        views::RunComparison c = views::compareRuns(*m_a, *m_b);
        size_t rows = c.rows.size();
        model.setComparison(std::move(c), "#1 default", "#2 max-autotune");
        QCOMPARE(model.rowCount(), static_cast<int>(rows));
        const ComparisonRow* matmul = matmulRow(model.comparison(), matmulNode(*m_a));
        QVERIFY(matmul);
        int r = static_cast<int>(matmul - model.comparison().rows.data());
        // Issue 14, finding 7: each side's graph by its graph id ("entry 0 · graph 0" before).
        QCOMPARE(model.index(r, views::CompareModel::GraphColumn).data().toString(),
                 QString("f · graph %1 / graph %2").arg(matmul->graphIdA).arg(matmul->graphIdB));
        QVERIFY(matmul->graphIdA > 0 && matmul->graphIdB > matmul->graphIdA);
        QVariant total = model.index(r, views::CompareModel::TotalBColumn).data();
        QCOMPARE(total.typeId(), QMetaType::Double);
        QCOMPARE(total.toDouble(), static_cast<double>(matmul->b.totalNs) * 1e-6);
        QCOMPARE(model.index(r, views::CompareModel::KernelsAColumn).data().toString(),
                 matmul->a.names());
        QCOMPARE(model.index(r, views::CompareModel::StatusColumn).data().toString(),
                 QString("matched"));
        QModelIndex ratio = model.index(r, views::CompareModel::RatioColumn);
        QCOMPARE(ratio.data().toDouble(), *matmul->ratio());
        // Coloured only as a result (noiseWithinItsRangeIsNotAResult has the rule itself).
        QColor colour = ratio.data(Qt::ForegroundRole).value<QColor>();
        QCOMPARE(colour.isValid(), matmul->significant());
        QCOMPARE(model.rowOfKernel(matmul->b.kernels.front().kernelId, true), r);
        // Max-autotune's candidates for the matmul, the kept one marked, in B's tooltip.
        const views::ComparedKernel& tuned = matmul->b.kernels.front();
        QVERIFY(!tuned.choices.empty());
        QCOMPARE(tuned.choices.size(), m_b->choicesOf(tuned.kernelId).size());
        QString tip =
            model.index(r, views::CompareModel::KernelsBColumn).data(Qt::ToolTipRole).toString();
        for (const trace::AutotuneChoiceRow& c : tuned.choices)
            if (c.chosen)
                QVERIFY2(tip.contains("✓ " + QString::fromStdString(c.candidate)), qPrintable(tip));
        QVERIFY(matmul->a.kernels.front().choices.empty()); // default mode does not autotune
        QVERIFY(model.headerData(views::CompareModel::TotalAColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .startsWith("A: #1 default\nevery launch"));
    }

    void aModuleNodeIsNamedAfterItsModule() {
        // Issue 14: rows of an nn.Sequential's layers read "l__self___net_4", Dynamo's mangled
        // node name. They name the module as the code reads it and its class; the node name
        // stays the identity the runs are matched by.
        auto withModuleNode = [](int64_t runId) {
            views::RunSnapshot s = oneKernelRun(runId, {20, 10, 10, 10, 10});
            s.kernels[0].kernel.fusedNodes = "l__self___net_4";
            s.kernels[0].kernel.graphId = runId;
            trace::GraphNodeRow node;
            node.graphId = runId;
            node.name = "l__self___net_4";
            node.op = "call_module";
            node.target = "L__self___net_4";
            node.modulePath = "self.net.4";
            node.moduleType = "Linear";
            s.graphNodes.push_back(node);
            return s;
        };
        views::RunComparison c = views::compareRuns(withModuleNode(1), withModuleNode(2));
        QCOMPARE(c.rows.size(), size_t(1));
        QCOMPARE(c.rows[0].nodes, std::vector<std::string>{"l__self___net_4"});
        QCOMPARE(c.rows[0].nodesText(), QString("net.4 (Linear)"));
        QCOMPARE(c.rows[0].status, views::MatchStatus::Matched);
        // A trace written before the module columns existed names the node as before.
        trace::GraphNodeRow old;
        old.name = "l__self___net_4";
        old.op = "call_module";
        QCOMPARE(views::nodeLabel(old), std::string("l__self___net_4"));
    }

    void driftBetweenRunsIsPooledIntoTheSpread() {
        // Issue 14, acceptance: the same mode compared with itself must stay uncoloured. On a
        // shared machine a matrix product ran 1.55x slower for tens of seconds: one run of A
        // in the slow phase and one of B in the fast one looked like a 2x result (coloured).
        // Recorded in turn, A, B, A, B, A, B, the drift lands on both sides.
        auto run = [](int64_t id, const std::string& mode, const std::vector<double>& micros) {
            views::RunSnapshot s = oneKernelRun(id, micros);
            s.run.workloadHash = "e712f6";
            s.run.device = "cpu";
            s.run.mode = mode;
            return s;
        };
        views::RunSnapshot slowA = run(1, "default", {50, 17.0, 17.2, 17.1, 17.3, 17.0});
        views::RunSnapshot slowB = run(2, "max-autotune", {50, 17.1, 17.0, 17.2, 17.1, 17.3});
        views::RunSnapshot fastA = run(3, "default", {40, 11.0, 11.1, 11.2, 11.0, 11.1});
        views::RunSnapshot fastB = run(4, "max-autotune", {40, 11.2, 11.0, 11.1, 11.1, 11.0});
        views::RunSnapshot fastA2 = run(5, "default", {40, 11.1, 11.0, 11.1, 11.2, 11.0});
        views::RunSnapshot fastB2 = run(6, "max-autotune", {40, 11.0, 11.1, 11.0, 11.2, 11.1});
        // One run each, across the drift: a "result", coloured.
        QVERIFY(views::compareRuns(slowA, fastB2).rows.at(0).significant());
        // Pooled over the three rounds: within the noise.
        views::RunComparison pooled =
            views::compareRuns(views::ComparedRuns{&fastA2, {&slowA, &fastA}},
                               views::ComparedRuns{&fastB2, {&slowB, &fastB}});
        const ComparisonRow& row = pooled.rows.at(0);
        QVERIFY(!row.significant());
        QCOMPARE(pooled.a.runs, 3);
        // Every run's warm launches (its first, cold one, dropped), the cold one the run's own.
        QCOMPARE(row.a.kernels.at(0).warm.count, int64_t(15));
        QCOMPARE(row.a.kernels.at(0).warm.coldNs, int64_t(40000));
        QCOMPARE(row.a.warmLowNs, int64_t(11000));
        QCOMPARE(row.a.warmHighNs, int64_t(17100));
        // A real difference larger than the drift is still a result.
        views::RunSnapshot twiceA = run(7, "default", {90, 35.0, 35.1, 35.2, 35.0, 35.1});
        views::RunSnapshot twiceA2 = run(8, "default", {90, 34.9, 35.0, 35.1, 35.2, 35.0});
        views::RunComparison real = views::compareRuns(views::ComparedRuns{&twiceA2, {&twiceA}},
                                                       views::ComparedRuns{&fastB2, {&slowB}});
        QVERIFY(real.rows.at(0).significant());
        QVERIFY(*real.rows.at(0).ratio() < 0.5);
        // A "replicate" of another configuration is no sample of this one: left out.
        views::RunComparison mixed = views::compareRuns(views::ComparedRuns{&fastA2, {&slowB}},
                                                        views::ComparedRuns{&fastB2, {}});
        QCOMPARE(mixed.a.runs, 1);
        QCOMPARE(mixed.rows.at(0).a.kernels.at(0).warm.count, int64_t(5));
    }

    void theSameConfigurationTwiceIsNeverAResult() {
        // Two runs of one script, mode and options differ only by the machine's noise: however
        // far apart their ranges (a drift between runs), nothing is coloured.
        views::RunSnapshot a = oneKernelRun(1, {50, 17.0, 17.2, 17.1, 17.3, 17.0});
        views::RunSnapshot b = oneKernelRun(2, {40, 11.0, 11.1, 11.2, 11.0, 11.1});
        for (views::RunSnapshot* s : {&a, &b}) {
            s->run.workloadHash = "e712f6";
            s->run.mode = "default";
            s->run.device = "cpu";
            s->config.push_back({0, s->run.id, "max_autotune", "False", "False", "default"});
        }
        QVERIFY(views::sameConfiguration(a, b));
        views::RunComparison same = views::compareRuns(a, b);
        QVERIFY(same.sameConfiguration);
        QVERIFY(!same.rows.at(0).significant());
        views::CompareModel model;
        model.setComparison(same, "A", "B");
        QVERIFY(!model.index(0, views::CompareModel::RatioColumn)
                     .data(Qt::ForegroundRole)
                     .value<QColor>()
                     .isValid());
        // Another mode, or another effective option, is another configuration.
        b.config.back().value = "True";
        QVERIFY(!views::sameConfiguration(a, b));
        QVERIFY(views::compareRuns(a, b).rows.at(0).significant());
        b.config.back().value = "False";
        b.run.mode = "max-autotune";
        QVERIFY(!views::sameConfiguration(a, b));
        // The real default and max-autotune runs of the fixture trace.
        QVERIFY(!views::sameConfiguration(*m_a, *m_b));
    }

    void theDeltaIsOfTheTimesTheRatioIsOf() {
        // Δ was of the totals (every launch of the run) while B/A was of one warm call: an
        // 8.658 ms Δ stood next to a 1.045 ratio. Both are of one call now, in µs; a run that
        // made more calls does not change them.
        views::RunSnapshot a = oneKernelRun(1, {50, 10, 10, 10, 10});
        views::RunSnapshot b = oneKernelRun(2, {60, 12, 12, 12, 12, 12, 12, 12, 12, 12});
        views::CompareModel model;
        model.setComparison(views::compareRuns(a, b), "A", "B");
        const ComparisonRow& row = model.comparison().rows.at(0);
        QCOMPARE(row.deltaNs(), int64_t(2000));
        QCOMPARE(*row.ratio(), 1.2);
        QCOMPARE(model.index(0, views::CompareModel::DeltaColumn).data().toDouble(), 2.0);
        QCOMPARE(model.index(0, views::CompareModel::PerCallBColumn).data().toDouble(), 12.0);
        // Too few warm launches on one side: both sides use their median over every launch.
        views::RunSnapshot few = oneKernelRun(3, {30, 12});
        const ComparisonRow unmeasured = views::compareRuns(a, few).rows.at(0);
        QCOMPARE(unmeasured.perCallNs(unmeasured.a), a.kernels[0].launches.medianNs);
        QCOMPARE(unmeasured.deltaNs(),
                 few.kernels[0].launches.medianNs - a.kernels[0].launches.medianNs);
    }

    void noiseWithinItsRangeIsNotAResult() {
        auto ratioCell = [](const views::RunSnapshot& a, const views::RunSnapshot& b) {
            auto model = std::make_shared<views::CompareModel>();
            model->setComparison(views::compareRuns(a, b), "A", "B");
            return std::make_pair(model, model->index(0, views::CompareModel::RatioColumn));
        };
        // The same kernel twice: a cold first launch each, then jitter. The ratio is near 1 and
        // left uncoloured, whatever the cold launches did.
        views::RunSnapshot a = oneKernelRun(1, {50, 10.0, 10.4, 9.8, 10.2, 10.1});
        views::RunSnapshot b = oneKernelRun(2, {90, 10.3, 9.9, 10.5, 10.0, 9.7});
        auto [same, cell] = ratioCell(a, b);
        const ComparisonRow& row = same->comparison().rows.at(0);
        QCOMPARE(row.a.kernels.at(0).warm.count, int64_t(5));
        QCOMPARE(row.a.kernels.at(0).warm.coldNs, int64_t(50000));
        QCOMPARE(row.a.warmMedianNs, int64_t(10100));
        QCOMPARE(row.b.warmMedianNs, int64_t(10000));
        QVERIFY(!row.significant());
        QVERIFY(!cell.data(Qt::ForegroundRole).value<QColor>().isValid());
        QVERIFY(cell.data(Qt::ToolTipRole).toString().contains("within the noise"));
        // Twice as fast with a tight spread: a result, in green.
        views::RunSnapshot fast = oneKernelRun(3, {40, 5.0, 5.1, 4.9, 5.05, 5.0});
        auto [faster, fastCell] = ratioCell(a, fast);
        QVERIFY(faster->comparison().rows.at(0).significant());
        QCOMPARE(fastCell.data().toDouble(), 5000.0 / 10100.0);
        QColor green = fastCell.data(Qt::ForegroundRole).value<QColor>();
        QVERIFY(green.isValid() && green.green() > green.red());
        // One launch each (the first, cold): a ratio of the totals, never a result.
        auto [cold, coldCell] = ratioCell(oneKernelRun(4, {6159}), oneKernelRun(5, {7}));
        QVERIFY(!cold->comparison().rows.at(0).significant());
        QVERIFY(!coldCell.data(Qt::ForegroundRole).value<QColor>().isValid());
        QVERIFY(coldCell.data(Qt::ToolTipRole).toString().contains("Not a measurement"));
        QString kernels =
            cold->index(0, views::CompareModel::KernelsAColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(kernels.contains("no warm launch to measure"), qPrintable(kernels));
    }

    void compileTimesSayWhetherTheCachesWereWarm() {
        // The real runs: each compile reports how many of its kernels the kernel cache held.
        views::RunTotals a = views::runTotals(*m_a);
        QVERIFY(a.compiledKernels > 0);
        QVERIFY(a.cachedKernels >= 0 && a.cachedKernels <= a.compiledKernels);
        views::RunSnapshot s = oneKernelRun(9, {10, 10, 10});
        for (const char* detail : {"{\"kernels\": 3, \"memory_hits\": 1, \"disk_hits\": 2}",
                                   "{\"kernels\": 2, \"memory_hits\": 0, \"disk_hits\": 0}"}) {
            trace::EventRow e;
            e.category = "compile";
            e.name = "kernel_cache";
            e.detailJson = detail;
            s.events.push_back(e);
        }
        trace::AutotuneChoiceRow tuned;
        tuned.fromCache = true;
        s.autotuneChoices = {tuned, trace::AutotuneChoiceRow{}};
        views::RunTotals t = views::runTotals(s);
        QCOMPARE(t.compiledKernels, int64_t(5));
        QCOMPARE(t.cachedKernels, int64_t(3));
        QCOMPARE(views::cacheText(t.cachedKernels, t.compiledKernels),
                 QString("3 of 5 from the cache (partly warm)"));
        QCOMPARE(views::cacheText(t.tunedFromCache, t.tuningCandidates),
                 QString("1 of 2 from the cache (partly warm)"));
        QCOMPARE(views::cacheText(0, 4), QString("0 of 4 from the cache (cold)"));
        QCOMPARE(views::cacheText(4, 4), QString("4 of 4 from the cache (warm)"));
        QVERIFY(views::cacheText(0, 0).isEmpty());
    }

    void thePanelComparesTheWorkloadsNewestPair() {
        views::TraceSession session;
        views::Selection selection;
        views::ComparePanel panel(session, selection);
        panel.resize(1100, 650);
        session.open(m_trace);
        QTRY_COMPARE(panel.runA(), qint64(1));
        QCOMPARE(panel.runB(), qint64(2));
        views::RunComparison expected = views::compareRuns(*m_a, *m_b);
        QTRY_COMPARE(panel.model().rowCount(), static_cast<int>(expected.rows.size()));
        QCOMPARE(panel.model().comparison().a.kernelCount, expected.a.kernelCount);

        QStringList categories = panel.chartCategories();
        QCOMPARE(categories.size(),
                 std::min(static_cast<int>(expected.rows.size()), panel.kChartGroups));
        // Largest first: the group with the most time per call in either run is on top.
        auto perCall = [](const ComparisonRow& row) {
            return std::max(row.perCallNs(row.a), row.perCallNs(row.b));
        };
        const ComparisonRow* largest = &expected.rows.front();
        for (const ComparisonRow& row : expected.rows)
            if (perCall(row) > perCall(*largest)) largest = &row;
        QCOMPARE(categories.front(), largest->nodesText());

        QVERIFY(panel.grab().save("/tmp/compare-panel.png"));

        panel.swapRuns();
        QCOMPARE(panel.runA(), qint64(2));
        QCOMPARE(panel.model().comparison().a.kernelCount, expected.b.kernelCount);
        panel.swapRuns();
        QCOMPARE(panel.runA(), qint64(1));
    }

    void anotherWorkloadInBetweenIsSkipped() {
        // Runs 1 and 2 of the modes workload, 3 of another script, 4 of the modes one again.
        QString trace = m_dir.filePath("mixed.kiln");
        QVERIFY(QFile::copy(m_trace, trace));
        QString other = m_dir.filePath("epilogue.py");
        if (!QFile::exists(other)) QVERIFY(!epilogueTrace(m_dir.path()).isEmpty());
        for (const QString& script : {other, m_dir.filePath("modes.py")})
            QCOMPARE(testing::runKilnBinary({"run", script, "--quiet", "--db", trace}, m_dir.path())
                         .exitCode,
                     0);
        views::TraceSession session;
        views::Selection selection;
        views::ComparePanel panel(session, selection);
        session.open(trace);
        QTRY_COMPARE(panel.runB(), qint64(4));
        QCOMPARE(panel.runA(), qint64(2)); // the newest older run of the same script
        QTRY_VERIFY(panel.model().rowCount() > 0);
        // compareRuns picks what it is told, and new runs no longer re-pick.
        panel.compareRuns(3, 4);
        QCOMPARE(panel.runA(), qint64(3));
        QTRY_VERIFY(panel.model().comparison().a.kernelCount == 2);
        // Both scripts name their function f and its matmul node "matmul": what they share
        // is matched, whatever the script.
        const ComparisonRow* matmul = matmulRow(panel.model().comparison(), "matmul");
        QVERIFY(matmul);
        QCOMPARE(matmul->status, MatchStatus::Matched);
        QCOMPARE(matmul->a.names(), QString("extern_mm"));
        QCOMPARE(matmul->b.names(), QString("extern_mm"));

        // Another trace: the pair picked for this one means nothing there.
        session.open(m_trace);
        QTRY_COMPARE(panel.runB(), qint64(2));
        QCOMPARE(panel.runA(), qint64(1));
        QTRY_COMPARE(panel.model().comparison().b.kernelCount,
                     static_cast<int64_t>(m_b->kernels.size()));
    }

    void aTraceOfOneRunHasNothingToCompare() {
        QTemporaryDir dir;
        QString trace = testing::graphBreaksTrace(dir.path());
        QVERIFY(!trace.isEmpty());
        views::TraceSession session;
        views::Selection selection;
        views::ComparePanel panel(session, selection);
        panel.resize(1100, 650);
        QSignalSpy runs(&session, &views::TraceSession::runsChanged);
        session.open(trace);
        QTRY_COMPARE(runs.count(), 1);
        QCOMPARE(panel.runA(), qint64(1));
        QCOMPARE(panel.runB(), qint64(0));
        QCOMPARE(panel.model().rowCount(), 0);
        QVERIFY(panel.chartCategories().isEmpty());
        auto* hint = panel.findChild<QLabel*>("compareTotals");
        QVERIFY(hint);
        QVERIFY2(hint->text().contains("one run"), qPrintable(hint->text()));
        QVERIFY(panel.grab().save("/tmp/compare-one-run.png"));
    }

    void aWorkloadThatCompilesNothingHasNoRatio() {
        // Issue 14, finding 3: without torch.compile both modes run the same eager code; an
        // "end to end 0.57×" in green would be noise presented as a result.
        QTemporaryDir dir;
        const char* eager = "import torch\nx = torch.randn(64, 64)\nprint((x @ x).sum().item())\n";
        QString trace = testing::scriptTrace(dir.path(), "eager.py", eager, {"--mode", "default"});
        QVERIFY(!trace.isEmpty());
        QCOMPARE(testing::scriptTrace(dir.path(), "eager.py", eager, {"--mode", "max-autotune"}),
                 trace);
        QString totals = totalsOf(trace, "/tmp/compare-nothing-compiled.png");
        QVERIFY2(totals.contains("Neither run compiled a frame"), qPrintable(totals));
        QVERIFY2(!totals.contains("×"), qPrintable(totals));
    }

    void backwardKernelsAreMatchedWithBackwardKernels() {
        // Issue 16: a training graph's backward kernels compute gradients of the same nodes as
        // its forward kernels; each is compared with its own kind, in rows of their own.
        QTemporaryDir dir;
        QString trace = testing::trainingTrace(dir.path(), 2);
        QVERIFY(!trace.isEmpty());
        views::SnapshotPtr a = testing::readSnapshot(trace, 1);
        views::SnapshotPtr b = testing::readSnapshot(trace, 2);
        QVERIFY(a && b);
        views::RunComparison c = views::compareRuns(*a, *b);
        int backwardRows = 0;
        for (const views::ComparisonRow& row : c.rows) {
            std::set<std::string> passes;
            for (auto [side, snap] : {std::pair{&row.a, a.get()}, std::pair{&row.b, b.get()}})
                for (const views::ComparedKernel& k : side->kernels) {
                    const views::KernelRecord* record = snap->kernel(k.kernelId);
                    passes.insert(record ? record->kernel.graphKind : std::string());
                }
            QCOMPARE(passes.size(), size_t(1)); // never forward and backward in one row
            QCOMPARE(row.status, views::MatchStatus::Matched);
            if (row.graph.pass == "aot_backward") {
                ++backwardRows;
                QVERIFY2(row.label().endsWith(" · backward"), qPrintable(row.label()));
            }
        }
        QVERIFY(backwardRows > 0);
    }

    void measuredCallsAreOneCallWithItsSpread() {
        // Issue 14, deliverable 2: a measured run's timed calls (events of category measure)
        // become one call per function, median within min and p90, and its B/A is coloured
        // only when the two ranges are apart.
        auto measured = [](int64_t runId, const std::vector<double>& millis) {
            views::RunSnapshot s = oneKernelRun(runId, {10, 10, 10});
            int64_t t = 0;
            for (double ms : millis) {
                trace::EventRow e;
                e.category = "measure";
                e.name = "f";
                e.startNs = t;
                e.durationNs = static_cast<int64_t>(ms * 1e6);
                t += e.durationNs;
                s.events.push_back(e);
            }
            return views::runTotals(s);
        };
        views::RunTotals a =
            measured(1, {1.00, 1.02, 0.98, 1.01, 1.05, 0.99, 1.00, 1.03, 1.20, 1.00});
        QCOMPARE(a.measured.size(), size_t(1));
        const views::MeasuredCalls& f = a.measured[0];
        QCOMPARE(f.function, std::string("f"));
        QCOMPARE(f.count, int64_t(10));
        QCOMPARE(f.minNs, int64_t(980000));
        QCOMPARE(f.medianNs, int64_t(1010000));
        QCOMPARE(f.p90Ns, int64_t(1050000));
        views::RunTotals same = measured(2, {1.01, 0.99, 1.00, 1.04, 1.02, 0.97, 1.01, 1.00});
        auto r = views::measuredRatio(a.measured[0], same.measured[0]);
        QVERIFY(r && !r->significant);
        views::RunTotals faster = measured(3, {0.50, 0.51, 0.49, 0.50, 0.52});
        r = views::measuredRatio(a.measured[0], faster.measured[0]);
        QVERIFY(r && r->significant);
        QCOMPARE(r->ratio, 500000.0 / 1010000.0);
        views::RunTotals two = measured(4, {0.5, 0.5}); // fewer calls than a measurement needs
        r = views::measuredRatio(a.measured[0], two.measured[0]);
        QVERIFY(r && !r->significant);
        QVERIFY(views::runTotals(oneKernelRun(5, {10})).measured.empty());
    }

    void thePanelShowsEachMeasuredFunction() {
        QTemporaryDir dir;
        const char* source = "import torch\n"
                             "def f(x):\n"
                             "    return torch.relu(x) * 2\n"
                             "cf = torch.compile(f)\n"
                             "print(cf(torch.randn(256)).shape)\n";
        const QStringList measure{"--measure", "5", "--warmup", "1", "--measure-budget", "0"};
        QString trace = testing::scriptTrace(dir.path(), "measured.py", source, measure);
        QVERIFY(!trace.isEmpty());
        QCOMPARE(testing::scriptTrace(dir.path(), "measured.py", source, measure), trace);
        QString totals = totalsOf(trace);
        QVERIFY2(totals.contains("f(), one call") && totals.contains("5 calls"),
                 qPrintable(totals));
        QVERIFY(!totals.contains("Neither run measured"));
    }

    void numbersReadAtOnePrecisionPerColumn() {
        // Issue 14, finding 9: a delta of ten nanoseconds showed as "-1e-05" in a ms column, and
        // one column mixed "0.00002", "-0.003465" and "9.951" (ratios "0.9476" and "1.11").
        views::TraceSession session;
        views::Selection selection;
        views::ComparePanel panel(session, selection);
        const QLocale c = QLocale::c();
        auto shown = [&](int column, double v) {
            auto* delegate =
                qobject_cast<QStyledItemDelegate*>(panel.table()->itemDelegateForColumn(column));
            return delegate ? delegate->displayText(v, c) : QString("no delegate");
        };
        using M = views::CompareModel;
        QCOMPARE(shown(M::TotalAColumn, 0.00002), QString("0.000"));
        QCOMPARE(shown(M::TotalBColumn, 9.951), QString("9.951"));
        QCOMPARE(shown(M::TotalAColumn, 1235.4), QString("1235.400"));
        QCOMPARE(shown(M::DeltaColumn, -1e-05), QString("0.00"));
        QCOMPARE(shown(M::DeltaColumn, 0.0661), QString("+0.07"));
        QCOMPARE(shown(M::DeltaColumn, 0.0), QString("0.00"));
        QCOMPARE(shown(M::RatioColumn, 0.9476), QString("0.948"));
        QCOMPARE(shown(M::RatioColumn, 1.11), QString("1.110"));
        QCOMPARE(shown(M::PerCallAColumn, 3.4651), QString("3.47"));
        QCOMPARE(shown(M::PerCallBColumn, 120.0), QString("120.00"));
    }

    void selectingARowSelectsTheKernelOfTheSelectedRun() {
        views::TraceSession session;
        views::Selection selection;
        views::ComparePanel panel(session, selection);
        session.open(m_trace);
        QTRY_VERIFY(panel.model().rowCount() > 0);
        selection.selectRun(2);
        selection.setSnapshot(m_b);
        const ComparisonRow* matmul = matmulRow(panel.model().comparison(), matmulNode(*m_a));
        QVERIFY(matmul);
        int sourceRow = static_cast<int>(matmul - panel.model().comparison().rows.data());
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(panel.table()->model());
        QVERIFY(proxy);
        int row = proxy->mapFromSource(panel.model().index(sourceRow, 0)).row();
        QSignalSpy changed(&selection, &views::Selection::selectionChanged);
        panel.table()->selectRow(row);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(selection.state().kernelId, matmul->b.kernels.front().kernelId);
        QCOMPARE(selection.state().runId, qint64(2));
        // And back: selecting run 2's kernel elsewhere selects its row here.
        panel.table()->clearSelection();
        selection.selectKernel(m_b->kernels.back().kernel.kernelId);
        int expected = panel.model().rowOfKernel(m_b->kernels.back().kernel.kernelId, true);
        QCOMPARE(proxy->mapToSource(panel.table()->currentIndex()).row(), expected);
    }
};

QTEST_MAIN(CompareTest)
#include "tst_compare.moc"
