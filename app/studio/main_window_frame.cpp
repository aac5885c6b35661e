// SPDX-License-Identifier: MIT
// The main window's frame: its panels and their docks, the default arrangement, the settings it
// keeps (geometry, layout, mode, recent files) and the files dropped on it.
#include "compare_panel.h"
#include "compiles_panel.h"
#include "config_panel.h"
#include "graph_panel.h"
#include "guards_panel.h"
#include "kernels_panel.h"
#include "main_window.h"
#include "output_panel.h"
#include "run_toolbar.h"
#include "runs_panel.h"
#include "source_panel.h"
#include "timeline_panel.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProxyStyle>
#include <QSettings>
#include <QShowEvent>
#include <QStyleOption>
#include <QTimer>

namespace kiln::studio {

namespace {

constexpr int kMaxRecent = 10;
constexpr int kStateVersion = 1; // bump when the dock layout changes incompatibly

} // namespace

/// Draws a dock's title bar with its doubled ampersands single again (see addPanel). Set on
/// the docks only: a widget's style is not inherited by its children, so panels are untouched.
class DockTitleStyle final : public QProxyStyle {
public:
    explicit DockTitleStyle(QObject* parent) { setParent(parent); }
    void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override {
        const auto* dock = qstyleoption_cast<const QStyleOptionDockWidget*>(option);
        if (element != CE_DockWidgetTitle || !dock || !dock->title.contains(u'&'))
            return QProxyStyle::drawControl(element, option, painter, widget);
        QStyleOptionDockWidget single = *dock;
        single.title.replace(QStringLiteral("&&"), QStringLiteral("&"));
        QProxyStyle::drawControl(element, &single, painter, widget);
    }
};

void MainWindow::createPanels() {
    m_source = new views::SourcePanel(m_session, m_selection, this);
    addPanel(m_source);
    m_graph = new views::GraphPanel(m_session, m_selection, this);
    addPanel(m_graph);
    m_kernels = new views::KernelsPanel(m_session, m_selection, this);
    addPanel(m_kernels);
    m_timeline = new views::TimelinePanel(m_session, m_selection, this);
    addPanel(m_timeline);
    // A range picked on the timeline filters the kernels' statistics (hotspot's filter).
    connect(m_timeline, &views::TimelinePanel::rangeSelected, m_kernels,
            &views::KernelsPanel::setTimeRange);
    m_compare = new views::ComparePanel(m_session, m_selection, this);
    addPanel(m_compare);
    addPanel(new views::ConfigPanel(m_session, m_selection, this));
    addPanel(new views::CompilesPanel(m_session, m_selection, this));
    addPanel(new views::GuardsPanel(m_session, m_selection, this));
    addPanel(new views::RunsPanel(m_session, m_selection, this));
    addPanel(new views::OutputPanel(m_session, m_selection, this));
}

void MainWindow::addPanel(views::Panel* panel) {
    // A dock's title is also its tab's label and its View menu item, which take '&' as a
    // mnemonic marker ("Guards & recompiles" would read "Guards _recompiles"): double it, and
    // let the title bar, which draws it literally, undo that.
    auto* dock = new QDockWidget(QString(panel->title()).replace(u'&', QStringLiteral("&&")), this);
    if (!m_dockTitleStyle) m_dockTitleStyle = new DockTitleStyle(this);
    dock->setStyle(m_dockTitleStyle);
    dock->setObjectName(panel->objectName() + QStringLiteral("Dock"));
    // Panels with toolbars and legends would otherwise add up to a window larger than a laptop
    // screen: let a dock squeeze its panel (it clips) rather than grow the window.
    panel->setMinimumSize(160, 90);
    dock->setWidget(panel);
    m_docks.insert(panel->objectName(), dock);
    m_panels.insert(panel->objectName(), panel);
}

bool MainWindow::showPanel(const QString& id) {
    QDockWidget* dock = m_docks.value(id);
    if (!dock) return false;
    m_raisedPanel = id; // raised again if the docks are arranged after this
    dock->show();
    dock->raise();
    return true;
}

bool MainWindow::setGraphView(const QString& view) {
    if (view == "post-fusion" || view == "pre-fusion") {
        m_graph->setPreFusion(view == "pre-fusion");
        return true;
    }
    if (view != "forward" && view != "backward" && view != "joint") return false;
    m_graph->setAotView("aot_" + view);
    return true;
}

QStringList MainWindow::panelIds() const {
    return m_panels.keys();
}

views::Panel* MainWindow::panel(const QString& id) const {
    return m_panels.value(id);
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue("recentFiles", recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName() + "  —  " + path, this,
                                [this, path] { openFile(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    m_journey = settings.value("window/layout", m_journey).toString();
    if (!journeys().contains(m_journey)) m_journey = journeys().front();
    for (QAction* a : m_layoutGroup->actions())
        a->setChecked(a->data().toString() == m_journey);
    m_arrangeOnShow = !restoreState(settings.value("window/state").toByteArray(), kStateVersion);
    m_toolbar->setMode(settings.value("run/mode").toString());
    updateRecentMenu();
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState(kStateVersion));
    settings.setValue("run/mode", m_toolbar->mode());
}

void MainWindow::useDefaultLayout() {
    m_journey = journeys().front(); // for this window only: the remembered choice stays
    m_arrangeOnShow = true;
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    // Dock sizes are proportions of the window, which has its final size only now.
    if (m_arrangeOnShow) arrangeDocks();
    m_arrangeOnShow = false;
    // A dock raised before the window was shown loses to the tab order set while showing.
    if (!m_raisedPanel.isEmpty())
        QTimer::singleShot(0, this, [this] {
            if (QDockWidget* d = m_docks.value(m_raisedPanel)) d->raise();
        });
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_controller.isRunning() &&
        QMessageBox::question(this, tr("Kiln Studio"),
                              tr("A workload is running. Stop it and quit?")) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

namespace {

/// What PyTorch's tools write: a TORCH_TRACE directory or log, a profiler trace.
bool isImportable(const QString& path) {
    QFileInfo info(path);
    return info.isDir() || path.endsWith(QStringLiteral(".log"), Qt::CaseInsensitive) ||
           path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    for (const QUrl& url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (isWorkload(path) || isTrace(path) || isImportable(path)) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList imports;
    for (const QUrl& url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if ((isWorkload(path) || isTrace(path)) && openFile(path)) {
            event->acceptProposedAction();
            return;
        }
        if (isImportable(path)) imports << path;
    }
    // Logs, TORCH_TRACE directories and profiles: imported (the dialog asks where to save).
    if (!imports.isEmpty()) {
        event->acceptProposedAction();
        // After the drop returns: the dialog must not run inside the drag's event handling.
        QTimer::singleShot(0, this, [this, imports] { importFiles(imports); });
    }
}

} // namespace kiln::studio
