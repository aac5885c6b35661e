// SPDX-License-Identifier: MIT
/// \file
/// The compile tree on the graph-break example's trace (0/0..3/0 end in graph breaks, scaled()
/// is recompiled as 4/1..4/4): its shape and statuses against the snapshot, a live run's
/// snapshots adopted by inserting rows, and the Compiles panel following the selection both
/// ways (rendered offscreen to /tmp/compiles-tree.png), its trees built on a pool thread.
#include "compiles_panel.h"
#include "studio_fixture.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <set>

using namespace kiln;
using views::CompileTreeModel;
using views::CompileTreeStatus;

namespace {

/// \p full as a live run would have recorded it earlier: only \p compiles (and their graphs,
/// kernels, recompile rows) of the frames up to \p lastFrame, without \p dropKernels.
views::SnapshotPtr earlier(const views::RunSnapshot& full, const std::set<std::string>& compiles,
                           int64_t lastFrame, const std::set<int64_t>& dropKernels = {}) {
    auto s = std::make_shared<views::RunSnapshot>(full);
    auto keep = [&](const std::string& id) { return compiles.count(id) > 0; };
    std::erase_if(s->frames, [&](auto& f) { return f.frameId > lastFrame; });
    std::erase_if(s->compiles, [&](auto& c) { return !keep(c.compileId); });
    std::erase_if(s->graphs, [&](auto& g) { return !keep(g.compileId); });
    std::erase_if(s->recompiles, [&](auto& r) { return !keep(r.compileId); });
    std::erase_if(s->kernels, [&](auto& k) {
        return !keep(k.kernel.compileId) || dropKernels.count(k.kernel.kernelId);
    });
    return s;
}

CompileTreeStatus statusAt(const QModelIndex& i) {
    return static_cast<CompileTreeStatus>(i.data(CompileTreeModel::StatusRole).toInt());
}

QString cell(const QModelIndex& item, int column) {
    return item.siblingAtColumn(column).data().toString();
}

const views::KernelRecord* kernelOf(const views::RunSnapshot& s, const std::string& compileId) {
    for (const views::KernelRecord& k : s.kernels)
        if (k.kernel.compileId == compileId) return &k;
    return nullptr;
}

/// Waits until \p panel has shown \p count trees since \p shown began to count.
bool waitForTrees(QSignalSpy& shown, int count) {
    return QTest::qWaitFor([&] { return shown.count() >= count; }, 10'000) &&
           shown.count() == count;
}

} // namespace

class CompileTreeTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    views::SnapshotPtr m_full;

private slots:
    void initTestCase() {
        const QString trace = testing::graphBreaksTrace(m_dir.path());
        QVERIFY(!trace.isEmpty());
        m_full = testing::readSnapshot(trace, 1);
        QVERIFY(m_full);
        QVERIFY(m_full->compile("4/4")); // scaled() recompiled four times
    }

    void treeMirrorsTheSnapshot() {
        CompileTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(m_full);
        const views::RunSnapshot& s = *m_full;
        QCOMPARE(model.rowCount(), static_cast<int>(s.frames.size()));
        QCOMPARE(model.rowCount(), 5); // fn, three resume functions, scaled
        for (int f = 0; f < model.rowCount(); ++f) {
            const QModelIndex frame = model.index(f, 0);
            const qint64 frameId = frame.data(CompileTreeModel::FrameIdRole).toLongLong();
            auto compiles = s.compilesOf(frameId);
            QCOMPARE(model.rowCount(frame), static_cast<int>(compiles.size()));
            for (int c = 0; c < model.rowCount(frame); ++c) {
                const QModelIndex entry = model.index(c, 0, frame);
                QCOMPARE(entry.data(CompileTreeModel::CompileIdRole).toString(),
                         QString::fromStdString(compiles[size_t(c)]->compileId));
                auto graphs = s.graphsOf(compiles[size_t(c)]->compileId);
                QCOMPARE(model.rowCount(entry), static_cast<int>(graphs.size()));
                for (int g = 0; g < model.rowCount(entry); ++g)
                    QCOMPARE(model.rowCount(model.index(g, 0, entry)),
                             static_cast<int>(s.kernelsOf(graphs[size_t(g)]->id).size()));
            }
        }
        QCOMPARE(model.rowCount(model.indexOfFrame(4)), 5); // 4/0 .. 4/4
    }

    void trainingGraphsHoldTheirForwardAndBackwardKernels() {
        const QString trace = testing::trainingTrace(m_dir.path());
        QVERIFY(!trace.isEmpty());
        views::SnapshotPtr s = testing::readSnapshot(trace, 1);
        QVERIFY(s && s->graphs.size() == 2);
        CompileTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(s);
        const trace::GraphRow& training = s->graphs[0];
        const QModelIndex graph = model.indexOfGraph(training.id);
        QCOMPARE(model.rowCount(graph), 2); // forward, backward
        const trace::GraphRow* forward = s->aotGraph(training.id, "aot_forward");
        QVERIFY(forward);
        int kernels = 0;
        for (int row = 0; row < 2; ++row) {
            const QModelIndex aot = model.index(row, 0, graph);
            QCOMPARE(
                static_cast<views::CompileTreeKind>(aot.data(CompileTreeModel::KindRole).toInt()),
                views::CompileTreeKind::AotGraph);
            QCOMPARE(aot.data(CompileTreeModel::GraphIdRole).toLongLong(), training.id);
            const std::string kind = row == 0 ? "aot_forward" : "aot_backward";
            QVERIFY(cell(aot, 0).startsWith(row == 0 ? "forward · " : "backward · "));
            QVERIFY(model.rowCount(aot) > 0);
            for (int k = 0; k < model.rowCount(aot); ++k) {
                const auto* record = s->kernel(
                    model.index(k, 0, aot).data(CompileTreeModel::KernelIdRole).toLongLong());
                QVERIFY(record && record->kernel.graphKind == kind);
                ++kernels;
            }
        }
        QCOMPARE(kernels, static_cast<int>(s->kernelsOf(training.id).size()));
        const QModelIndex forwardRow = model.index(0, 0, graph);
        QVERIFY2(cell(forwardRow, CompileTreeModel::DetailColumn)
                     .contains(QString("saves %1 tensors").arg(forward->savedCount)),
                 qPrintable(cell(forwardRow, CompileTreeModel::DetailColumn)));
        QVERIFY(forwardRow.data(Qt::ToolTipRole).toString().contains("saved for the backward"));
        // The inference graph's kernels hang under it directly.
        const QModelIndex inference = model.indexOfGraph(s->graphs[1].id);
        QCOMPARE(model.rowCount(inference), static_cast<int>(s->kernelsOf(s->graphs[1].id).size()));
    }

    void namesAndNumbers() {
        CompileTreeModel model;
        model.setSnapshot(m_full);
        QCOMPARE(cell(model.indexOfFrame(0), 0), QString("fn (graph_breaks.py:6)"));
        QCOMPARE(cell(model.indexOfFrame(1), 0), QString("fn (graph_breaks.py:8) · resume"));
        QVERIFY(cell(model.indexOfFrame(1), CompileTreeModel::DetailColumn)
                    .contains("torch_dynamo_resume_in_fn_at_8, after the graph break at line 8"));
        QCOMPARE(cell(model.indexOfCompile("0/0"), 0), QString("0/0 · first"));
        const QModelIndex entry = model.indexOfCompile("4/1");
        QCOMPARE(cell(entry, 0), QString("4/1 · recompile"));
        const trace::CompileRow* c = m_full->compile("4/1");
        QCOMPARE(cell(entry, CompileTreeModel::CompileMsColumn),
                 QString::number(double(*c->durationNs) * 1e-6, 'f', 3));
        QVERIFY(cell(entry, CompileTreeModel::DetailColumn)
                    .contains("4/0: L['x'] expected torch.float32 [8, 128], actual torch.float32 "
                              "[16, 128]"));
        const trace::GraphRow* g = m_full->graphsOf("4/1").front();
        const QModelIndex graph = model.indexOfGraph(g->id);
        QCOMPARE(graph.parent(), entry);
        // Named by its graph id (what `kiln export-diagram --graph` takes), not its position.
        QCOMPARE(cell(graph, 0), QString("graph %1 · %2 ops").arg(g->id).arg(g->opCount));
        const views::KernelRecord* k = kernelOf(*m_full, "4/1");
        QVERIFY(k && k->launches.count > 0);
        const QModelIndex kernel = model.indexOfKernel(k->kernel.kernelId);
        QCOMPARE(kernel.parent(), graph);
        QCOMPARE(cell(kernel, 0), QString::fromStdString(k->kernel.name));
        QCOMPARE(kernel.siblingAtColumn(CompileTreeModel::LaunchesColumn).data().toLongLong(),
                 k->launches.count);
        QVERIFY(cell(kernel, CompileTreeModel::DetailColumn).startsWith("reduction · "));
        // The tooltip lists the compile phases with their times.
        const QString tip = entry.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("compiled in ") && tip.contains("backend_compile "), qPrintable(tip));
    }

    void statusesAndColours() {
        CompileTreeModel model;
        model.setSnapshot(m_full);
        const QModelIndex breaks = model.indexOfCompile("0/0");
        const QModelIndex latest = model.indexOfCompile("4/4");
        const QModelIndex replaced = model.indexOfCompile("4/0");
        QCOMPARE(statusAt(breaks), CompileTreeStatus::Break);
        QCOMPARE(statusAt(latest), CompileTreeStatus::Ok);
        QCOMPARE(statusAt(replaced), CompileTreeStatus::Recompiled);
        QCOMPARE(cell(breaks, CompileTreeModel::StatusColumn), QString("ok with breaks"));
        QCOMPARE(cell(latest, CompileTreeModel::StatusColumn), QString("ok"));
        QCOMPARE(cell(replaced, CompileTreeModel::StatusColumn), QString("recompiled"));
        QCOMPARE(breaks.data(Qt::DecorationRole).value<QColor>(),
                 views::compileTreeStatusColor(CompileTreeStatus::Break));
        QCOMPARE(latest.siblingAtColumn(CompileTreeModel::StatusColumn)
                     .data(Qt::ForegroundRole)
                     .value<QColor>(),
                 views::compileTreeStatusColor(CompileTreeStatus::Ok));
        QVERIFY(views::compileTreeStatusColor(CompileTreeStatus::Break) !=
                views::compileTreeStatusColor(CompileTreeStatus::Recompiled));
        QVERIFY(cell(breaks, CompileTreeModel::DetailColumn).contains("graph break at line 8"));
        QVERIFY(replaced.data(Qt::ToolTipRole).toString().contains("its guards failed for 4/1"));
        QVERIFY(model.indexOfCompile("4/2")
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("4/1: L['scale'] expected 2.0, actual 3.0"));
        // The frame: recompiled four times; a graph shares its entry's status.
        QCOMPARE(statusAt(model.indexOfFrame(4)), CompileTreeStatus::Recompiled);
        QCOMPARE(cell(model.indexOfFrame(4), CompileTreeModel::StatusColumn),
                 QString("recompiled 4×"));
        QCOMPARE(statusAt(model.index(0, 0, breaks)), CompileTreeStatus::Break);
    }

    void aFullCacheSaysWhichCallsRanEagerly() {
        // Issue 14, findings 6 and 5: f is called with 70 sizes; 64 cache entries (the
        // default cache_size_limit), then 6 calls run eagerly. The tree says so in a row of its
        // own, with the guard that failed; an entry's detail stays one short line though each
        // recompile names every older entry's failing guard.
        QTemporaryDir dir;
        const QString trace =
            testing::scriptTrace(dir.path(), "limit.py",
                                 "import torch\n"
                                 "torch._dynamo.config.automatic_dynamic_shapes = False\n"
                                 "\n"
                                 "@torch.compile\n"
                                 "def f(x):\n"
                                 "    return x * 2\n"
                                 "\n"
                                 "for n in range(1, 71):\n"
                                 "    f(torch.ones(n))\n");
        views::SnapshotPtr snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(snapshot);
        QCOMPARE(snapshot->compiles.size(), size_t(64));
        CompileTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshot);
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex frame = model.index(0, 0);
        QCOMPARE(model.rowCount(frame), 65); // 64 entries, then the eager calls
        QVERIFY2(cell(frame, CompileTreeModel::DetailColumn)
                     .contains("cache_size_limit reached: 6 more calls ran eagerly"),
                 qPrintable(cell(frame, CompileTreeModel::DetailColumn)));
        const QModelIndex eager = model.index(64, 0, frame);
        QCOMPARE(eager.data(CompileTreeModel::KindRole).toInt(),
                 int(views::CompileTreeKind::EagerCalls));
        QCOMPARE(cell(eager, CompileTreeModel::NameColumn), QString("6 calls ran eagerly"));
        QCOMPARE(cell(eager, CompileTreeModel::StatusColumn), QString("not compiled"));
        // A status of its own, in a colour of its own (it read "recompiled 63×" as any frame
        // that recompiled, and the eager row "skipped").
        QCOMPARE(statusAt(frame), CompileTreeStatus::CacheLimit);
        QCOMPARE(statusAt(eager), CompileTreeStatus::CacheLimit);
        QCOMPARE(cell(frame, CompileTreeModel::StatusColumn), QString("cache limit"));
        for (CompileTreeStatus other :
             {CompileTreeStatus::Ok, CompileTreeStatus::Break, CompileTreeStatus::Recompiled,
              CompileTreeStatus::Failed, CompileTreeStatus::Skipped, CompileTreeStatus::Compiling})
            QVERIFY(views::compileTreeStatusColor(CompileTreeStatus::CacheLimit) !=
                    views::compileTreeStatusColor(other));
        const QString why = cell(eager, CompileTreeModel::DetailColumn);
        QVERIFY2(why.startsWith("cache_size_limit (64) reached: L['x'] expected "),
                 qPrintable(why));
        QVERIFY(why.contains("[64]") && why.contains("[65]"));
        QVERIFY(eager.data(Qt::ToolTipRole).toString().contains("raise cache_size_limit"));
        QCOMPARE(model.rowCount(eager), 0);

        const QModelIndex last = model.indexOfCompile("0/63");
        const QString detail = cell(last, CompileTreeModel::DetailColumn);
        QVERIFY2(detail.size() < 200, qPrintable(detail));
        QVERIFY(detail.endsWith("(and 62 other entries)"));
        QVERIFY(last.data(Qt::ToolTipRole).toString().split('\n').size() < 16);
    }

    void aGrowingRunInsertsRows() {
        CompileTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        const views::KernelRecord* late = kernelOf(*m_full, "3/0");
        QVERIFY(late);
        model.setSnapshot(
            earlier(*m_full, {"0/0", "1/0", "2/0", "3/0"}, 3, {late->kernel.kernelId}));
        QCOMPARE(resets.count(), 1); // the first snapshot of a run
        QCOMPARE(model.rowCount(), 4);
        QVERIFY(!model.indexOfKernel(late->kernel.kernelId).isValid());
        const QPersistentModelIndex first = model.indexOfCompile("0/0");

        // The kernel of 3/0 arrives, scaled() is compiled twice.
        model.setSnapshot(earlier(*m_full, {"0/0", "1/0", "2/0", "3/0", "4/0", "4/1"}, 4));
        QCOMPARE(model.rowCount(), 5);
        QVERIFY(model.indexOfKernel(late->kernel.kernelId).isValid());
        QCOMPARE(statusAt(model.indexOfCompile("4/1")), CompileTreeStatus::Ok);
        QCOMPARE(statusAt(model.indexOfCompile("4/0")), CompileTreeStatus::Recompiled);

        // The rest: 4/2..4/4 under the frame that is shown, and 4/1 becomes recompiled.
        changed.clear();
        model.setSnapshot(m_full);
        QCOMPARE(resets.count(), 1);
        QVERIFY(inserted.count() >= 3);
        QVERIFY(first.isValid());
        QCOMPARE(first.data(CompileTreeModel::CompileIdRole).toString(), QString("0/0"));
        QCOMPARE(model.rowCount(model.indexOfFrame(4)), 5);
        QCOMPARE(statusAt(model.indexOfCompile("4/1")), CompileTreeStatus::Recompiled);
        const QModelIndex entry41 = model.indexOfCompile("4/1");
        const bool sawChange = std::any_of(changed.begin(), changed.end(), [&](const auto& args) {
            return args.at(0).template value<QModelIndex>() == entry41;
        });
        QVERIFY(sawChange);

        // Another run is another tree.
        auto other = std::make_shared<views::RunSnapshot>(*m_full);
        other->run.id = 2;
        model.setSnapshot(other);
        QCOMPARE(resets.count(), 2);
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void panelFollowsTheSelectionBothWays() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(m_full);
        views::CompilesPanel panel(session, selection);
        QSignalSpy trees(&panel, &views::CompilesPanel::treeShown);
        QCOMPARE(panel.objectName(), QString("compiles"));
        panel.resize(900, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(waitForTrees(trees, 1));
        QTreeView* tree = panel.tree();
        // Frames open by default: their cache entries show.
        QVERIFY(tree->isExpanded(tree->model()->index(4, 0)));

        // A click on a kernel selects it (and its graph, entry and frame).
        const views::KernelRecord* k = kernelOf(*m_full, "4/1");
        QModelIndex shown = static_cast<QSortFilterProxyModel*>(tree->model())
                                ->mapFromSource(panel.model()->indexOfKernel(k->kernel.kernelId));
        tree->expand(shown.parent().parent());
        tree->expand(shown.parent());
        tree->scrollTo(shown);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(shown).center());
        QCOMPARE(selection.state().kernelId, k->kernel.kernelId);
        QCOMPARE(selection.state().compileId, QString("4/1"));

        // A click on an entry keeps that entry current (not the graph Selection adds).
        shown = static_cast<QSortFilterProxyModel*>(tree->model())
                    ->mapFromSource(panel.model()->indexOfCompile("4/3"));
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(shown).center());
        QCOMPARE(selection.state().compileId, QString("4/3"));
        QCOMPARE(panel.currentItem().data(CompileTreeModel::CompileIdRole).toString(), "4/3");
        QCOMPARE(panel.currentItem().data(CompileTreeModel::KindRole).toInt(),
                 int(views::CompileTreeKind::Compile));

        // A kernel selected elsewhere becomes the current item, revealed.
        const views::KernelRecord* other = kernelOf(*m_full, "4/4");
        selection.selectKernel(other->kernel.kernelId);
        QCOMPARE(panel.currentItem().data(CompileTreeModel::KernelIdRole).toLongLong(),
                 other->kernel.kernelId);
        QVERIFY(tree->isExpanded(tree->currentIndex().parent()));
        // An entry selected elsewhere: its deepest item is its first graph.
        selection.selectCompile("2/0");
        QCOMPARE(panel.currentItem().data(CompileTreeModel::GraphIdRole).toLongLong(),
                 m_full->graphsOf("2/0").front()->id);

        // The filter keeps matches and their parents.
        panel.filter()->setText("resume");
        QCOMPARE(tree->model()->rowCount(), 3);
        panel.filter()->setText("");
        QCOMPARE(tree->model()->rowCount(), 5);
        QCOMPARE(panel.currentItem().data(CompileTreeModel::GraphIdRole).toLongLong(),
                 m_full->graphsOf("2/0").front()->id);

        QVERIFY(panel.grab().save("/tmp/compiles-tree.png"));
    }

    void aLiveRunGrowsUnderTheUsersEyes() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(earlier(*m_full, {"0/0", "1/0", "2/0", "3/0"}, 3));
        views::CompilesPanel panel(session, selection);
        QSignalSpy shown(&panel, &views::CompilesPanel::treeShown);
        QVERIFY(waitForTrees(shown, 1));
        QCOMPARE(panel.model()->rowCount(), 4);
        selection.selectCompile("1/0");
        QTreeView* tree = panel.tree();
        auto* proxy = static_cast<QSortFilterProxyModel*>(tree->model());
        QSignalSpy resets(panel.model(), &QAbstractItemModel::modelReset);
        selection.setSnapshot(m_full);
        QCOMPARE(panel.model()->rowCount(), 4); // built on a pool thread, adopted later
        QVERIFY(waitForTrees(shown, 2));
        QCOMPARE(panel.model()->rowCount(), 5);
        QCOMPARE(resets.count(), 0);
        // Still on the entry's graph (the deepest item selectCompile selects).
        QCOMPARE(panel.currentItem().data(CompileTreeModel::GraphIdRole).toLongLong(),
                 m_full->graphsOf("1/0").front()->id);
        // The new frame opens like the others did.
        QVERIFY(tree->isExpanded(proxy->mapFromSource(panel.model()->indexOfFrame(4))));
    }

    void aResetKeepsExpansionAndSelection() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(m_full);
        views::CompilesPanel panel(session, selection);
        QSignalSpy shown(&panel, &views::CompilesPanel::treeShown);
        QVERIFY(waitForTrees(shown, 1));
        panel.resize(900, 600);
        QTreeView* tree = panel.tree();
        auto* proxy = static_cast<QSortFilterProxyModel*>(tree->model());
        const trace::GraphRow* g = m_full->graphsOf("4/2").front();
        tree->expand(proxy->mapFromSource(panel.model()->indexOfGraph(g->id)).parent());
        selection.selectGraph(g->id);
        // A snapshot that is not a grown copy (here: the first frame gone) resets the model.
        auto reordered = std::make_shared<views::RunSnapshot>(*m_full);
        reordered->frames.erase(reordered->frames.begin());
        QSignalSpy resets(panel.model(), &QAbstractItemModel::modelReset);
        selection.setSnapshot(reordered);
        QVERIFY(waitForTrees(shown, 2));
        QCOMPARE(resets.count(), 1);
        QCOMPARE(panel.currentItem().data(CompileTreeModel::GraphIdRole).toLongLong(), g->id);
        QVERIFY(tree->isExpanded(proxy->mapFromSource(panel.model()->indexOfCompile("4/2"))));
        QVERIFY(!tree->isExpanded(proxy->mapFromSource(panel.model()->indexOfCompile("4/0"))));
    }

    void theNewestSnapshotWins() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(earlier(*m_full, {"0/0"}, 0));
        views::CompilesPanel panel(session, selection);
        QSignalSpy shown(&panel, &views::CompilesPanel::treeShown);
        // Snapshots arriving while the first tree builds: only the newest waits for the next
        // build, the ones in between are never built.
        selection.setSnapshot(earlier(*m_full, {"0/0", "1/0"}, 1));
        selection.setSnapshot(earlier(*m_full, {"0/0", "1/0", "2/0"}, 2));
        selection.setSnapshot(m_full);
        QVERIFY(waitForTrees(shown, 2));
        QCOMPARE(panel.model()->rowCount(), 5);
        QCOMPARE(panel.model()->rowCount(panel.model()->indexOfFrame(4)), 5); // 4/0..4/4

        // Another run arriving while this one's tree builds: the stale tree is never shown.
        auto otherRun = std::make_shared<views::RunSnapshot>(*earlier(*m_full, {"0/0"}, 0));
        otherRun->run.id = 2;
        QSignalSpy resets(panel.model(), &QAbstractItemModel::modelReset);
        selection.setSnapshot(earlier(*m_full, {"0/0", "1/0"}, 1));
        selection.selectRun(2);
        selection.setSnapshot(otherRun);
        QVERIFY(waitForTrees(shown, 3));
        QCOMPARE(panel.model()->rowCount(), 1);
        QCOMPARE(resets.count(), 1);
    }

    void aPanelClosedDuringABuildIsSafe() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        auto snapshot = std::make_shared<views::RunSnapshot>(*m_full);
        std::weak_ptr<views::RunSnapshot> held = snapshot;
        selection.setSnapshot(std::move(snapshot));
        {
            views::CompilesPanel panel(session, selection); // starts a build
        }
        selection.selectRun(2); // lets go of the snapshot
        // The build still reads the snapshot it holds, and lets it go when it is done.
        QTRY_VERIFY(held.expired());
    }
};

QTEST_MAIN(CompileTreeTest)
#include "tst_compile_tree.moc"
