// SPDX-License-Identifier: MIT
/// \file
/// The models of the trace tables Kiln Studio's panels show, one per table: runs, kernels (with
/// their launch statistics) and graph breaks. They hold row snapshots (trace_rows.h).
#pragma once

#include "snapshot_table_model.h"
#include "trace_rows.h"

namespace kiln::views {

/// `runs`: id, workload, mode, backend, device, status, duration, and the machine it ran on
/// (its summary; every fact, matmul libraries included, in the tooltip).
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

/// `compiles`: compile id, reason, status, milliseconds, backend, failure.
class CompilesModel final : public SnapshotTableModel<trace::CompileRow> {
public:
    explicit CompilesModel(QObject* parent = nullptr);
};

/// `guards`: compile id, kind, the check as PyTorch prints it, expected, user line.
class GuardsModel final : public SnapshotTableModel<trace::GuardRow> {
public:
    explicit GuardsModel(QObject* parent = nullptr);
};

/// `recompiles`: the new compile, the older entry, the guard that failed, expected vs actual.
class RecompilesModel final : public SnapshotTableModel<trace::RecompileRow> {
public:
    explicit RecompilesModel(QObject* parent = nullptr);
};

/// `config`: option, value, default, source (default, mode, user, env).
class ConfigModel final : public SnapshotTableModel<trace::ConfigRow> {
public:
    explicit ConfigModel(QObject* parent = nullptr);
};

/// `output`: stream, seconds since the run started, text.
class OutputModel final : public SnapshotTableModel<trace::OutputLine> {
public:
    explicit OutputModel(QObject* parent = nullptr);
};

} // namespace kiln::views
