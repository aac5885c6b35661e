// SPDX-License-Identifier: MIT
/// \file
/// The Graph panel on real runs: the max-autotune run of a matmul + softmax workload (a
/// template kernel among pointwise and reduction ones) and the graph-break example (several
/// graphs). Diagrams load through the session and render off the GUI thread; search finds
/// nodes; a click (by name and by a real mouse click) selects the node's kernel or source line;
/// export writes valid SVG, PNG and DOT. The SVG node index is checked against Graphviz's text.
#include "diagram_view.h"
#include "graph_panel.h"
#include "kiln_process.h"
#include "studio_fixture.h"
#include "svg_node_index.h"
#include "trace/sqlite_handle.h"

#include <QFile>
#include <QGraphicsScene>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

using namespace kiln;

namespace {

/// A session on one run of a trace, with the run's snapshot adopted by the selection.
struct Studio {
    views::TraceSession session;
    views::Selection selection;

    bool open(const QString& trace, qint64 runId) {
        QSignalSpy ready(&session, &views::TraceSession::snapshotReady);
        session.open(trace);
        session.requestSnapshot(runId);
        if (!ready.wait(20000)) return false;
        selection.selectRun(runId);
        selection.setSnapshot(session.snapshot(runId));
        return selection.snapshot() != nullptr;
    }
    const views::RunSnapshot& snapshot() const { return *selection.snapshot(); }
};

const views::KernelRecord* firstOfKind(const views::RunSnapshot& s, const std::string& kind) {
    for (const views::KernelRecord& k : s.kernels)
        if (k.kernel.kind == kind) return &k;
    return nullptr;
}

/// How the panel's status line names a graph.
QString graphTitle(const trace::GraphRow& g) {
    return QString("graph %1 · %2").arg(g.id).arg(QString::fromStdString(g.compileId));
}

/// The DOT text the trace holds for one graph, read directly (what the panel must show).
QString dotOf(const QString& trace, qint64 graphId, const char* kind) {
    auto reader = trace::TraceReader::open(trace.toStdString());
    if (!reader) return {};
    auto row = reader.value()->diagram(graphId, kind);
    return row && row.value() ? QString::fromStdString(row.value()->dot) : QString();
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class GraphPanelTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_modes, m_breaks;

    /// Selects \p graphId and waits until the panel shows its diagram.
    static bool showGraph(views::GraphPanel& panel, views::Selection& selection, qint64 graphId) {
        QSignalSpy shown(&panel, &views::GraphPanel::diagramShown);
        selection.selectGraph(graphId);
        return shown.wait(20000);
    }

private slots:
    void initTestCase() {
        QDir(m_dir.path()).mkdir("modes");
        QDir(m_dir.path()).mkdir("breaks");
        m_modes = testing::compareModesTrace(m_dir.filePath("modes"));
        m_breaks = testing::graphBreaksTrace(m_dir.filePath("breaks"));
        QVERIFY(!m_modes.isEmpty());
        QVERIFY(!m_breaks.isEmpty());
    }

    void aotViewsShowTheForwardAndBackwardGraphs() {
        const QString trace = testing::trainingTrace(m_dir.path());
        QVERIFY(!trace.isEmpty());
        Studio studio;
        QVERIFY(studio.open(trace, 1));
        const views::RunSnapshot& s = studio.snapshot();
        QCOMPARE(s.graphs.size(), size_t(2));
        const trace::GraphRow& training = s.graphs[0];
        const trace::GraphRow& inference = s.graphs[1];
        const trace::GraphRow* forward = s.aotGraph(training.id, "aot_forward");
        const trace::GraphRow* backward = s.aotGraph(training.id, "aot_backward");
        QVERIFY(forward && backward && s.aotGraph(inference.id, "aot_inference"));

        views::GraphPanel panel(studio.session, studio.selection);
        studio.selection.selectGraph(training.id);
        panel.setAotView("aot_forward");
        QCOMPARE(panel.aotView(), QString("aot_forward"));
        QString code = panel.aotCode();
        QVERIFY2(code.startsWith(QString("# forward graph %1 of ").arg(forward->id)),
                 qPrintable(code));
        QVERIFY2(code.contains(QString("# saves %1 tensors for the backward, %2 bytes:")
                                   .arg(forward->savedCount)
                                   .arg(forward->savedBytes)),
                 qPrintable(code));
        QVERIFY(code.contains(QString::fromStdString(forward->readableCode)));
        QVERIFY(panel.statusText().contains("AOT forward"));

        panel.setAotView("aot_backward");
        code = panel.aotCode();
        QVERIFY2(code.contains("tangents_1") &&
                     code.contains(QString::fromStdString(backward->readableCode)),
                 qPrintable(code));
        // The no_grad call's graph was compiled for inference: Forward shows that graph,
        // Backward says why there is none.
        studio.selection.selectGraph(inference.id);
        QVERIFY2(panel.aotCode().isEmpty() && panel.message().contains("no AOT backward graph") &&
                     panel.message().contains("compiled for inference"),
                 qPrintable(panel.message()));
        panel.setAotView("aot_forward");
        QVERIFY2(panel.aotCode().startsWith("# inference graph"), qPrintable(panel.aotCode()));
        QVERIFY(panel.aotCode().contains("arg0_1"));
        // Back to the diagram.
        QSignalSpy shown(&panel, &views::GraphPanel::diagramShown);
        panel.setPreFusion(false);
        QVERIFY(shown.wait(20000));
        QVERIFY(panel.aotCode().isEmpty());
        QCOMPARE(panel.aotView(), QString());
    }

    void nodeIndexReadsGraphvizSvg() {
        // Graphviz 2.43 output for one record node, trimmed.
        const QByteArray svg =
            "<?xml version=\"1.0\"?>\n"
            "<svg width=\"237pt\" height=\"382pt\" viewBox=\"0.00 0.00 237.00 382.00\"\n"
            " xmlns=\"http://www.w3.org/2000/svg\">\n"
            "<g id=\"graph0\" class=\"graph\" transform=\"scale(1 1) rotate(0) translate(4 "
            "378)\">\n"
            "<title>fx_graph</title>\n"
            "<g id=\"node2\" class=\"node\">\n"
            "<title>buf0_buf1</title>\n"
            "<path fill=\"Coral\" stroke=\"black\" d=\"M12,-106.5C12,-106.5 217,-106.5 229,-118.5 "
            "229,-244.5 0,-244.5\"/>\n"
            "<text x=\"114.5\" y=\"-229.3\">name=%buf0_buf1</text>\n"
            "<text x=\"114.5\" y=\"-183.3\">target=fused: kernel_sin_relu</text>\n"
            "</g>\n"
            "</g>\n"
            "</svg>";
        views::SvgNodeIndex index = views::SvgNodeIndex::parse(svg);
        QVERIFY(index.error().isEmpty());
        QCOMPARE(index.viewBox(), QRectF(0, 0, 237, 382));
        QCOMPARE(index.nodes().size(), size_t(1));
        const views::SvgNode& node = index.nodes().front();
        QCOMPARE(node.name, QString("buf0_buf1"));
        QCOMPARE(node.field("target"), QString("fused: kernel_sin_relu"));
        // Bounds of the path, moved by the graph's translate(4 378).
        QCOMPARE(node.bounds, QRectF(QPointF(4, 378 - 244.5), QPointF(233, 378 - 106.5)));
        QCOMPARE(index.nodeAt(QPointF(100, 200)), &node);
        QVERIFY(!index.nodeAt(QPointF(100, 10)));
        QCOMPARE(index.search("SIN_RELU"), QStringList{"buf0_buf1"});
        QVERIFY(index.search("cos").isEmpty());
        QVERIFY(!views::SvgNodeIndex::parse("not <svg").error().isEmpty());
    }

    void postFusionDiagramSelectsKernels() {
        Studio studio;
        QVERIFY(studio.open(m_modes, 2));
        const views::KernelRecord* tmpl = firstOfKind(studio.snapshot(), "template");
        QVERIFY(tmpl);
        const qint64 graphId = tmpl->kernel.graphId;
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(showGraph(panel, studio.selection, graphId));

        views::DiagramView* view = panel.view();
        QVERIFY(view->hasDiagram());
        QVERIFY(!view->scene()->itemsBoundingRect().isEmpty());
        QVERIFY(panel.message().isEmpty());
        QCOMPARE(panel.dot(), dotOf(m_modes, graphId, "post_fusion"));
        QVERIFY(panel.dot().startsWith("digraph"));
        // Every kernel of the graph is a node of the post-fusion diagram.
        const auto kernels = studio.snapshot().kernelsOf(graphId);
        QVERIFY(kernels.size() >= 2);
        QStringList nodes;
        for (const views::KernelRecord* k : kernels) {
            QString node =
                views::diagramNodeOfKernel(studio.snapshot(), view->index(), k->kernel.kernelId);
            QVERIFY2(!node.isEmpty(), k->kernel.name.c_str());
            nodes << node;
        }
        QVERIFY(panel.statusText().contains(QString::fromStdString(tmpl->kernel.compileId)));
        QVERIFY(panel.statusText().contains(QString("%1 kernels").arg(kernels.size())));
        // Issue 14, finding 9: "4 nodes" over a diagram of 5 boxes; each count says what it
        // counts.
        const trace::GraphRow* g = studio.snapshot().graph(graphId);
        QVERIFY2(
            panel.statusText().contains(QString("%1 FX nodes").arg(g->nodeCount)) &&
                panel.statusText().contains(QString("%1 boxes").arg(view->index().nodes().size())),
            qPrintable(panel.statusText()));

        // A click by name selects the kernel and keeps the graph.
        const QString tmplNode =
            views::diagramNodeOfKernel(studio.snapshot(), view->index(), tmpl->kernel.kernelId);
        QVERIFY(panel.clickNode(tmplNode));
        QCOMPARE(studio.selection.state().kernelId, tmpl->kernel.kernelId);
        QCOMPARE(studio.selection.state().graphId, graphId);
        QCOMPARE(view->selectedNodes(), QStringList{tmplNode});

        // A real mouse click on another kernel's node.
        const views::KernelRecord* other =
            kernels.front() == tmpl ? kernels.back() : kernels.front();
        const QString otherNode =
            views::diagramNodeOfKernel(studio.snapshot(), view->index(), other->kernel.kernelId);
        view->centerOnNode(otherNode);
        const QPoint at = view->mapFromScene(view->nodeSceneRect(otherNode).center());
        QVERIFY(view->viewport()->rect().contains(at));
        QCOMPARE(view->nodeAtViewPos(at), otherNode);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(studio.selection.state().kernelId, other->kernel.kernelId);
        QCOMPARE(view->selectedNodes(), QStringList{otherNode});

        // Selected elsewhere (the kernels table): the node is outlined.
        studio.selection.selectKernel(tmpl->kernel.kernelId);
        QCOMPARE(view->selectedNodes(), QStringList{tmplNode});
        view->fitToView();
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-panel-post.png"));
    }

    void aLargeGraphInASmallViewOpensReadableOnTheSelection() {
        // Issue 14, finding 8: a graph that fits a small dock only at 5-15 % opens at a
        // readable zoom instead, centred on the selected kernel's node.
        Studio studio;
        QVERIFY(studio.open(m_modes, 2));
        const views::KernelRecord* tmpl = firstOfKind(studio.snapshot(), "template");
        QVERIFY(tmpl);
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(420, 170);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy shown(&panel, &views::GraphPanel::diagramShown);
        studio.selection.selectKernel(tmpl->kernel.kernelId);
        QVERIFY(shown.wait(20000));
        views::DiagramView* view = panel.view();
        QVERIFY2(view->zoom() >= 0.6 - 1e-9, qPrintable(QString::number(view->zoom())));
        const QString node =
            views::diagramNodeOfKernel(studio.snapshot(), view->index(), tmpl->kernel.kernelId);
        QVERIFY(!node.isEmpty());
        QTRY_VERIFY(view->nodesSceneRect({node}).contains(
            view->mapToScene(view->viewport()->rect().center())));
        // Fit still fits everything, however small.
        view->fitToView();
        QVERIFY(view->zoom() < 0.6);
    }

    void searchFindsAndCyclesThroughNodes() {
        Studio studio;
        QVERIFY(studio.open(m_modes, 2));
        const views::KernelRecord* tmpl = firstOfKind(studio.snapshot(), "template");
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(showGraph(panel, studio.selection, tmpl->kernel.graphId));
        QCOMPARE(panel.search(QString::fromStdString(tmpl->kernel.name)), 1);
        QCOMPARE(panel.matchText(), QString("1 of 1"));
        const int buffers = panel.search("buf");
        QVERIFY(buffers >= 2);
        QCOMPARE(panel.matchText(), QString("1 of %1").arg(buffers));
        panel.nextMatch();
        QCOMPARE(panel.matchText(), QString("2 of %1").arg(buffers));
        for (int i = 1; i < buffers; ++i)
            panel.nextMatch();
        QCOMPARE(panel.matchText(), QString("1 of %1").arg(buffers));
        QCOMPARE(panel.search("no such node"), 0);
        QCOMPARE(panel.matchText(), QString("no match"));
    }

    void zoomKeepsThePointUnderTheCursor() {
        Studio studio;
        QVERIFY(studio.open(m_modes, 2));
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(showGraph(panel, studio.selection, studio.snapshot().graphs.front().id));
        views::DiagramView* view = panel.view();
        view->actualSize();
        QCOMPARE(view->zoom(), 1.0);
        QVERIFY(panel.statusText().endsWith("zoom 100 %"));
        view->zoomIn();
        QCOMPARE(view->zoom(), 1.25);
        QVERIFY(panel.statusText().endsWith("zoom 125 %"));
        QTest::keyClick(view, Qt::Key_Minus);
        QCOMPARE(view->zoom(), 1.0);

        // Zoomed in so far that the diagram overflows the view both ways (a smaller diagram is
        // centred), one wheel notch up over a kernel's node keeps that node under the cursor.
        const QString node = view->index().search("kiln_").front();
        view->setZoom(3.0);
        view->centerOnNode(node);
        const QPoint at = view->mapFromScene(view->nodeSceneRect(node).center()) + QPoint(30, 10);
        const QPointF before = view->mapToScene(at);
        QWheelEvent wheel(at, view->viewport()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QCOMPARE(view->zoom(), 3.75);
        const QPointF after = view->mapToScene(at);
        QVERIFY2(QLineF(before, after).length() < 2.0,
                 qPrintable(QString("moved %1").arg(QLineF(before, after).length())));
        QCOMPARE(view->nodeAtViewPos(at), node);
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-panel-zoom.png"));

        view->fitToView();
        QVERIFY(view->zoom() <= 1.0);
        const QRect shown = view->mapFromScene(view->sceneRect()).boundingRect();
        QVERIFY(view->viewport()->rect().adjusted(-2, -2, 2, 2).contains(shown));
    }

    void preFusionClickSelectsTheSourceLine() {
        Studio studio;
        QVERIFY(studio.open(m_modes, 2));
        const qint64 graphId = studio.snapshot().graphs.front().id;
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(showGraph(panel, studio.selection, graphId));
        const QString postDot = panel.dot();

        QSignalSpy shown(&panel, &views::GraphPanel::diagramShown);
        panel.setPreFusion(true);
        QVERIFY(shown.wait(20000));
        QCOMPARE(panel.dot(), dotOf(m_modes, graphId, "pre_fusion"));
        QVERIFY(panel.dot() != postDot);
        QVERIFY(panel.statusText().contains("pre-fusion"));
        // Every computing pre-fusion node maps back to a captured node with a source line.
        const views::SvgNodeIndex& index = panel.view()->index();
        int mapped = 0;
        for (const views::SvgNode& node : index.nodes()) {
            if (node.field("op_code") != "call_function") continue;
            const trace::GraphNodeRow* g =
                views::graphNodeOfDiagramNode(studio.snapshot(), graphId, node);
            QVERIFY2(g, qPrintable(node.name));
            QVERIFY(g->sourceLine == 4 || g->sourceLine == 5);
            ++mapped;
        }
        QVERIFY(mapped >= 3);
        // The matmul is on line 4 of the workload, the softmax's reductions on line 5.
        QVERIFY(panel.clickNode("buf0"));
        QCOMPARE(studio.selection.state().sourceLine, 4);
        QCOMPARE(studio.selection.state().graphId, graphId);
        const QStringList softmax = index.search("softmax");
        QVERIFY(softmax.size() >= 2);
        QVERIFY(!softmax.contains("buf0"));
        QVERIFY(panel.clickNode(softmax.front()));
        QCOMPARE(studio.selection.state().sourceLine, 5);
        QCOMPARE(studio.selection.state().graphId, graphId);
        // The inputs have no source line: a click on one changes nothing.
        QVERIFY(panel.clickNode("arg0_1"));
        QCOMPARE(studio.selection.state().sourceLine, 5);
        // A kernel selected elsewhere outlines the buffers it computes: the softmax's first
        // reduction kernel computes two of them.
        const views::KernelRecord* reduction = firstOfKind(studio.snapshot(), "reduction");
        QVERIFY(reduction);
        studio.selection.selectKernel(reduction->kernel.kernelId);
        QCOMPARE(panel.view()->selectedNodes(), (QStringList{"buf1", "buf2"}));
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-panel-pre.png"));

        panel.setPreFusion(false);
        QVERIFY(shown.wait(20000));
        QCOMPARE(panel.dot(), postDot);
    }

    void preFusionClickOnAnOlderCacheEntryStaysOnIt() {
        Studio studio;
        QVERIFY(studio.open(m_breaks, 1));
        const views::RunSnapshot& s = studio.snapshot();
        // A graph of a cache entry that was later recompiled (`scaled` with new shapes).
        const trace::GraphRow* older = nullptr;
        for (const trace::GraphRow& g : s.graphs) {
            const trace::CompileRow* c = s.compile(g.compileId);
            if (c && s.compilesOf(c->frameId).back()->compileId != g.compileId) older = &g;
            if (older) break;
        }
        QVERIFY(older);
        views::GraphPanel panel(studio.session, studio.selection);
        QVERIFY(showGraph(panel, studio.selection, older->id));
        QSignalSpy shown(&panel, &views::GraphPanel::diagramShown);
        panel.setPreFusion(true);
        QVERIFY(shown.wait(20000));
        const QString dot = panel.dot();
        const views::SvgNode* computed = nullptr;
        for (const views::SvgNode& n : panel.view()->index().nodes())
            if (n.field("op_code") == "call_function") computed = &n;
        QVERIFY(computed);
        const trace::GraphNodeRow* origin = views::graphNodeOfDiagramNode(s, older->id, *computed);
        QVERIFY(origin && origin->sourceLine > 0);
        QVERIFY(panel.clickNode(computed->name));
        QCOMPARE(studio.selection.state().sourceLine, origin->sourceLine);
        QCOMPARE(panel.dot(), dot);
        QVERIFY(panel.statusText().startsWith(graphTitle(*older)));
        QCOMPARE(shown.count(), 1);
    }

    void exportWritesSvgPngAndDot() {
        Studio studio;
        QVERIFY(studio.open(m_modes, 2));
        views::GraphPanel panel(studio.session, studio.selection);
        QString error;
        QVERIFY(!panel.exportDiagram(m_dir.filePath("none.svg"), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(showGraph(panel, studio.selection, studio.snapshot().graphs.front().id));

        QVERIFY2(panel.exportDiagram(m_dir.filePath("g.svg"), &error), qPrintable(error));
        const QByteArray svg = readAll(m_dir.filePath("g.svg"));
        QVERIFY(svg.startsWith("<?xml") || svg.startsWith("<svg"));
        QVERIFY(svg.contains("</svg>"));
        QVERIFY(views::SvgNodeIndex::parse(svg).error().isEmpty());

        QVERIFY2(panel.exportDiagram(m_dir.filePath("g.png"), &error), qPrintable(error));
        const QByteArray png = readAll(m_dir.filePath("g.png"));
        QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
        QImage image;
        QVERIFY(image.loadFromData(png, "PNG"));
        QVERIFY(image.width() > 100 && image.height() > 100);
        QVERIFY(image.width() < 10000 && image.height() < 10000);

        QVERIFY2(panel.exportDiagram(m_dir.filePath("g.dot"), &error), qPrintable(error));
        QCOMPARE(QString::fromUtf8(readAll(m_dir.filePath("g.dot"))), panel.dot());

        QVERIFY(!panel.exportDiagram(m_dir.filePath("g.pdf"), &error));
        QVERIFY(error.contains("pdf"));
    }

    void everyGraphOfTheBreaksExampleRenders() {
        Studio studio;
        QVERIFY(studio.open(m_breaks, 1));
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        QVERIFY(panel.message().contains("Select a graph"));
        QVERIFY(studio.snapshot().graphs.size() >= 3);
        for (const trace::GraphRow& g : studio.snapshot().graphs) {
            QVERIFY(showGraph(panel, studio.selection, g.id));
            QVERIFY(panel.view()->hasDiagram());
            QVERIFY(panel.statusText().contains(QString::fromStdString(g.compileId)));
            // Every kernel of the graph can be found by its name.
            for (const views::KernelRecord* k : studio.snapshot().kernelsOf(g.id))
                QVERIFY(panel.search(QString::fromStdString(k->kernel.name)) >= 1);
        }
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-panel-breaks.png"));
    }

    void anEagerGraphSaysWhyItHasNoDiagram() {
        // The modes workload again, compiled by the eager backend: a graph, no diagram.
        const QString dir = m_dir.filePath("eager");
        QDir().mkpath(dir);
        QVERIFY(QFile::copy(m_dir.filePath("modes/modes.py"), dir + "/eager.py"));
        testing::KilnProcess run = testing::runKilnBinary(
            {"run", dir + "/eager.py", "--quiet", "--backend", "eager"}, dir);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        Studio studio;
        QVERIFY(studio.open(dir + "/eager.kiln", 1));
        QCOMPARE(studio.snapshot().graphs.size(), size_t(1));
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        studio.selection.selectGraph(studio.snapshot().graphs.front().id);
        QTRY_VERIFY_WITH_TIMEOUT(panel.message().contains("no post-fusion diagram"), 20000);
        QVERIFY(panel.message().contains("\"eager\" backend"));
        QVERIFY(!panel.view()->hasDiagram());
        QString error;
        QVERIFY(!panel.exportDiagram(m_dir.filePath("eager.svg"), &error));
        QCoreApplication::processEvents(); // pending layouts, as a shown window would have
        panel.grab().save(QDir::temp().filePath("graph-panel-eager.png"));
    }

    void aGraphTheCompilerDidNotLowerSaysWhy() {
        // Issue 14, finding 9: the demo's dynamic compile (a graph that returns a size) had 0
        // kernels and no word on why.
        const QString dir = m_dir.filePath("fallback");
        QDir().mkpath(dir);
        QFile script(dir + "/fallback.py");
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("import torch\n"
                     "@torch.compile\n"
                     "def f(t):\n"
                     "    return t - t.mean(dim=-1, keepdim=True), t.size(0)\n"
                     "for n in (4, 5, 6):\n"
                     "    f(torch.ones(n, 8))\n");
        script.close();
        testing::KilnProcess run =
            testing::runKilnBinary({"run", dir + "/fallback.py", "--quiet"}, dir);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        Studio studio;
        QVERIFY(studio.open(dir + "/fallback.kiln", 1));
        const trace::GraphRow* dynamic = nullptr;
        for (const trace::GraphRow& g : studio.snapshot().graphs)
            if (studio.snapshot().kernelsOf(g.id).empty()) dynamic = &g;
        QVERIFY(dynamic);
        views::GraphPanel panel(studio.session, studio.selection);
        panel.resize(1000, 650);
        panel.show();
        studio.selection.selectGraph(dynamic->id);
        QTRY_VERIFY_WITH_TIMEOUT(panel.message().contains("no post-fusion diagram"), 20000);
        QVERIFY2(panel.message().contains("Kiln's compiler did not lower it (the graph returns a "
                                          "value that is not a tensor)"),
                 qPrintable(panel.message()));
    }

    void graphvizErrorsAreShown() {
        // A copy of the modes trace whose post-fusion diagrams are not valid DOT.
        const QString broken = m_dir.filePath("broken.kiln");
        for (const char* suffix : {"", "-wal", "-shm"})
            if (QFile::exists(m_modes + suffix))
                QVERIFY(QFile::copy(m_modes + suffix, broken + suffix));
        {
            auto db = trace::Connection::open(broken.toStdString(), SQLITE_OPEN_READWRITE);
            QVERIFY(db.ok());
            QVERIFY(db.value()
                        .exec("UPDATE diagrams SET dot = 'digraph { a -> ; }' "
                              "WHERE kind = 'post_fusion'",
                              "break the diagrams")
                        .ok());
        }
        Studio studio;
        QVERIFY(studio.open(broken, 2));
        views::GraphPanel panel(studio.session, studio.selection);
        studio.selection.selectGraph(studio.snapshot().graphs.front().id);
        QTRY_VERIFY_WITH_TIMEOUT(panel.message().startsWith("Graphviz could not draw"), 20000);
        QVERIFY2(panel.message().contains("syntax error"), qPrintable(panel.message()));
        QVERIFY(!panel.view()->hasDiagram());
        // The pre-fusion diagram of the same graph is intact.
        QSignalSpy shown(&panel, &views::GraphPanel::diagramShown);
        panel.setPreFusion(true);
        QVERIFY(shown.wait(20000));
        QVERIFY(panel.message().isEmpty());
    }

    void aResultForAnEarlierSelectionIsDropped() {
        Studio studio;
        QVERIFY(studio.open(m_breaks, 1));
        const auto& graphs = studio.snapshot().graphs;
        views::GraphPanel panel(studio.session, studio.selection);
        QSignalSpy shown(&panel, &views::GraphPanel::diagramShown);
        QSignalSpy dot(&studio.session, &views::TraceSession::diagramReady);
        // The panel gets the DOT text first (it connected first) and starts Graphviz; the
        // user moves on before the render is back: that render must not be shown.
        studio.selection.selectGraph(graphs[0].id);
        QVERIFY(dot.wait(20000));
        studio.selection.selectGraph(graphs[1].id);
        QVERIFY(shown.wait(20000));
        QCOMPARE(shown.count(), 1);
        QCOMPARE(panel.dot(), dotOf(m_breaks, graphs[1].id, "post_fusion"));
        QVERIFY(panel.statusText().startsWith(graphTitle(graphs[1])));
        studio.selection.selectGraph(graphs[2].id);
        QVERIFY(shown.wait(20000));
        QCOMPARE(shown.count(), 2);
        QCOMPARE(panel.dot(), dotOf(m_breaks, graphs[2].id, "post_fusion"));
        QVERIFY(panel.statusText().startsWith(graphTitle(graphs[2])));
    }
};

QTEST_MAIN(GraphPanelTest)
#include "tst_graph_panel.moc"
