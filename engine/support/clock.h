// SPDX-License-Identifier: MIT
/// \file
/// Time sources. Monotonic nanoseconds for durations and timelines; wall-clock nanoseconds since
/// the Unix epoch for what a person reads (run start and end).
#pragma once

#include <chrono>
#include <cstdint>

namespace kiln {

inline int64_t monotonicNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline int64_t wallClockNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace kiln
