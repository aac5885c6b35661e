// SPDX-License-Identifier: MIT
/// \file
/// The Timeline panel: one run's compiles (with their phases, passes and autotuning) and kernel
/// launches on a zoomable time axis (see TimelineView for the mouse and keys). Clicking a launch
/// selects its kernel, clicking a compile selects it; the selected kernel's launches and the
/// selected compile are highlighted. Dragging on the ruler selects a time range, announced by
/// rangeSelected() so the main window can filter the kernels table by it. The run can be
/// exported as a Chrome trace that Perfetto opens.
#pragma once

#include "chrome_trace.h"
#include "panel.h"
#include "timeline_layout.h"

#include <QThreadPool>

class QAction;
class QLabel;

namespace kiln::views {

class TimelineView;

class TimelinePanel final : public Panel {
    Q_OBJECT

public:
    TimelinePanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);
    ~TimelinePanel() override;

    TimelineView* view() const { return m_view; }
    /// "Export Chrome trace…": asks for a file name, then exportChromeTrace().
    QAction* exportAction() const { return m_exportAction; }

    /// Writes the shown run as Chrome trace JSON to \p path; false with \p error set when there
    /// is no run shown or the file cannot be written.
    /// Writes the shown run as a Chrome trace, only the selected time range when there is one.
    bool exportChromeTrace(const QString& path, QString* error = nullptr) const;
    /// The time range dragged on the ruler; none without one.
    std::optional<ChromeTraceRange> selectedRange() const;

Q_SIGNALS:
    /// The user selected [startNs, endNs) of the run (ns since its start), or cleared the
    /// selection (0, 0).
    void rangeSelected(qint64 startNs, qint64 endNs);
    /// The view shows the newest snapshot: its layout, computed off the GUI thread, arrived.
    void timelineShown();

protected:
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    void adoptLayout(quint64 generation, const TimelineLayoutPtr& layout);
    void exportWithDialog();
    void showRange(qint64 startNs, qint64 endNs);
    QLabel* makeLegend();

    TimelineView* m_view = nullptr;
    QAction* m_exportAction = nullptr;
    QLabel* m_status = nullptr;
    SnapshotPtr m_shown;
    quint64 m_generation = 0; ///< of the newest layout asked for; older ones are dropped
    /// Lays out snapshots off the GUI thread: a run of 100,000 launches takes tens of ms to
    /// sort and index, too long to stall the GUI for on every refresh of a live run. Last member,
    /// so it is gone before anything else of the panel.
    QThreadPool m_layoutPool;
};

} // namespace kiln::views
