// SPDX-License-Identifier: MIT
#include "runs_panel.h"

#include "table_export.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace kiln::views {

RunsPanel::RunsPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel(QStringLiteral("runs"), tr("Runs"), session, selection, parent) {
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(&m_model);
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSortingEnabled(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    addTableExportMenu(m_view);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const trace::RunRow* run = m_model.rowAt(m_proxy->mapToSource(current).row());
                if (run) this->selection().selectRun(run->id);
            });
    connect(&session, &TraceSession::runsChanged, this, &RunsPanel::onRuns);
    onRuns();
    catchUp();
}

void RunsPanel::onRuns() {
    m_model.setRows(session().runs());
    m_view->resizeColumnsToContents();
    showSelection(selection().state());
}

void RunsPanel::showSnapshot(const SnapshotPtr&) {}

void RunsPanel::showSelection(const SelectionState& state) {
    for (int r = 0; r < m_model.rowCount(); ++r) {
        if (m_model.rowAt(r)->id != state.runId) continue;
        QModelIndex index = m_proxy->mapFromSource(m_model.index(r, 0));
        if (m_view->currentIndex().row() != index.row()) {
            QSignalBlocker block(m_view->selectionModel());
            m_view->setCurrentIndex(index);
        }
        return;
    }
}

} // namespace kiln::views
