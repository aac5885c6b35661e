// SPDX-License-Identifier: MIT
/// \file
/// The run toolbar's option editor: every torch._inductor.config option with its type, default,
/// what the chosen mode sets and the value this run will use. Values the user changed are
/// highlighted; they become `kiln run --options K=V,...`.
#pragma once

#include <QDialog>
#include <QList>
#include <QPair>
#include <QStandardItemModel>

class QSortFilterProxyModel;

namespace kiln::studio {

class OptionEditor final : public QDialog {
    Q_OBJECT

public:
    explicit OptionEditor(QWidget* parent = nullptr);

    /// Shows what \p mode sets in the "mode sets" column.
    void setMode(const QString& mode);
    /// The user's changes, in declaration order.
    QList<QPair<QString, QString>> overrides() const;
    void setOverrides(const QList<QPair<QString, QString>>& overrides);
    /// The model (one row per option), for tests.
    const QStandardItemModel& model() const { return m_model; }

private:
    void fill();
    void markChanged(QStandardItem* valueItem);
    void resetAll();

    QStandardItemModel m_model;
    QSortFilterProxyModel* m_proxy = nullptr;
    bool m_filling = false;
};

} // namespace kiln::studio
