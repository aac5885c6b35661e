// SPDX-License-Identifier: MIT
/// \file
/// The effective configuration of several runs side by side: one column per run, one row per
/// option whose value differs between the runs or from its default (every option with
/// showAll). A cell reads "True · mode": the value and where it came from (default, mode, user,
/// env); cells that differ from the default are highlighted and their tooltip says who set
/// them.
#pragma once

#include "run_snapshot.h"

#include <QAbstractTableModel>
#include <map>
#include <string>
#include <vector>

namespace kiln::views {

/// What an option means, in the option catalog's words.
struct OptionHelp {
    QString description;
    QString envVar; ///< the variable that sets it; empty when none
};

class ConfigDiffModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { OptionColumn, DefaultColumn, FirstRunColumn };

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// The runs to compare, one column each in this order (null snapshots are skipped).
    void setRuns(std::vector<SnapshotPtr> runs);
    /// Descriptions by option name, shown in the last column and the tooltips.
    void setOptionHelp(std::map<std::string, OptionHelp> help);
    /// The description column, after the runs' columns.
    int descriptionColumn() const { return FirstRunColumn + runCount(); }
    /// Every option, not only the ones that differ.
    void setShowAll(bool all);
    bool showAll() const { return m_showAll; }
    int runCount() const { return static_cast<int>(m_runs.size()); }
    /// How many options the runs recorded, and how many of them differ (shown without showAll).
    int optionCount() const { return static_cast<int>(m_all.size()); }
    int differingCount() const { return m_differing; }
    /// The row of option \p key; -1 when it is not shown.
    int rowOfOption(const QString& key) const;

private:
    struct OptionRow {
        std::string key;
        std::string defaultValue;
        std::vector<const trace::ConfigRow*> cells; ///< one per run; null: not recorded
        bool differs = false;                       ///< from the default, or between the runs
    };

    void rebuild();
    QVariant cellDisplay(const OptionRow& row, int run) const;
    QVariant cellToolTip(const OptionRow& row, int run) const;
    QVariant cellBackground(const OptionRow& row, int run) const;

    const OptionHelp* helpOf(const std::string& key) const;

    std::vector<SnapshotPtr> m_runs;
    std::map<std::string, OptionHelp> m_help;
    std::vector<OptionRow> m_all; ///< every option any run recorded, by key
    std::vector<size_t> m_shown;  ///< indices into m_all
    int m_differing = 0;
    bool m_showAll = false;
};

} // namespace kiln::views
