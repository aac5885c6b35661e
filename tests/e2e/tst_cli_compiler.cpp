// SPDX-License-Identifier: MIT
// `kiln export-diagram` and `kiln kernels` on a fixture trace written through TraceWriter as the
// compiler and runtime would write it: SVG, PNG and DOT exports of the post- and pre-fusion
// diagrams (to a file or stdout, format from --format or the file's extension), clear errors with
// exit status 1 for a missing graph, a missing diagram and malformed DOT, usage errors with 2,
// and the kernel table with launch counts and times.
#include "diagram/diagram_render.h"
#include "script_runner.h"
#include "support/clock.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;
using kiln::testing::binaryDir;

namespace {

struct ProcessResult {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

ProcessResult runKiln(const QStringList& args) {
    QProcess p;
    p.start(binaryDir() + "/bin/kiln", args);
    ProcessResult r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        r.err = "kiln did not finish in time";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QByteArray readBytes(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return file.readAll();
}

const std::string kPostFusionDot = "digraph post_fusion {\n"
                                   "  node [shape=box];\n"
                                   "  l_x_ [label=\"l_x_\"];\n"
                                   "  fused [label=\"kiln_poi_fused_cos_sin_0\"];\n"
                                   "  output [label=\"output\"];\n"
                                   "  l_x_ -> fused -> output;\n"
                                   "}\n";
const std::string kPreFusionDot = "digraph pre_fusion {\n"
                                  "  l_x_ -> sin -> cos -> output;\n"
                                  "}\n";

KernelEvent kernelEvent(int64_t id, const std::string& compileId, int32_t graphIndex,
                        const std::string& name, const std::string& kind,
                        const std::string& fused) {
    KernelEvent k;
    k.kernelId = id;
    k.compileId = compileId;
    k.graphIndex = graphIndex;
    k.name = name;
    k.kind = kind;
    k.fusedNodes = fused;
    k.sourceCode = "; kernel " + name;
    k.launchConfig = "threads=1";
    return k;
}

GraphEvent graphEvent(const std::string& compileId, int32_t graphIndex) {
    GraphEvent g;
    g.compileId = compileId;
    g.graphIndex = graphIndex;
    g.readableCode = "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_):\n";
    g.nodeCount = 4;
    g.opCount = 2;
    return g;
}

CompileEvent compileEvent(int64_t frame, const std::string& status) {
    CompileEvent c;
    c.compileId = std::to_string(frame) + "/0";
    c.frameId = frame;
    c.reason = "first";
    c.startNs = monotonicNs();
    c.backend = "inductor";
    c.status = status;
    return c;
}

/// A finished run with three graphs. Graph 1 ("0/0"): both diagrams and two kernels, one
/// launched 3 times (10, 30, 20 us) and one twice. Graph 2 ("1/0"): a pre-fusion diagram only.
/// Graph 3 ("2/0"): a post-fusion diagram whose DOT text is malformed.
void writeFixture(const std::string& path) {
    auto opened = trace::TraceWriter::open(path);
    KILN_ASSERT(opened.ok(), "test fixture: cannot open writer");
    auto& writer = *opened.value();
    trace::RunInfo info;
    info.workloadPath = "/w/model.py";
    KILN_ASSERT(writer.beginRun(info).ok(), "test fixture: cannot begin run");
    for (int64_t frame = 0; frame < 3; ++frame) {
        FrameEvent f;
        f.frameId = frame;
        f.function = "fn" + std::to_string(frame);
        f.file = "/w/model.py";
        f.line = 1 + int32_t(frame);
        f.kind = "function";
        writer.frame(f);
        writer.compile(compileEvent(frame, ""));
    }
    // As the pipeline reports them: kernels and diagrams while compiling, then the graph.
    writer.kernel(kernelEvent(1, "0/0", 0, "kiln_poi_fused_cos_sin_0", "pointwise", "sin,cos"));
    writer.kernel(kernelEvent(2, "0/0", 0, "extern_mm", "extern", "mm"));
    writer.diagram({"0/0", 0, "post_fusion", kPostFusionDot});
    writer.diagram({"0/0", 0, "pre_fusion", kPreFusionDot});
    writer.graph(graphEvent("0/0", 0));
    writer.compile(compileEvent(0, "ok"));
    writer.diagram({"1/0", 1, "pre_fusion", kPreFusionDot});
    writer.graph(graphEvent("1/0", 1));
    writer.compile(compileEvent(1, "ok"));
    writer.diagram({"2/0", 2, "post_fusion", "digraph broken { a -> ; }"});
    writer.graph(graphEvent("2/0", 2));
    writer.compile(compileEvent(2, "ok"));
    int64_t t = monotonicNs();
    for (int64_t us : {10, 30, 20}) {
        writer.kernelLaunch({1, t, t + us * 1000, "cpu", "threads=1", "", 0, 0});
        t += 100'000;
    }
    for (int64_t us : {4, 6}) {
        writer.kernelLaunch({2, t, t + us * 1000, "cpu", "threads=1", "", 0, 0});
        t += 100'000;
    }
    KILN_ASSERT(writer.finishRun(trace::RunStatus::Ok, 0).ok(), "test fixture: cannot finish");
}

} // namespace

class CliCompilerTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_trace;
    int64_t m_graph[3] = {0, 0, 0};

    QString out(const char* name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_trace = m_dir.filePath("compiled.kiln");
        writeFixture(m_trace.toStdString());
        auto reader = trace::TraceReader::open(m_trace.toStdString());
        QVERIFY(reader.ok());
        auto graphs = (*reader)->graphs(1);
        QVERIFY(graphs.ok());
        QCOMPARE(graphs->size(), size_t(3));
        for (size_t i = 0; i < 3; ++i)
            m_graph[i] = graphs->at(i).id;
    }

    void exportsDot() {
        QString file = out("g.dot");
        ProcessResult r = runKiln({"export-diagram", m_trace, "--graph",
                                   QString::number(m_graph[0]), "--format", "dot", "-o", file});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readBytes(file).toStdString(), kPostFusionDot);
        // To stdout, pre-fusion, the format from nowhere but --format.
        ProcessResult pre =
            runKiln({"export-diagram", m_trace, "--graph", QString::number(m_graph[0]),
                     "--pre-fusion", "--format", "dot", "-o", "-"});
        QVERIFY2(pre.exitCode == 0, qPrintable(pre.err));
        QCOMPARE(pre.out.toStdString(), kPreFusionDot);
    }

    void exportsSvg() {
        if (!diagram::graphvizAvailable()) QSKIP("this build has no Graphviz");
        QString file = out("g.svg");
        ProcessResult r = runKiln({"export-diagram", m_trace, "--graph",
                                   QString::number(m_graph[0]), "--format", "svg", "-o", file});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.err.isEmpty());
        QByteArray svg = readBytes(file);
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains(">kiln_poi_fused_cos_sin_0<"));
        QVERIFY(svg.contains(">l_x_<"));
        // The format from the file's extension; the pre-fusion diagram has the unfused nodes.
        QString pre = out("pre.svg");
        r = runKiln({"export-diagram", m_trace, "--graph", QString::number(m_graph[0]),
                     "--pre-fusion", "-o", pre});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QByteArray preSvg = readBytes(pre);
        QVERIFY(preSvg.contains(">sin<") && preSvg.contains(">cos<"));
        QVERIFY(!preSvg.contains("kiln_poi_fused"));
    }

    void exportsPng() {
        if (!diagram::graphvizAvailable()) QSKIP("this build has no Graphviz");
        QString file = out("g.png");
        ProcessResult r = runKiln({"export-diagram", m_trace, "--graph",
                                   QString::number(m_graph[0]), "--format=png", "--output", file});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QByteArray png = readBytes(file);
        QVERIFY(png.size() > 100);
        QVERIFY(png.startsWith(QByteArray("\x89PNG\r\n\x1a\n", 8)));
    }

    void missingGraphIsAnError() {
        QString file = out("missing.svg");
        ProcessResult r =
            runKiln({"export-diagram", m_trace, "--graph", "999", "--format", "svg", "-o", file});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no graph 999"), qPrintable(r.err));
        QVERIFY(!QFile::exists(file));
    }

    void missingDiagramKindIsAnError() {
        QString file = out("nopost.dot");
        ProcessResult r = runKiln({"export-diagram", m_trace, "--graph",
                                   QString::number(m_graph[1]), "--format", "dot", "-o", file});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("graph %1 (compile 1/0, run 1) has no post-fusion diagram")
                                    .arg(m_graph[1])),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(file));
        // The kind it does have exports.
        r = runKiln({"export-diagram", m_trace, "--graph", QString::number(m_graph[1]),
                     "--pre-fusion", "-o", file});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readBytes(file).toStdString(), kPreFusionDot);
    }

    void malformedDiagramIsAnError() {
        if (!diagram::graphvizAvailable()) QSKIP("this build has no Graphviz");
        QString file = out("broken.svg");
        ProcessResult r = runKiln(
            {"export-diagram", m_trace, "--graph", QString::number(m_graph[2]), "-o", file});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("DiagramError: malformed DOT text: syntax error in line 1"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(file));
        // As DOT it is exported as recorded.
        r = runKiln({"export-diagram", m_trace, "--graph", QString::number(m_graph[2]), "-o",
                     out("broken.dot")});
        QCOMPARE(r.exitCode, 0);
    }

    void usageErrors() {
        QString id = QString::number(m_graph[0]);
        ProcessResult noGraph = runKiln({"export-diagram", m_trace, "-o", out("x.svg")});
        QCOMPARE(noGraph.exitCode, 2);
        QVERIFY2(noGraph.err.contains("needs --graph ID"), qPrintable(noGraph.err));
        ProcessResult badId = runKiln({"export-diagram", m_trace, "--graph", "two", "-o", "x.svg"});
        QCOMPARE(badId.exitCode, 2);
        QVERIFY(badId.err.contains("--graph takes a positive graph id, got 'two'"));
        ProcessResult noOutput = runKiln({"export-diagram", m_trace, "--graph", id});
        QCOMPARE(noOutput.exitCode, 2);
        QVERIFY(noOutput.err.contains("needs -o FILE"));
        ProcessResult badFormat =
            runKiln({"export-diagram", m_trace, "--graph", id, "--format", "jpeg", "-o", "x"});
        QCOMPARE(badFormat.exitCode, 2);
        QVERIFY(badFormat.err.contains("--format takes svg, png or dot, got 'jpeg'"));
        ProcessResult noFormat = runKiln({"export-diagram", m_trace, "--graph", id, "-o", "x"});
        QCOMPARE(noFormat.exitCode, 2);
        QVERIFY(noFormat.err.contains("needs --format svg, png or dot"));
        ProcessResult noTrace = runKiln(
            {"export-diagram", out("none.kiln"), "--graph", id, "--format", "dot", "-o", "-"});
        QCOMPARE(noTrace.exitCode, 2);
        QVERIFY2(noTrace.err.contains("cannot open trace"), qPrintable(noTrace.err));
    }

    void kernelsTable() {
        ProcessResult r = runKiln({"kernels", m_trace});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QString text = QString::fromUtf8(r.out);
        QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].contains("kernel") && lines[0].contains("launches") &&
                     lines[0].contains("total ms") && lines[0].contains("median us") &&
                     lines[0].contains("fused nodes"),
                 qPrintable(text));
        // 3 launches of 10, 30 and 20 us: 0.060 ms in all, median 20 us.
        QStringList poi = lines[1].simplified().split(' ');
        // The pass is "-": the fixture's kernels name no AOT graph.
        QCOMPARE(poi, (QStringList{QString::number(m_graph[0]), "kiln_poi_fused_cos_sin_0",
                                   "pointwise", "-", "3", "0.060", "20.0", "sin,cos"}));
        QStringList mm = lines[2].simplified().split(' ');
        QCOMPARE(mm, (QStringList{QString::number(m_graph[0]), "extern_mm", "extern", "-", "2",
                                  "0.010", "5.0", "mm"}));
        // One graph's kernels; a graph without kernels; an unknown graph.
        ProcessResult one = runKiln({"kernels", m_trace, "--graph", QString::number(m_graph[0])});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(one.out, r.out);
        ProcessResult none = runKiln({"kernels", m_trace, "--graph", QString::number(m_graph[1])});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QByteArray("no kernels\n"));
        ProcessResult unknown = runKiln({"kernels", m_trace, "--graph", "999"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("has no graph 999"));
    }

    void compilesShowsGraphIds() {
        ProcessResult r = runKiln({"compiles", m_trace});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines[0].endsWith("graph"));
        QVERIFY2(lines[1].startsWith("0/0") && lines[1].endsWith(QString::number(m_graph[0])),
                 qPrintable(lines[1]));
        ProcessResult g = runKiln({"graph", m_trace, "1/0"});
        QCOMPARE(g.exitCode, 0);
        QVERIFY(g.out.startsWith(QString("# graph %1 ").arg(m_graph[1]).toUtf8()));
    }
};

QTEST_APPLESS_MAIN(CliCompilerTest)
#include "tst_cli_compiler.moc"
