// SPDX-License-Identifier: MIT
// `kiln run --measure`: once the script has finished, each torch.compile'd function it called
// (outermost calls only) is called again with its latest arguments, warm-up then timed calls;
// each timed call is an event of category `measure` and every launch is recorded, so a
// comparison has many warm launches. Counts are forced with --measure-budget 0 (no time
// budget), so no outcome here depends on how fast anything ran.
#include "cli_helpers.h"
#include "kiln_process.h"

#include <QTemporaryDir>
#include <QtTest>
#include <map>

using namespace kiln;

namespace {

struct Measured {
    std::map<std::string, int> timedCalls; ///< events of category measure, by function
    std::map<std::string, int> launchesOfKernel;
    QString log;
};

Measured measuredOf(const QString& trace) {
    Measured m;
    auto reader = trace::TraceReader::open(trace.toStdString());
    if (!reader.ok()) return m;
    if (auto events = reader.value()->events(1); events.ok())
        for (const trace::EventRow& e : events.value())
            if (e.category == "measure") ++m.timedCalls[e.name];
    std::map<int64_t, std::string> names;
    if (auto kernels = reader.value()->kernels(1); kernels.ok())
        for (const trace::KernelRow& k : kernels.value())
            names[k.kernelId] = k.name;
    if (auto launches = reader.value()->kernelLaunches(1); launches.ok())
        for (const trace::KernelLaunchRow& l : launches.value())
            ++m.launchesOfKernel[names[l.kernelId]];
    for (const trace::OutputLine& line : testing::traceOutput(trace, 1))
        if (line.stream == OutputStream::Log) m.log += QString::fromStdString(line.text) + "\n";
    return m;
}

testing::KilnProcess runKiln(const QStringList& args, const QTemporaryDir& dir) {
    return testing::runKilnBinary(args, dir.path());
}

} // namespace

class MeasuredRunTest : public QObject {
    Q_OBJECT

private slots:
    void eachOutermostCompiledFunctionIsCalledAgain() {
        QTemporaryDir dir;
        QString script = testing::writeScriptFile(dir, "w.py",
                                                  "import torch\n"
                                                  "import torch.nn as nn\n"
                                                  "inner = torch.compile(lambda x: x.cos() + 1)\n"
                                                  "def outer(x, scale=1.0):\n"
                                                  "    return inner(x.sin() * scale) * 2\n"
                                                  "f = torch.compile(outer)\n"
                                                  "m = torch.compile(nn.Linear(8, 4))\n"
                                                  "x = torch.randn(16, 8)\n"
                                                  "f(x, scale=3.0)\n"
                                                  "f(x, scale=2.0)\n"
                                                  "print(m(x).shape)\n");
        testing::KilnProcess r = runKiln(
            {"run", script, "--measure", "6", "--warmup", "2", "--measure-budget", "0", "--quiet"},
            dir);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(testing::traceRuns(dir.filePath("w.kiln")).at(0).status, trace::RunStatus::Ok);
        Measured m = measuredOf(dir.filePath("w.kiln"));
        // outer (which calls inner) and the Linear module; inner only inside outer.
        QCOMPARE(m.timedCalls.size(), size_t(2));
        QCOMPARE(m.timedCalls["outer"], 6);
        QCOMPARE(m.timedCalls["Linear"], 6);
        QVERIFY2(m.log.contains("kiln: measured outer: 6 calls after 2 warm-up: median"),
                 qPrintable(m.log));
        // Each kernel ran in the script's calls and in the 2 + 6 measured ones.
        QVERIFY(!m.launchesOfKernel.empty());
        for (const auto& [name, launches] : m.launchesOfKernel)
            QVERIFY2(launches >= 2 + 6 + 1, name.c_str());
    }

    void aCallMadeUnderNoGradIsRepeatedUnderNoGrad() {
        // Issue 14: Compare modes on a script that ran its model in torch.no_grad() timed a
        // graph the script never ran: the repeated calls ran with grad on, failed the entry's
        // global-state guard and recompiled.
        QTemporaryDir dir;
        QString script = testing::writeScriptFile(dir, "g.py",
                                                  "import torch\n"
                                                  "f = torch.compile(lambda x: x.sin() + 1)\n"
                                                  "with torch.no_grad():\n"
                                                  "    f(torch.randn(8))\n"
                                                  "print(torch.is_grad_enabled())\n");
        testing::KilnProcess r =
            runKiln({"run", script, "--measure", "3", "--warmup", "1", "--quiet"}, dir);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QString("True\n"));
        auto reader = trace::TraceReader::open(dir.filePath("g.kiln").toStdString());
        QVERIFY(reader.ok());
        auto compiles = reader.value()->compiles(1);
        QVERIFY(compiles.ok());
        QCOMPARE(compiles.value().size(), size_t(1));
        QCOMPARE(measuredOf(dir.filePath("g.kiln")).timedCalls.size(), size_t(1));
    }

    void aScriptWithoutCompiledFunctionsSaysSo() {
        QTemporaryDir dir;
        QString script = testing::writeScriptFile(dir, "e.py", "print(1 + 1)\n");
        QCOMPARE(runKiln({"run", script, "--measure", "5", "--quiet"}, dir).exitCode, 0);
        Measured m = measuredOf(dir.filePath("e.kiln"));
        QVERIFY(m.timedCalls.empty());
        QVERIFY2(m.log.contains("nothing to measure: the script called no torch.compile'd "
                                "function"),
                 qPrintable(m.log));
    }

    void aCallThatFailsWhenRepeatedEndsOnlyItsMeasurement() {
        // The script consumes what the function reads; calling it again raises. The run is
        // still the script's (ok); the log says why that function has fewer calls.
        QTemporaryDir dir;
        QString script = testing::writeScriptFile(dir, "once.py",
                                                  "import torch\n"
                                                  "seen = []\n"
                                                  "@torch.compile\n"
                                                  "def once(x):\n"
                                                  "    if seen:\n"
                                                  "        raise ValueError('called twice')\n"
                                                  "    seen.append(1)\n"
                                                  "    return x * 2\n"
                                                  "@torch.compile\n"
                                                  "def again(x):\n"
                                                  "    return x + 1\n"
                                                  "once(torch.ones(3))\n"
                                                  "again(torch.ones(3))\n");
        testing::KilnProcess r =
            runKiln({"run", script, "--measure", "4", "--measure-budget", "0", "--quiet"}, dir);
        QCOMPARE(r.exitCode, 0);
        Measured m = measuredOf(dir.filePath("once.kiln"));
        QCOMPARE(m.timedCalls.count("once"), size_t(0));
        QCOMPARE(m.timedCalls["again"], 4);
        QVERIFY2(m.log.contains("kiln: measuring once stopped: ValueError: called twice"),
                 qPrintable(m.log));
    }

    void badCountsAreUsageErrors() {
        QTemporaryDir dir;
        QString script = testing::writeScriptFile(dir, "u.py", "print(1)\n");
        for (QStringList bad : {QStringList{"--measure", "-1"}, QStringList{"--measure", "x"},
                                QStringList{"--warmup", "1e3"}, QStringList{"--measure", "100001"},
                                QStringList{"--measure-budget", "nan"}}) {
            testing::KilnProcess r = runKiln(QStringList{"run", script} + bad, dir);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("kiln: error: " + bad[0]), qPrintable(r.err));
        }
    }
};

QTEST_GUILESS_MAIN(MeasuredRunTest)
#include "tst_measured_run.moc"
