// SPDX-License-Identifier: MIT
// torch.compile as recorded in the trace database by `kiln run`: the bundled graph-breaks
// workload's frames, compiles, breaks, recompiles, graphs and config; the run overrides
// (--backend, --mode); and capture rows readable while the run is still going.
#include "script_runner.h"
#include "trace/trace_reader.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <set>

using namespace kiln;
using kiln::testing::binaryDir;
using kiln::testing::sourceDir;

namespace {

/// Runs kiln; returns its exit status (-1 when it did not finish) and what it printed.
int runKiln(const QStringList& args, QString* err = nullptr, QString* out = nullptr) {
    QProcess p;
    p.start(binaryDir() + "/bin/kiln", args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    if (err) *err = QString::fromUtf8(p.readAllStandardError());
    if (out) *out = QString::fromUtf8(p.readAllStandardOutput());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

int runKilnOut(const QStringList& args, QString& out) {
    return runKiln(args, nullptr, &out);
}

std::unique_ptr<trace::TraceReader> openTrace(const QString& path) {
    auto reader = trace::TraceReader::open(path.toStdString());
    return reader.ok() ? std::move(reader).value() : nullptr;
}

template <typename T>
std::vector<T> rows(Expected<std::vector<T>> result) {
    return result.ok() ? std::move(result).value() : std::vector<T>{};
}

} // namespace

class CaptureTraceTest : public QObject {
    Q_OBJECT

private slots:
    void graphBreaksWorkloadIsRecorded() {
        QTemporaryDir dir;
        QString db = dir.filePath("gb.kiln");
        QString script = sourceDir() + "/resources/workloads/graph_breaks.py";
        QCOMPARE(runKiln({"run", script, "--db", db, "--quiet"}), 0);
        auto reader = openTrace(db);
        QVERIFY(reader);
        auto runs = rows(reader->listRuns());
        QCOMPARE(runs.size(), size_t(1));
        const int64_t run = runs[0].id;

        auto frames = rows(reader->frames(run));
        QStringList names;
        for (const auto& f : frames)
            names << QString::fromStdString(f.function);
        QVERIFY2(names.contains("fn") && names.contains("scaled") &&
                     names.contains("torch_dynamo_resume_in_fn_at_8"),
                 qPrintable(names.join(", ")));

        auto breaks = rows(reader->graphBreaks(run));
        QCOMPARE(breaks.size(), size_t(3));
        QCOMPARE(breaks[0].line, 8);
        QCOMPARE(breaks[0].reasonKind, std::string("side_effect"));
        QCOMPARE(breaks[1].line, 9);
        QCOMPARE(breaks[1].reason, std::string("generic_jump TensorVariable()"));
        QCOMPARE(breaks[2].line, 13);
        QCOMPARE(breaks[2].reason, std::string("Tensor.item"));
        QVERIFY(breaks[2].userStack.find("s = b.mean().item()") != std::string::npos);

        auto compiles = rows(reader->compiles(run));
        int recompiled = 0;
        for (const auto& c : compiles) {
            QVERIFY2(!c.status.empty() && c.durationNs, c.compileId.c_str()); // all finished
            QCOMPARE(c.backend, std::string("inductor"));
            recompiled += c.reason == "recompile";
        }
        auto recompiles = rows(reader->recompiles(run));
        QVERIFY(recompiled >= 4); // size, float constant, bool, dtype
        bool sizeChange = false;
        for (const auto& r : recompiles)
            sizeChange |= r.reason.find("size mismatch at index 0. expected 8, actual 16") !=
                          std::string::npos;
        QVERIFY(sizeChange);

        auto graphs = rows(reader->graphs(run));
        QVERIFY(graphs.size() >= 4);
        bool symbolic = false;
        for (const auto& g : graphs)
            symbolic |= g.readableCode.find("s0") != std::string::npos;
        QVERIFY(symbolic);
        auto nodes = rows(reader->graphNodes(graphs[0].id));
        QVERIFY(!nodes.empty());
        QCOMPARE(nodes[0].op, std::string("placeholder"));
        bool matmul = false;
        for (const auto& n : nodes)
            matmul |= n.target == "operator.matmul" && n.sourceLine == 7 && n.shape == "[64, 64]" &&
                      n.dtype == "torch.float32";
        QVERIFY(matmul);

        auto config = rows(reader->config(run));
        bool cacheLimit = false;
        for (const auto& c : config)
            cacheLimit |= c.key == "cache_size_limit" && c.value == "64";
        QVERIFY(cacheLimit);
    }

    void trainingRunShowsItsAotGraphs() {
        // A compiled model trained for a few steps: its graph's forward and backward graphs are
        // in the trace (the forward with what it saves), the CLI shows them, and kernels say
        // which of the two they belong to.
        QTemporaryDir dir;
        QString db = dir.filePath("train.kiln");
        QString script = sourceDir() + "/resources/workloads/train_mlp.py";
        QCOMPARE(runKiln({"run", script, "--db", db, "--quiet"}), 0);
        auto reader = openTrace(db);
        QVERIFY(reader);
        auto graphs = rows(reader->graphs(1));
        QVERIFY(!graphs.empty());
        auto aot = rows(reader->aotGraphs(graphs[0].id));
        QStringList kinds;
        for (const auto& g : aot)
            kinds << QString::fromStdString(g.kind);
        QCOMPARE(kinds, (QStringList{"aot_joint", "aot_forward", "aot_backward"}));
        QVERIFY(aot[1].savedCount > 0 && aot[1].savedBytes > 0);
        QCOMPARE(int(trace::savedTensorsOf(aot[1]).size()), aot[1].savedCount);
        std::set<std::string> passes;
        for (const auto& k : rows(reader->graphKernels(graphs[0].id)))
            passes.insert(k.graphKind);
        QCOMPARE(passes, (std::set<std::string>{"aot_backward", "aot_forward"}));

        QString out;
        QCOMPARE(runKilnOut({"compiles", db}, out), 0);
        QVERIFY2(out.contains(QString("aot: forward graph %1 (").arg(aot[1].id)) &&
                     out.contains(QString("backward graph %1 (").arg(aot[2].id)) &&
                     out.contains(QString("saves %1 tensors").arg(aot[1].savedCount)),
                 qPrintable(out));
        QCOMPARE(runKilnOut({"graph", db, QString::fromStdString(graphs[0].compileId)}, out), 0);
        QVERIFY2(out.contains("# AOT joint graph") && out.contains("# AOT forward graph") &&
                     out.contains("# AOT backward graph") && out.contains("tangents_1") &&
                     out.contains("#   saves "),
                 qPrintable(out));
        QCOMPARE(runKilnOut({"kernels", db}, out), 0);
        QVERIFY2(out.contains(" forward ") && out.contains(" backward "), qPrintable(out));
    }

    void headlessViewsOfTheCapture() {
        QTemporaryDir dir;
        QString db = dir.filePath("gb.kiln");
        QString script = sourceDir() + "/resources/workloads/graph_breaks.py";
        QCOMPARE(runKiln({"run", script, "--db", db, "--quiet"}), 0);
        QString out;
        QCOMPARE(runKilnOut({"breaks", db}, out), 0);
        QVERIFY2(out.contains("#3 [2/0] ") && out.contains(":13:9 item\n    Tensor.item\n"),
                 qPrintable(out));
        QCOMPARE(runKilnOut({"compiles", db}, out), 0);
        QVERIFY2(out.contains("torch_dynamo_resume_in_fn_at_8 (line 8)") &&
                     out.contains("entry 4/0 failed: L['x'] (expected torch.float32 [8, 128], "
                                  "actual torch.float32 [16, 128])"),
                 qPrintable(out));
        QCOMPARE(runKilnOut({"graph", db, "4/1"}, out), 0);
        // The size symbol is an input of its own, before its tensor, as in PyTorch 2.3.
        QVERIFY2(out.contains("def forward(self, s0 : torch.SymInt, L_x_ : \"f32[s0, 128]\")") &&
                     out.contains("SHAPE_ENV    2 <= L['x'].size()[0]"),
                 qPrintable(out));
        QCOMPARE(runKilnOut({"graph", db, "9/9"}, out), 2);
    }

    void overridesApplyToEveryCompile() {
        QTemporaryDir dir;
        QString db = dir.filePath("o.kiln");
        QString script = sourceDir() + "/resources/workloads/graph_breaks.py";
        QCOMPARE(runKiln({"run", script, "--db", db, "--quiet", "--mode", "max-autotune"}), 0);
        QCOMPARE(runKiln({"run", script, "--db", db, "--quiet", "--backend", "eager"}), 0);
        QString err;
        QCOMPARE(runKiln({"run", script, "--db", db, "--quiet", "--fullgraph"}, &err), 1);
        QVERIFY2(err.contains("torch._dynamo.exc.Unsupported: builtin: print"), qPrintable(err));
        auto reader = openTrace(db);
        QVERIFY(reader);
        auto runs = rows(reader->listRuns());
        QCOMPARE(runs.size(), size_t(3));
        QCOMPARE(runs[0].mode, std::string("max-autotune"));
        for (const auto& c : rows(reader->compiles(runs[0].id)))
            QCOMPARE(c.mode, std::string("max-autotune"));
        bool autotune = false;
        for (const auto& c : rows(reader->config(runs[0].id)))
            autotune |= c.key == "max_autotune" && c.value == "True" && c.source == "mode";
        QVERIFY(autotune);
        for (const auto& c : rows(reader->compiles(runs[1].id)))
            QCOMPARE(c.backend, std::string("eager"));
        QCOMPARE(runs[2].status, trace::RunStatus::Error);
        QCOMPARE(QString::fromStdString(runs[2].errorType), QString("Unsupported"));
    }

    void compilesAreReadableWhileTheRunIsGoing() {
        QTemporaryDir dir;
        QString script = dir.filePath("live.py");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("import torch\n"
                "def f(x):\n"
                "    return torch.sin(x) * 2\n"
                "torch.compile(f, backend='eager')(torch.ones(4))\n"
                "print('compiled')\n"
                "n = 0\n"
                "while True:\n"
                "    n += 1\n");
        f.close();
        QString db = dir.filePath("live.kiln");
        QProcess p;
        p.start(binaryDir() + "/bin/kiln",
                {"run", script, "--db", db, "--quiet", "--timeout", "60"});
        QVERIFY(p.waitForStarted());
        std::vector<trace::CompileRow> compiles;
        std::vector<trace::RunRow> runs;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 30000 && (compiles.empty() || compiles[0].status.empty())) {
            if (auto reader = openTrace(db)) {
                runs = rows(reader->listRuns());
                if (!runs.empty()) compiles = rows(reader->compiles(runs[0].id));
            }
            QThread::msleep(20);
        }
        QVERIFY2(!compiles.empty(), "the compile never appeared in the trace");
        QCOMPARE(compiles[0].status, std::string("ok"));
        QCOMPARE(runs[0].status, trace::RunStatus::Running);
        p.kill();
        p.waitForFinished();
    }
};

QTEST_GUILESS_MAIN(CaptureTraceTest)
#include "tst_capture_trace.moc"
