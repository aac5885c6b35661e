// SPDX-License-Identifier: MIT
/// \file
/// The compile tree's items, built from one snapshot: CompileTreeModel's private half, apart so
/// that the model file holds only Qt's item-model plumbing.
#pragma once

#include "compile_tree_model.h"

#include <optional>
#include <vector>

namespace kiln::views {

/// What a row shows; compared to tell which rows a newer snapshot changed.
struct NodeData {
    QString name;
    CompileTreeStatus status = CompileTreeStatus::Ok;
    QString statusText;
    std::optional<double> compileMs;
    std::optional<double> kernelMs;
    std::optional<qint64> launches;
    QString detail;
    QString toolTip;

    bool operator==(const NodeData&) const = default;
};

struct CompileTreeModel::Node {
    CompileTreeKind kind = CompileTreeKind::Frame;
    QString key; ///< frameKey/compileKey/graphKey/kernelKey of the item
    qint64 frameId = -1;
    QString compileId;
    qint64 graphId = 0;
    qint64 kernelId = -1;
    NodeData data;
    Node* parent = nullptr;
    int row = 0; ///< position among the parent's children
    std::vector<std::unique_ptr<Node>> children;

    Node* adopt(std::unique_ptr<Node> child);
};

QString frameKey(qint64 frameId);
QString compileKey(const QString& compileId);
QString graphKey(qint64 graphId);
QString kernelKey(qint64 kernelId);

/// The whole tree of \p snapshot under an empty root.
std::unique_ptr<CompileTreeModel::Node> buildCompileTree(const RunSnapshot& snapshot);
/// An item whose row a newer tree changed: the shown node and its fresh twin.
struct ChangedNode {
    CompileTreeModel::Node* shown;
    CompileTreeModel::Node* fresh;
};

/// True when \p fresh holds every item of \p shown at the same position (and maybe more after
/// them): the shown tree can grow into it by inserting rows. Then \p changed lists the shown
/// items whose row data differ (one walk does both: a live run's tree has thousands of rows).
bool growsInto(CompileTreeModel::Node& shown, CompileTreeModel::Node& fresh,
               std::vector<ChangedNode>& changed);

} // namespace kiln::views
