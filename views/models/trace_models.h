// SPDX-License-Identifier: MIT
/// \file
/// The models of the trace tables Kiln Studio's panels show, one per table: runs, kernels (with
/// their launch statistics) and graph breaks. They hold snapshots a TraceLoader produced.
#pragma once

#include "snapshot_table_model.h"
#include "trace_loader.h"

namespace kiln::views {

/// `runs`: id, workload, mode, backend, device, status, duration.
class RunsModel final : public SnapshotTableModel<trace::RunRow> {
public:
    explicit RunsModel(QObject* parent = nullptr);
};

/// `kernels` joined with `kernel_launches` statistics: name, kind, graph, launches, total and
/// median time, share of the run's kernel time, fused nodes.
class KernelsModel final : public SnapshotTableModel<KernelRecord> {
public:
    explicit KernelsModel(QObject* parent = nullptr);
    /// Adopts the rows and recomputes the run's total kernel time (the share column's base).
    void setKernels(KernelRecords rows);

private:
    int64_t m_totalNs = 0;
};

/// `graph_breaks` in execution order: order, compile, location, reason kind, reason.
class GraphBreaksModel final : public SnapshotTableModel<trace::GraphBreakRow> {
public:
    explicit GraphBreaksModel(QObject* parent = nullptr);
};

} // namespace kiln::views
