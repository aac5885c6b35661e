// SPDX-License-Identifier: MIT
// `kiln bench` as a user runs it: a small workload file measured under eager and default (the
// table has both rows, the JSON parses and says the compiled rows ran kernels with results
// close to eager's), the bundled example workloads, an unknown mode as a usage error listing
// the valid ones, and a workload without make_inputs as a row error (exit 1) while the other
// workloads are still measured.
#include "kiln_process.h"
#include "script_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using kiln::testing::binaryDir;
using kiln::testing::sourceDir;

namespace {

using ProcessResult = kiln::testing::KilnProcess;

ProcessResult runKiln(const QStringList& args, const QString& workDir) {
    return kiln::testing::runKilnBinary(args, workDir);
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return path;
}

/// The rows of a `kiln bench` JSON file; empty (after a failed check message) when it does
/// not parse as a list.
QJsonArray readRows(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray()) {
        qWarning("%s: %s", qPrintable(path), qPrintable(error.errorString()));
        return {};
    }
    return doc.array();
}

QJsonObject rowOf(const QJsonArray& rows, const QString& workload, const QString& mode) {
    for (const QJsonValue& v : rows) {
        QJsonObject o = v.toObject();
        if (o["workload"].toString() == workload && o["mode"].toString() == mode) return o;
    }
    return {};
}

/// Whether a line of the table starts with the workload and mode columns.
bool hasTableRow(const QString& table, const QString& workload, const QString& mode) {
    static const QRegularExpression space("\\s+");
    for (const QString& line : table.split('\n')) {
        QStringList cols = line.split(space, Qt::SkipEmptyParts);
        if (cols.size() >= 2 && cols[0] == workload && cols[1] == mode) return true;
    }
    return false;
}

const QByteArray kTinyWorkload = "import torch\n"
                                 "\n"
                                 "\n"
                                 "def fn(x, y):\n"
                                 "    return torch.sin(x) * y + 1.0\n"
                                 "\n"
                                 "\n"
                                 "def make_inputs():\n"
                                 "    return (torch.randn(1000), torch.randn(1000))\n";

} // namespace

class CliBenchTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void measuresAWorkloadFile() {
        QString workload = writeFile(m_dir, "tiny.py", kTinyWorkload);
        QString json = m_dir.filePath("tiny.json");
        ProcessResult r =
            runKiln({"bench", workload, "--modes", "eager,default", "--calls", "2", "--json", json},
                    m_dir.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(hasTableRow(r.out, "tiny", "eager"), qPrintable(r.out));
        QVERIFY2(hasTableRow(r.out, "tiny", "default"), qPrintable(r.out));
        QVERIFY2(r.out.contains("results written to " + json), qPrintable(r.out));

        QJsonArray rows = readRows(json);
        QCOMPARE(rows.size(), 2);
        QJsonObject eager = rowOf(rows, "tiny", "eager");
        QJsonObject compiled = rowOf(rows, "tiny", "default");
        QVERIFY(!eager.isEmpty() && !compiled.isEmpty());
        for (const QJsonObject& row : {eager, compiled}) {
            QCOMPARE(row["ok"].toBool(false), true);
            QVERIFY(!row.contains("error"));
            QVERIFY(row["median_ms"].isDouble() && row["median_ms"].toDouble() > 0);
            QVERIFY(row["rel_error"].isDouble() && row["rel_error"].toDouble() < 1e-4);
        }
        QCOMPARE(eager["kernels"].toInt(-1), 0);
        QCOMPARE(eager["ratio_to_eager"].toDouble(), 1.0);
        QVERIFY(compiled["kernels"].toInt(0) >= 1);
        QVERIFY(compiled["compile_ms"].toDouble() > 0);
        QVERIFY(compiled["ratio_to_eager"].toDouble() > 0);
    }

    void measuresATrainingStep() {
        // make_step(mode): the workload compiles its own model; every mode's first step gives
        // eager's loss, and the script part under __main__ does not run.
        QString workload = writeFile(m_dir, "train_tiny.py", R"(import torch
import torch.nn as nn
import torch.nn.functional as F


def make_inputs():
    return torch.randn(16, 8), torch.randint(0, 4, (16,))


def make_step(mode):
    model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    net = model if mode == "eager" else torch.compile(model, mode=None if mode == "default" else mode)

    def step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


if __name__ == "__main__":
    raise RuntimeError("the script part ran")
)");
        QString json = m_dir.filePath("train.json");
        ProcessResult r =
            runKiln({"bench", workload, "--modes", "eager,default", "--calls", "2", "--json", json},
                    m_dir.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QJsonArray rows = readRows(json);
        QJsonObject compiled = rowOf(rows, "train_tiny", "default");
        QVERIFY2(compiled["ok"].toBool(false), qPrintable(r.out + r.err));
        QVERIFY(compiled["kernels"].toInt(0) >= 2); // forward and backward kernels
        QVERIFY(compiled["rel_error"].toDouble(1) < 1e-5);
    }

    void runsTheExampleWorkloads() {
        QString dir = sourceDir() + "/resources/workloads/bench/";
        QString json = m_dir.filePath("examples.json");
        ProcessResult r = runKiln({"bench", dir + "pointwise_chain.py", dir + "attention_scores.py",
                                   "--modes", "eager,default", "--calls", "1", "--json", json},
                                  m_dir.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QJsonArray rows = readRows(json);
        QCOMPARE(rows.size(), 4);
        for (const char* name : {"pointwise_chain", "attention_scores"}) {
            QJsonObject compiled = rowOf(rows, name, "default");
            QVERIFY2(compiled["ok"].toBool(false), name);
            QVERIFY2(compiled["kernels"].toInt(0) >= 1, name);
            QVERIFY2(compiled["rel_error"].toDouble(1) < 1e-4, name);
        }
    }

    void unknownModeIsAUsageError() {
        QString workload = writeFile(m_dir, "tiny.py", kTinyWorkload);
        ProcessResult r = runKiln({"bench", workload, "--modes", "eager,turbo"}, m_dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown mode 'turbo'"), qPrintable(r.err));
        for (const char* mode :
             {"eager", "default", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune"})
            QVERIFY2(r.err.contains(mode), qPrintable(r.err));
        QVERIFY(r.out.isEmpty()); // nothing was measured
        QVERIFY(!QFile::exists(m_dir.filePath("kiln-bench.json")));

        r = runKiln({"bench", workload, "--calls", "0"}, m_dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--calls"), qPrintable(r.err));
        r = runKiln({"bench", m_dir.filePath("absent.py")}, m_dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cannot read the workload file"), qPrintable(r.err));
    }

    void aHangingWorkloadFailsOnlyItsOwnRows() {
        // Issue 13, finding 11: one workload that never returns lost every row (no table, no
        // JSON). Each workload runs in a process of its own, stopped at --timeout.
        QString hang = writeFile(m_dir, "hang.py",
                                 "import torch\n\n\ndef fn(x):\n    while True:\n        pass\n"
                                 "\n\ndef make_inputs():\n    return (torch.ones(3),)\n");
        QString good = writeFile(m_dir, "tiny.py", kTinyWorkload);
        QString json = m_dir.filePath("hang.json");
        ProcessResult r = runKiln({"bench", hang, good, "--modes", "eager,default", "--calls", "2",
                                   "--timeout", "10", "--json", json},
                                  m_dir.path());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("timed out after 10 s (kiln bench --timeout) and was stopped"),
                 qPrintable(r.out));
        QVERIFY2(hasTableRow(r.out, "tiny", "default"), qPrintable(r.out));
        // Progress as each workload is done, on stderr.
        QVERIFY2(r.err.contains("kiln: bench: tiny, default: measured"), qPrintable(r.err));
        QVERIFY2(r.err.contains("2 of 4 rows failed"), qPrintable(r.err));
        QJsonArray rows = readRows(json);
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rowOf(rows, "hang", "eager")["ok"].toBool(true), false);
        QCOMPARE(rowOf(rows, "tiny", "default")["ok"].toBool(false), true);
        QVERIFY(rowOf(rows, "tiny", "default")["rel_error"].toDouble(1) < 1e-4);

        r = runKiln({"bench", good, "--timeout", "0"}, m_dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--timeout"), qPrintable(r.err));
    }

    void workloadWithoutMakeInputsIsARowError() {
        QString bad =
            writeFile(m_dir, "no_inputs.py", "import torch\n\n\ndef fn(x):\n    return x + 1\n");
        QString raises = writeFile(m_dir, "raises.py",
                                   "import torch\n\n\ndef fn(x):\n    return x\n\n\n"
                                   "def make_inputs():\n    return (torch.randn(10) + missing,)\n");
        QString good = writeFile(m_dir, "tiny.py", kTinyWorkload);
        QString json = m_dir.filePath("errors.json");
        ProcessResult r = runKiln({"bench", bad, raises, good, "--modes", "eager,default",
                                   "--calls", "2", "--json", json},
                                  m_dir.path());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("no_inputs.py: the workload does not define make_inputs()"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("raises.py:9: NameError: name 'missing' is not defined"),
                 qPrintable(r.out));
        QVERIFY2(r.err.contains("4 of 6 rows failed"), qPrintable(r.err));
        // The good workload is still measured; the JSON has every row.
        QVERIFY2(hasTableRow(r.out, "tiny", "default"), qPrintable(r.out));
        QJsonArray rows = readRows(json);
        QCOMPARE(rows.size(), 6);
        QJsonObject failed = rowOf(rows, "no_inputs", "default");
        QCOMPARE(failed["ok"].toBool(true), false);
        QVERIFY(failed["error"].toString().contains("make_inputs"));
        QVERIFY(failed["median_ms"].isNull());
        QCOMPARE(rowOf(rows, "tiny", "default")["ok"].toBool(false), true);
    }
};

QTEST_APPLESS_MAIN(CliBenchTest)
#include "tst_cli_bench.moc"
