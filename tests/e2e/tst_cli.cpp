// SPDX-License-Identifier: MIT
// End-to-end tests of the kiln executable, run as a user runs it: the README's main-job path
// on the demo workload, trace files next to the workload and appended to, the headless trace
// commands, exit statuses, and output that a second reader sees while the run is going.
#include "kiln_process.h"
#include "script_runner.h"
#include "trace/trace_reader.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;
using kiln::testing::binaryDir;
using kiln::testing::sourceDir;

namespace {

struct ProcessResult {
    int exitCode = -1;
    QString out, err;
};

QString kilnPath() {
    return binaryDir() + "/bin/kiln";
}

ProcessResult runKiln(const QStringList& args, const QString& workDir = {},
                      int timeoutMs = 120000) {
    QProcess p;
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.start(kilnPath(), args);
    ProcessResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "kiln did not finish in time";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString writeScript(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return path;
}

std::vector<trace::RunRow> runsOf(const QString& tracePath) {
    auto reader = trace::TraceReader::open(tracePath.toStdString());
    if (!reader.ok()) return {};
    auto runs = reader.value()->listRuns();
    return runs.ok() ? runs.value() : std::vector<trace::RunRow>{};
}

std::vector<trace::OutputLine> outputOf(const QString& tracePath, int64_t runId) {
    auto reader = trace::TraceReader::open(tracePath.toStdString());
    if (!reader.ok()) return {};
    auto lines = reader.value()->outputLines(runId, 0, 100000);
    return lines.ok() ? lines.value() : std::vector<trace::OutputLine>{};
}

} // namespace

class CliTest : public QObject {
    Q_OBJECT

private slots:
    void demoRunsAndIsRecordedNextToTheWorkload() {
        // The README's first command ends in `kiln run resources/workloads/demo.py`; run the
        // same workload from a copy so the test does not write into the source tree.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(sourceDir() + "/resources/workloads/demo.py", dir.filePath("demo.py")));
        ProcessResult r = runKiln({"run", "demo.py"}, dir.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("TinyNet("));
        QVERIFY(r.out.contains("parameters: 1,348"));
        QVERIFY2(r.err.contains("recorded as run 1 in " + dir.filePath("demo.kiln")),
                 qPrintable(r.err));
        auto runs = runsOf(dir.filePath("demo.kiln"));
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Ok);
        QCOMPARE(runs[0].workloadPath, dir.filePath("demo.py").toStdString());
        QCOMPARE(runs[0].exitCode.value_or(-1), int64_t(0));
        // Every printed line is in the trace, in order.
        QStringList printed = r.out.split('\n', Qt::SkipEmptyParts);
        auto lines = outputOf(dir.filePath("demo.kiln"), runs[0].id);
        QCOMPARE(lines.size(), size_t(printed.size()));
        for (size_t i = 0; i < lines.size(); ++i)
            QCOMPARE(QString::fromStdString(lines[i].text), printed[int(i)]);

        // A second run appends to the same trace instead of overwriting it.
        ProcessResult again = runKiln({"run", "demo.py", "--quiet"}, dir.path());
        QCOMPARE(again.exitCode, 0);
        QVERIFY(again.err.isEmpty());
        QCOMPARE(runsOf(dir.filePath("demo.kiln")).size(), size_t(2));
    }

    void bundledModelsCompileTheirModel() {
        // mlp.py and transformer_block.py show what torch.compile does with them: one compiled
        // frame, no graph break, kernels launched on every one of the 20 calls.
        for (const char* name : {"mlp", "transformer_block"}) {
            QTemporaryDir dir;
            QString script = dir.filePath(QString(name) + ".py");
            QVERIFY(QFile::copy(sourceDir() + "/resources/workloads/" + name + ".py", script));
            ProcessResult r = runKiln({"run", script, "--quiet"}, dir.path());
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QString trace = dir.filePath(QString(name) + ".kiln");
            ProcessResult compiles = runKiln({"compiles", trace});
            QCOMPARE(compiles.exitCode, 0);
            QStringList rows = compiles.out.split('\n', Qt::SkipEmptyParts);
            QCOMPARE(rows.size(), 3); // the header, one compile and its AOT graph
            QVERIFY2(rows[1].contains(" ok ") && rows[1].contains("inductor"), qPrintable(rows[1]));
            QVERIFY2(rows[2].trimmed().startsWith("aot: inference graph"), qPrintable(rows[2]));
            QCOMPARE(runKiln({"breaks", trace}).out.trimmed(), QString("no graph breaks"));
            ProcessResult kernels = runKiln({"kernels", trace});
            QCOMPARE(kernels.exitCode, 0);
            QStringList launched = kernels.out.split('\n', Qt::SkipEmptyParts).mid(1);
            QVERIFY2(launched.size() >= 5, qPrintable(kernels.out));
            for (const QString& row : launched) {
                QStringList cells = row.simplified().split(' ');
                QVERIFY2(cells.value(3) == "inference" && cells.value(4) == "20", qPrintable(row));
            }
        }
    }

    void evalBatchNormFusesWithItsReluAndTheNoGradGraphCompiles() {
        // conv -> BatchNorm (eval) -> ReLU inside `with torch.no_grad()`: one pointwise kernel
        // computes the normalisation and the ReLU; the convolution is an extern kernel, as
        // Inductor's extern_kernels.convolution.
        QTemporaryDir dir;
        QString script = writeScript(
            dir, "cnn.py",
            "import torch\nimport torch.nn as nn\n"
            "m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU()).eval()\n"
            "def f(x):\n    with torch.no_grad():\n        return m(x)\n"
            "x = torch.randn(2, 3, 8, 8)\n"
            "print(torch.allclose(torch.compile(f)(x), f(x), atol=1e-5))\n");
        ProcessResult r = runKiln({"run", script});
        QVERIFY2(r.exitCode == 0 && r.out == "True\n", qPrintable(r.out + r.err));
        ProcessResult kernels = runKiln({"kernels", dir.filePath("cnn.kiln")});
        QRegularExpression conv("extern_convolution\\s+extern");
        QVERIFY2(kernels.out.contains(conv), qPrintable(kernels.out));
        QRegularExpression fused("kiln_poi_fused_\\w*batch_?norm\\w*relu\\w*\\s+pointwise");
        QVERIFY2(kernels.out.contains(fused), qPrintable(kernels.out));
    }

    void traceCommandsShowRunsAndOutput() {
        QTemporaryDir dir;
        QString script = writeScript(dir, "hello.py", "print('hello')\nprint('world', 42)\n");
        QVERIFY(runKiln({"run", script, "--quiet"}).exitCode == 0);
        QString trace = dir.filePath("hello.kiln");
        ProcessResult runs = runKiln({"runs", trace});
        QCOMPARE(runs.exitCode, 0);
        QVERIFY2(runs.out.contains("ok") && runs.out.contains(script), qPrintable(runs.out));
        ProcessResult output = runKiln({"output", trace});
        QCOMPARE(output.exitCode, 0);
        QCOMPARE(output.out, QString("hello\nworld 42\n"));
    }

    void explicitDbPathAndVersion() {
        QTemporaryDir dir;
        QString script = writeScript(dir, "x.py", "print(1 + 1)\n");
        QString db = dir.filePath("elsewhere/custom.kiln");
        QDir().mkpath(dir.filePath("elsewhere"));
        ProcessResult r = runKiln({"run", script, "--db", db});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QString("2\n"));
        QCOMPARE(runsOf(db).size(), size_t(1));
        QVERIFY(!QFile::exists(dir.filePath("x.kiln")));
        ProcessResult v = runKiln({"version"});
        QCOMPARE(v.exitCode, 0);
        QVERIFY(v.out.startsWith("kiln "));
    }

    void usageErrorsExitWithTwo() {
        QCOMPARE(runKiln({}).exitCode, 2);
        QCOMPARE(runKiln({"frobnicate"}).exitCode, 2);
        QCOMPARE(runKiln({"run"}).exitCode, 2);
        QTemporaryDir dir;
        ProcessResult missing = runKiln({"run", dir.filePath("nope.py")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("No such file or directory"), qPrintable(missing.err));
        QString script = writeScript(dir, "x.py", "pass\n");
        ProcessResult badTimeout = runKiln({"run", script, "--timeout", "soon"});
        QCOMPARE(badTimeout.exitCode, 2);
        ProcessResult badDevice = runKiln({"run", script, "--device", "tpu"});
        QCOMPARE(badDevice.exitCode, 2);
        QVERIFY(badDevice.err.contains("unknown device 'tpu'"));
    }

    void cudaWithoutGpuIsAClearError() {
        QTemporaryDir dir;
        QString script = writeScript(dir, "x.py", "print('never')\n");
        ProcessResult r = runKiln({"run", script, "--device", "cuda"});
        if (r.exitCode == 0) QSKIP("this machine has a usable CUDA GPU");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("kiln: error: DeviceError: --device cuda: no CUDA device was "
                                "found: "),
                 qPrintable(r.err));
        QVERIFY(!r.out.contains("never"));
    }

    void theToolkitStubIsNamedAsTheReason() {
        const QString stub = "/usr/local/cuda/lib/stubs/libcuda.so";
        if (!QFileInfo::exists(stub)) QSKIP("the CUDA toolkit's driver stub is not installed");
        QTemporaryDir dir;
        QString script = writeScript(dir, "x.py", "print('never')\n");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("KILN_CUDA_DRIVER", stub);
        kiln::testing::KilnProcess r =
            kiln::testing::runKilnBinary({"run", script, "--device", "cuda"}, dir.path(), env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--device cuda: no CUDA device was found: libcuda.so.1 is the "
                                "CUDA toolkit's stub library, not an NVIDIA driver (cuInit "
                                "returned CUDA_ERROR_STUB_LIBRARY)"),
                 qPrintable(r.err));
    }

    void cudaTensorsInAScriptWithoutGpuRaise() {
        QTemporaryDir dir;
        QString script = writeScript(dir, "x.py",
                                     "import torch\n"
                                     "print(torch.cuda.is_available())\n"
                                     "x = torch.zeros(3, device='cuda')\n");
        ProcessResult r = runKiln({"run", script, "--quiet"});
        if (r.out.startsWith("True")) QSKIP("this machine has a usable CUDA GPU");
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QString("False\n"));
        QVERIFY2(r.err.contains("line 3, in <module>"), qPrintable(r.err));
        QVERIFY2(r.err.contains("\nRuntimeError: no CUDA device was found: "), qPrintable(r.err));
    }

    void outputIsReadableWhileTheRunIsGoing() {
        QTemporaryDir dir;
        // Prints, then computes for a while (no sleeping in workloads: a long loop).
        QString script = writeScript(dir, "slow.py",
                                     "print('started')\n"
                                     "print('still here')\n"
                                     "n = 0\n"
                                     "while True:\n"
                                     "    n += 1\n");
        QString trace = dir.filePath("slow.kiln");
        QProcess p;
        p.start(kilnPath(), {"run", script, "--quiet", "--timeout", "60"});
        QVERIFY(p.waitForStarted());
        std::vector<trace::OutputLine> seen;
        std::vector<trace::RunRow> runs;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 30000) {
            runs = runsOf(trace);
            if (!runs.empty()) seen = outputOf(trace, runs[0].id);
            if (seen.size() == 2) break;
            QThread::msleep(20);
        }
        QVERIFY2(seen.size() == 2, "the output never appeared in the trace");
        QCOMPARE(QString::fromStdString(seen[0].text), QString("started"));
        QCOMPARE(runs[0].status, trace::RunStatus::Running); // seen before the run ended
        QCOMPARE(p.state(), QProcess::Running);
        // A killed runner leaves its run 'running'; readers recognise it as crashed.
        p.kill();
        p.waitForFinished();
        runs = runsOf(trace);
        QCOMPARE(runs[0].status, trace::RunStatus::Running);
        QVERIFY(trace::TraceReader::runLooksCrashed(runs[0]));
        QCOMPARE(outputOf(trace, runs[0].id).size(), size_t(2));
    }

    void timeoutCancelsTheRun() {
        QTemporaryDir dir;
        QString script = writeScript(dir, "spin.py",
                                     "def work():\n"
                                     "    total = 0\n"
                                     "    while True:\n"
                                     "        total += 1\n"
                                     "print('spinning')\n"
                                     "work()\n");
        QElapsedTimer timer;
        timer.start();
        ProcessResult r = runKiln({"run", script, "--timeout", "0.5"});
        QCOMPARE(r.exitCode, 124);
        QVERIFY2(timer.elapsed() < 10000, "the timeout did not stop the run promptly");
        QVERIFY2(r.err.contains("KeyboardInterrupt"), qPrintable(r.err));
        QVERIFY2(r.err.contains("kiln: cancelled"), qPrintable(r.err));
        auto runs = runsOf(dir.filePath("spin.kiln"));
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Cancelled);
        QCOMPARE(runs[0].exitCode.value_or(-1), int64_t(124));
        QVERIFY(runs[0].errorMessage.find("--timeout") != std::string::npos);
        QCOMPARE(outputOf(dir.filePath("spin.kiln"), runs[0].id).front().text,
                 std::string("spinning"));
    }

    void timeoutStopsALoopInsideABuiltin() {
        // sum() iterates in native code: it checks for cancellation as a Python loop does, so
        // the run ends with a KeyboardInterrupt at the call, not after a hard kill.
        QTemporaryDir dir;
        QString script = writeScript(dir, "native.py", "print(sum(range(10 ** 15)))\n");
        QElapsedTimer timer;
        timer.start();
        ProcessResult r = runKiln({"run", script, "--timeout", "0.5"});
        QCOMPARE(r.exitCode, 124);
        QVERIFY2(timer.elapsed() < 10000, "the timeout did not stop the run promptly");
        QVERIFY2(r.err.contains("print(sum(range(10 ** 15)))") &&
                     r.err.contains("KeyboardInterrupt: run cancelled"),
                 qPrintable(r.err));
        QCOMPARE(runsOf(dir.filePath("native.kiln")).at(0).status, trace::RunStatus::Cancelled);
    }
};

QTEST_GUILESS_MAIN(CliTest)
#include "tst_cli.moc"
