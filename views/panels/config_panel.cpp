// SPDX-License-Identifier: MIT
#include "config_panel.h"

#include "api/catalog.h"
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

namespace {

/// The inductor options' descriptions and variables from the option catalog (the dynamo
/// options have no catalog entry: their rows go without).
std::map<std::string, OptionHelp> catalogHelp() {
    std::map<std::string, OptionHelp> help;
    for (const api::OptionInfo& o : api::inductorOptions())
        help[o.name] = {QString::fromStdString(o.description), QString::fromStdString(o.envVar)};
    return help;
}

/// Whether the table would show the same for \p now as for \p before: the config rows and
/// the run's status (in the column's tooltip).
bool showsTheSame(const RunSnapshot& before, const RunSnapshot& now) {
    auto same = [](const trace::ConfigRow& x, const trace::ConfigRow& y) {
        return x.id == y.id && x.value == y.value && x.source == y.source;
    };
    return before.run.status == now.run.status && before.config.size() == now.config.size() &&
           std::equal(before.config.begin(), before.config.end(), now.config.begin(), same);
}

} // namespace

ConfigPanel::ConfigPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel("config", tr("Config"), session, selection, parent)
    , m_tracePath(session.path()) {
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(makeRunList());
    split->addWidget(makeTableArea());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({240, 860});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(&session, &TraceSession::runsChanged, this, [this] { fillRunList(); });
    connect(&session, &TraceSession::snapshotReady, this,
            [this](qint64 runId, const SnapshotPtr& s) {
                adopt(runId, s);
                syncRunList();
            });
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
    m_model->setOptionHelp(catalogHelp());
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(ConfigDiffModel::OptionColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true); // the description
    addTableExportMenu(m_table);

    auto* area = new QWidget;
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(makeFilterBar());
    layout->addWidget(m_table, 1);
    return area;
}

QWidget* ConfigPanel::makeFilterBar() {
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter options by name"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        fitColumns();
        showCount();
    });
    m_showAll = new QCheckBox(tr("Show all options"));
    connect(m_showAll, &QCheckBox::toggled, this, [this](bool all) {
        m_model->setShowAll(all);
        fitColumns();
        showCount();
    });
    m_count = new QLabel;
    auto* bar = new QWidget;
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter, 1);
    layout->addWidget(m_showAll);
    layout->addWidget(m_count);
    return bar;
}

void ConfigPanel::showRuns(const QList<qint64>& runIds) {
    m_tracePath = session().path();
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
    if (session().path() != m_tracePath) { // another trace: its runs are other runs
        m_tracePath = session().path();
        m_userPicked = false;
        m_snapshots.clear();
    }
    const RunRows& runs = session().runs();
    if (!m_userPicked && runs) {
        m_shown.clear();
        for (const trace::RunRow& r : *runs)
            m_shown << r.id;
    }
    syncRunList();
    readShownRuns();
}

/// One checkable item per run. Rebuilt only when the runs differ: a live run's refreshes
/// update the labels in place and leave the list's scrolling alone.
void ConfigPanel::syncRunList() {
    const RunRows& runs = session().runs();
    const int count = runs ? static_cast<int>(runs->size()) : 0;
    QSignalBlocker quiet(m_runList); // changes made here are not the user toggling items
    bool sameRuns = m_runList->count() == count;
    for (int i = 0; sameRuns && i < count; ++i)
        sameRuns = m_runList->item(i)->data(Qt::UserRole).toLongLong() == (*runs)[size_t(i)].id;
    if (!sameRuns) m_runList->clear();
    for (int i = 0; i < count; ++i) {
        const trace::RunRow& r = (*runs)[size_t(i)];
        QListWidgetItem* item = sameRuns ? m_runList->item(i) : new QListWidgetItem(m_runList);
        item->setText(runLabel(r, session().snapshot(r.id).get()));
        item->setData(Qt::UserRole, QVariant::fromValue<qint64>(r.id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(m_shown.contains(r.id) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(QString::fromStdString(r.workloadPath));
    }
}

void ConfigPanel::onRunToggled(QListWidgetItem* item) {
    m_userPicked = true;
    qint64 id = item->data(Qt::UserRole).toLongLong();
    if (item->checkState() == Qt::Checked && !m_shown.contains(id)) m_shown << id;
    if (item->checkState() != Qt::Checked) m_shown.removeAll(id);
    std::sort(m_shown.begin(), m_shown.end());
    readShownRuns();
}

/// Holds a snapshot of each shown run: the session's when it has one, else asks for it. The
/// table is rebuilt only when that changed what is held.
void ConfigPanel::readShownRuns() {
    std::map<qint64, SnapshotPtr> held;
    for (qint64 id : m_shown) {
        SnapshotPtr latest = session().snapshot(id);
        auto mine = m_snapshots.find(id);
        // Ours may be older than the session's: adopt() takes refreshes only when the config
        // changed. None in the session means it was never read, or the trace was opened again.
        if (latest && mine != m_snapshots.end())
            held[id] = mine->second;
        else if (latest)
            held[id] = latest;
        else
            session().requestSnapshot(id);
    }
    if (held == m_snapshots) return;
    m_snapshots = std::move(held);
    rebuild();
}

void ConfigPanel::adopt(qint64 runId, const SnapshotPtr& snapshot) {
    if (!snapshot || !m_shown.contains(runId)) return;
    SnapshotPtr& held = m_snapshots[runId];
    // A live run refreshes often and rarely changes its config: keep the table (its scrolling,
    // its selection) until it shows something else.
    if (held && showsTheSame(*held, *snapshot)) return;
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
    fitColumns();
    showCount();
}

/// Columns as wide as what the rows shown hold, within limits: a long value (a path) must not
/// push the other runs out of sight. The description takes what is left.
void ConfigPanel::fitColumns() {
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_model->descriptionColumn(); ++c) {
        int limit = c == ConfigDiffModel::OptionColumn    ? 260
                    : c == ConfigDiffModel::DefaultColumn ? 120
                                                          : 160;
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), limit));
    }
}

void ConfigPanel::showCount() {
    m_count->setText(tr("%1 of %2 options differ · %3 shown")
                         .arg(m_model->differingCount())
                         .arg(m_model->optionCount())
                         .arg(m_proxy->rowCount()));
}

} // namespace kiln::views
