// SPDX-License-Identifier: MIT
/// \file
/// A zoomable, pannable view of one Graphviz SVG diagram. The SVG is drawn as vector graphics
/// at the current zoom (a QGraphicsSvgItem, never a cached bitmap stretched), so text stays
/// sharp at any zoom. Search matches and the selected node are drawn as outlines over the
/// nodes' bounds from an SvgNodeIndex. Drag pans; a click that did not move selects the node
/// under the cursor (nodeClicked); the wheel zooms around the cursor.
#pragma once

#include "svg_node_index.h"

#include <QGraphicsView>
#include <memory>

class QGraphicsSvgItem;
class QGraphicsRectItem;
class QSvgRenderer;

namespace kiln::views {

class DiagramView final : public QGraphicsView {
    Q_OBJECT

public:
    explicit DiagramView(QWidget* parent = nullptr);
    ~DiagramView() override;

    /// Shows \p svg (rendered by Graphviz) whose nodes \p index describes, fitted to the view.
    /// False when Qt cannot read the SVG.
    bool setDiagram(const QByteArray& svg, SvgNodeIndex index);
    void clearDiagram();
    bool hasDiagram() const { return m_item != nullptr; }
    const SvgNodeIndex& index() const { return m_index; }

    /// 1.0 is the diagram's natural size (100 %).
    double zoom() const;
    void setZoom(double zoom);
    void zoomIn();
    void zoomOut();
    void fitToView();
    /// How a new diagram opens: fitted, or when that is too small to read, at a readable zoom
    /// centred on the selected nodes (else the inputs at the top).
    void placeNewDiagram();
    void actualSize();

    /// Outlines the search matches, \p current more strongly (empty: none).
    void setMatches(const QStringList& names, const QString& current);
    /// Marks the nodes of the selected kernel (empty: none).
    void setSelectedNodes(const QStringList& names);
    const QStringList& selectedNodes() const { return m_selectedNames; }
    void centerOnNode(const QString& name);

    /// A node's bounds in scene coordinates; null when there is no such node.
    QRectF nodeSceneRect(const QString& name) const;
    /// The box around several nodes in scene coordinates.
    QRectF nodesSceneRect(const QStringList& names) const;
    /// The name of the node under viewport position \p pos; empty when none.
    QString nodeAtViewPos(QPoint pos) const;

Q_SIGNALS:
    void nodeClicked(const QString& name);
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Scales by \p factor keeping the scene point under \p viewPos where it is.
    void zoomAround(double factor, QPoint viewPos);
    void centerOnSelectionOrTop();
    QRectF toScene(const QRectF& viewBoxRect) const;
    QGraphicsRectItem* addOutline(const QRectF& sceneRect, const QColor& color, qreal width);
    void clearOutlines(std::vector<QGraphicsRectItem*>& items);

    std::unique_ptr<QSvgRenderer> m_renderer;
    QGraphicsSvgItem* m_item = nullptr;
    SvgNodeIndex m_index;
    std::vector<QGraphicsRectItem*> m_matchItems;
    std::vector<QGraphicsRectItem*> m_selectedItems;
    QStringList m_selectedNames;
    QPoint m_pressPos;
    bool m_fitPending = false; ///< place once the view has its real size
    /// Opened at the readable zoom (it did not fit): a selection arriving later is centred.
    bool m_readableOpen = false;
};

} // namespace kiln::views
