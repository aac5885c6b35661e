// SPDX-License-Identifier: MIT
/// \file
/// The nodes of a Graphviz-rendered SVG diagram, for the graph view's search, hit testing and
/// highlighting: each node's name (the DOT node id, which Graphviz writes as the group's
/// <title>), its label lines and its bounds in the SVG's user space (the viewBox). Graphviz
/// draws every node of a graph under one `<g class="graph" transform=...>`; the index applies
/// that transform, so bounds and viewBox share coordinates.
///
/// The second half maps diagram nodes to trace rows: a post-fusion node to its kernel (the
/// label's "target=<kind>: <kernel name>", see engine/inductor/graph_diagram.cpp) and a
/// pre-fusion node (named after the buffer it writes) to the captured graph node it was
/// lowered from, for its source line.
#pragma once

#include "run_snapshot.h"

#include <QByteArray>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

namespace kiln::views {

struct SvgNode {
    QString svgId;     ///< the group's id attribute ("node3")
    QString name;      ///< the DOT node id ("buf0_buf1")
    QStringList lines; ///< the label's text lines, in drawing order
    QRectF bounds;     ///< in viewBox coordinates

    /// The value of a "key=value" label line ("target" → "fused: kernel_relu_mul"); empty
    /// when the label has no such line.
    QString field(const QString& key) const;
};

class SvgNodeIndex {
public:
    /// Reads the nodes of \p svg; an index with error() set when the text is not SVG.
    static SvgNodeIndex parse(const QByteArray& svg);

    const std::vector<SvgNode>& nodes() const { return m_nodes; }
    QRectF viewBox() const { return m_viewBox; }
    const QString& error() const { return m_error; }

    const SvgNode* find(const QString& name) const;
    /// The topmost node whose bounds contain \p point (viewBox coordinates); null when none.
    const SvgNode* nodeAt(QPointF point) const;
    /// The names of the nodes whose name or label contains \p text (case-insensitive), in
    /// drawing order; empty for empty text.
    QStringList search(const QString& text) const;

private:
    std::vector<SvgNode> m_nodes;
    QRectF m_viewBox;
    QString m_error;
};

/// The kernel a post-fusion diagram node of graph \p graphId stands for (its run-unique
/// kernelId); -1 for inputs, the output and unknown nodes.
qint64 kernelOfDiagramNode(const RunSnapshot& snapshot, qint64 graphId, const SvgNode& node);
/// The post-fusion node that draws kernel \p kernelId; empty when the diagram has none.
QString diagramNodeOfKernel(const RunSnapshot& snapshot, const SvgNodeIndex& index,
                            qint64 kernelId);
/// The pre-fusion nodes (buffers) kernel \p kernelId computes, as its code lists them
/// ("    buf1: Reduction..."); empty when the diagram has none of them.
QStringList preFusionNodesOfKernel(const RunSnapshot& snapshot, const SvgNodeIndex& index,
                                   qint64 kernelId);
/// The captured graph node a pre-fusion diagram node was lowered from: an input by its name, a
/// computed buffer through the kernel that computes it (its code names each buffer with the
/// captured nodes it came from, "buf3: Pointwise[...] = ...  # relu, mul"; the buffer holds
/// the result of the last of them in graph order). Null when none matches.
const trace::GraphNodeRow* graphNodeOfDiagramNode(const RunSnapshot& snapshot, qint64 graphId,
                                                  const SvgNode& node);

} // namespace kiln::views
