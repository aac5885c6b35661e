// SPDX-License-Identifier: MIT
#include "timeline_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace kiln::views {

namespace {

/// The horizontal scroll bar's resolution: the scrollable time is this many steps.
constexpr int kScrollSteps = 1'000'000;
constexpr double kZoomStep = 1.5;
/// Never zoom in past this: a nanosecond is already wider than any launch detail.
constexpr double kMinNsPerPixel = 0.01;
/// A press that moves less than this is a click.
constexpr int kClickSlop = 4;

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QAbstractScrollArea(parent) {
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    horizontalScrollBar()->setRange(0, 0);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setMinimumSize(320, 160);
}

// --- state

void TimelineView::setTimeline(TimelineLayoutPtr layout) {
    double oldExtent = m_layout ? static_cast<double>(m_layout->extentNs()) : 0;
    bool first = !m_layout || !layout || !m_layout->snapshot() || !layout->snapshot() ||
                 m_layout->snapshot()->run.id != layout->snapshot()->run.id;
    bool showedEnd = visibleEndNs() >= oldExtent;
    m_layout = std::move(layout);
    layoutLanes();
    if (first || m_fitted) {
        fit();
        return;
    }
    double grown = (m_layout ? static_cast<double>(m_layout->extentNs()) : 0) - oldExtent;
    if (showedEnd && grown > 0)
        setView(m_startNs + grown, m_nsPerPixel);
    else
        syncScrollBars();
    viewport()->update();
}

void TimelineView::setSelectedKernel(qint64 kernelId) {
    if (kernelId == m_selectedKernel) return;
    m_selectedKernel = kernelId;
    viewport()->update();
}

void TimelineView::setSelectedCompile(const QString& compileId) {
    if (compileId == m_selectedCompile) return;
    m_selectedCompile = compileId;
    viewport()->update();
}

double TimelineView::visibleEndNs() const {
    return m_startNs + m_nsPerPixel * timeAreaWidth();
}

void TimelineView::setVisibleRange(double startNs, double endNs) {
    if (endNs <= startNs) return;
    m_fitted = false;
    setView(startNs, (endNs - startNs) / timeAreaWidth());
}

void TimelineView::clearRange() {
    if (m_rangeStartNs == 0 && m_rangeEndNs == 0) return;
    m_rangeStartNs = m_rangeEndNs = 0;
    viewport()->update();
    emit rangeSelected(0, 0);
}

void TimelineView::setSelectedRange(qint64 startNs, qint64 endNs) {
    if (endNs <= startNs) return clearRange();
    m_rangeStartNs = startNs;
    m_rangeEndNs = endNs;
    viewport()->update();
    emit rangeSelected(m_rangeStartNs, m_rangeEndNs);
}

void TimelineView::zoomIn() {
    m_fitted = false;
    zoomAround(1 / kZoomStep, kLabelWidth + timeAreaWidth() / 2.0);
}

void TimelineView::zoomOut() {
    m_fitted = false;
    zoomAround(kZoomStep, kLabelWidth + timeAreaWidth() / 2.0);
}

void TimelineView::fit() {
    double extent = m_layout ? static_cast<double>(m_layout->extentNs()) : 0;
    if (extent <= 0) extent = 1e6; // an empty run: show its first millisecond
    // A little air after the last span so it does not touch the edge.
    setView(0, extent * 1.02 / timeAreaWidth());
    m_fitted = true;
}

int TimelineView::timeAreaWidth() const {
    return std::max(1, viewport()->width() - kLabelWidth);
}

double TimelineView::scrollableEndNs() const {
    double extent = m_layout ? static_cast<double>(m_layout->extentNs()) : 0;
    return std::max({extent * 1.02, visibleEndNs(), 1.0});
}

void TimelineView::zoomAround(double factor, double anchorX) {
    double anchorNs = timeOfX(anchorX);
    double nsPerPixel = std::max(kMinNsPerPixel, m_nsPerPixel * factor);
    setView(anchorNs - (anchorX - kLabelWidth) * nsPerPixel, nsPerPixel);
}

void TimelineView::setView(double startNs, double nsPerPixel) {
    m_nsPerPixel = std::max(kMinNsPerPixel, nsPerPixel);
    m_startNs = std::max(0.0, startNs);
    syncScrollBars();
    viewport()->update();
    emit visibleRangeChanged(m_startNs, visibleEndNs());
}

void TimelineView::syncScrollBars() {
    m_syncing = true;
    double total = scrollableEndNs();
    int page = static_cast<int>(std::round(kScrollSteps * (visibleEndNs() - m_startNs) / total));
    QScrollBar* h = horizontalScrollBar();
    h->setRange(0, std::max(0, kScrollSteps - page));
    h->setPageStep(std::max(1, page));
    h->setSingleStep(std::max(1, page / 20));
    h->setValue(static_cast<int>(std::round(kScrollSteps * m_startNs / total)));
    QScrollBar* v = verticalScrollBar();
    int content = m_laneTops.empty() ? 0 : m_laneTops.back();
    v->setRange(0, std::max(0, content - (viewport()->height() - kRulerHeight)));
    v->setPageStep(std::max(1, viewport()->height() - kRulerHeight));
    v->setSingleStep(kRowHeight);
    m_syncing = false;
}

void TimelineView::layoutLanes() {
    m_laneTops.clear();
    int y = 0;
    if (m_layout)
        for (const TimelineLane& lane : m_layout->lanes()) {
            m_laneTops.push_back(y);
            y += lane.rows * kRowHeight + 2 * kLanePadding;
        }
    m_laneTops.push_back(y);
}

// --- geometry

double TimelineView::xOfTime(double ns) const {
    return kLabelWidth + (ns - m_startNs) / m_nsPerPixel;
}

double TimelineView::timeOfX(double x) const {
    return m_startNs + (x - kLabelWidth) * m_nsPerPixel;
}

int TimelineView::laneTop(int lane) const {
    return kRulerHeight + m_laneTops[static_cast<size_t>(lane)] - verticalScrollBar()->value();
}

int TimelineView::laneHeight(int lane) const {
    return m_laneTops[static_cast<size_t>(lane) + 1] - m_laneTops[static_cast<size_t>(lane)];
}

int TimelineView::rowMiddle(int lane, int row) const {
    return laneTop(lane) + kLanePadding + row * kRowHeight + kRowHeight / 2;
}

int TimelineView::laneAt(int y) const {
    if (!m_layout || y < kRulerHeight) return -1;
    int contentY = y - kRulerHeight + verticalScrollBar()->value();
    auto it = std::upper_bound(m_laneTops.begin(), m_laneTops.end(), contentY);
    int lane = static_cast<int>(it - m_laneTops.begin()) - 1;
    return lane >= 0 && lane < static_cast<int>(m_layout->lanes().size()) ? lane : -1;
}

std::optional<TimelineHit> TimelineView::hitAt(QPoint p) const {
    int lane = laneAt(p.y());
    if (lane < 0 || p.x() < kLabelWidth) return std::nullopt;
    const TimelineLane& l = m_layout->lanes()[static_cast<size_t>(lane)];
    int row = (p.y() - laneTop(lane) - kLanePadding) / kRowHeight;
    if (row < 0 || row >= l.rows) return std::nullopt;
    // Spans narrower than a pixel are drawn a pixel wide: pick within two pixels.
    std::optional<TimelineSpan> span = m_layout->spanNear(l, row, timeOfX(p.x()), 2 * m_nsPerPixel);
    if (!span) return std::nullopt;
    return TimelineHit{lane, *span};
}

QString TimelineView::toolTipAt(QPoint p) const {
    if (p.y() < kRulerHeight && m_rangeEndNs > m_rangeStartNs)
        return tr("Selected range %1 – %2 (%3)")
            .arg(formatNs(m_rangeStartNs), formatNs(m_rangeEndNs),
                 formatNs(m_rangeEndNs - m_rangeStartNs));
    std::optional<TimelineHit> hit = hitAt(p);
    if (!hit) return {};
    QString text = m_layout->describe(hit->span);
    // A merged pixel column stands for many launches: say so, the nearest one is just a sample.
    if (hit->span.kind == SpanKind::Launch) {
        double column = std::floor(p.x() - kLabelWidth);
        TimeWindow window{m_startNs, m_nsPerPixel, timeAreaWidth()};
        for (const LaunchBlock& b :
             m_layout->launchBlocks(m_layout->lanes()[static_cast<size_t>(hit->lane)], window, -1))
            if (b.count > 1 && b.x0 == column)
                text += tr("<br><i>%1 launches in this pixel: zoom in</i>").arg(b.count);
    }
    return text;
}

// --- events

void TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    if (m_fitted)
        fit();
    else
        syncScrollBars();
}

void TimelineView::scrollContentsBy(int dx, int) {
    // Only a move of the horizontal bar changes the time shown (its steps are coarser than
    // the view's own position, so reading it back otherwise would nudge the view).
    if (!m_syncing && dx != 0) {
        m_startNs = horizontalScrollBar()->value() * scrollableEndNs() / kScrollSteps;
        m_fitted = false;
        emit visibleRangeChanged(m_startNs, visibleEndNs());
    }
    viewport()->update();
}

bool TimelineView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    QPointF pos = event->position();
    int delta = event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x();
    if (pos.x() < kLabelWidth) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta * 3 * kRowHeight / 120);
    } else if (event->modifiers() & Qt::ShiftModifier) {
        m_fitted = false;
        setView(m_startNs - delta / 120.0 * timeAreaWidth() / 10 * m_nsPerPixel, m_nsPerPixel);
    } else {
        m_fitted = false;
        zoomAround(std::pow(kZoomStep, -delta / 120.0), pos.x());
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QAbstractScrollArea::mousePressEvent(event);
    m_pressPos = event->position().toPoint();
    m_pressStartNs = m_startNs;
    m_pressScrollY = verticalScrollBar()->value();
    m_moved = false;
    bool onRuler = m_pressPos.y() < kRulerHeight && m_pressPos.x() >= kLabelWidth;
    if (onRuler || (event->modifiers() & Qt::ShiftModifier))
        m_drag = onRuler ? Drag::RulerClick : Drag::Range;
    else
        m_drag = Drag::Pan;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    QPoint pos = event->position().toPoint();
    if (m_drag == Drag::None) return;
    if (!m_moved && (pos - m_pressPos).manhattanLength() < kClickSlop) return;
    m_moved = true;
    if (m_drag == Drag::Pan) {
        m_fitted = false;
        verticalScrollBar()->setValue(m_pressScrollY - (pos.y() - m_pressPos.y()));
        setView(m_pressStartNs - (pos.x() - m_pressPos.x()) * m_nsPerPixel, m_nsPerPixel);
        return;
    }
    m_drag = Drag::Range;
    double a = timeOfX(std::max(m_pressPos.x(), kLabelWidth));
    double b = timeOfX(std::max(pos.x(), kLabelWidth));
    m_rangeStartNs = static_cast<qint64>(std::llround(std::max(0.0, std::min(a, b))));
    m_rangeEndNs = static_cast<qint64>(std::llround(std::max(0.0, std::max(a, b))));
    viewport()->update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || m_drag == Drag::None)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Range && m_moved) {
        if (m_rangeEndNs > m_rangeStartNs)
            emit rangeSelected(m_rangeStartNs, m_rangeEndNs);
        else
            clearRange();
        return;
    }
    if (m_moved) return;
    if (drag == Drag::RulerClick) return clearRange();
    std::optional<TimelineHit> hit = hitAt(m_pressPos);
    if (!hit) return;
    if (hit->span.kind == SpanKind::Launch)
        emit launchClicked(m_layout->kernelIdOf(hit->span));
    else if (QString compile = m_layout->compileIdOf(hit->span); !compile.isEmpty())
        emit compileClicked(compile);
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        fit();
        break;
    case Qt::Key_Left:
    case Qt::Key_Right: {
        m_fitted = false;
        double step = timeAreaWidth() / 8.0 * m_nsPerPixel;
        setView(m_startNs + (event->key() == Qt::Key_Left ? -step : step), m_nsPerPixel);
        break;
    }
    case Qt::Key_Escape:
        clearRange();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace kiln::views
