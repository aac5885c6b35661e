// SPDX-License-Identifier: MIT
/// \file
/// The Kernels panel and its model on real runs: one workload run in default mode (run 1) and
/// max-autotune (run 2, with autotuning candidates and a matmul template). The statistics agree
/// with the trace reader's, filters narrow the rows, a time range recounts the launches inside
/// it, the autotuning candidates are listed fastest first with the kept one marked, and the
/// panel follows and drives the shared selection. (Candidates from the tuning cache, stopped
/// early, and older traces: tst_run_provenance.)
#include "autotune_choice_model.h"
#include "cuda_highlighter.h"
#include "kernel_table_model.h"
#include "kernels_panel.h"
#include "studio_fixture.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest>
#include <map>

using namespace kiln;
using views::KernelTableModel;

namespace {

QVariant cell(const QAbstractItemModel& m, int row, int column,
              int role = KernelTableModel::SortRole) {
    return m.index(row, column).data(role);
}

/// The run's launches per kernel that start in [start, end).
std::map<qint64, qint64> launchesIn(const views::RunSnapshot& s, qint64 start, qint64 end) {
    std::map<qint64, qint64> counts;
    for (const trace::KernelLaunchRow& l : s.launches)
        if (l.startNs >= start && l.startNs < end) ++counts[l.kernelId];
    return counts;
}

const views::KernelRecord* firstOfKind(const views::RunSnapshot& s, const std::string& kind) {
    for (const views::KernelRecord& k : s.kernels)
        if (k.kernel.kind == kind) return &k;
    return nullptr;
}

} // namespace

class KernelsPanelTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_trace;
    views::SnapshotPtr m_default, m_autotune;

    /// A session and selection on run \p runId with its snapshot adopted.
    struct Studio {
        views::TraceSession session;
        views::Selection selection;
    };
    void select(Studio& studio, qint64 runId) {
        studio.selection.selectRun(runId);
        studio.selection.setSnapshot(runId == 1 ? m_default : m_autotune);
    }

private slots:
    void initTestCase() {
        m_trace = testing::compareModesTrace(m_dir.path());
        QVERIFY(!m_trace.isEmpty());
        m_default = testing::readSnapshot(m_trace, 1);
        m_autotune = testing::readSnapshot(m_trace, 2);
        QVERIFY(m_default && m_autotune);
        QCOMPARE(m_autotune->run.mode, std::string("max-autotune"));
        QVERIFY(!m_autotune->autotuneChoices.empty());
        QVERIFY(firstOfKind(*m_autotune, "template"));
    }

    void modelAgreesWithTheReadersStatistics() {
        KernelTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(m_autotune);
        QCOMPARE(model.rowCount(), static_cast<int>(m_autotune->kernels.size()));
        QCOMPARE(model.columnCount(), int(KernelTableModel::ColumnCount));
        QCOMPARE(model.headerData(KernelTableModel::MedianUs, Qt::Horizontal).toString(),
                 QString("median µs"));
        double shares = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const views::KernelRecord& k = *model.kernelAt(row);
            QCOMPARE(cell(model, row, KernelTableModel::Name).toString(),
                     QString::fromStdString(k.kernel.name));
            QCOMPARE(cell(model, row, KernelTableModel::Launches).toLongLong(), k.launches.count);
            QCOMPARE(model.statsAt(row)->totalNs, k.launches.totalNs);
            QCOMPARE(model.statsAt(row)->medianNs, k.launches.medianNs);
            QCOMPARE(cell(model, row, KernelTableModel::Graph, Qt::DisplayRole).toString(),
                     QString("graph %1 · %2")
                         .arg(k.kernel.graphId)
                         .arg(QString::fromStdString(k.kernel.compileId)));
            // A CPU launch records its thread count as the grid, and no block or registers:
            // empty cells, not zeros.
            QVERIFY(cell(model, row, KernelTableModel::Grid, Qt::DisplayRole)
                        .toString()
                        .startsWith("threads="));
            QVERIFY(!cell(model, row, KernelTableModel::Block, Qt::DisplayRole).isValid());
            QVERIFY(!cell(model, row, KernelTableModel::Registers, Qt::DisplayRole).isValid());
            shares += cell(model, row, KernelTableModel::Share).toDouble();
        }
        QVERIFY(qAbs(shares - 100.0) < 1e-6);
        QVERIFY(model.columnHasValues(KernelTableModel::Grid));
        QVERIFY(!model.columnHasValues(KernelTableModel::Block));
        QVERIFY(!model.columnHasValues(KernelTableModel::Registers));
        // The workload calls the compiled function five times: every kernel ran five times.
        QCOMPARE(cell(model, 0, KernelTableModel::Launches).toLongLong(), 5);
    }

    void proxySortsNumbersAsNumbersAndFilters() {
        KernelTableModel model;
        views::KernelFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(m_autotune);
        filter.sort(KernelTableModel::TotalMs, Qt::DescendingOrder);
        for (int row = 1; row < filter.rowCount(); ++row)
            QVERIFY(cell(filter, row - 1, KernelTableModel::TotalMs).toDouble() >=
                    cell(filter, row, KernelTableModel::TotalMs).toDouble());

        const views::KernelRecord* tmpl = firstOfKind(*m_autotune, "template");
        filter.setKind("template");
        QVERIFY(filter.rowCount() >= 1);
        QVERIFY(filter.rowCount() < model.rowCount());
        for (int row = 0; row < filter.rowCount(); ++row)
            QCOMPARE(cell(filter, row, KernelTableModel::Kind).toString(), QString("template"));
        filter.setKind({});
        filter.setText(QString::fromStdString(tmpl->kernel.name).toUpper());
        QCOMPARE(filter.rowCount(), 1);
        QCOMPARE(cell(filter, 0, 0, KernelTableModel::KernelIdRole).toLongLong(),
                 tmpl->kernel.kernelId);
        filter.setText("no such kernel");
        QCOMPARE(filter.rowCount(), 0);
        filter.setText({});
        QCOMPARE(filter.rowCount(), model.rowCount());
    }

    void timeRangeRecountsTheLaunchesInside() {
        KernelTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(m_autotune);
        const auto& launches = m_autotune->launches;
        QVERIFY(launches.size() >= 10);
        // From the third call's first launch to the end: calls 3, 4 and 5.
        const size_t perCall = launches.size() / 5;
        const qint64 start = launches[2 * perCall].startNs;
        const qint64 end = launches.back().endNs + 1;
        model.setTimeRange(start, end);
        QVERIFY(model.hasTimeRange());
        const auto expected = launchesIn(*m_autotune, start, end);
        qint64 inRange = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const qint64 id = model.kernelAt(row)->kernel.kernelId;
            const qint64 want = expected.count(id) ? expected.at(id) : 0;
            QCOMPARE(cell(model, row, KernelTableModel::Launches).toLongLong(), want);
            QCOMPARE(want, 3);
            inRange += want;
        }
        QCOMPARE(model.launchesInRange(), inRange);
        QCOMPARE(inRange, static_cast<qint64>(launches.size() - 2 * perCall));
        model.setTimeRange(0, 0);
        QVERIFY(!model.hasTimeRange());
        QCOMPARE(cell(model, 0, KernelTableModel::Launches).toLongLong(), 5);
    }

    void selectingAKernelShowsItsCodeAndCandidates() {
        Studio studio;
        select(studio, 2);
        views::KernelsPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const views::KernelRecord* tmpl = firstOfKind(*m_autotune, "template");
        studio.selection.selectKernel(tmpl->kernel.kernelId);

        // The CPU run has no block or registers: those columns are not shown at all.
        QVERIFY(!panel.table()->isColumnHidden(KernelTableModel::Grid));
        QVERIFY(panel.table()->isColumnHidden(KernelTableModel::Block));
        QVERIFY(panel.table()->isColumnHidden(KernelTableModel::Registers));
        const QModelIndex current = panel.table()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.data(KernelTableModel::KernelIdRole).toLongLong(), tmpl->kernel.kernelId);
        QCOMPARE(panel.codeText(), QString::fromStdString(tmpl->kernel.sourceCode));
        QVERIFY(panel.codeHeaderText().contains(QString::fromStdString(tmpl->kernel.name)));
        // Issue 14, finding 7: the kernel's graph by its graph id, as everywhere ("graph 0/0 #0"
        // before).
        QVERIFY2(panel.codeHeaderText().contains(
                     QString("graph %1 · %2")
                         .arg(tmpl->kernel.graphId)
                         .arg(QString::fromStdString(tmpl->kernel.compileId))),
                 qPrintable(panel.codeHeaderText()));
        const auto choices = m_autotune->choicesOf(tmpl->kernel.kernelId);
        QVERIFY(choices.size() >= 2);
        const views::AutotuneChoiceModel& tuned = *panel.candidatesModel();
        QAbstractItemModelTester tester(panel.candidatesModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(panel.candidates()->model(), panel.candidatesModel());
        QCOMPARE(tuned.rowCount(), static_cast<int>(choices.size()));
        int chosenRows = 0;
        qint64 previousNs = 0;
        for (int row = 0; row < tuned.rowCount(); ++row) {
            const trace::AutotuneChoiceRow* c = tuned.choiceAt(row);
            QVERIFY(c->timeNs >= previousNs); // fastest first
            previousNs = c->timeNs;
            QCOMPARE(tuned.index(row, views::AutotuneChoiceModel::Candidate).data().toString(),
                     QString::fromStdString(c->candidate));
            QCOMPARE(tuned.index(row, views::AutotuneChoiceModel::Median).data().toString(),
                     views::formatDuration(c->timeNs));
            const bool marked = tuned.index(row, views::AutotuneChoiceModel::Outcome)
                                    .data()
                                    .toString()
                                    .contains("chosen");
            QCOMPARE(marked, c->chosen);
            chosenRows += marked;
            // A version-4 trace always says whether the time was measured now or cached.
            QVERIFY(c->fromCache.has_value());
            const QString measured =
                tuned.index(row, views::AutotuneChoiceModel::Measured).data().toString();
            QCOMPARE(measured, *c->fromCache ? QString("tuning cache") : QString("this run"));
        }
        QCOMPARE(chosenRows, 1);
        QVERIFY2(panel.candidatesText().contains(QString("%1 candidates").arg(choices.size())),
                 qPrintable(panel.candidatesText()));
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-kernels-panel.png"));
    }

    void cudaCodeIsHighlightedAsCuda() {
        QPlainTextEdit view;
        views::CudaHighlighter h(&view);
        view.setPlainText("// Kiln CUDA kernel (generated)\n"
                          "#pragma unroll 4\n"
                          "extern \"C\" __global__ void k(const float* __restrict__ a) {\n"
                          "    const float t = expf(a[threadIdx.x]) * 0x1p-3f; /* scale\n"
                          "       still a comment */ return;\n"
                          "}\n");
        h.rehighlight();
        QTextDocument& doc = *view.document();
        auto formatAt = [&](int line, int column) {
            QTextBlock block = doc.findBlockByNumber(line - 1);
            for (const QTextLayout::FormatRange& r : block.layout()->formats())
                if (column >= r.start && column < r.start + r.length) return r.format;
            return QTextCharFormat();
        };
        using T = views::CudaHighlighter::Token;
        auto is = [&](int line, int column, T token) {
            return formatAt(line, column).foreground() == h.format(token).foreground();
        };
        QVERIFY(is(1, 3, T::Comment));
        QVERIFY(is(2, 0, T::Preprocessor));
        QVERIFY(is(3, 11, T::Keyword)); // __global__
        QVERIFY(is(4, 4, T::Keyword));  // const
        QVERIFY(is(4, 20, T::Builtin)); // expf
        QVERIFY(is(4, 46, T::Number));  // 0x1p-3f
        QVERIFY(is(4, 56, T::Comment)); // the block comment opens
        QVERIFY(is(5, 7, T::Comment));  // and runs on into the next line
        QVERIFY(is(5, 30, T::Keyword)); // return, after it closed
        QVERIFY(h.format(T::Keyword).foreground() != h.format(T::Comment).foreground());
    }

    void clickingARowSelectsItsKernel() {
        Studio studio;
        select(studio, 2);
        views::KernelsPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTableView* table = panel.table();
        QVERIFY(table->model()->rowCount() >= 2);
        const QModelIndex second = table->model()->index(1, KernelTableModel::Kind);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(second).center());
        QCOMPARE(studio.selection.state().kernelId,
                 second.data(KernelTableModel::KernelIdRole).toLongLong());
        const views::KernelRecord* k = m_autotune->kernel(studio.selection.state().kernelId);
        QCOMPARE(studio.selection.state().graphId, k->kernel.graphId);
        QCOMPARE(panel.codeText(), QString::fromStdString(k->kernel.sourceCode));
    }

    void defaultModeSaysThereIsNoAutotuning() {
        Studio studio;
        select(studio, 1);
        views::KernelsPanel panel(studio.session, studio.selection);
        QVERIFY(m_default->autotuneChoices.empty());
        studio.selection.selectKernel(m_default->kernels.front().kernel.kernelId);
        QVERIFY(panel.candidatesText().contains("No autotuning (default mode)"));
        QCOMPARE(panel.candidatesModel()->rowCount(), 0);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-kernels-default.png"));
    }

    void filtersInThePanel() {
        Studio studio;
        select(studio, 2);
        views::KernelsPanel panel(studio.session, studio.selection);
        const int all = panel.table()->model()->rowCount();
        QCOMPARE(all, static_cast<int>(m_autotune->kernels.size()));
        panel.setKindFilter("template");
        QVERIFY(panel.table()->model()->rowCount() < all);
        panel.setKindFilter({});
        panel.setFilterText("template");
        QVERIFY(panel.table()->model()->rowCount() >= 1);
        panel.setFilterText({});
        // Only the selected graph's kernels.
        const views::KernelRecord& k = m_autotune->kernels.front();
        studio.selection.selectKernel(k.kernel.kernelId);
        panel.setOnlySelectedGraph(true);
        QCOMPARE(panel.table()->model()->rowCount(),
                 static_cast<int>(m_autotune->kernelsOf(k.kernel.graphId).size()));
        QCOMPARE(panel.table()->currentIndex().data(KernelTableModel::KernelIdRole).toLongLong(),
                 k.kernel.kernelId);
    }

    void fusedNodesNameTheModulesTheyCompute() {
        // A torch.nn layer is a call_module node named after its mangled attribute
        // (l__self___fc); the column reads "fc (Linear)" and the tooltip keeps the node names.
        QString trace = testing::scriptTrace(m_dir.path(), "modules.py",
                                             "import torch\n"
                                             "import torch.nn as nn\n"
                                             "class M(nn.Module):\n"
                                             "    def __init__(self):\n"
                                             "        super().__init__()\n"
                                             "        self.fc = nn.Linear(8, 16)\n"
                                             "        self.act = nn.ReLU()\n"
                                             "    def forward(self, x):\n"
                                             "        return self.act(self.fc(x)) * 2\n"
                                             "m = torch.compile(M())\n"
                                             "with torch.no_grad():\n"
                                             "    m(torch.randn(4, 8))\n");
        QVERIFY(!trace.isEmpty());
        views::SnapshotPtr s = testing::readSnapshot(trace, 1);
        QVERIFY(s);
        KernelTableModel model;
        model.setSnapshot(s);
        QStringList shown, names;
        for (int row = 0; row < model.rowCount(); ++row) {
            shown << cell(model, row, KernelTableModel::FusedNodes, Qt::DisplayRole).toString();
            names << cell(model, row, KernelTableModel::FusedNodes, Qt::ToolTipRole).toString();
        }
        QVERIFY2(shown.contains("fc (Linear)"), qPrintable(shown.join(" | ")));
        QVERIFY2(shown.join(" | ").contains("act (ReLU)"), qPrintable(shown.join(" | ")));
        QVERIFY2(names.contains("l__self___fc"), qPrintable(names.join(" | ")));
        // The filter finds a kernel by either.
        views::KernelFilterModel filter;
        filter.setSourceModel(&model);
        filter.setText("Linear");
        QCOMPARE(filter.rowCount(), 1);
        filter.setText("l__self___fc");
        QCOMPARE(filter.rowCount(), 1);
    }

    void timeRangeBanner() {
        Studio studio;
        select(studio, 2);
        views::KernelsPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.bannerText().isEmpty());
        const auto& launches = m_autotune->launches;
        const qint64 start = launches.front().startNs, end = launches[launches.size() / 5].startNs;
        panel.setTimeRange(start, end);
        QVERIFY(panel.bannerText().startsWith("Launches between "));
        const auto expected = launchesIn(*m_autotune, start, end);
        qint64 shown = 0;
        for (int row = 0; row < panel.model()->rowCount(); ++row)
            shown += cell(*panel.model(), row, KernelTableModel::Launches).toLongLong();
        qint64 want = 0;
        for (const auto& [id, n] : expected)
            want += n;
        QCOMPARE(shown, want);
        QVERIFY(panel.bannerText().contains(QString("%1 of %2").arg(want).arg(launches.size())));
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-kernels-range.png"));
        panel.setTimeRange(0, 0);
        QVERIFY(panel.bannerText().isEmpty());
    }
};

QTEST_MAIN(KernelsPanelTest)
#include "tst_kernels_panel.moc"
