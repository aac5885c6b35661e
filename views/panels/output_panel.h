// SPDX-License-Identifier: MIT
/// \file
/// The Output panel: what the selected run printed (stdout, stderr and TORCH_LOGS lines) in a
/// monospace table with the time of each line, stderr in red, filtered by a text box. While a
/// live run grows it follows the newest line if the user was at the bottom, and keeps the
/// scroll position otherwise.
#pragma once

#include "panel.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace kiln::views {

class OutputModel;

class OutputPanel final : public Panel {
    Q_OBJECT

public:
    OutputPanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    QLineEdit* filterBox() const { return m_filter; }
    /// The colour stderr lines are drawn with.
    static QColor stderrColour();

protected:
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState&) override {}

private:
    /// Keeps the newest line in view while the user is at the bottom.
    void followTail();
    void updateCount();

    OutputModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QLabel* m_count;
    SnapshotPtr m_shown;
    bool m_followTail = true; ///< the user is at the bottom (or has not scrolled yet)
    bool m_adoptingRows = false;
};

} // namespace kiln::views
