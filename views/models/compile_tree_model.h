// SPDX-License-Identifier: MIT
/// \file
/// The compile tree, as tlparse draws it: each frame torch.compile saw, its cache entries
/// (compile ids "f/c"), each entry's graphs and each graph's kernels, coloured by what became of
/// the entry (ok, ok with graph breaks, recompiled, failed, skipped). A live run's newer
/// snapshot is adopted by inserting what is new under the rows that already exist, so views
/// keep their expansion and current item; only a snapshot that reorders or drops items resets.
#pragma once

#include "run_snapshot.h"
#include "selection.h"

#include <QAbstractItemModel>
#include <QColor>
#include <QHash>
#include <memory>

namespace kiln::views {

/// EagerCalls: the calls of a frame that ran eagerly because its cache was full (cache_size_limit).
/// AotGraph: a training graph's forward or backward graph (AOT autograd), under its graph,
/// holding that graph's kernels.
enum class CompileTreeKind { Frame, Compile, Graph, Kernel, EagerCalls, AotGraph };

/// What became of a cache entry (and, for the tree's other rows, of what they belong to).
enum class CompileTreeStatus {
    Ok,
    Break,      ///< compiled, but a graph break ended the graph (status "break")
    Recompiled, ///< its guards later failed and a newer entry of the frame replaced it
    Failed,
    Skipped,   ///< skipped, no_ops, or a kernel that never ran
    Compiling, ///< not finished yet (a live run)
    /// The frame's cache is full (cache_size_limit): calls no entry's guards accepted ran
    /// eagerly, uncompiled; also the row that counts them.
    CacheLimit,
};

/// The words the status column and the legend use.
QString compileTreeStatusName(CompileTreeStatus status);
/// The colour of a status: dark enough to read as text on a light background.
QColor compileTreeStatusColor(CompileTreeStatus status);

class CompileTreeModel final : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        StatusColumn,
        CompileMsColumn, ///< the entry's compile time (a frame: all its entries')
        KernelMsColumn,  ///< total launch time of the kernels below
        LaunchesColumn,
        DetailColumn,
        ColumnCount
    };
    enum Role {
        KindRole = Qt::UserRole + 1, ///< CompileTreeKind as int
        StatusRole,                  ///< CompileTreeStatus as int
        FrameIdRole,                 ///< qint64; the item's frame (every kind has one)
        CompileIdRole,               ///< QString "f/c"; empty for frames
        GraphIdRole,                 ///< qint64; 0 above graphs
        KernelIdRole,                ///< qint64; -1 above kernels
        KeyRole,                     ///< QString unique in the tree ("c:4/1"); survives resets
    };

    /// One item of the tree (compile_tree_build.h), built whole from a snapshot.
    struct Node;

    explicit CompileTreeModel(QObject* parent = nullptr);
    ~CompileTreeModel() override;

    /// Shows \p snapshot (null: nothing), its tree built here: adoptTree(snapshot,
    /// buildCompileTree(*snapshot)).
    void setSnapshot(const SnapshotPtr& snapshot);
    /// Shows \p tree, which buildCompileTree made of \p snapshot (on any thread: the snapshot is
    /// immutable). A newer tree of the same run that only added items inserts them; anything
    /// else resets the model. Returns the nodes the model no longer needs (the fresh twins of
    /// rows already shown, or the tree a reset replaced) for the caller to free where it likes:
    /// thousands of rows take milliseconds to free.
    std::unique_ptr<Node> adoptTree(const SnapshotPtr& snapshot, std::unique_ptr<Node> tree);

    QModelIndex indexOfFrame(qint64 frameId) const;
    QModelIndex indexOfCompile(const QString& compileId) const;
    QModelIndex indexOfGraph(qint64 graphId) const;
    QModelIndex indexOfKernel(qint64 kernelId) const;
    /// The item of KeyRole \p key; invalid when the tree has none.
    QModelIndex indexOfKey(const QString& key) const;
    /// The deepest item \p state selects: kernel, else graph, else compile, else frame.
    QModelIndex indexFor(const SelectionState& state) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QModelIndex indexOf(const Node* node, int column = 0) const;
    /// Adopts \p fresh into the current tree by inserting rows; false when it cannot.
    bool mergeTree(Node& fresh);
    /// Moves the items of \p fresh that \p current lacks (after its own) under it.
    void insertNew(Node& current, Node& fresh);
    static constexpr int kManyChanges = 64;
    void rebuildKeys();
    void addKeys(Node* subtree);

    std::unique_ptr<Node> m_root;
    qint64 m_runId = 0;
    QHash<QString, Node*> m_byKey;
};

} // namespace kiln::views
