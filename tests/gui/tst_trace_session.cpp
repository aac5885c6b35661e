// SPDX-License-Identifier: MIT
// TraceSession and Selection on the graph-break example's trace: snapshots read on the worker
// thread carry every table, a refresh tails what was added, and selecting a kernel or a break
// selects its parents.
#include "selection.h"
#include "studio_fixture.h"
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
        views::SnapshotPtr first = testing::readSnapshot(m_trace, 1);
        QVERIFY(first);
        auto reader = trace::TraceReader::open(m_trace.toStdString());
        QVERIFY(reader.ok());
        auto again = views::readRunSnapshot(*reader.value(), 1, first.get());
        QVERIFY(again.ok());
        QCOMPARE(again.value().launches.size(), first->launches.size());
        QCOMPARE(again.value().output.size(), first->output.size());
        QCOMPARE(again.value().graphNodes.size(), first->graphNodes.size());
        QCOMPARE(again.value().graphs.size(), first->graphs.size());
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
