// SPDX-License-Identifier: MIT
#include "panel.h"

#include <QPalette>

namespace kiln::views {

Panel::Panel(const QString& id, const QString& title, TraceSession& session, Selection& selection,
             QWidget* parent)
    : QWidget(parent)
    , m_title(title)
    , m_session(session)
    , m_selection(selection) {
    setObjectName(id);
    connect(&selection, &Selection::snapshotChanged, this,
            [this](const SnapshotPtr& s) { showSnapshot(s); });
    connect(&selection, &Selection::selectionChanged, this,
            [this](const SelectionState& s) { showSelection(s); });
}

void Panel::paintAsBanner(QWidget* banner) {
    banner->setAutoFillBackground(true);
    QPalette palette = banner->palette();
    palette.setColor(QPalette::Window, QColor(255, 243, 205));
    palette.setColor(QPalette::WindowText, QColor(102, 77, 3));
    banner->setPalette(palette);
}

void Panel::catchUp() {
    showSnapshot(m_selection.snapshot());
    showSelection(m_selection.state());
}

} // namespace kiln::views
