// SPDX-License-Identifier: MIT
/// \file
/// Fixture traces for Studio's model and panel tests, made by real `kiln run`s in a temporary
/// directory: the graph-break example workload, and one workload run under two modes.
#pragma once

#include "run_snapshot.h"

#include <QString>

namespace kiln::testing {

/// Runs resources/workloads/graph_breaks.py once (default mode) into `dir`/graph_breaks.kiln
/// and returns that path (run 1); empty when the run failed (the reason goes to qWarning).
QString graphBreaksTrace(const QString& dir);
/// Runs a small matmul + softmax workload twice into `dir`/modes.kiln: run 1 in default mode,
/// run 2 in max-autotune mode. Returns the trace path; empty when a run failed.
QString compareModesTrace(const QString& dir);
/// Reads one run's snapshot on the calling thread (tests only; Studio reads on its worker).
views::SnapshotPtr readSnapshot(const QString& trace, qint64 runId);

} // namespace kiln::testing
