// SPDX-License-Identifier: MIT
/// \file
/// `kiln bench`: the compiler benchmark (engine/api/compiler_bench.h) on workload files or the
/// built-in workloads, under the modes asked for; prints the table and writes the JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kiln::app {

/// What `kiln bench` was asked for.
struct BenchRequest {
    std::vector<std::string> workloadFiles; ///< none: the built-in workloads
    std::optional<std::string> modes;       ///< --modes: comma-separated
    std::optional<std::string> calls;       ///< --calls: timed calls per row
    bool quick = false;                     ///< --quick: smaller built-in workloads, 3 calls
    std::string json = "kiln-bench.json";   ///< --json: where the JSON goes
    std::optional<double> timeoutSeconds;   ///< --timeout: per workload (checked by the caller)
};

/// 0 when every row was measured; 1 when a row failed (its error is in the table and the JSON)
/// or the JSON cannot be written; 2 for usage errors (an unknown mode, a bad --calls, a
/// workload file that cannot be read), before anything is measured.
int runBench(const BenchRequest& request);

} // namespace kiln::app
