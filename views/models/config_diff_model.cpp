// SPDX-License-Identifier: MIT
#include "config_diff_model.h"

#include "run_comparison.h"

#include <QColor>
#include <map>

namespace kiln::views {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// Where a value came from, in the words of the torch.compile call that set it.
QString origin(const trace::ConfigRow& c, const trace::RunRow& run, const OptionHelp* help) {
    if (c.source == "default") return QStringLiteral("the default");
    if (c.source == "mode") return QString("set by torch.compile(mode=\"%1\")").arg(text(run.mode));
    if (c.source == "user") return QStringLiteral("set by torch.compile(options={...})");
    if (c.source == "env")
        return help && !help->envVar.isEmpty()
                   ? QString("set by the environment variable %1").arg(help->envVar)
                   : QStringLiteral("set by an environment variable");
    return text(c.source);
}

bool differs(const std::vector<const trace::ConfigRow*>& cells, const std::string& defaultValue) {
    const trace::ConfigRow* first = nullptr;
    for (const trace::ConfigRow* c : cells) {
        if (!c) continue; // a run that does not have the option (another backend) changed nothing
        if (c->value != defaultValue || (first && c->value != first->value)) return true;
        if (!first) first = c;
    }
    return false;
}

} // namespace

int ConfigDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_shown.size());
}

int ConfigDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : descriptionColumn() + 1;
}

QVariant ConfigDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OptionRow& row = m_all[m_shown[static_cast<size_t>(index.row())]];
    int run = index.column() - FirstRunColumn;
    if (index.column() == OptionColumn || index.column() == descriptionColumn()) {
        const OptionHelp* help = helpOf(row.key);
        if (role == Qt::ToolTipRole) return help ? help->description : QVariant();
        if (role != Qt::DisplayRole) return {};
        if (index.column() == OptionColumn) return text(row.key);
        return help ? help->description : QString();
    }
    if (index.column() == DefaultColumn)
        return role == Qt::DisplayRole ? QVariant(text(row.defaultValue)) : QVariant();
    switch (role) {
    case Qt::DisplayRole:
        return cellDisplay(row, run);
    case Qt::ToolTipRole:
        return cellToolTip(row, run);
    case Qt::BackgroundRole:
        return cellBackground(row, run);
    default:
        return {};
    }
}

QVariant ConfigDiffModel::cellDisplay(const OptionRow& row, int run) const {
    const trace::ConfigRow* c = row.cells[static_cast<size_t>(run)];
    if (!c) return {};
    return QString("%1 · %2").arg(text(c->value), text(c->source));
}

QVariant ConfigDiffModel::cellToolTip(const OptionRow& row, int run) const {
    const trace::RunRow& r = m_runs[static_cast<size_t>(run)]->run;
    const trace::ConfigRow* c = row.cells[static_cast<size_t>(run)];
    if (!c)
        return QString("Run #%1 (backend %2) did not record %3")
            .arg(r.id)
            .arg(text(r.backend), text(row.key));
    QString tip = QString("%1 = %2 in run #%3: %4")
                      .arg(text(row.key), text(c->value))
                      .arg(r.id)
                      .arg(origin(*c, r, helpOf(row.key)));
    if (c->value != row.defaultValue) tip += QString("\ndefault: %1").arg(text(row.defaultValue));
    return tip;
}

QVariant ConfigDiffModel::cellBackground(const OptionRow& row, int run) const {
    const trace::ConfigRow* c = row.cells[static_cast<size_t>(run)];
    if (!c || c->value == row.defaultValue) return {};
    return QColor(0xff, 0xe9, 0xa8); // amber: readable under dark text, distinct from selection
}

QVariant ConfigDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    if (section == OptionColumn) return role == Qt::DisplayRole ? QVariant("option") : QVariant();
    if (section == DefaultColumn) return role == Qt::DisplayRole ? QVariant("default") : QVariant();
    if (section == descriptionColumn())
        return role == Qt::DisplayRole ? QVariant("description") : QVariant();
    const RunSnapshot& run = *m_runs[static_cast<size_t>(section - FirstRunColumn)];
    const trace::RunRow& r = run.run;
    if (role == Qt::DisplayRole)
        return QString("#%1 %2").arg(r.id).arg(text(r.mode.empty() ? "default" : r.mode));
    if (role == Qt::ToolTipRole) return runLabel(r, &run);
    return {};
}

void ConfigDiffModel::setRuns(std::vector<SnapshotPtr> runs) {
    std::erase(runs, nullptr);
    beginResetModel();
    m_runs = std::move(runs);
    rebuild();
    endResetModel();
}

void ConfigDiffModel::setOptionHelp(std::map<std::string, OptionHelp> help) {
    beginResetModel();
    m_help = std::move(help);
    endResetModel();
}

const OptionHelp* ConfigDiffModel::helpOf(const std::string& key) const {
    auto it = m_help.find(key);
    return it == m_help.end() ? nullptr : &it->second;
}

void ConfigDiffModel::setShowAll(bool all) {
    if (all == m_showAll) return;
    beginResetModel();
    m_showAll = all;
    rebuild();
    endResetModel();
}

int ConfigDiffModel::rowOfOption(const QString& key) const {
    std::string k = key.toStdString();
    for (size_t i = 0; i < m_shown.size(); ++i)
        if (m_all[m_shown[i]].key == k) return static_cast<int>(i);
    return -1;
}

void ConfigDiffModel::rebuild() {
    std::map<std::string, OptionRow> byKey;
    for (size_t run = 0; run < m_runs.size(); ++run)
        for (const trace::ConfigRow& c : m_runs[run]->config) {
            OptionRow& row = byKey[c.key];
            if (row.cells.empty()) {
                row.key = c.key;
                row.defaultValue = c.defaultValue;
                row.cells.assign(m_runs.size(), nullptr);
            }
            row.cells[run] = &c;
        }
    m_all.clear();
    m_shown.clear();
    m_differing = 0;
    for (auto& [key, row] : byKey) {
        row.differs = differs(row.cells, row.defaultValue);
        m_differing += row.differs ? 1 : 0;
        if (m_showAll || row.differs) m_shown.push_back(m_all.size());
        m_all.push_back(std::move(row));
    }
}

} // namespace kiln::views
