// SPDX-License-Identifier: MIT
/// \file
/// Kiln Studio's first window: a trace opened read-only, its last run's kernels, compiles, graph
/// breaks, guards, recompiles, config and output in dockable tables. The trace is read by a
/// TraceLoader on a worker thread; the window only adopts snapshots.
#pragma once

#include "trace_models.h"

#include <QMainWindow>
#include <QThread>

namespace kiln::studio {

class TraceWindow final : public QMainWindow {
    Q_OBJECT

public:
    explicit TraceWindow(const QString& tracePath, QWidget* parent = nullptr);
    ~TraceWindow() override;

    /// Starts reading the trace; `loaded` follows when every table of the last run is shown.
    void load();

Q_SIGNALS:
    void loaded();
    void failed(QString message);

private:
    void onRuns(views::RunRows rows);
    void tableArrived();
    void addTable(const QString& title, QAbstractItemModel* model, Qt::DockWidgetArea area);

    QThread m_worker;
    views::TraceLoader* m_loader = nullptr;
    views::RunsModel m_runs;
    views::KernelsModel m_kernels;
    views::CompilesModel m_compiles;
    views::GraphBreaksModel m_breaks;
    views::GuardsModel m_guards;
    views::RecompilesModel m_recompiles;
    views::ConfigModel m_config;
    views::OutputModel m_output;
    int m_pending = 0;
};

} // namespace kiln::studio
