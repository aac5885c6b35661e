// SPDX-License-Identifier: MIT
// Kiln Studio's table models on a fixture trace from a real `kiln run` (a compiled workload
// with a graph break and a recompile), fed the way Studio feeds them: the run list and the run's
// snapshot come from a TraceSession's worker thread. Each model is checked by
// QAbstractItemModelTester and shows what the CLI shows.
#include "kiln_process.h"
#include "trace_models.h"
#include "trace_session.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;

namespace {

const char* kWorkload = "import torch\n"
                        "@torch.compile\n"
                        "def f(x):\n"
                        "    y = torch.sin(x) + torch.cos(x)\n"
                        "    print('between graphs')\n"
                        "    return torch.softmax(y * 2, dim=-1)\n"
                        "for i in range(3):\n"
                        "    f(torch.randn(8, 16))\n"
                        "g = torch.compile(lambda x: x * 2, backend='eager')\n"
                        "g(torch.ones(3))\n"
                        "g(torch.ones(5))\n";

/// Whether the spy has caught its signal, waiting up to 10 s (the worker may emit before
/// wait() starts, and wait() counts only what arrives while it waits).
bool arrived(QSignalSpy& spy) {
    return !spy.isEmpty() || spy.wait(10000) || !spy.isEmpty();
}

} // namespace

class TraceModelsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    views::TraceSession m_session;
    views::SnapshotPtr m_run1;

private slots:
    void initTestCase() {
        QFile script(m_dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(kWorkload);
        script.close();
        testing::KilnProcess run = testing::runKilnBinary({"run", "w.py", "--quiet"}, m_dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QSignalSpy runs(&m_session, &views::TraceSession::runsChanged);
        m_session.open(m_dir.filePath("w.kiln"));
        QVERIFY(arrived(runs));
        QSignalSpy ready(&m_session, &views::TraceSession::snapshotReady);
        m_session.requestSnapshot(1);
        QVERIFY(arrived(ready));
        m_run1 = m_session.snapshot(1);
        QVERIFY(m_run1);
    }

    void runsModel() {
        views::RunsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(m_session.runs());
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.data(model.index(0, 1)).toString(), QString("w.py"));
        QCOMPARE(model.data(model.index(0, 4)).toString(), QString("cpu"));
        QCOMPARE(model.data(model.index(0, 5)).toString(), QString("ok"));
        QVERIFY(model.data(model.index(0, 6)).toDouble() > 0);
        // Where it ran, as the runner reported it (a runner that reports nothing leaves it
        // empty, with the reason in the tooltip).
        QCOMPARE(model.headerData(7, Qt::Horizontal).toString(), QString("machine"));
        const trace::RunRow& run = m_session.runs()->front();
        QCOMPARE(model.data(model.index(0, 7)).toString(),
                 QString::fromStdString(trace::machineSummary(run.machine)));
        QVERIFY(!model.data(model.index(0, 7), Qt::ToolTipRole).toString().isEmpty());
    }

    void kernelsModelJoinsLaunchStatistics() {
        views::KernelsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setKernels(views::shareRows(m_run1->kernels));
        QStringList names;
        double share = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            names << model.data(model.index(r, 0)).toString();
            QCOMPARE(model.data(model.index(r, 3)).toLongLong(), 3ll); // launched once per call
            QVERIFY(model.data(model.index(r, 4)).toDouble() > 0);
            share += model.data(model.index(r, 6)).toDouble();
        }
        QCOMPARE(names,
                 (QStringList{"kiln_poi_fused_add_cos_sin_0", "kiln_red_fused_mul_softmax_0"}));
        QVERIFY(qAbs(share - 100.0) < 1e-6);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QString("kernel"));
    }

    void graphBreaksModelInExecutionOrder() {
        views::GraphBreaksModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(views::shareRows(m_run1->graphBreaks));
        QVERIFY(model.rowCount() >= 1);
        QCOMPARE(model.data(model.index(0, 0)).toInt(), 1);
        QCOMPARE(model.data(model.index(0, 2)).toString(), QString("w.py:5:5"));
        QVERIFY2(model.data(model.index(0, 4)).toString().contains("print"),
                 qPrintable(model.data(model.index(0, 4)).toString()));
    }

    void compilesGuardsAndRecompiles() {
        views::CompilesModel compiles;
        QAbstractItemModelTester t1(&compiles,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        compiles.setRows(views::shareRows(m_run1->compiles));
        QStringList ids;
        for (int r = 0; r < compiles.rowCount(); ++r)
            ids << compiles.data(compiles.index(r, 0)).toString();
        QVERIFY2(ids.contains("0/0") && ids.contains("2/1"), qPrintable(ids.join(' ')));
        views::GuardsModel guards;
        QAbstractItemModelTester t2(&guards,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        guards.setRows(views::shareRows(m_run1->guards));
        bool tensorMatch = false;
        for (int r = 0; r < guards.rowCount(); ++r)
            tensorMatch =
                tensorMatch || guards.data(guards.index(r, 1)).toString() == "TENSOR_MATCH";
        QVERIFY(tensorMatch);
        views::RecompilesModel recompiles;
        QAbstractItemModelTester t3(&recompiles,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        recompiles.setRows(views::shareRows(m_run1->recompiles));
        QCOMPARE(recompiles.rowCount(), 1);
        QCOMPARE(recompiles.data(recompiles.index(0, 0)).toString(), QString("2/1"));
        QCOMPARE(recompiles.data(recompiles.index(0, 3)).toString(), QString("torch.float32 [3]"));
        QCOMPARE(recompiles.data(recompiles.index(0, 4)).toString(), QString("torch.float32 [5]"));
    }

    void configAndOutput() {
        views::ConfigModel config;
        QAbstractItemModelTester t1(&config,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        config.setRows(views::shareRows(m_run1->config));
        bool maxAutotune = false;
        for (int r = 0; r < config.rowCount(); ++r)
            if (config.data(config.index(r, 0)).toString() == "max_autotune") {
                maxAutotune = true;
                QCOMPARE(config.data(config.index(r, 1)).toString(), QString("False"));
                QCOMPARE(config.data(config.index(r, 3)).toString(), QString("default"));
            }
        QVERIFY(maxAutotune);
        views::OutputModel output;
        QAbstractItemModelTester t2(&output,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        output.setRows(views::shareRows(m_run1->output));
        QCOMPARE(output.rowCount(), 3);
        QCOMPARE(output.data(output.index(0, 0)).toString(), QString("stdout"));
        QCOMPARE(output.data(output.index(0, 2)).toString(), QString("between graphs"));
    }

    void unreadableTraceIsReportedNotFatal() {
        views::TraceSession session;
        QSignalSpy spy(&session, &views::TraceSession::failed);
        session.open(m_dir.filePath("missing.kiln"));
        QVERIFY(arrived(spy));
        QVERIFY(!spy.at(0).at(0).toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TraceModelsTest)
#include "tst_trace_models.moc"
