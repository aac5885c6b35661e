// SPDX-License-Identifier: MIT
/// \file
/// Fixture traces for Studio's model and panel tests, made by real `kiln run`s in a temporary
/// directory: the graph-break example workload, and one workload run under two modes.
#pragma once

#include "run_snapshot.h"

#include <QString>
#include <QStringList>

namespace kiln::testing {

/// Runs resources/workloads/graph_breaks.py once (default mode) into `dir`/graph_breaks.kiln
/// and returns that path (run 1); empty when the run failed (the reason goes to qWarning).
QString graphBreaksTrace(const QString& dir);
/// Runs a small matmul + softmax workload twice into `dir`/modes.kiln: run 1 in default mode,
/// run 2 in max-autotune mode. Returns the trace path; empty when a run failed.
QString compareModesTrace(const QString& dir);
/// Writes \p source to `dir`/\p fileName and runs `kiln run` on it once with \p extraArgs into
/// the trace next to it, which it returns whether the run succeeded or not (a script error is
/// a fixture too); empty when no trace was written.
QString scriptTrace(const QString& dir, const QString& fileName, const QString& source,
                    const QStringList& extraArgs = {});
/// Three training steps of a small compiled MLP, then one call under no_grad, run \p runs
/// times into `dir`/train.kiln: graph 1 has forward and backward graphs (AOT autograd), graph
/// 2 an inference graph. Returns the trace path; empty when a run failed.
QString trainingTrace(const QString& dir, int runs = 1);
/// Reads one run's snapshot on the calling thread (tests only; Studio reads on its worker).
views::SnapshotPtr readSnapshot(const QString& trace, qint64 runId);

} // namespace kiln::testing
