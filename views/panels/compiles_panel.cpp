// SPDX-License-Identifier: MIT
/// \file
/// CompilesPanel: the tree view over CompileTreeModel through a recursive filter, and the
/// mapping between tree items and the shared selection.
#include "compiles_panel.h"

#include "compile_tree_build.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QThreadPool>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

namespace kiln::views {

struct CompilesPanel::BuiltTree {
    SnapshotPtr snapshot;
    std::unique_ptr<CompileTreeModel::Node> tree;
};

CompilesPanel::CompilesPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel("compiles", tr("Compiles"), session, selection, parent)
    , m_model(new CompileTreeModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_tree(new QTreeView(this))
    , m_filter(new QLineEdit(this))
    , m_build(new QFutureWatcher<BuiltTreePtr>(this)) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);

    m_tree->setModel(m_proxy);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setIconSize(QSize(10, 10));
    QHeaderView* header = m_tree->header();
    header->setStretchLastSection(true);
    header->setResizeContentsPrecision(100); // a thousand frames: measure a page of them
    header->resizeSection(CompileTreeModel::NameColumn, 330);
    header->resizeSection(CompileTreeModel::StatusColumn, 105);
    for (int c : {CompileTreeModel::CompileMsColumn, CompileTreeModel::KernelMsColumn})
        header->resizeSection(c, 78);
    header->resizeSection(CompileTreeModel::LaunchesColumn, 66);

    m_filter->setPlaceholderText(tr("Filter by function, compile id, kernel or reason"));
    m_filter->setClearButtonEnabled(true);

    auto* top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(makeLegend());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_tree, 1);

    connect(m_filter, &QLineEdit::textChanged, this, &CompilesPanel::applyFilter);
    connect(m_build, &QFutureWatcherBase::finished, this, &CompilesPanel::adoptBuiltTree);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { selectItem(current); });
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this,
            &CompilesPanel::rememberExpansion);
    connect(m_model, &QAbstractItemModel::modelReset, this, &CompilesPanel::restoreExpansion);
    // New frames of a live run open like the first ones did.
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex& parent, int first, int last) {
                if (parent.isValid()) return;
                for (int row = first; row <= last; ++row)
                    m_tree->expand(m_proxy->index(row, 0));
            });
    catchUp();
}

QWidget* CompilesPanel::makeLegend() {
    QStringList items;
    for (CompileTreeStatus s :
         {CompileTreeStatus::Ok, CompileTreeStatus::Break, CompileTreeStatus::Recompiled,
          CompileTreeStatus::Failed, CompileTreeStatus::Skipped, CompileTreeStatus::Compiling,
          CompileTreeStatus::CacheLimit})
        items << QString("<span style='color:%1'>&#9632;</span>&nbsp;%2")
                     .arg(compileTreeStatusColor(s).name(), compileTreeStatusName(s));
    auto* legend = new QLabel(items.join("&nbsp;&nbsp; "), this);
    legend->setObjectName("legend");
    legend->setTextFormat(Qt::RichText);
    legend->setToolTip(
        tr("ok with breaks: a graph break ended the graph\n"
           "recompiled: the entry's guards failed later and a newer entry "
           "replaced it\nskipped: nothing to compile (skipped, no ops), or a "
           "kernel that never ran\ncache limit: the frame has cache_size_limit entries; calls "
           "whose guards every entry rejected ran eagerly"));
    return legend;
}

QModelIndex CompilesPanel::currentItem() const {
    return m_proxy->mapToSource(m_tree->currentIndex());
}

namespace {

qint64 runOf(const SnapshotPtr& snapshot) {
    return snapshot ? snapshot->run.id : 0;
}

/// Drops \p held on a pool thread: a snapshot or a tree of a thousand graphs takes
/// milliseconds to free, and this may be its last owner.
template <typename T>
void releaseOnPool(std::shared_ptr<T> held) {
    if (held) QThreadPool::globalInstance()->start([held = std::move(held)] {});
}

} // namespace

void CompilesPanel::showSnapshot(const SnapshotPtr& snapshot) {
    // One build at a time; a snapshot arriving meanwhile replaces the one waiting.
    releaseOnPool(std::exchange(m_pending, snapshot));
    m_hasPending = true;
    if (!m_building) startBuild();
}

void CompilesPanel::startBuild() {
    m_building = m_hasPending;
    if (!m_hasPending) return;
    m_hasPending = false;
    // The task holds the snapshot (immutable, shared) and not the panel: a panel destroyed
    // during a build takes its watcher along, and the task's result is simply dropped.
    m_build->setFuture(QtConcurrent::run([snapshot = std::exchange(m_pending, nullptr)] {
        auto built = std::make_shared<BuiltTree>();
        built->snapshot = snapshot;
        built->tree =
            snapshot ? buildCompileTree(*snapshot) : std::make_unique<CompileTreeModel::Node>();
        return built;
    }));
}

void CompilesPanel::adoptBuiltTree() {
    BuiltTreePtr built = m_build->result();
    // Taken out of the result the watcher keeps, so that the pool frees it below.
    SnapshotPtr snapshot = std::move(built->snapshot);
    const qint64 runId = runOf(snapshot);
    // A live run's older tree still shows progress; another run's would only flash by.
    const bool superseded = m_hasPending && runOf(m_pending) != runId;
    startBuild(); // the next one, if any, builds while this one is adopted
    if (!superseded) {
        releaseOnPool(std::shared_ptr(m_model->adoptTree(snapshot, std::move(built->tree))));
        // Fitted once per run, to rows: a live run's first tree can be empty (the column would
        // stay a few pixels wide); later refreshes keep the width (and the user's).
        if (m_model->rowCount() > 0 && std::exchange(m_fittedRun, runId) != runId) fitNameColumn();
        showSelection(selection().state());
    }
    releaseOnPool(std::move(snapshot));
    releaseOnPool(std::move(built)); // a superseded tree
    if (!superseded) Q_EMIT treeShown();
}

void CompilesPanel::fitNameColumn() {
    // Resume functions have long names; the detail column still needs room.
    m_tree->resizeColumnToContents(CompileTreeModel::NameColumn);
    constexpr int kWidest = 430;
    constexpr int kNarrowest = 200; // "f (model.py:12) · resume" readable before any row opens
    m_tree->setColumnWidth(
        CompileTreeModel::NameColumn,
        std::clamp(m_tree->columnWidth(CompileTreeModel::NameColumn), kNarrowest, kWidest));
}

void CompilesPanel::showSelection(const SelectionState& state) {
    if (currentShows(state)) return;
    reveal(m_model->indexFor(state));
}

void CompilesPanel::selectItem(const QModelIndex& proxyIndex) {
    if (m_following || !proxyIndex.isValid()) return;
    const QModelIndex item = m_proxy->mapToSource(proxyIndex);
    switch (static_cast<CompileTreeKind>(item.data(CompileTreeModel::KindRole).toInt())) {
    case CompileTreeKind::Frame:
    case CompileTreeKind::EagerCalls: // no compile of their own: they belong to the frame
        selection().selectFrame(item.data(CompileTreeModel::FrameIdRole).toLongLong());
        break;
    case CompileTreeKind::Compile:
        selection().selectCompile(item.data(CompileTreeModel::CompileIdRole).toString());
        break;
    case CompileTreeKind::Graph:
    case CompileTreeKind::AotGraph: // its Dynamo graph; the Graph panel shows its code
        selection().selectGraph(item.data(CompileTreeModel::GraphIdRole).toLongLong());
        break;
    case CompileTreeKind::Kernel:
        selection().selectKernel(item.data(CompileTreeModel::KernelIdRole).toLongLong());
        break;
    }
}

bool CompilesPanel::currentShows(const SelectionState& state) const {
    const QModelIndex item = currentItem();
    if (!item.isValid()) return false;
    switch (static_cast<CompileTreeKind>(item.data(CompileTreeModel::KindRole).toInt())) {
    case CompileTreeKind::Kernel:
        return item.data(CompileTreeModel::KernelIdRole).toLongLong() == state.kernelId;
    case CompileTreeKind::Graph:
    case CompileTreeKind::AotGraph:
        return item.data(CompileTreeModel::GraphIdRole).toLongLong() == state.graphId &&
               state.kernelId < 0;
    case CompileTreeKind::Compile: {
        // Selecting an entry also selects its first graph; that still is this item.
        const QModelIndex firstGraph = m_model->index(0, 0, item);
        return item.data(CompileTreeModel::CompileIdRole).toString() == state.compileId &&
               state.kernelId < 0 &&
               (state.graphId == 0 ||
                firstGraph.data(CompileTreeModel::GraphIdRole).toLongLong() == state.graphId);
    }
    case CompileTreeKind::Frame:
    case CompileTreeKind::EagerCalls:
        return item.data(CompileTreeModel::FrameIdRole).toLongLong() == state.frameId &&
               state.compileId.isEmpty();
    }
    return false;
}

void CompilesPanel::reveal(const QModelIndex& sourceIndex) {
    const QModelIndex shown = m_proxy->mapFromSource(sourceIndex);
    m_following = true;
    if (shown.isValid()) {
        for (QModelIndex p = shown.parent(); p.isValid(); p = p.parent())
            m_tree->expand(p);
        m_tree->setCurrentIndex(shown);
        m_tree->scrollTo(shown);
    } else {
        m_tree->setCurrentIndex({});
    }
    m_following = false;
}

void CompilesPanel::rememberExpansion() {
    m_expandedKeys.clear();
    std::vector<QModelIndex> todo;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        todo.push_back(m_proxy->index(r, 0));
    while (!todo.empty()) {
        const QModelIndex i = todo.back();
        todo.pop_back();
        if (!m_tree->isExpanded(i)) continue;
        m_expandedKeys << i.data(CompileTreeModel::KeyRole).toString();
        for (int r = 0; r < m_proxy->rowCount(i); ++r)
            todo.push_back(m_proxy->index(r, 0, i));
    }
}

void CompilesPanel::restoreExpansion() {
    m_tree->expandToDepth(0); // frames open: their cache entries show
    for (const QString& key : std::as_const(m_expandedKeys))
        m_tree->expand(m_proxy->mapFromSource(m_model->indexOfKey(key)));
}

void CompilesPanel::applyFilter(const QString& text) {
    m_proxy->setFilterFixedString(text);
    if (text.isEmpty()) {
        m_tree->collapseAll();
        m_tree->expandToDepth(0);
    } else {
        m_tree->expandAll(); // matches can be kernels deep down
    }
    reveal(m_model->indexFor(selection().state()));
}

} // namespace kiln::views
