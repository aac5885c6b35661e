// SPDX-License-Identifier: MIT
/// \file
/// The candidates max-autotune measured for one kernel (the Kernels panel's autotuning table),
/// fastest first: each candidate's median time, how many timed runs it summarises and how far
/// they spread (fastest to slowest), whether it was measured in this run or read from the tuning
/// cache (measured by an earlier run on the same CPU), and its outcome: chosen, or stopped early
/// because it was already far slower than the best and could not win. Rows of traces older than
/// schema version 4 carry none of the measurement facts: those cells stay empty rather than
/// claiming "one run" or "this run". SortRole carries raw numbers.
#pragma once

#include "trace/trace_types.h"

#include <QAbstractTableModel>
#include <vector>

namespace kiln::views {

class AutotuneChoiceModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Candidate, Median, Runs, Spread, Measured, Outcome, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< the raw value: ns, a count, the spread in ns
    };

    using QAbstractTableModel::QAbstractTableModel;

    /// Adopts one kernel's candidates (any order; shown fastest first).
    void setChoices(std::vector<trace::AutotuneChoiceRow> choices);
    const trace::AutotuneChoiceRow* choiceAt(int row) const;
    /// Whether any candidate has a value in \p column (older traces have no runs or origin).
    bool columnHasValues(int column) const;
    /// "4 candidates, measured in this run", "4 candidates, timed by an earlier run (tuning
    /// cache)", "3 measured in this run, 1 from the tuning cache"; "4 candidates" when the trace
    /// does not say. Short: it is a caption (the tooltips explain the cache).
    QString originSummary() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant display(const trace::AutotuneChoiceRow& c, int column) const;
    QVariant raw(const trace::AutotuneChoiceRow& c, int column) const;
    QVariant toolTip(const trace::AutotuneChoiceRow& c, int column) const;

    std::vector<trace::AutotuneChoiceRow> m_choices;
};

/// "27.0–33.0 µs": a range of durations in the unit that reads best for its upper end.
QString formatDurationRange(qint64 lowNs, qint64 highNs);

} // namespace kiln::views
