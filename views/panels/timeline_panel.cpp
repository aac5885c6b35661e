// SPDX-License-Identifier: MIT
#include "timeline_panel.h"

#include "chrome_trace.h"
#include "timeline_view.h"

#include <QAction>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QSizePolicy>
#include <QToolBar>
#include <QVBoxLayout>

namespace kiln::views {

TimelinePanel::TimelinePanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel(QStringLiteral("timeline"), tr("Timeline"), session, selection, parent)
    , m_view(new TimelineView(this))
    , m_status(new QLabel(this)) {
    auto* bar = new QToolBar(this);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(tr("Zoom in"), m_view, &TimelineView::zoomIn)->setToolTip(tr("Zoom in (+)"));
    bar->addAction(tr("Zoom out"), m_view, &TimelineView::zoomOut)->setToolTip(tr("Zoom out (-)"));
    bar->addAction(tr("Fit"), m_view, &TimelineView::fit)->setToolTip(tr("Show the whole run (0)"));
    bar->addSeparator();
    m_exportAction =
        bar->addAction(tr("Export Chrome trace…"), this, &TimelinePanel::exportWithDialog);
    m_exportAction->setToolTip(tr("Save the run as Chrome trace JSON (opens in Perfetto)"));
    bar->addSeparator();
    bar->addWidget(makeLegend());
    // The hint and the selected range sit in the toolbar, right-aligned: a row of their own
    // below the tracks took height the tracks need when the dock is short.
    auto* spacer = new QWidget(bar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(spacer);
    m_status->setContentsMargins(6, 0, 6, 0);
    m_status->setText(tr("Drag on the ruler or Shift+drag to select a time range"));
    bar->addWidget(m_status);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_view, 1);

    connect(m_view, &TimelineView::launchClicked, this,
            [this](qint64 kernelId) { this->selection().selectKernel(kernelId); });
    connect(m_view, &TimelineView::compileClicked, this,
            [this](const QString& compileId) { this->selection().selectCompile(compileId); });
    connect(m_view, &TimelineView::rangeSelected, this, &TimelinePanel::showRange);
    m_layoutPool.setMaxThreadCount(1);
    catchUp();
}

TimelinePanel::~TimelinePanel() {
    // A layout task posts its result to this panel: it must not outlive it.
    m_layoutPool.clear();
    m_layoutPool.waitForDone();
}

bool TimelinePanel::exportChromeTrace(const QString& path, QString* error) const {
    if (!m_shown) {
        if (error) *error = tr("No run is shown.");
        return false;
    }
    return writeChromeTrace(*m_shown, path, error, selectedRange());
}

std::optional<ChromeTraceRange> TimelinePanel::selectedRange() const {
    const auto [startNs, endNs] = m_view->selectedRange();
    if (endNs <= startNs) return std::nullopt;
    return ChromeTraceRange{startNs, endNs};
}

void TimelinePanel::showSnapshot(const SnapshotPtr& snapshot) {
    if (snapshot == m_shown) return;
    bool otherRun = !snapshot || !m_shown || snapshot->run.id != m_shown->run.id;
    m_shown = snapshot;
    m_exportAction->setEnabled(snapshot != nullptr);
    if (otherRun && m_view->selectedRange().second > 0) m_view->clearRange();
    quint64 generation = ++m_generation;
    if (!snapshot) return adoptLayout(generation, nullptr);
    // Only the newest snapshot matters: a layout still waiting to start is superseded.
    m_layoutPool.clear();
    m_layoutPool.start([this, snapshot, generation] {
        auto layout = std::make_shared<const TimelineLayout>(snapshot);
        QMetaObject::invokeMethod(
            this, [this, generation, layout] { adoptLayout(generation, layout); },
            Qt::QueuedConnection);
    });
}

void TimelinePanel::adoptLayout(quint64 generation, const TimelineLayoutPtr& layout) {
    if (generation != m_generation) return; // a newer snapshot's layout is on its way
    m_view->setTimeline(layout);
    emit timelineShown();
}

void TimelinePanel::showSelection(const SelectionState& state) {
    m_view->setSelectedKernel(state.kernelId);
    m_view->setSelectedCompile(state.compileId);
}

void TimelinePanel::exportWithDialog() {
    if (!m_shown) return;
    // The selected range only, when there is one (the file name says so).
    QString name = chromeTraceFileName(*m_shown, selectedRange().has_value());
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chrome trace"), name,
                                                tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportChromeTrace(path, &error))
        QMessageBox::warning(this, tr("Export Chrome trace"),
                             tr("Could not write %1: %2").arg(path, error));
}

void TimelinePanel::showRange(qint64 startNs, qint64 endNs) {
    if (endNs > startNs)
        m_status->setText(tr("Range %1 – %2: %3")
                              .arg(formatNs(startNs), formatNs(endNs), formatNs(endNs - startNs)));
    else
        m_status->setText(tr("Drag on the ruler or Shift+drag to select a time range"));
    emit rangeSelected(startNs, endNs);
}

QLabel* TimelinePanel::makeLegend() {
    QString html;
    for (int k = 0; k < kLaunchKindCount - 1; ++k) {
        auto kind = static_cast<LaunchKind>(k);
        html += QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2&nbsp;&nbsp; ")
                    .arg(launchKindColor(kind).name(), launchKindName(kind));
    }
    auto* legend = new QLabel(html, this);
    legend->setContentsMargins(6, 0, 6, 0);
    legend->setToolTip(tr("Launch colours: the kernel's kind. Compiles: green ok, orange ended "
                          "by a graph break, grey skipped, red failed, blue compiling."));
    return legend;
}

} // namespace kiln::views
