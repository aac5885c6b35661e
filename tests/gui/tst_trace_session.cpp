// SPDX-License-Identifier: MIT
// TraceSession and Selection on the graph-break example's trace: snapshots read on the worker
// thread carry every table, a refresh tails what was added, and selecting a kernel or a break
// selects its parents.
#include "selection.h"
#include "studio_fixture.h"
#include "trace/trace_writer.h"
#include "trace_session.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;

namespace {

bool arrived(QSignalSpy& spy, int count = 1) {
    QElapsedTimer timer;
    timer.start();
    while (spy.count() < count && timer.elapsed() < 10000)
        spy.wait(100);
    return spy.count() >= count;
}

} // namespace

class TraceSessionTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_trace;

private slots:
    void initTestCase() {
        m_trace = testing::graphBreaksTrace(m_dir.path());
        QVERIFY(!m_trace.isEmpty());
    }

    void snapshotHasEveryTable() {
        views::TraceSession session;
        QSignalSpy runs(&session, &views::TraceSession::runsChanged);
        session.open(m_trace);
        QVERIFY(arrived(runs));
        QCOMPARE(session.runs()->size(), size_t(1));
        QSignalSpy ready(&session, &views::TraceSession::snapshotReady);
        session.requestSnapshot(1);
        QVERIFY(arrived(ready));
        views::SnapshotPtr s = session.snapshot(1);
        QVERIFY(s);
        QCOMPARE(s->run.status, trace::RunStatus::Ok);
        QCOMPARE(s->graphBreaks.size(), size_t(3)); // print, tensor branch, .item()
        QVERIFY(s->graphBreaks[0].reason.find("print") != std::string::npos);
        QVERIFY(!s->compiles.empty());
        QVERIFY(!s->recompiles.empty());
        QVERIFY(!s->graphs.empty());
        QVERIFY(!s->kernels.empty());
        QVERIFY(!s->launches.empty());
        QVERIFY(!s->config.empty());
        QVERIFY(!s->output.empty());
        QVERIFY(s->source.contains("def fn(x, y):"));
        QVERIFY(!s->sourceChanged);
        for (const trace::GraphRow& g : s->graphs)
            QCOMPARE(static_cast<int>(s->nodesOf(g.id).size()), g.nodeCount);
        // The same as a direct read.
        views::SnapshotPtr direct = testing::readSnapshot(m_trace, 1);
        QVERIFY(direct);
        QCOMPARE(direct->launches.size(), s->launches.size());
        QCOMPARE(direct->graphNodes.size(), s->graphNodes.size());
    }

    void refreshTailsFromThePreviousSnapshot() {
        // A run that grows between two reads: the tailed read equals a full read, row by row.
        const std::string path = m_dir.filePath("growing.kiln").toStdString();
        auto opened = trace::TraceWriter::open(path);
        QVERIFY(opened.ok());
        trace::TraceWriter& w = *opened.value();
        QVERIFY(w.beginRun({"grow.py", "", "default", "inductor", "{}", "cpu", {}}).ok());
        auto addGraph = [&](int frame, int graph) {
            std::string id = std::to_string(frame) + "/0";
            w.frame({frame, "f" + std::to_string(frame), "grow.py", 1 + frame, "function", -1, 0});
            w.compile(
                {id, frame, 0, "first", 1000L * graph, 500, "ok", "", "inductor", "default", {}});
            GraphEvent g;
            g.compileId = id;
            g.graphIndex = graph;
            g.nodeCount = 2;
            g.nodes.push_back({"x", "placeholder", "x", "", "[4]", "torch.float32", 0});
            g.nodes.push_back(
                {"y", "call_function", "torch.sin", "(x,)", "[4]", "torch.float32", 2 + frame});
            w.kernel({graph, id, graph, "k" + std::to_string(graph), "pointwise", "y", "code", ""});
            w.graph(g);
            for (int l = 0; l < 10; ++l) {
                KernelLaunchEvent e;
                e.kernelId = graph;
                e.startNs = 100L * l;
                e.endNs = 100L * l + 50;
                w.kernelLaunch(e);
            }
            w.output(OutputStream::Stdout, "graph " + std::to_string(graph) + "\n");
        };
        addGraph(0, 0);
        QVERIFY(w.flush().ok());
        auto reader = trace::TraceReader::open(path);
        QVERIFY(reader.ok());
        auto first = views::readRunSnapshot(*reader.value(), 1);
        QVERIFY(first.ok());
        QCOMPARE(first.value().launches.size(), size_t(10));
        addGraph(1, 1);
        addGraph(2, 2);
        QVERIFY(w.flush().ok());
        auto tailed = views::readRunSnapshot(*reader.value(), 1, &first.value());
        auto full = views::readRunSnapshot(*reader.value(), 1);
        QVERIFY(tailed.ok() && full.ok());
        const views::RunSnapshot& t = tailed.value();
        const views::RunSnapshot& f = full.value();
        auto ids = [](const auto& rows) {
            QList<qint64> out;
            for (const auto& r : rows)
                out << r.id;
            return out;
        };
        QCOMPARE(t.launches.size(), size_t(30));
        QCOMPARE(ids(t.launches), ids(f.launches));
        QCOMPARE(ids(t.frames), ids(f.frames));
        QCOMPARE(ids(t.graphs), ids(f.graphs));
        QCOMPARE(ids(t.graphNodes), ids(f.graphNodes));
        QCOMPARE(ids(t.output), ids(f.output));
        QCOMPARE(t.kernels.size(), size_t(3));
        QCOMPARE(t.nodesOf(t.graphs.back().id).size(), size_t(2));
        // Another file's run 1 is never tailed onto: ids restart in every trace.
        views::SnapshotPtr other = testing::readSnapshot(m_trace, 1);
        QVERIFY(other);
        auto notTailed = views::readRunSnapshot(*reader.value(), 1, other.get());
        QVERIFY(notTailed.ok());
        QCOMPARE(ids(notTailed.value().launches), ids(f.launches));
        QCOMPARE(ids(notTailed.value().frames), ids(f.frames));
        QVERIFY(w.finishRun(trace::RunStatus::Ok, 0).ok());
    }

    void selectingAKernelSelectsItsParents() {
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(testing::readSnapshot(m_trace, 1));
        const views::RunSnapshot& s = *selection.snapshot();
        const views::KernelRecord& k = s.kernels.back();
        QSignalSpy changed(&selection, &views::Selection::selectionChanged);
        selection.selectKernel(k.kernel.kernelId);
        QCOMPARE(changed.count(), 1);
        const views::SelectionState& st = selection.state();
        QCOMPARE(st.kernelId, k.kernel.kernelId);
        QCOMPARE(st.graphId, k.kernel.graphId);
        QCOMPARE(st.compileId, QString::fromStdString(k.kernel.compileId));
        const trace::CompileRow* c = s.compile(k.kernel.compileId);
        QVERIFY(c);
        QCOMPARE(st.frameId, c->frameId);
        // Selecting the same again is not a change.
        selection.selectKernel(k.kernel.kernelId);
        QCOMPARE(changed.count(), 1);
    }

    void selectingABreakSelectsItsCompileAndLine() {
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(testing::readSnapshot(m_trace, 1));
        const trace::GraphBreakRow& b = selection.snapshot()->graphBreaks.at(1);
        selection.selectBreak(b.order);
        QCOMPARE(selection.state().breakOrder, b.order);
        QCOMPARE(selection.state().compileId, QString::fromStdString(b.compileId));
        QCOMPARE(selection.state().sourceLine, b.line);
    }

    void aSnapshotOfAnotherRunIsIgnored() {
        views::Selection selection;
        selection.selectRun(2);
        selection.setSnapshot(testing::readSnapshot(m_trace, 1));
        QVERIFY(!selection.snapshot());
    }

    void aMissingTraceFails() {
        views::TraceSession session;
        QSignalSpy failed(&session, &views::TraceSession::failed);
        session.open(m_dir.filePath("nope.kiln"));
        QVERIFY(arrived(failed));
        QVERIFY(!failed.at(0).at(0).toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TraceSessionTest)
#include "tst_trace_session.moc"
