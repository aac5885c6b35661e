// SPDX-License-Identifier: MIT
/// \file
/// The base of Studio's panels: a widget that follows the shared Selection. A panel redraws from
/// the selected run's snapshot (showSnapshot) and follows the user (showSelection); it changes
/// the selection only through Selection's select* calls, never another panel directly. Its
/// objectName is its id (`--panel NAME`, the saved layout).
#pragma once

#include "selection.h"
#include "trace_session.h"

#include <QWidget>

namespace kiln::views {

class Panel : public QWidget {
    Q_OBJECT

public:
    Panel(const QString& id, const QString& title, TraceSession& session, Selection& selection,
          QWidget* parent = nullptr);

    const QString& title() const { return m_title; }

protected:
    /// New data for the selected run (null when a run was selected and is still being read).
    virtual void showSnapshot(const SnapshotPtr& snapshot) = 0;
    /// The user selected something (in this panel or another one).
    virtual void showSelection(const SelectionState& state) = 0;
    /// Panels call this once their widgets exist, to show what is already selected.
    void catchUp();
    /// Gives \p banner the colours of a note that must be noticed without alarming (pale
    /// yellow, dark brown text): the Kernels panel's time range, the comparison's caveats.
    static void paintAsBanner(QWidget* banner);

    TraceSession& session() const { return m_session; }
    Selection& selection() const { return m_selection; }
    const SnapshotPtr& snapshot() const { return m_selection.snapshot(); }

private:
    QString m_title;
    TraceSession& m_session;
    Selection& m_selection;
};

} // namespace kiln::views
