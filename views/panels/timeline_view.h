// SPDX-License-Identifier: MIT
/// \file
/// The Timeline panel's drawing surface: a ruler of the run's time on top, lane labels on the
/// left, and the lanes of a TimelineLayout painted directly (no item per span, so 100,000
/// launches paint as fast as what is visible). Time scrolls and zooms horizontally, lanes scroll
/// vertically.
///
/// Mouse: wheel (with or without Ctrl) zooms around the cursor, Shift+wheel pans, the wheel over
/// the lane labels scrolls the lanes; dragging pans; a click selects the launch or compile under
/// the cursor; dragging on the ruler, or Shift+dragging anywhere, selects a time range, and a
/// click on the ruler clears it. Keys: +/- zoom, 0 fits, arrows pan, Esc clears the range.
#pragma once

#include "timeline_layout.h"

#include <QAbstractScrollArea>
#include <optional>

namespace kiln::views {

/// A span under the mouse and the lane it is in.
struct TimelineHit {
    int lane = -1;
    TimelineSpan span;
};

class TimelineView final : public QAbstractScrollArea {
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);

    /// Shows \p layout. The first layout is fitted; a newer one of the same run keeps the zoom
    /// and position, follows the end when the view showed the end, and stays fitted when the
    /// user has not zoomed since the last fit.
    void setTimeline(TimelineLayoutPtr layout);
    const TimelineLayoutPtr& timeline() const { return m_layout; }

    void setSelectedKernel(qint64 kernelId);
    void setSelectedCompile(const QString& compileId);

    /// The visible time range, ns since the run started.
    double visibleStartNs() const { return m_startNs; }
    double visibleEndNs() const;
    double nsPerPixel() const { return m_nsPerPixel; }
    /// Shows [startNs, endNs) across the time area.
    void setVisibleRange(double startNs, double endNs);

    /// The selected range; (0, 0) when none.
    std::pair<qint64, qint64> selectedRange() const { return {m_rangeStartNs, m_rangeEndNs}; }
    void clearRange();
    /// Selects [startNs, endNs) as a drag on the ruler does (rangeSelected follows).
    void setSelectedRange(qint64 startNs, qint64 endNs);

    /// Viewport coordinates of a time and of a lane's middle (for tests and tooltips).
    double xOfTime(double ns) const;
    double timeOfX(double x) const;
    int laneTop(int lane) const;
    int laneHeight(int lane) const;
    int rowMiddle(int lane, int row) const;
    /// What a click at viewport point \p p would pick.
    std::optional<TimelineHit> hitAt(QPoint p) const;

    static constexpr int kLabelWidth = 120;
    static constexpr int kRulerHeight = 42;
    static constexpr int kRangeBandHeight = 15;
    static constexpr int kRowHeight = 16;
    static constexpr int kLanePadding = 4;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void fit();

Q_SIGNALS:
    /// A launch was clicked: the kernel it ran.
    void launchClicked(qint64 kernelId);
    /// A compile, or a phase or pass of it, was clicked.
    void compileClicked(const QString& compileId);
    /// The user selected [startNs, endNs), or cleared the selection (0, 0).
    void rangeSelected(qint64 startNs, qint64 endNs);
    /// The visible range changed (zoom, pan, fit, a new layout).
    void visibleRangeChanged(double startNs, double endNs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Drag { None, Pan, Range, RulerClick };

    int timeAreaWidth() const;
    double scrollableEndNs() const;
    void zoomAround(double factor, double anchorX);
    void setView(double startNs, double nsPerPixel);
    void syncScrollBars();
    void layoutLanes();
    int laneAt(int y) const;
    QString toolTipAt(QPoint p) const;

    void paintLanes(class QPainter& p, const TimeWindow& window) const;
    void paintSpanLane(QPainter& p, const TimelineLane& lane, int top,
                       const TimeWindow& window) const;
    void paintLaunchLane(QPainter& p, const TimelineLane& lane, int top,
                         const TimeWindow& window) const;
    void paintRange(QPainter& p) const;
    void paintRuler(QPainter& p, const TimeWindow& window) const;
    void paintLabels(QPainter& p) const;

    TimelineLayoutPtr m_layout;
    std::vector<int> m_laneTops; ///< content y of each lane, and the total height at the end
    double m_startNs = 0;
    double m_nsPerPixel = 1;
    bool m_fitted = true; ///< no zoom or pan since the last fit
    bool m_syncing = false;
    qint64 m_selectedKernel = -1;
    QString m_selectedCompile;
    qint64 m_rangeStartNs = 0;
    qint64 m_rangeEndNs = 0;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    double m_pressStartNs = 0;
    int m_pressScrollY = 0;
    bool m_moved = false;
};

/// Fill colours, shared with the panel's legend.
QColor launchKindColor(LaunchKind kind);
QColor compileStatusColor(const QString& status);

} // namespace kiln::views
