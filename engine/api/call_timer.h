// SPDX-License-Identifier: MIT
/// \file
/// How Kiln times calls of compiled code, for `kiln bench` and for runs that measure their
/// compiled frames (`kiln run --measure`, Studio's Compare modes): warm-up calls that are not
/// timed, then timed calls until the count or the time budget is reached, with their spread.
/// The call itself waits for any device work it queued, so a time is the call's whole cost.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kiln::api {

struct CallTimingPlan {
    int calls = 0;  ///< timed calls; 0: no measurement
    int warmup = 3; ///< untimed calls first (caches, lazy loading, the device's clocks)
    /// Timing stops once the timed calls took this long, after at least kMinTimedCalls of
    /// them; 0: no budget (every call is made, as tests need).
    double budgetSeconds = 10;
};

/// Timed calls a measurement keeps even past its budget: fewer give no spread.
inline constexpr int kMinTimedCalls = 3;

/// The largest --measure and --warmup: a run measures at most this many calls of each frame.
inline constexpr int kMaxMeasuredCalls = 100000;

struct CallTimings {
    std::vector<int64_t> ns; ///< each timed call, in call order
    int warmupCalls = 0;
    bool cutByBudget = false; ///< fewer than the plan's calls: the budget ran out

    int64_t minNs() const;
    int64_t medianNs() const;
    int64_t p90Ns() const;
    /// "20 calls after 3 warm-up: median 1.234 ms (min 1.200, p90 1.300)"
    std::string summary() const;
};

/// Called after each timed call: its index, its start (monotonicNs) and its duration.
using TimedCallObserver = std::function<void(int index, int64_t startNs, int64_t ns)>;

/// Makes the plan's warm-up calls, then its timed calls. `call` throws to stop (the exception
/// propagates; the calls timed so far are lost with it).
CallTimings timeCalls(const std::function<void()>& call, const CallTimingPlan& plan,
                      const TimedCallObserver& observer = {});

} // namespace kiln::api
