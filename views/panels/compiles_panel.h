// SPDX-License-Identifier: MIT
/// \file
/// The Compiles panel: the compile tree (frames → cache entries → graphs → kernels) coloured by
/// what became of each entry, with a legend and a filter. Clicking an item selects it (and its
/// parents) in the shared selection; a selection made elsewhere reveals its deepest item here.
/// A snapshot's tree is built on a pool thread (a live run of a thousand graphs takes tens of
/// ms) and adopted by the model on the GUI thread.
#pragma once

#include "compile_tree_model.h"
#include "panel.h"

#include <QFutureWatcher>
#include <memory>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace kiln::views {

class CompilesPanel final : public Panel {
    Q_OBJECT

public:
    CompilesPanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    QTreeView* tree() const { return m_tree; }
    CompileTreeModel* model() const { return m_model; }
    QLineEdit* filter() const { return m_filter; }
    /// The tree's current item in model (not proxy) terms; invalid when none.
    QModelIndex currentItem() const;

Q_SIGNALS:
    /// The model adopted the tree of the newest snapshot asked for so far (or of an older one,
    /// while a newer one is being built).
    void treeShown();

protected:
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    /// A snapshot and the tree a pool thread built of it.
    struct BuiltTree;
    using BuiltTreePtr = std::shared_ptr<BuiltTree>;

    void startBuild();
    void adoptBuiltTree();
    QWidget* makeLegend();
    void selectItem(const QModelIndex& proxyIndex);
    /// True when the current item already stands for \p state (so a selection this panel made,
    /// whose parents Selection filled in, does not move the current item).
    bool currentShows(const SelectionState& state) const;
    void reveal(const QModelIndex& sourceIndex);
    void rememberExpansion();
    void restoreExpansion();
    void applyFilter(const QString& text);
    void fitNameColumn();

    CompileTreeModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTreeView* m_tree = nullptr;
    QLineEdit* m_filter = nullptr;
    bool m_following = false;   ///< moving the current item to follow the selection
    qint64 m_fittedRun = 0;     ///< the run the name column was fitted to
    QStringList m_expandedKeys; ///< items open before a model reset (KeyRole), opened after
    QFutureWatcher<BuiltTreePtr>* m_build = nullptr; ///< the one build running
    SnapshotPtr m_pending;     ///< the newest snapshot not built yet (when m_hasPending)
    bool m_hasPending = false; ///< a null snapshot counts too: it clears the tree
    bool m_building = false;   ///< from a build's start to its tree's adoption
};

} // namespace kiln::views
