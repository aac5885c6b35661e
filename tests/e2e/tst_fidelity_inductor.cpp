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
#include <map>
#include <set>

using kiln::testing::sourceDir;

namespace {

int runKiln(const QStringList& args, const QString& workDir, QString* err) {
    kiln::testing::KilnProcess p = kiln::testing::runKilnBinary(
        args, workDir, QProcessEnvironment::systemEnvironment(), 180000);
    *err = p.err;
    return p.exitCode;
}

/// Compiles that only a change of backend caused (every failing guard is BACKEND_MATCH): the
/// script compiled one function with two backends, which the forced run cannot reproduce (its
/// calls all use inductor). They are left out, and each frame's later compiles renumbered.
class BackendRecompiles {
public:
    explicit BackendRecompiles(const std::vector<kiln::trace::RecompileRow>& rows) {
        std::map<std::string, bool> onlyBackend;
        for (const auto& r : rows) {
            bool backend = r.reason.find("___check_current_backend") != std::string::npos;
            auto [it, fresh] = onlyBackend.emplace(r.compileId, backend);
            if (!fresh) it->second = it->second && backend;
        }
        for (const auto& [id, backend] : onlyBackend)
            if (backend) m_dropped.insert(id);
    }
    bool dropped(const std::string& compileId) const { return m_dropped.count(compileId) > 0; }
    /// "f/c" with c counting only the kept compiles of frame f.
    QString renumbered(const std::string& compileId) const {
        const size_t slash = compileId.find('/');
        if (slash == std::string::npos) return QString::fromStdString(compileId);
        const std::string frame = compileId.substr(0, slash);
        const int index = std::stoi(compileId.substr(slash + 1));
        int before = 0;
        for (const std::string& d : m_dropped)
            if (d.substr(0, d.find('/')) == frame && std::stoi(d.substr(d.find('/') + 1)) < index)
                ++before;
        return QString::fromStdString(frame) + "/" + QString::number(index - before);
    }

private:
    std::set<std::string> m_dropped;
};

/// The capture facts of the trace's last run, one line each, without times or backend names.
QStringList facts(const QString& tracePath) {
    QStringList out;
    auto reader = kiln::trace::TraceReader::open(tracePath.toStdString());
    if (!reader) return {"cannot open " + tracePath};
    auto runs = (*reader)->listRuns();
    if (!runs || runs->empty()) return {"no run in " + tracePath};
    int64_t run = runs->back().id;
    auto recompilesRows = (*reader)->recompiles(run);
    const BackendRecompiles backend(recompilesRows.ok() ? recompilesRows.value()
                                                        : std::vector<kiln::trace::RecompileRow>{});
    auto compilesRows = (*reader)->compiles(run);
    if (compilesRows.ok())
        for (const auto& c : compilesRows.value())
            if (!backend.dropped(c.compileId))
                out << QString("compile %1 %2 %3")
                           .arg(backend.renumbered(c.compileId), QString::fromStdString(c.reason),
                                QString::fromStdString(c.status));
    auto graphsRows = (*reader)->graphs(run);
    if (graphsRows.ok())
        for (const auto& g : graphsRows.value())
            if (!backend.dropped(g.compileId))
                out << QString("graph %1 nodes=%2 ops=%3")
                           .arg(backend.renumbered(g.compileId))
                           .arg(g.nodeCount)
                           .arg(g.opCount);
    auto graphBreaksRows = (*reader)->graphBreaks(run);
    if (graphBreaksRows.ok())
        for (const auto& b : graphBreaksRows.value())
            if (!backend.dropped(b.compileId))
                out << QString("break %1 line %2: %3")
                           .arg(backend.renumbered(b.compileId))
                           .arg(b.line)
                           .arg(QString::fromStdString(b.reason));
    if (recompilesRows.ok())
        for (const auto& r : recompilesRows.value())
            if (!backend.dropped(r.compileId) &&
                r.reason.find("___check_current_backend") == std::string::npos)
                out << QString("recompile %1: %2")
                           .arg(backend.renumbered(r.compileId), QString::fromStdString(r.reason));
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
