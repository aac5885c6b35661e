// SPDX-License-Identifier: MIT
/// \file
/// The trace's runs (mode, backend, device, status, duration): picking one selects it for every
/// other panel. A live run's row updates as the session re-reads the run list.
#pragma once

#include "panel.h"
#include "trace_models.h"

class QTableView;
class QSortFilterProxyModel;

namespace kiln::views {

class RunsPanel final : public Panel {
    Q_OBJECT

public:
    RunsPanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    const RunsModel& model() const { return m_model; }

protected:
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    void onRuns();

    RunsModel m_model;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
};

} // namespace kiln::views
