// SPDX-License-Identifier: MIT
/// \file
/// `kiln bench` measures each workload in a child process of its own, with a time limit, so
/// that a workload that hangs or crashes costs only its own rows: the others are measured and
/// reported as usual, and the failed workload's rows say what happened ("timed out after
/// 600 s", "crashed: killed by SIGSEGV").
#pragma once

#include "api/compiler_bench.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln::api {

/// Runs `measureRows` (one workload's rows) in a forked child and waits at most
/// `timeoutSeconds`; a child that does not finish gives one failed row per mode in `modes`.
std::vector<CompilerBenchRow>
measureInChild(const std::string& workload, const std::vector<std::string>& modes,
               double timeoutSeconds,
               const std::function<std::vector<CompilerBenchRow>()>& measureRows);

} // namespace kiln::api
