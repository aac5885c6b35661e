// SPDX-License-Identifier: MIT
/// \file
/// A read-only table model over an immutable snapshot of trace rows: each column is a header
/// and a function from a row to its display value (numbers stay numbers, so a proxy model sorts
/// them as numbers). The trace models are instances of it with their own columns.
#pragma once

#include <QAbstractTableModel>
#include <functional>
#include <memory>
#include <vector>

namespace kiln::views {

template <typename Row>
class SnapshotTableModel : public QAbstractTableModel {
public:
    struct Column {
        QString header;
        std::function<QVariant(const Row&)> value;
        std::function<QVariant(const Row&)> toolTip; ///< may be empty
    };

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || !m_rows ? 0 : static_cast<int>(m_rows->size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
    }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        const Column& c = m_columns[static_cast<size_t>(index.column())];
        const Row& row = (*m_rows)[static_cast<size_t>(index.row())];
        if (role == Qt::DisplayRole) return c.value(row);
        if (role == Qt::ToolTipRole && c.toolTip) return c.toolTip(row);
        return {};
    }
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
            section >= static_cast<int>(m_columns.size()))
            return {};
        return m_columns[static_cast<size_t>(section)].header;
    }

    /// Adopts a new snapshot (a reload replaces the rows).
    void setRows(std::shared_ptr<const std::vector<Row>> rows) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    const Row* rowAt(int row) const {
        if (!m_rows || row < 0 || row >= static_cast<int>(m_rows->size())) return nullptr;
        return &(*m_rows)[static_cast<size_t>(row)];
    }

protected:
    void setColumns(std::vector<Column> columns) { m_columns = std::move(columns); }

private:
    std::vector<Column> m_columns;
    std::shared_ptr<const std::vector<Row>> m_rows;
};

} // namespace kiln::views
