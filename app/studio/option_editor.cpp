// SPDX-License-Identifier: MIT
#include "option_editor.h"

#include "api/catalog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace kiln::studio {

namespace {

enum Column { Name, Value, Default, ModeSets, Type, EnvVar, Description, ColumnCount };
constexpr int kDefaultRole = Qt::UserRole + 1;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

OptionEditor::OptionEditor(QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Inductor options"));
    resize(1000, 600);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Every torch._inductor.config option. Edit a value to override "
                                "it for the next run (kiln run --options); changed values are "
                                "highlighted."),
                             this);
    intro->setWordWrap(true);
    auto* filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter options…"));
    filter->setClearButtonEnabled(true);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(&m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    connect(filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto* view = new QTableView(this);
    view->setModel(m_proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(Name, Qt::AscendingOrder);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::AnyKeyPressed);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton* reset = buttons->addButton(tr("Reset all"), QDialogButtonBox::ResetRole);
    connect(reset, &QPushButton::clicked, this, &OptionEditor::resetAll);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(intro);
    layout->addWidget(filter);
    layout->addWidget(view);
    layout->addWidget(buttons);
    fill();
    view->resizeColumnsToContents();
    view->setColumnWidth(Description, 400);
    connect(&m_model, &QStandardItemModel::itemChanged, this, [this](QStandardItem* item) {
        if (!m_filling && item->column() == Value) markChanged(item);
    });
}

void OptionEditor::fill() {
    m_filling = true;
    m_model.clear();
    m_model.setHorizontalHeaderLabels({tr("Option"), tr("Value"), tr("Default"), tr("Mode sets"),
                                       tr("Type"), tr("Environment"), tr("Description")});
    for (const api::OptionInfo& o : api::inductorOptions()) {
        QList<QStandardItem*> row;
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QStandardItem;
            item->setEditable(c == Value);
            row << item;
        }
        row[Name]->setText(qs(o.name));
        row[Value]->setText(qs(o.defaultRepr));
        row[Value]->setData(qs(o.defaultRepr), kDefaultRole);
        row[Value]->setToolTip(tr("Double-click to change; a Python literal (True, 64, 'fork')"));
        row[Default]->setText(qs(o.defaultRepr));
        row[Type]->setText(qs(o.type));
        row[EnvVar]->setText(qs(o.envVar));
        row[Description]->setText(qs(o.description));
        row[Description]->setToolTip(qs(o.description));
        m_model.appendRow(row);
    }
    m_filling = false;
}

void OptionEditor::setMode(const QString& mode) {
    QHash<QString, QString> sets;
    for (const auto& [key, value] : api::modeOptionReprs(mode.toStdString()))
        sets.insert(qs(key), qs(value));
    for (int r = 0; r < m_model.rowCount(); ++r)
        m_model.item(r, ModeSets)->setText(sets.value(m_model.item(r, Name)->text()));
}

void OptionEditor::markChanged(QStandardItem* valueItem) {
    const bool changed = valueItem->text() != valueItem->data(kDefaultRole).toString();
    QFont font = valueItem->font();
    font.setBold(changed);
    m_filling = true; // setting the look emits itemChanged again
    for (int c = 0; c < ColumnCount; ++c) {
        QStandardItem* item = m_model.item(valueItem->row(), c);
        item->setFont(c == Name || c == Value ? font : item->font());
        item->setBackground(changed ? QBrush(QColor(255, 236, 179)) : QBrush());
    }
    m_filling = false;
}

QList<QPair<QString, QString>> OptionEditor::overrides() const {
    QList<QPair<QString, QString>> out;
    for (int r = 0; r < m_model.rowCount(); ++r) {
        const QStandardItem* value = m_model.item(r, Value);
        if (value->text() != value->data(kDefaultRole).toString())
            out.append({m_model.item(r, Name)->text(), value->text()});
    }
    return out;
}

void OptionEditor::setOverrides(const QList<QPair<QString, QString>>& overrides) {
    resetAll();
    for (const auto& [key, value] : overrides) {
        auto found = m_model.findItems(key, Qt::MatchExactly, Name);
        if (!found.isEmpty()) m_model.item(found.front()->row(), Value)->setText(value);
    }
}

void OptionEditor::resetAll() {
    for (int r = 0; r < m_model.rowCount(); ++r) {
        QStandardItem* value = m_model.item(r, Value);
        value->setText(value->data(kDefaultRole).toString());
    }
}

} // namespace kiln::studio
