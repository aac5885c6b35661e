// SPDX-License-Identifier: MIT
// Kiln Studio's trace models on a fixture trace from a real `kiln run` (a compiled workload
// with a graph break): loaded on a worker thread, checked by QAbstractItemModelTester, and
// showing what the CLI shows.
#include "kiln_process.h"
#include "trace_models.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <atomic>

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

/// Whether the spy has caught its signal, waiting up to 5 s. The loader's thread may emit
/// before wait() starts, and wait() counts only what arrives while it waits.
bool arrived(QSignalSpy& spy) {
    return !spy.isEmpty() || spy.wait(5000) || !spy.isEmpty();
}

} // namespace

class TraceModelsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_trace;
    QThread m_worker;
    views::TraceLoader* m_loader = nullptr;

    /// Loads one table of run 1 through `load` and returns the snapshot the signal carried.
    template <typename Rows, typename Signal>
    Rows loadRun1(const char* load, Signal signal) {
        QSignalSpy spy(m_loader, signal);
        QMetaObject::invokeMethod(m_loader, load, Qt::QueuedConnection, Q_ARG(qint64, 1));
        if (!arrived(spy)) return {};
        return spy.at(0).at(1).template value<Rows>();
    }

private slots:
    void initTestCase() {
        views::registerTraceTypes();
        QFile script(m_dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(kWorkload);
        script.close();
        testing::KilnProcess run = testing::runKilnBinary({"run", "w.py", "--quiet"}, m_dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        m_trace = m_dir.filePath("w.kiln");
        m_loader = new views::TraceLoader(m_trace);
        m_loader->moveToThread(&m_worker);
        connect(&m_worker, &QThread::finished, m_loader, &QObject::deleteLater);
        m_worker.start();
    }

    void cleanupTestCase() {
        m_worker.quit();
        m_worker.wait();
    }

    void runsModel() {
        QSignalSpy spy(m_loader, &views::TraceLoader::runsLoaded);
        QMetaObject::invokeMethod(m_loader, "loadRuns", Qt::QueuedConnection);
        QVERIFY(arrived(spy));
        views::RunsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(spy.at(0).at(0).value<views::RunRows>());
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.data(model.index(0, 1)).toString(), QString("w.py"));
        QCOMPARE(model.data(model.index(0, 4)).toString(), QString("cpu"));
        QCOMPARE(model.data(model.index(0, 5)).toString(), QString("ok"));
        QVERIFY(model.data(model.index(0, 6)).toDouble() > 0);
    }

    void kernelsModelJoinsLaunchStatistics() {
        // The probe is connected before the spy, so it has run when the spy wakes us.
        std::atomic<QThread*> loadedOn{nullptr};
        auto probe = connect(
            m_loader, &views::TraceLoader::kernelsLoaded, m_loader,
            [&] { loadedOn = QThread::currentThread(); }, Qt::DirectConnection);
        QSignalSpy spy(m_loader, &views::TraceLoader::kernelsLoaded);
        QMetaObject::invokeMethod(m_loader, "loadKernels", Qt::QueuedConnection, Q_ARG(qint64, 1));
        QVERIFY(arrived(spy));
        disconnect(probe);
        QVERIFY2(loadedOn.load() && loadedOn.load() != QCoreApplication::instance()->thread(),
                 "the trace was read on the GUI thread");
        views::KernelsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setKernels(spy.at(0).at(1).value<views::KernelRecords>());
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
        QSignalSpy spy(m_loader, &views::TraceLoader::graphBreaksLoaded);
        QMetaObject::invokeMethod(m_loader, "loadGraphBreaks", Qt::QueuedConnection,
                                  Q_ARG(qint64, 1));
        QVERIFY(arrived(spy));
        views::GraphBreaksModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(spy.at(0).at(1).value<views::GraphBreakRows>());
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
        compiles.setRows(
            loadRun1<views::CompileRows>("loadCompiles", &views::TraceLoader::compilesLoaded));
        QStringList ids;
        for (int r = 0; r < compiles.rowCount(); ++r)
            ids << compiles.data(compiles.index(r, 0)).toString();
        QVERIFY2(ids.contains("0/0") && ids.contains("2/1"), qPrintable(ids.join(' ')));
        views::GuardsModel guards;
        QAbstractItemModelTester t2(&guards,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        guards.setRows(loadRun1<views::GuardRows>("loadGuards", &views::TraceLoader::guardsLoaded));
        bool tensorMatch = false;
        for (int r = 0; r < guards.rowCount(); ++r)
            tensorMatch =
                tensorMatch || guards.data(guards.index(r, 1)).toString() == "TENSOR_MATCH";
        QVERIFY(tensorMatch);
        views::RecompilesModel recompiles;
        QAbstractItemModelTester t3(&recompiles,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        recompiles.setRows(loadRun1<views::RecompileRows>("loadRecompiles",
                                                          &views::TraceLoader::recompilesLoaded));
        QCOMPARE(recompiles.rowCount(), 1);
        QCOMPARE(recompiles.data(recompiles.index(0, 0)).toString(), QString("2/1"));
        QCOMPARE(recompiles.data(recompiles.index(0, 3)).toString(), QString("torch.float32 [3]"));
        QCOMPARE(recompiles.data(recompiles.index(0, 4)).toString(), QString("torch.float32 [5]"));
    }

    void configAndOutput() {
        views::ConfigModel config;
        QAbstractItemModelTester t1(&config,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        config.setRows(
            loadRun1<views::ConfigRows>("loadConfig", &views::TraceLoader::configLoaded));
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
        output.setRows(
            loadRun1<views::OutputRows>("loadOutput", &views::TraceLoader::outputLoaded));
        QCOMPARE(output.rowCount(), 3);
        QCOMPARE(output.data(output.index(0, 0)).toString(), QString("stdout"));
        QCOMPARE(output.data(output.index(0, 2)).toString(), QString("between graphs"));
    }

    void unreadableTraceIsReportedNotFatal() {
        views::TraceLoader loader(m_dir.filePath("missing.kiln"));
        QSignalSpy spy(&loader, &views::TraceLoader::failed);
        loader.loadRuns();
        QCOMPARE(spy.count(), 1);
        QVERIFY(!spy.at(0).at(0).toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TraceModelsTest)
#include "tst_trace_models.moc"
