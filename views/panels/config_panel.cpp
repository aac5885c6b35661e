// SPDX-License-Identifier: MIT
#include "config_panel.h"

#include "run_comparison.h"
#include "table_export.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace kiln::views {

ConfigPanel::ConfigPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel("config", tr("Config"), session, selection, parent) {
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(makeRunList());
    split->addWidget(makeTableArea());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({220, 880});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(&session, &TraceSession::runsChanged, this, [this] { fillRunList(); });
    connect(&session, &TraceSession::snapshotReady, this,
            [this](qint64 runId, const SnapshotPtr& s) { adopt(runId, s); });
    fillRunList();
    catchUp();
}

QWidget* ConfigPanel::makeRunList() {
    m_runList = new QListWidget;
    m_runList->setToolTip(tr("The runs whose configuration is shown, one column each"));
    connect(m_runList, &QListWidget::itemChanged, this,
            [this](QListWidgetItem* item) { onRunToggled(item); });
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Runs")));
    layout->addWidget(m_runList);
    return box;
}

QWidget* ConfigPanel::makeTableArea() {
    m_model = new ConfigDiffModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(ConfigDiffModel::OptionColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    addTableExportMenu(m_table);

    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter options by name"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        showCount();
    });
    m_showAll = new QCheckBox(tr("Show all options"));
    connect(m_showAll, &QCheckBox::toggled, this, [this](bool all) {
        m_model->setShowAll(all);
        m_table->resizeColumnsToContents();
        showCount();
    });
    m_count = new QLabel;

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_showAll);
    bar->addWidget(m_count);
    auto* area = new QWidget;
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    return area;
}

void ConfigPanel::showRuns(const QList<qint64>& runIds) {
    m_userPicked = true;
    m_shown = runIds;
    std::sort(m_shown.begin(), m_shown.end());
    m_shown.erase(std::unique(m_shown.begin(), m_shown.end()), m_shown.end());
    fillRunList();
}

QList<qint64> ConfigPanel::shownRuns() const {
    return m_shown;
}

void ConfigPanel::fillRunList() {
    const RunRows& runs = session().runs();
    if (!m_userPicked && runs) {
        m_shown.clear();
        for (const trace::RunRow& r : *runs)
            m_shown << r.id;
    }
    QSignalBlocker quiet(m_runList); // checking items here is not the user toggling them
    m_runList->clear();
    if (runs)
        for (const trace::RunRow& r : *runs) {
            auto* item = new QListWidgetItem(runLabel(r), m_runList);
            item->setData(Qt::UserRole, QVariant::fromValue<qint64>(r.id));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(m_shown.contains(r.id) ? Qt::Checked : Qt::Unchecked);
            item->setToolTip(QString::fromStdString(r.workloadPath));
        }
    readShownRuns();
}

void ConfigPanel::onRunToggled(QListWidgetItem* item) {
    m_userPicked = true;
    qint64 id = item->data(Qt::UserRole).toLongLong();
    if (item->checkState() == Qt::Checked && !m_shown.contains(id)) m_shown << id;
    if (item->checkState() != Qt::Checked) m_shown.removeAll(id);
    std::sort(m_shown.begin(), m_shown.end());
    readShownRuns();
}

void ConfigPanel::readShownRuns() {
    std::erase_if(m_snapshots,
                  [this](const auto& entry) { return !m_shown.contains(entry.first); });
    for (qint64 id : m_shown) {
        if (SnapshotPtr held = session().snapshot(id)) m_snapshots[id] = held;
        session().requestSnapshot(id);
    }
    rebuild();
}

void ConfigPanel::adopt(qint64 runId, const SnapshotPtr& snapshot) {
    if (!snapshot || !m_shown.contains(runId)) return;
    SnapshotPtr& held = m_snapshots[runId];
    // A refresh of a live run keeps its config unless a compile changed it: skip the reset.
    if (held && held->config.size() == snapshot->config.size() &&
        std::equal(held->config.begin(), held->config.end(), snapshot->config.begin(),
                   [](const auto& x, const auto& y) {
                       return x.id == y.id && x.value == y.value && x.source == y.source;
                   }))
        return;
    held = snapshot;
    rebuild();
}

void ConfigPanel::showSnapshot(const SnapshotPtr& snapshot) {
    if (snapshot) adopt(snapshot->run.id, snapshot);
}

void ConfigPanel::showSelection(const SelectionState& state) {
    // The selected run is always shown; the user may add others.
    if (state.runId <= 0 || m_shown.contains(state.runId)) return;
    m_shown << state.runId;
    std::sort(m_shown.begin(), m_shown.end());
    fillRunList();
}

void ConfigPanel::rebuild() {
    std::vector<SnapshotPtr> runs;
    for (qint64 id : m_shown)
        if (auto it = m_snapshots.find(id); it != m_snapshots.end()) runs.push_back(it->second);
    m_model->setRuns(std::move(runs));
    m_table->resizeColumnsToContents();
    showCount();
}

void ConfigPanel::showCount() {
    m_count->setText(tr("%1 of %2 options differ · %3 shown")
                         .arg(m_model->differingCount())
                         .arg(m_model->optionCount())
                         .arg(m_proxy->rowCount()));
}

} // namespace kiln::views
