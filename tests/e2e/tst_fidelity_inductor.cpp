// SPDX-License-Identifier: MIT
// The capture fidelity suite (tests/golden/compile) with every torch.compile call switched to
// Kiln's compiler (`kiln run --backend inductor`): the graphs, graph breaks (reason and line),
// recompiles (the guard that failed) and compile outcomes recorded in the trace must be exactly
// those of the recorded run with the suite's own backends. Compiling the graphs for real must
// not change what Dynamo's semantics decided.
#include "kiln_process.h"
#include "script_runner.h"
#include "trace/trace_reader.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using kiln::testing::sourceDir;

namespace {

int runKiln(const QStringList& args, const QString& workDir, QString* err) {
    kiln::testing::KilnProcess p = kiln::testing::runKilnBinary(
        args, workDir, QProcessEnvironment::systemEnvironment(), 180000);
    *err = p.err;
    return p.exitCode;
}

/// The capture facts of the trace's last run, one line each, without times or backend names.
QStringList facts(const QString& tracePath) {
    QStringList out;
    auto reader = kiln::trace::TraceReader::open(tracePath.toStdString());
    if (!reader) return {"cannot open " + tracePath};
    auto runs = (*reader)->listRuns();
    if (!runs || runs->empty()) return {"no run in " + tracePath};
    int64_t run = runs->back().id;
    auto compilesRows = (*reader)->compiles(run);
    if (compilesRows.ok())
        for (const auto& c : compilesRows.value())
            out << QString("compile %1 %2 %3")
                       .arg(QString::fromStdString(c.compileId), QString::fromStdString(c.reason),
                            QString::fromStdString(c.status));
    auto graphsRows = (*reader)->graphs(run);
    if (graphsRows.ok())
        for (const auto& g : graphsRows.value())
            out << QString("graph %1 nodes=%2 ops=%3")
                       .arg(QString::fromStdString(g.compileId))
                       .arg(g.nodeCount)
                       .arg(g.opCount);
    auto graphBreaksRows = (*reader)->graphBreaks(run);
    if (graphBreaksRows.ok())
        for (const auto& b : graphBreaksRows.value())
            out << QString("break %1 line %2: %3")
                       .arg(QString::fromStdString(b.compileId))
                       .arg(b.line)
                       .arg(QString::fromStdString(b.reason));
    auto recompilesRows = (*reader)->recompiles(run);
    if (recompilesRows.ok())
        for (const auto& r : recompilesRows.value())
            out << QString("recompile %1: %2")
                       .arg(QString::fromStdString(r.compileId), QString::fromStdString(r.reason));
    // Object addresses in reasons ("<function f at 0x7f...>") differ between processes.
    out.replaceInStrings(QRegularExpression("0x[0-9a-f]+"), "0x?");
    return out;
}

} // namespace

class FidelityInductorTest : public QObject {
    Q_OBJECT

private slots:
    void sameCaptureFactsWithKilnsCompiler_data() {
        QTest::addColumn<QString>("script");
        QDir suite(sourceDir() + "/tests/golden/compile");
        for (const QString& name : suite.entryList({"*.py"}, QDir::Files, QDir::Name)) {
            // errors.py is about failing and invalid backends, and compile_basic.py inspects the
            // GraphModule its own backend receives: replacing their backends changes their point.
            if (name == "errors.py" || name == "compile_basic.py") continue;
            QTest::newRow(qPrintable(name)) << suite.filePath(name);
        }
    }

    void sameCaptureFactsWithKilnsCompiler() {
        QFETCH(QString, script);
        QTemporaryDir dir;
        QString name = QFileInfo(script).fileName();
        QVERIFY(QFile::copy(script, dir.filePath(name)));
        QString errRecorded, errInductor;
        int recorded = runKiln({"run", name, "--db", "recorded.kiln"}, dir.path(), &errRecorded);
        int inductor = runKiln({"run", name, "--db", "inductor.kiln", "--backend", "inductor"},
                               dir.path(), &errInductor);
        QCOMPARE(inductor, recorded);
        QStringList want = facts(dir.filePath("recorded.kiln"));
        QStringList got = facts(dir.filePath("inductor.kiln"));
        QVERIFY2(!want.isEmpty(), "the suite script compiled nothing");
        QCOMPARE(got, want);
        QVERIFY2(!errInductor.contains("internal error"), qPrintable(errInductor.left(2000)));
    }
};

QTEST_GUILESS_MAIN(FidelityInductorTest)
#include "tst_fidelity_inductor.moc"
