// SPDX-License-Identifier: MIT
/// \file
/// CompileTreeModel: the tree is built whole from a snapshot (with every text and number of
/// its rows computed once), then either merged into the shown tree or swapped in by a reset.
#include "compile_tree_model.h"

#include "compile_tree_build.h"

namespace kiln::views {

using Node = CompileTreeModel::Node;

QString compileTreeStatusName(CompileTreeStatus status) {
    switch (status) {
    case CompileTreeStatus::Ok:
        return QStringLiteral("ok");
    case CompileTreeStatus::Break:
        return QStringLiteral("ok with breaks");
    case CompileTreeStatus::Recompiled:
        return QStringLiteral("recompiled");
    case CompileTreeStatus::Failed:
        return QStringLiteral("failed");
    case CompileTreeStatus::Skipped:
        return QStringLiteral("skipped");
    case CompileTreeStatus::Compiling:
        return QStringLiteral("compiling");
    case CompileTreeStatus::CacheLimit:
        return QStringLiteral("cache limit");
    }
    return {};
}

QColor compileTreeStatusColor(CompileTreeStatus status) {
    switch (status) {
    case CompileTreeStatus::Ok:
        return QColor(0x2e, 0x7d, 0x32);
    case CompileTreeStatus::Break:
        return QColor(0xc7, 0x6a, 0x00);
    case CompileTreeStatus::Recompiled:
        return QColor(0x7b, 0x1f, 0xa2);
    case CompileTreeStatus::Failed:
        return QColor(0xc6, 0x28, 0x28);
    case CompileTreeStatus::Skipped:
        return QColor(0x75, 0x75, 0x75);
    case CompileTreeStatus::Compiling:
        return QColor(0x15, 0x65, 0xc0);
    case CompileTreeStatus::CacheLimit:
        return QColor(0xad, 0x14, 0x57);
    }
    return {};
}

CompileTreeModel::CompileTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>()) {}

CompileTreeModel::~CompileTreeModel() = default;

void CompileTreeModel::setSnapshot(const SnapshotPtr& snapshot) {
    adoptTree(snapshot, snapshot ? buildCompileTree(*snapshot) : std::make_unique<Node>());
}

std::unique_ptr<Node> CompileTreeModel::adoptTree(const SnapshotPtr& snapshot,
                                                  std::unique_ptr<Node> tree) {
    if (!tree) tree = std::make_unique<Node>();
    const qint64 runId = snapshot ? snapshot->run.id : 0;
    if (runId == m_runId && mergeTree(*tree)) return tree;
    beginResetModel();
    std::swap(m_root, tree);
    m_runId = runId;
    rebuildKeys();
    endResetModel();
    return tree;
}

bool CompileTreeModel::mergeTree(Node& fresh) {
    std::vector<ChangedNode> changed;
    if (!growsInto(*m_root, fresh, changed)) return false;
    // A view answers each dataChanged by searching its rows for the index (QTreeView::
    // dataChanged → viewIndex): many changed rows at once cost one relayout instead.
    const bool many = changed.size() >= kManyChanges;
    if (many) Q_EMIT layoutAboutToBeChanged();
    for (const ChangedNode& c : changed) {
        c.shown->data = std::move(c.fresh->data);
        if (!many) Q_EMIT dataChanged(indexOf(c.shown), indexOf(c.shown, ColumnCount - 1));
    }
    if (many) Q_EMIT layoutChanged();
    insertNew(*m_root, fresh);
    return true;
}

void CompileTreeModel::insertNew(Node& current, Node& fresh) {
    const size_t shown = current.children.size();
    for (size_t i = 0; i < shown; ++i)
        insertNew(*current.children[i], *fresh.children[i]);
    if (fresh.children.size() == shown) return;
    const QModelIndex parent = &current == m_root.get() ? QModelIndex() : indexOf(&current);
    beginInsertRows(parent, static_cast<int>(shown), static_cast<int>(fresh.children.size()) - 1);
    for (size_t i = shown; i < fresh.children.size(); ++i) {
        fresh.children[i]->parent = &current;
        current.children.push_back(std::move(fresh.children[i]));
        addKeys(current.children.back().get());
    }
    endInsertRows();
}

void CompileTreeModel::rebuildKeys() {
    m_byKey.clear();
    for (auto& c : m_root->children)
        addKeys(c.get());
}

void CompileTreeModel::addKeys(Node* subtree) {
    std::vector<Node*> todo{subtree};
    while (!todo.empty()) {
        Node* n = todo.back();
        todo.pop_back();
        m_byKey.insert(n->key, n);
        for (auto& c : n->children)
            todo.push_back(c.get());
    }
}

QModelIndex CompileTreeModel::indexOf(const Node* node, int column) const {
    if (!node || node == m_root.get()) return {};
    return createIndex(node->row, column, const_cast<Node*>(node));
}

QModelIndex CompileTreeModel::indexOfKey(const QString& key) const {
    return indexOf(m_byKey.value(key));
}

QModelIndex CompileTreeModel::indexOfFrame(qint64 frameId) const {
    return indexOfKey(frameKey(frameId));
}

QModelIndex CompileTreeModel::indexOfCompile(const QString& compileId) const {
    return indexOfKey(compileKey(compileId));
}

QModelIndex CompileTreeModel::indexOfGraph(qint64 graphId) const {
    return indexOfKey(graphKey(graphId));
}

QModelIndex CompileTreeModel::indexOfKernel(qint64 kernelId) const {
    return indexOfKey(kernelKey(kernelId));
}

QModelIndex CompileTreeModel::indexFor(const SelectionState& state) const {
    QModelIndex found;
    if (state.kernelId >= 0) found = indexOfKernel(state.kernelId);
    if (!found.isValid() && state.graphId > 0) found = indexOfGraph(state.graphId);
    if (!found.isValid() && !state.compileId.isEmpty()) found = indexOfCompile(state.compileId);
    if (!found.isValid() && state.frameId >= 0) found = indexOfFrame(state.frameId);
    return found;
}

QModelIndex CompileTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    const Node* p =
        parent.isValid() ? static_cast<const Node*>(parent.internalPointer()) : m_root.get();
    return createIndex(row, column, p->children[static_cast<size_t>(row)].get());
}

QModelIndex CompileTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const Node* n = static_cast<const Node*>(child.internalPointer());
    return indexOf(n->parent);
}

int CompileTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.column() > 0) return 0;
    const Node* p =
        parent.isValid() ? static_cast<const Node*>(parent.internalPointer()) : m_root.get();
    return static_cast<int>(p->children.size());
}

int CompileTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

namespace {

QVariant milliseconds(const std::optional<double>& ms) {
    return ms ? QVariant(QString::number(*ms, 'f', 3)) : QVariant();
}

QVariant display(const Node& n, int column) {
    const NodeData& d = n.data;
    switch (column) {
    case CompileTreeModel::NameColumn:
        return d.name;
    case CompileTreeModel::StatusColumn:
        return d.statusText;
    case CompileTreeModel::CompileMsColumn:
        return milliseconds(d.compileMs);
    case CompileTreeModel::KernelMsColumn:
        return milliseconds(d.kernelMs);
    case CompileTreeModel::LaunchesColumn:
        return d.launches ? QVariant::fromValue<qint64>(*d.launches) : QVariant();
    case CompileTreeModel::DetailColumn:
        return d.detail;
    }
    return {};
}

QVariant idRole(const Node& n, int role) {
    switch (role) {
    case CompileTreeModel::KindRole:
        return static_cast<int>(n.kind);
    case CompileTreeModel::StatusRole:
        return static_cast<int>(n.data.status);
    case CompileTreeModel::FrameIdRole:
        return QVariant::fromValue<qint64>(n.frameId);
    case CompileTreeModel::CompileIdRole:
        return n.compileId;
    case CompileTreeModel::GraphIdRole:
        return QVariant::fromValue<qint64>(n.graphId);
    case CompileTreeModel::KernelIdRole:
        return QVariant::fromValue<qint64>(n.kernelId);
    case CompileTreeModel::KeyRole:
        return n.key;
    }
    return {};
}

} // namespace

QVariant CompileTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Node& n = *static_cast<const Node*>(index.internalPointer());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(n, column);
    case Qt::ToolTipRole:
        return n.data.toolTip;
    case Qt::DecorationRole:
        return column == NameColumn ? QVariant(compileTreeStatusColor(n.data.status)) : QVariant();
    case Qt::ForegroundRole:
        return column == StatusColumn ? QVariant(compileTreeStatusColor(n.data.status))
                                      : QVariant();
    case Qt::TextAlignmentRole:
        if (column == CompileMsColumn || column == KernelMsColumn || column == LaunchesColumn)
            return QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    default:
        return idRole(n, role);
    }
}

QVariant CompileTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const names[ColumnCount] = {"item",      "status",   "compile ms",
                                                   "kernel ms", "launches", "detail"};
    static const char* const tips[ColumnCount] = {
        "frame → cache entry (compile id) → graph → kernel",
        "what became of the entry",
        "time torch.compile spent compiling",
        "total launch time of the kernels below",
        "kernel launches below",
        "failure, recompile reason, graph break or kernel kind"};
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return QString(names[section]);
    if (role == Qt::ToolTipRole) return QString(tips[section]);
    return {};
}

} // namespace kiln::views
