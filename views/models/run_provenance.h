// SPDX-License-Identifier: MIT
/// \file
/// Where a run's timings come from, in the words Studio shows: the machine it ran on (CPU,
/// instruction set, threads, matmul libraries; trace schema version 4's `runs.machine`), what
/// differs between the machines of two compared runs, and how many autotuning times were taken
/// from the tuning cache instead of being measured in the run. A comparison across machines, or
/// against times an earlier run measured, is still useful, but only when it says so.
#pragma once

#include "run_snapshot.h"

#include <QString>

namespace kiln::views {

/// "AMD EPYC 9B14 (avx512, 2 threads)"; empty when the run recorded no machine.
QString machineSummaryText(const trace::RunRow& run);
/// Every recorded fact of the run's machine, one per line (CPU, ISA, threads, then the matmul
/// library of each dtype), or why there are none. For an imported run: the log it came from,
/// PyTorch, Python and CUDA versions, rank, and the host that imported it.
QString machineDetailsText(const trace::RunRow& run);

/// Whether \p run was imported from PyTorch's logs (`kiln import`, Studio's File > Import): mode
/// "imported". Kiln did not run it, so it cannot be run again.
bool isImportedRun(const trace::RunRow& run);
/// Where an imported run came from, from its `machine` JSON (docs/trace-schema.md): "PyTorch
/// 2.11.0+cu130 · CUDA 13.0 · rank 1", the facts the log had; "PyTorch version not logged"
/// when it had none. Empty for a run Kiln ran.
QString importedOriginText(const trace::RunRow& run);

/// A warning when \p a and \p b ran on machines that differ, naming what differs: "These runs
/// come from different machines (different CPU and threads): AMD EPYC 9B14 (avx512, 2 threads)
/// vs Intel Xeon … (avx512, 8 threads); timings are not directly comparable." Matmul libraries
/// that differ are named with both sides ("different matmul libraries (float32 matmul: … vs
/// …)"). When only one run recorded its machine, says that the other's is unknown. Empty when
/// both agree, or neither recorded one (traces from before the machine was recorded).
QString machineWarning(const trace::RunRow& a, const trace::RunRow& b);

/// Where a run's autotuning times come from.
struct TuningOrigin {
    int measured = 0; ///< measured in the run
    int cached = 0;   ///< read from the tuning cache (measured by an earlier run on this CPU)
    int unknown = 0;  ///< written before the trace recorded it

    int total() const { return measured + cached + unknown; }
};

TuningOrigin tuningOrigin(const std::vector<trace::AutotuneChoiceRow>& choices);

/// A note when either run's autotuning times (some or all) come from the tuning cache: "B's
/// autotuning times (6 of 6 candidates) come from the tuning cache: measured by an earlier run
/// on the same CPU, not in the run itself." Empty when every time was measured in its run.
QString tuningCacheNote(const RunSnapshot& a, const RunSnapshot& b);

/// What a comparison of \p a with \p b must say before its numbers: the machine warning
/// (marked ⚠) and the tuning-cache note, those that apply.
QStringList comparisonNotes(const RunSnapshot& a, const RunSnapshot& b);
/// Empty when both runs compiled something; else why their times say nothing about the modes
/// (a workload that never calls torch.compile runs the same eager code in every mode).
QString nothingCompiledNote(const RunSnapshot& a, const RunSnapshot& b);

} // namespace kiln::views
