// SPDX-License-Identifier: MIT
/// \file
/// The rows of a RunComparison as a table: graph, covered nodes, each run's time for one call of
/// the group, their difference and ratio B/A (coloured only when larger than the noise), each
/// run's total and kernels, and whether the group matched. Times are numbers (milliseconds,
/// microseconds per call) so that a sort proxy orders them as numbers.
#pragma once

#include "run_comparison.h"

#include <QAbstractTableModel>

namespace kiln::views {

class CompareModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        GraphColumn,
        NodesColumn,
        PerCallAColumn,
        PerCallBColumn,
        DeltaColumn,
        RatioColumn,
        TotalAColumn,
        TotalBColumn,
        KernelsAColumn,
        KernelsBColumn,
        StatusColumn,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Adopts a new comparison; the labels name the runs in header tooltips.
    void setComparison(RunComparison comparison, const QString& labelA, const QString& labelB);
    const RunComparison& comparison() const { return m_comparison; }
    const ComparisonRow* rowAt(int row) const;
    /// The row holding kernel \p kernelId of run A (or of run B with \p inB); -1 when none.
    int rowOfKernel(int64_t kernelId, bool inB) const;

private:
    QVariant display(const ComparisonRow& row, int column) const;
    QVariant toolTip(const ComparisonRow& row, int column) const;

    RunComparison m_comparison;
    QString m_labelA;
    QString m_labelB;
};

} // namespace kiln::views
