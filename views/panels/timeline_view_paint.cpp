// SPDX-License-Identifier: MIT
/// \file
/// TimelineView's painting: lanes, ruler, range and labels, and the colours the panel's legend
/// shares. Split from timeline_view.cpp, which handles the view's state and input.
#include "timeline_view.h"

#include <QPainter>
#include <QScrollBar>
#include <algorithm>
#include <cmath>

namespace kiln::views {

namespace {

const QColor kSelectedColor(255, 214, 0);
const QColor kRangeShade(66, 133, 244, 45);
const QColor kRangeEdge(66, 133, 244);
const QColor kSpanText(33, 33, 33);

QColor phaseColor(const QString& name) {
    if (name == QLatin1String("trace")) return QColor(128, 203, 196);
    if (name == QLatin1String("backend_compile")) return QColor(159, 168, 218);
    return QColor(176, 190, 197);
}

QColor spanColor(const TimelineLayout& layout, const TimelineSpan& s) {
    switch (s.kind) {
    case SpanKind::Compile: {
        const trace::CompileRow& c = layout.snapshot()->compiles[s.index];
        return compileStatusColor(QString::fromStdString(c.status));
    }
    case SpanKind::Phase:
        return phaseColor(layout.spanName(s));
    case SpanKind::Pass:
        return QColor(206, 147, 216);
    case SpanKind::Autotune:
        return QColor(141, 110, 99);
    case SpanKind::Event:
        return QColor(120, 144, 156);
    case SpanKind::Launch:
        return launchKindColor(s.launchKind);
    }
    return Qt::gray;
}

/// 1, 2 or 5 times a power of ten: the smallest such step of at least \p minNs.
double niceStep(double minNs) {
    double power = std::pow(10.0, std::floor(std::log10(std::max(minNs, 1e-3))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * power >= minNs) return m * power;
    return 10 * power;
}

} // namespace

QColor launchKindColor(LaunchKind kind) {
    switch (kind) {
    case LaunchKind::Pointwise:
        return QColor(30, 136, 229);
    case LaunchKind::Reduction:
        return QColor(142, 36, 170);
    case LaunchKind::Template:
        return QColor(0, 137, 123);
    case LaunchKind::Extern:
        return QColor(244, 81, 30);
    case LaunchKind::Fallback:
        return QColor(117, 117, 117);
    case LaunchKind::Other:
        break;
    }
    return QColor(189, 189, 189);
}

QColor compileStatusColor(const QString& status) {
    if (status == QLatin1String("ok")) return QColor(129, 199, 132);
    if (status == QLatin1String("break")) return QColor(255, 183, 77);
    if (status == QLatin1String("skipped") || status == QLatin1String("no_ops"))
        return QColor(189, 189, 189);
    if (status == QLatin1String("failed")) return QColor(229, 115, 115);
    return QColor(100, 181, 246); // still compiling
}

// --- painting

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    p.fillRect(viewport()->rect(), palette().base());
    TimeWindow window{m_startNs, m_nsPerPixel, timeAreaWidth()};
    if (m_layout) paintLanes(p, window);
    paintRange(p);
    paintRuler(p, window);
    paintLabels(p);
}

void TimelineView::paintLanes(QPainter& p, const TimeWindow& window) const {
    p.save();
    p.setClipRect(QRect(kLabelWidth, kRulerHeight, timeAreaWidth(), viewport()->height()));
    p.translate(kLabelWidth, 0);
    const QColor stripe = palette().alternateBase().color();
    for (size_t i = 0; i < m_layout->lanes().size(); ++i) {
        int top = laneTop(static_cast<int>(i));
        int height = laneHeight(static_cast<int>(i));
        if (top + height < kRulerHeight) continue;
        if (top > viewport()->height()) break;
        if (i % 2 == 1) p.fillRect(QRect(0, top, window.widthPx, height), stripe);
        const TimelineLane& lane = m_layout->lanes()[i];
        if (lane.kind == LaneKind::Launches)
            paintLaunchLane(p, lane, top + kLanePadding, window);
        else
            paintSpanLane(p, lane, top + kLanePadding, window);
    }
    p.restore();
}

void TimelineView::paintSpanLane(QPainter& p, const TimelineLane& lane, int top,
                                 const TimeWindow& window) const {
    QFont font = p.font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    p.setFont(font);
    lane.spans.forEachOverlapping(
        static_cast<int64_t>(window.startNs), static_cast<int64_t>(std::ceil(window.endNs())),
        [&](const TimelineSpan& s) {
            double x0 = (s.startNs - window.startNs) / window.nsPerPixel;
            double x1 = (s.endNs - window.startNs) / window.nsPerPixel;
            bool instant = s.endNs == s.startNs;
            QRectF r(x0 - (instant ? 1 : 0), top + s.row * kRowHeight + 1,
                     std::max(instant ? 2.0 : 1.0, x1 - x0), kRowHeight - 2);
            p.fillRect(r, spanColor(*m_layout, s));
            bool selected = s.kind == SpanKind::Compile && !m_selectedCompile.isEmpty() &&
                            m_layout->compileIdOf(s) == m_selectedCompile;
            if (selected) {
                p.setPen(QPen(kSelectedColor.darker(130), 2));
                p.drawRect(r.adjusted(1, 1, -1, -1));
            }
            if (r.width() > 40) {
                p.setPen(kSpanText);
                QRectF visible = r.intersected(QRectF(0, r.top(), window.widthPx, r.height()));
                QString text = p.fontMetrics().elidedText(m_layout->spanName(s), Qt::ElideRight,
                                                          static_cast<int>(visible.width()) - 6);
                p.drawText(visible.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
            }
        });
}

void TimelineView::paintLaunchLane(QPainter& p, const TimelineLane& lane, int top,
                                   const TimeWindow& window) const {
    std::vector<LaunchBlock> blocks = m_layout->launchBlocks(lane, window, m_selectedKernel);
    const int height = lane.rows * kRowHeight;
    for (const LaunchBlock& b : blocks) {
        QRectF r(b.x0, top + 1, b.x1 - b.x0, height - 2);
        // A pixel column that is mostly idle is drawn faint: density stays visible at any zoom.
        // The selected kernel's launches stay opaque so they stand out at any zoom.
        QColor fill = b.selected ? kSelectedColor : launchKindColor(b.kind);
        if (!b.selected) fill.setAlphaF(static_cast<float>(0.45 + 0.55 * b.busy));
        p.fillRect(r, fill);
    }
    // Outlines make neighbouring launches of a zoomed-in view tell apart.
    if (!blocks.empty() && blocks.size() < 2000) {
        p.setPen(QPen(QColor(255, 255, 255, 150), 1));
        for (const LaunchBlock& b : blocks)
            if (b.x1 - b.x0 >= 4)
                p.drawLine(QPointF(b.x0, top + 1), QPointF(b.x0, top + height - 1));
    }
}

void TimelineView::paintRange(QPainter& p) const {
    if (m_rangeEndNs <= m_rangeStartNs) return;
    double x0 = std::max<double>(kLabelWidth, xOfTime(m_rangeStartNs));
    double x1 = std::min<double>(viewport()->width(), xOfTime(m_rangeEndNs));
    if (x1 <= x0) return;
    p.fillRect(QRectF(x0, 0, x1 - x0, viewport()->height()), kRangeShade);
    p.setPen(kRangeEdge);
    p.drawLine(QPointF(x0, 0), QPointF(x0, viewport()->height()));
    p.drawLine(QPointF(x1, 0), QPointF(x1, viewport()->height()));
}

void TimelineView::paintRuler(QPainter& p, const TimeWindow& window) const {
    QRect ruler(0, 0, viewport()->width(), kRulerHeight);
    p.fillRect(ruler, palette().window());
    p.setPen(palette().mid().color());
    p.drawLine(0, kRulerHeight - 1, ruler.width(), kRulerHeight - 1);
    double step = niceStep(90 * window.nsPerPixel);
    p.setPen(palette().text().color());
    for (double t = std::ceil(window.startNs / step) * step; t < window.endNs(); t += step) {
        double x = xOfTime(t);
        p.drawLine(QPointF(x, kRulerHeight - 8), QPointF(x, kRulerHeight - 1));
        QString label = formatNsAt(t, step);
        if (x + 3 + p.fontMetrics().horizontalAdvance(label) < ruler.width())
            p.drawText(QPointF(x + 3, kRulerHeight - 11), label);
        for (int minor = 1; minor < 5; ++minor) {
            double mx = xOfTime(t + step * minor / 5);
            p.drawLine(QPointF(mx, kRulerHeight - 4), QPointF(mx, kRulerHeight - 1));
        }
    }
    if (m_rangeEndNs > m_rangeStartNs) {
        double x0 = std::max<double>(kLabelWidth, xOfTime(m_rangeStartNs));
        double x1 = std::min<double>(ruler.width(), xOfTime(m_rangeEndNs));
        // The band sits above the tick labels so both stay readable.
        QRectF band(x0, 0, std::max(0.0, x1 - x0), kRangeBandHeight);
        p.fillRect(band, kRangeEdge);
        p.setPen(Qt::white);
        p.drawText(band, Qt::AlignCenter, formatNs(m_rangeEndNs - m_rangeStartNs));
    }
}

void TimelineView::paintLabels(QPainter& p) const {
    p.fillRect(QRect(0, 0, kLabelWidth, viewport()->height()), palette().window());
    p.setPen(palette().mid().color());
    p.drawLine(kLabelWidth - 1, 0, kLabelWidth - 1, viewport()->height());
    if (!m_layout) return;
    p.save();
    p.setClipRect(QRect(0, kRulerHeight, kLabelWidth - 1, viewport()->height()));
    p.setPen(palette().text().color());
    for (size_t i = 0; i < m_layout->lanes().size(); ++i) {
        int top = laneTop(static_cast<int>(i));
        int height = laneHeight(static_cast<int>(i));
        if (top + height < kRulerHeight) continue;
        if (top > viewport()->height()) break;
        const TimelineLane& lane = m_layout->lanes()[i];
        QRect r(6, top, kLabelWidth - 10, std::min(height, kRowHeight + 2 * kLanePadding));
        p.drawText(r, Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(lane.label, Qt::ElideRight, r.width()));
        // Sub-rows that mean different things (phases, passes, ...) are named under the lane's.
        p.save();
        p.setPen(palette().placeholderText().color());
        for (size_t row = 1; row < lane.rowLabels.size(); ++row)
            p.drawText(QRect(18,
                             rowMiddle(static_cast<int>(i), static_cast<int>(row)) - kRowHeight / 2,
                             kLabelWidth - 22, kRowHeight),
                       Qt::AlignVCenter | Qt::AlignLeft, lane.rowLabels[row]);
        p.restore();
    }
    p.restore();
}

} // namespace kiln::views
