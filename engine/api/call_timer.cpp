// SPDX-License-Identifier: MIT
#include "api/call_timer.h"

#include "support/assert.h"
#include "support/clock.h"

#include <algorithm>
#include <cstdio>

namespace kiln::api {

namespace {

/// The value below which `fraction` of the sorted times lie (nearest rank).
int64_t quantile(std::vector<int64_t> ns, double fraction) {
    if (ns.empty()) return 0;
    std::sort(ns.begin(), ns.end());
    size_t rank = static_cast<size_t>(fraction * static_cast<double>(ns.size() - 1) + 0.5);
    return ns[std::min(rank, ns.size() - 1)];
}

std::string millis(int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) / 1e6);
    return text;
}

} // namespace

int64_t CallTimings::minNs() const {
    return ns.empty() ? 0 : *std::min_element(ns.begin(), ns.end());
}

int64_t CallTimings::medianNs() const {
    return quantile(ns, 0.5);
}

int64_t CallTimings::p90Ns() const {
    return quantile(ns, 0.9);
}

std::string CallTimings::summary() const {
    std::string text = std::to_string(ns.size()) + (ns.size() == 1 ? " call" : " calls") +
                       " after " + std::to_string(warmupCalls) + " warm-up: median " +
                       millis(medianNs()) + " ms (min " + millis(minNs()) + ", p90 " +
                       millis(p90Ns()) + ")";
    if (cutByBudget) text += ", stopped by the time budget";
    return text;
}

CallTimings timeCalls(const std::function<void()>& call, const CallTimingPlan& plan,
                      const TimedCallObserver& observer) {
    KILN_ASSERT(plan.calls >= 0 && plan.warmup >= 0, "a negative call count");
    CallTimings out;
    for (; out.warmupCalls < plan.warmup; ++out.warmupCalls)
        call();
    const int64_t budgetNs = static_cast<int64_t>(plan.budgetSeconds * 1e9);
    int64_t spentNs = 0;
    out.ns.reserve(static_cast<size_t>(std::min(plan.calls, 4096)));
    for (int i = 0; i < plan.calls; ++i) {
        if (budgetNs > 0 && spentNs >= budgetNs && i >= kMinTimedCalls) {
            out.cutByBudget = true;
            break;
        }
        int64_t start = monotonicNs();
        call();
        int64_t ns = monotonicNs() - start;
        spentNs += ns;
        out.ns.push_back(ns);
        if (observer) observer(i, start, ns);
    }
    return out;
}

} // namespace kiln::api
