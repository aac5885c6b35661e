// SPDX-License-Identifier: MIT
// The acceptance, as a user does it in the main window (offscreen): open the
// graph-break example, run it (F5), step through each break with F8 and see its reason and both
// graphs; run default and max-autotune and compare them kernel by kernel, with the config diff;
// export the post-fusion diagram as PNG.
#include "break_details.h"
#include "compare_model.h"
#include "compare_panel.h"
#include "config_diff_model.h"
#include "config_panel.h"
#include "graph_panel.h"
#include "main_window.h"
#include "source_panel.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;

namespace {

template <typename Pred>
bool waitFor(Pred done, int ms = 60000) {
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < ms)
        QTest::qWait(20);
    return done();
}

QString sourceDir() {
    return qEnvironmentVariable("KILN_SOURCE_DIR");
}

} // namespace

class StudioAcceptanceTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    /// A copy of a bundled workload in the temporary directory (its trace lands next to it).
    QString workload(const QString& name) {
        QString copy = m_dir.filePath(name);
        QFile::remove(copy);
        if (!QFile::copy(sourceDir() + "/resources/workloads/" + name, copy)) return {};
        return copy;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("KILN_EXECUTABLE", qgetenv("KILN_BINARY_DIR") + "/bin/kiln");
    }

    void stepThroughEveryBreakWithF8() {
        studio::MainWindow w;
        w.useDefaultLayout();
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString script = workload("graph_breaks.py");
        QVERIFY(w.openFile(script));
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(w.controller().isRunning() || !ready.isEmpty());
        QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
        auto* source = qobject_cast<views::SourcePanel*>(w.panel("source"));
        QVERIFY(source);
        const views::SnapshotPtr held = w.selection().snapshot(); // kept across event loops
        QVERIFY(held);
        const views::RunSnapshot& run = *held;
        QCOMPARE(run.graphBreaks.size(), size_t(3));
        const char* reasons[] = {"print", "generic_jump", "Tensor.item"};
        for (int order = 1; order <= 3; ++order) {
            QTest::keyClick(&w, Qt::Key_F8);
            QCOMPARE(w.selection().state().breakOrder, order);
            const views::BreakDetails* details = source->details();
            QVERIFY(details->isVisible());
            QVERIFY2(details->headerText().startsWith(QString("Graph break %1 of 3").arg(order)),
                     qPrintable(details->headerText()));
            QVERIFY2(details->reasonText().contains(reasons[order - 1]),
                     qPrintable(details->reasonText()));
            QVERIFY(details->endedCode().contains("class GraphModule"));
            QVERIFY(details->resumedCode().contains("class GraphModule"));
            QVERIFY(details->endedCode() != details->resumedCode());
            // The graph selected is the one that ended at the break.
            const trace::GraphBreakRow* brk = run.graphBreak(order);
            QCOMPARE(w.selection().state().compileId, QString::fromStdString(brk->compileId));
        }
        QTest::keyClick(&w, Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(w.selection().state().breakOrder, 2);
    }

    void compareDefaultAndMaxAutotune() {
        studio::MainWindow w;
        w.useDefaultLayout();
        w.resize(1600, 1000);
        w.show();
        QString script = m_dir.filePath("attention.py");
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("import torch\n"
                   "def fn(q, k):\n"
                   "    return torch.softmax(q @ k.T / 8, dim=-1)\n"
                   "compiled = torch.compile(fn)\n"
                   "q, k = torch.randn(64, 32), torch.randn(64, 32)\n"
                   "for step in range(5):\n"
                   "    out = compiled(q, k)\n");
        file.close();
        QVERIFY(w.openFile(script));
        QSignalSpy done(&w.controller(), &studio::RunController::sequenceFinished);
        w.compareModes();
        QVERIFY(waitFor([&] { return !done.isEmpty(); }, 120000));
        auto* compare = qobject_cast<views::ComparePanel*>(w.panel("compare"));
        QVERIFY(compare);
        QVERIFY(waitFor([&] { return compare->runA() == 5 && compare->runB() == 6; }));
        // "Compare modes" brings the comparison to the front (it is tabbed behind the graph).
        QVERIFY(waitFor([&] { return compare->isVisible(); }));
        // The matrix product is matched across modes although its kernels differ by name. The
        // first comparison may be of a snapshot of run 2 read before its kernels were committed
        // (every kernel "only in A"); the panel compares again when the session re-reads it.
        auto matchedMatmul = [&] {
            for (int r = 0; r < compare->model().rowCount(); ++r) {
                const views::ComparisonRow* row = compare->model().rowAt(r);
                if (row->status == views::MatchStatus::Matched &&
                    row->nodesText().contains("matmul"))
                    return true;
            }
            return false;
        };
        QVERIFY(waitFor(matchedMatmul));
        QVERIFY(!compare->chartCategories().isEmpty());
        // The config diff shows what max-autotune changed, with where the value came from.
        auto* config = qobject_cast<views::ConfigPanel*>(w.panel("config"));
        QVERIFY(config);
        QVERIFY(waitFor([&] { return config->model().rowOfOption("max_autotune") >= 0; }));
        const int row = config->model().rowOfOption("max_autotune");
        QVERIFY(config->model().columnCount() >= 3);
        bool sawModeValue = false;
        for (int c = 0; c < config->model().columnCount(); ++c) {
            QString cell = config->model().index(row, c).data().toString();
            if (cell.contains("True") && cell.contains("mode")) sawModeValue = true;
        }
        QVERIFY(sawModeValue);
    }

    void exportThePostFusionDiagramAsPng() {
        studio::MainWindow w;
        w.useDefaultLayout();
        w.resize(1600, 1000);
        w.show();
        QSignalSpy ready(&w, &studio::MainWindow::ready);
        QVERIFY(w.openFile(m_dir.filePath("graph_breaks.kiln")));
        QVERIFY(waitFor([&] { return !ready.isEmpty(); }));
        auto* graph = qobject_cast<views::GraphPanel*>(w.panel("graph"));
        QVERIFY(graph);
        QSignalSpy shown(graph, &views::GraphPanel::diagramShown);
        // The first graph of fn: a matrix product and a sine, more than one kernel.
        const views::SnapshotPtr held = w.selection().snapshot(); // kept across event loops
        QVERIFY(held);
        const views::RunSnapshot& run = *held;
        w.selection().selectCompile("0/0"); // already selected when the run opened: no change
        QVERIFY(waitFor([&] {
            return !shown.isEmpty() || (graph->message().isEmpty() && !graph->dot().isEmpty());
        }));
        QVERIFY(!graph->preFusion());
        QVERIFY(graph->dot().contains("digraph"));
        QString png = m_dir.filePath("post_fusion.png");
        QString error;
        QVERIFY2(graph->exportDiagram(png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100 && image.height() > 100);
        QVERIFY(!run.kernelsOf(w.selection().state().graphId).empty());
    }
};

QTEST_MAIN(StudioAcceptanceTest)
#include "tst_studio_acceptance.moc"
