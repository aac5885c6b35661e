// SPDX-License-Identifier: MIT
/// \file
/// The benchmark harness's model: a case measures nanoseconds per operation of something and
/// of its baseline in the same process, so the ratio is meaningful on any machine.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace kiln::bench {

struct Measurement {
    std::string name;
    std::string what;         ///< one line: what one operation is
    std::string baselineWhat; ///< one line: what the baseline operation is
    int64_t iterations = 0;
    double nsPerOp = 0; ///< median over repetitions
    double baselineNsPerOp = 0;
    double goalNsPerOp = 0; ///< 0 when the case has no absolute goal
};

struct Case {
    std::string name;
    std::function<Measurement(int64_t iterations)> run;
    int64_t iterations;
};

/// The interpreter dispatch cases (integer arithmetic, eager tensor ops, calls).
std::vector<Case> interpreterCases();

/// The torch.compile capture cases (guard checks, cache hits, tracing).
std::vector<Case> captureCases();

/// The cost of recording kernel launches in the trace.
std::vector<Case> launchCases();

/// Nanoseconds taken by `fn`, the median of `repeats` runs.
double medianNs(int repeats, const std::function<void()>& fn);

} // namespace kiln::bench
