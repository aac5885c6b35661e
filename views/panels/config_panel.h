// SPDX-License-Identifier: MIT
/// \file
/// "Config": the effective configuration of the checked runs side by side (ConfigDiffModel),
/// by default every run of the trace and always the selected one. Only the options that a
/// mode, the user's options or the environment changed are listed unless "Show all options"
/// is on; the filter box narrows the list by option name.
#pragma once

#include "config_diff_model.h"
#include "panel.h"

#include <QList>
#include <map>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QSortFilterProxyModel;
class QTableView;

namespace kiln::views {

class ConfigPanel final : public Panel {
    Q_OBJECT

public:
    ConfigPanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    /// Shows the configuration of \p runIds (checks them, unchecks the others) and reads them.
    void showRuns(const QList<qint64>& runIds);
    /// The checked runs, oldest first.
    QList<qint64> shownRuns() const;
    const ConfigDiffModel& model() const { return *m_model; }
    QTableView* table() const { return m_table; }
    QLineEdit* filterBox() const { return m_filter; }
    QCheckBox* showAllBox() const { return m_showAll; }

protected:
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    QWidget* makeRunList();
    QWidget* makeTableArea();
    QWidget* makeFilterBar();
    void fillRunList();
    void syncRunList();
    void onRunToggled(QListWidgetItem* item);
    void readShownRuns();
    void adopt(qint64 runId, const SnapshotPtr& snapshot);
    void rebuild();
    void fitColumns();
    void showCount();

    QListWidget* m_runList = nullptr;
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_showAll = nullptr;
    QLabel* m_count = nullptr;
    ConfigDiffModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;

    QString m_tracePath;                       ///< the trace the runs belong to
    QList<qint64> m_shown;                     ///< checked runs
    bool m_userPicked = false;                 ///< the user chose: new runs are not added
    std::map<qint64, SnapshotPtr> m_snapshots; ///< of the shown runs, as they arrive
};

} // namespace kiln::views
