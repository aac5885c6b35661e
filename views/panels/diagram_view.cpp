// SPDX-License-Identifier: MIT
#include "diagram_view.h"

#include <QApplication>
#include <QGraphicsRectItem>
#include <QGraphicsSvgItem>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSvgRenderer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace kiln::views {

namespace {

constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 8.0;
constexpr double kStep = 1.25;
/// Fit never enlarges past this: a three-node graph blown up to fill a panel reads worse.
constexpr double kMaxFitZoom = 1.0;
/// A new diagram opens fitted unless that makes its text unreadable (a large graph in a small
/// dock fits at 5-15 %): then at this zoom, on the selected nodes or else the graph's inputs.
constexpr double kReadableZoom = 0.6;

} // namespace

DiagramView::DiagramView(QWidget* parent)
    : QGraphicsView(parent) {
    setScene(new QGraphicsScene(this));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::NoAnchor);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                   QPainter::SmoothPixmapTransform);
    setBackgroundBrush(Qt::white);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
}

DiagramView::~DiagramView() {
    // The item holds the renderer; delete it before the renderer goes.
    scene()->clear();
}

bool DiagramView::setDiagram(const QByteArray& svg, SvgNodeIndex index) {
    clearDiagram();
    auto renderer = std::make_unique<QSvgRenderer>(svg);
    if (!renderer->isValid()) return false;
    m_renderer = std::move(renderer);
    m_index = std::move(index);
    m_item = new QGraphicsSvgItem;
    m_item->setSharedRenderer(m_renderer.get());
    scene()->addItem(m_item);
    const QRectF bounds = m_item->boundingRect();
    scene()->setSceneRect(bounds.adjusted(-20, -20, 20, 20));
    if (viewport()->width() > 0 && isVisible())
        placeNewDiagram();
    else
        m_fitPending = true;
    return true;
}

void DiagramView::clearDiagram() {
    m_matchItems.clear();
    m_selectedItems.clear();
    m_selectedNames.clear();
    scene()->clear();
    m_item = nullptr;
    m_renderer.reset();
    m_index = SvgNodeIndex();
}

double DiagramView::zoom() const {
    return transform().m11();
}

void DiagramView::setZoom(double zoom) {
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    setTransform(QTransform::fromScale(zoom, zoom));
    Q_EMIT zoomChanged(zoom);
}

void DiagramView::zoomAround(double factor, QPoint viewPos) {
    m_readableOpen = false;
    const QPointF scenePos = mapToScene(viewPos);
    setZoom(zoom() * factor);
    const QPoint moved = mapFromScene(scenePos) - viewPos;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + moved.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() + moved.y());
}

void DiagramView::zoomIn() {
    zoomAround(kStep, viewport()->rect().center());
}

void DiagramView::zoomOut() {
    zoomAround(1 / kStep, viewport()->rect().center());
}

void DiagramView::fitToView() {
    m_fitPending = false;
    m_readableOpen = false; // the user's view from now on
    if (!m_item) return;
    const QRectF rect = sceneRect();
    const double zx = viewport()->width() / rect.width();
    const double zy = viewport()->height() / rect.height();
    // A little under the exact fit, so that rounding does not bring up the scroll bars.
    setZoom(std::min({zx * 0.98, zy * 0.98, kMaxFitZoom}));
    centerOn(rect.center());
}

void DiagramView::placeNewDiagram() {
    fitToView();
    m_readableOpen = m_item && zoom() < kReadableZoom;
    if (!m_readableOpen) return;
    setZoom(kReadableZoom);
    centerOnSelectionOrTop();
}

void DiagramView::centerOnSelectionOrTop() {
    const QRectF selected = nodesSceneRect(m_selectedNames);
    if (!selected.isNull()) return centerOn(selected.center());
    // Graphviz draws inputs at the top: start there, as one reads the graph.
    const QRectF rect = sceneRect();
    const double halfHeight = viewport()->height() / zoom() / 2;
    centerOn(rect.center().x(), rect.top() + halfHeight);
}

void DiagramView::actualSize() {
    const QPointF center = mapToScene(viewport()->rect().center());
    setZoom(1.0);
    centerOn(center);
}

QRectF DiagramView::toScene(const QRectF& viewBoxRect) const {
    if (!m_renderer || viewBoxRect.isEmpty()) return {};
    const QRectF box = m_renderer->viewBoxF();
    const QSizeF size = m_item->boundingRect().size();
    if (box.isEmpty()) return viewBoxRect;
    const double sx = size.width() / box.width(), sy = size.height() / box.height();
    return QRectF((viewBoxRect.x() - box.x()) * sx, (viewBoxRect.y() - box.y()) * sy,
                  viewBoxRect.width() * sx, viewBoxRect.height() * sy);
}

QRectF DiagramView::nodeSceneRect(const QString& name) const {
    const SvgNode* node = m_index.find(name);
    return node ? toScene(node->bounds) : QRectF();
}

QString DiagramView::nodeAtViewPos(QPoint pos) const {
    const QPointF scenePos = mapToScene(pos);
    for (auto it = m_index.nodes().rbegin(); it != m_index.nodes().rend(); ++it)
        if (toScene(it->bounds).contains(scenePos)) return it->name;
    return {};
}

QGraphicsRectItem* DiagramView::addOutline(const QRectF& sceneRect, const QColor& color,
                                           qreal width) {
    QPen pen(color, width);
    pen.setCosmetic(true); // the same thickness at every zoom
    QColor fill = color;
    fill.setAlpha(40);
    auto* item = scene()->addRect(sceneRect.adjusted(-3, -3, 3, 3), pen, fill);
    item->setZValue(1);
    return item;
}

void DiagramView::clearOutlines(std::vector<QGraphicsRectItem*>& items) {
    for (QGraphicsRectItem* item : items)
        delete item;
    items.clear();
}

void DiagramView::setMatches(const QStringList& names, const QString& current) {
    clearOutlines(m_matchItems);
    for (const QString& name : names) {
        const bool isCurrent = name == current;
        m_matchItems.push_back(addOutline(nodeSceneRect(name),
                                          isCurrent ? QColor(230, 81, 0) : QColor(240, 180, 0),
                                          isCurrent ? 3.5 : 2.0));
    }
}

void DiagramView::setSelectedNodes(const QStringList& names) {
    m_selectedNames = names;
    clearOutlines(m_selectedItems);
    for (const QString& name : names) {
        const QRectF rect = nodeSceneRect(name);
        if (rect.isNull()) continue;
        QGraphicsRectItem* item =
            addOutline(rect.adjusted(-3, -3, 3, 3), QColor(25, 118, 210), 3.0);
        item->setZValue(2);
        m_selectedItems.push_back(item);
    }
    // A diagram opened at the readable zoom shows the selection once it is known.
    if (m_readableOpen && !m_selectedItems.empty()) centerOnSelectionOrTop();
}

QRectF DiagramView::nodesSceneRect(const QStringList& names) const {
    QRectF box;
    for (const QString& name : names)
        box = box.united(nodeSceneRect(name));
    return box;
}

void DiagramView::centerOnNode(const QString& name) {
    const QRectF rect = nodeSceneRect(name);
    if (!rect.isNull()) centerOn(rect.center());
}

void DiagramView::wheelEvent(QWheelEvent* event) {
    const int delta = event->angleDelta().y();
    if (delta == 0) return QGraphicsView::wheelEvent(event);
    zoomAround(std::pow(kStep, delta / 120.0), event->position().toPoint());
    event->accept();
}

void DiagramView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return;
    case Qt::Key_Minus:
        zoomOut();
        return;
    case Qt::Key_0:
        actualSize();
        return;
    case Qt::Key_F:
        fitToView();
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

void DiagramView::mousePressEvent(QMouseEvent* event) {
    m_pressPos = event->position().toPoint();
    m_readableOpen = false;
    QGraphicsView::mousePressEvent(event);
}

void DiagramView::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    const QPoint pos = event->position().toPoint();
    if (event->button() != Qt::LeftButton ||
        (pos - m_pressPos).manhattanLength() > QApplication::startDragDistance())
        return; // a drag pans; only a click selects
    const QString name = nodeAtViewPos(pos);
    if (!name.isEmpty()) Q_EMIT nodeClicked(name);
}

void DiagramView::mouseMoveEvent(QMouseEvent* event) {
    QGraphicsView::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) return;
    // Nodes answer a click; the rest of the diagram is for dragging.
    const bool overNode = !nodeAtViewPos(event->position().toPoint()).isEmpty();
    viewport()->setCursor(overNode ? Qt::PointingHandCursor : Qt::OpenHandCursor);
}

void DiagramView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (m_fitPending && viewport()->width() > 0) placeNewDiagram();
}

} // namespace kiln::views
