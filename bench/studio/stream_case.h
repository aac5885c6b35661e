// SPDX-License-Identifier: MIT
/// \file
/// GUI-thread stalls while a run streams: a writer thread appends a live run (launches, output
/// lines, compiles) to the trace in the writer's short transactions while Studio's TraceSession
/// polls it and the timeline and kernels table follow every snapshot. A 5 ms heartbeat timer on
/// the GUI thread records how late it fires.
#pragma once

#include "studio_cases.h"
#include "synthetic_trace.h"

namespace kiln::bench {

std::vector<Result> streamCase(const std::string& path, const SyntheticShape& shape,
                               double seconds);

} // namespace kiln::bench
