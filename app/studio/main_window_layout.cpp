// SPDX-License-Identifier: MIT
// The dock arrangements of the main window: one per user journey (stepping through graph
// breaks, comparing modes, reading kernels), picked from View > Layout and remembered. Every
// journey uses the same places (source over the compile tree on the left, the graph over the
// kernels on the right, time along the bottom, tabs sharing a place), so a saved dock state
// stays valid; they differ in which tab is in front and how the room is shared.
#include "main_window.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QMenu>
#include <QSettings>
#include <QTimer>

namespace kiln::studio {

namespace {

/// The room a journey gives each place, in percent: of the window's width for the left column,
/// of the columns' height for the top dock of each column, of the window's height for the
/// bottom row. Sized for 1600x1000 and 1920x1080: the source shows 25+ lines, a graph box its
/// text and what the script printed 5 lines in Breaks; the comparison table a dozen rows in
/// Compare; the kernels table and its code half the window in Kernels.
struct JourneyLayout {
    const char* id;
    const char* title;
    int leftWidth;
    int sourceHeight;
    int graphHeight;
    int bottomHeight;
    const char* fronts[3]; ///< the tab raised in each shared place
};

// clang-format off
constexpr JourneyLayout kJourneys[] = {
    //  id         title                                              left source graph bottom
    {"breaks",  "&Breaks: source, graph and compiles",               48,  72,    62,   24,
     {"compiles", "graph", "timeline"}},
    {"compare", "&Compare: the comparison of two runs",              34,  60,    78,   16,
     {"compiles", "compare", "timeline"}},
    {"kernels", "&Kernels: kernels, their code and the timeline",    34,  55,    28,   30,
     {"compiles", "graph", "timeline"}},
};
// clang-format on

const JourneyLayout& journeyLayout(const QString& id) {
    for (const JourneyLayout& j : kJourneys)
        if (id == QLatin1String(j.id)) return j;
    return kJourneys[0];
}

} // namespace

QStringList MainWindow::journeys() {
    QStringList ids;
    for (const JourneyLayout& j : kJourneys)
        ids << QString::fromLatin1(j.id);
    return ids;
}

void MainWindow::createLayoutMenu(QMenu* view) {
    QMenu* layouts = view->addMenu(tr("&Layout"));
    auto* group = new QActionGroup(this);
    for (const JourneyLayout& j : kJourneys) {
        QAction* a = layouts->addAction(tr(j.title));
        a->setCheckable(true);
        a->setData(QString::fromLatin1(j.id));
        a->setChecked(m_journey == QLatin1String(j.id));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, id = QString::fromLatin1(j.id)] {
            m_raisedPanel.clear();
            useJourney(id);
        });
    }
    m_layoutGroup = group;
}

void MainWindow::useJourney(const QString& id) {
    m_journey = journeyLayout(id).id;
    QSettings().setValue(QStringLiteral("window/layout"), m_journey);
    if (m_layoutGroup)
        for (QAction* a : m_layoutGroup->actions())
            a->setChecked(a->data().toString() == m_journey);
    // Before the window is shown its size is not final: arrange when it is (showEvent).
    if (isVisible())
        arrangeDocks();
    else
        m_arrangeOnShow = true;
}

void MainWindow::arrangeDocks() {
    const JourneyLayout& j = journeyLayout(m_journey);
    for (QDockWidget* dock : std::as_const(m_docks)) {
        removeDockWidget(dock);
        dock->setFloating(false);
    }
    auto dock = [this](const char* id) { return m_docks.value(QString::fromLatin1(id)); };
    auto place = [this](QDockWidget* d, Qt::DockWidgetArea area) {
        if (d) addDockWidget(area, d);
    };
    auto below = [this](QDockWidget* above, QDockWidget* d) {
        if (above && d) splitDockWidget(above, d, Qt::Vertical);
    };
    auto tab = [this](QDockWidget* first, QDockWidget* d) {
        if (first && d) tabifyDockWidget(first, d);
    };
    place(dock("source"), Qt::LeftDockWidgetArea);
    place(dock("graph"), Qt::RightDockWidgetArea);
    place(dock("timeline"), Qt::BottomDockWidgetArea);
    below(dock("source"), dock("compiles"));
    tab(dock("compiles"), dock("guards"));
    tab(dock("compiles"), dock("runs"));
    below(dock("graph"), dock("kernels"));
    tab(dock("graph"), dock("compare"));
    tab(dock("graph"), dock("config"));
    tab(dock("timeline"), dock("output"));
    // Shown first, raised after: showing a dock that Reset layout had hidden brings it to the
    // front of its tabs, which put Compare and Output in front of Graph and Timeline.
    for (QDockWidget* d : std::as_const(m_docks))
        d->show();
    // Raised now and once more when the event loop runs: while the window is being shown the
    // tab bars are rebuilt and take the last tab added, whatever was raised before.
    auto raiseFronts = [this, &j] {
        for (const char* front : j.fronts)
            if (QDockWidget* d = m_docks.value(QString::fromLatin1(front))) d->raise();
        if (QDockWidget* d = m_docks.value(m_raisedPanel)) d->raise();
    };
    raiseFronts();
    QTimer::singleShot(0, this, raiseFronts);
    const int w = width(), h = height();
    const int columns = h * (100 - j.bottomHeight) / 100;
    if (dock("source") && dock("graph"))
        resizeDocks({dock("source"), dock("graph")},
                    {w * j.leftWidth / 100, w * (100 - j.leftWidth) / 100}, Qt::Horizontal);
    if (dock("source") && dock("compiles"))
        resizeDocks({dock("source"), dock("compiles")},
                    {columns * j.sourceHeight / 100, columns * (100 - j.sourceHeight) / 100},
                    Qt::Vertical);
    if (dock("graph") && dock("kernels"))
        resizeDocks({dock("graph"), dock("kernels")},
                    {columns * j.graphHeight / 100, columns * (100 - j.graphHeight) / 100},
                    Qt::Vertical);
    if (dock("timeline")) resizeDocks({dock("timeline")}, {h * j.bottomHeight / 100}, Qt::Vertical);
}

} // namespace kiln::studio
