// SPDX-License-Identifier: MIT
// The GPU workloads under the kiln binary (label gpu; skipped without a GPU): every case of
// tests/gpu/workloads/gpu_numerics.py runs eagerly on the GPU, compiled on the GPU and on the
// CPU, and must agree; the trace of a compiled GPU run holds its kernels' CUDA source and one
// CUPTI launch record per call, on cuda:0, with the launch geometry.
#include "runtime/device_probe.h"
#include "trace/trace_reader.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;

class TstGpuWorkloads : public QObject {
    Q_OBJECT

    QString kiln() const { return QString(qgetenv("KILN_BINARY_DIR")) + "/bin/kiln"; }
    QString source(const char* path) const {
        return QString(qgetenv("KILN_SOURCE_DIR")) + "/" + path;
    }

    QString run(const QStringList& args, int* exitCode) {
        QProcess p;
        p.start(kiln(), args);
        p.waitForFinished(600000);
        *exitCode = p.exitCode();
        return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    }

private slots:
    void initTestCase() {
        const runtime::CudaProbe& probe = runtime::probeCuda();
        if (!probe.available())
            QSKIP(qPrintable("SKIP no CUDA device: " + QString::fromStdString(probe.problem)));
    }

    void numericsAgreeWithTheCpu() {
        QTemporaryDir dir;
        int code = -1;
        QString out = run({"run", "--db", dir.filePath("n.kiln"),
                           source("tests/gpu/workloads/gpu_numerics.py")},
                          &code);
        QVERIFY2(code == 0, qPrintable(out));
        QVERIFY2(out.contains("failures: 0"), qPrintable(out));
        QVERIFY2(!out.contains("FAIL "), qPrintable(out));
    }

    void compiledKernelsHaveCudaSourceAndCuptiLaunches() {
        QTemporaryDir dir;
        QFile script(dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("import torch\n"
                     "f = torch.compile(lambda x: torch.softmax(x * 2, -1))\n"
                     "x = torch.randn(256, 1000, device='cuda')\n"
                     "for _ in range(5):\n"
                     "    y = f(x)\n"
                     "print(y.sum(1).cpu()[:2])\n");
        script.close();
        int code = -1;
        QString out = run({"run", "--db", dir.filePath("w.kiln"), script.fileName()}, &code);
        QVERIFY2(code == 0, qPrintable(out));
        auto reader = trace::TraceReader::open(dir.filePath("w.kiln").toStdString());
        QVERIFY(reader.ok());
        auto runs = reader.value()->listRuns();
        QVERIFY(runs.ok() && !runs.value().empty());
        int64_t runId = runs.value().back().id;
        auto kernels = reader.value()->kernels(runId);
        QVERIFY(kernels.ok());
        QCOMPARE(kernels.value().size(), size_t(1));
        const auto& k = kernels.value()[0];
        QVERIFY2(k.sourceCode.find("extern \"C\" __global__") != std::string::npos,
                 k.sourceCode.c_str());
        auto launches = reader.value()->kernelLaunches(runId);
        QVERIFY(launches.ok());
        // One per call (the first call's is the run capture makes as it finishes the trace).
        QCOMPARE(launches.value().size(), size_t(5));
        for (const auto& l : launches.value()) {
            QCOMPARE(l.kernelId, k.kernelId);
            QCOMPARE(QString::fromStdString(l.device), QStringLiteral("cuda:0"));
            QVERIFY(l.endNs > l.startNs);
            QVERIFY2(l.grid.rfind("(", 0) == 0 && l.block.rfind("(", 0) == 0, l.grid.c_str());
            QVERIFY(l.registers > 0);
        }
    }
};

QTEST_GUILESS_MAIN(TstGpuWorkloads)
#include "tst_gpu_workloads.moc"
