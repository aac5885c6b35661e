// SPDX-License-Identifier: MIT
/// \file
/// Calls that found their frame's cache full (cache_size_limit) and ran eagerly: the capture
/// layer's "cache_limit" events of a run, counted per frame.
#pragma once

#include "run_snapshot.h"

#include <QString>
#include <unordered_map>

namespace kiln::views {

struct EagerCalls {
    qint64 count = 0;
    qint64 limit = 0;
    QString why; ///< the first such call's failing guard, "L['x'] expected 64, actual 65"
};

/// By frame id.
std::unordered_map<int64_t, EagerCalls> eagerCallsByFrame(const RunSnapshot& snapshot);

} // namespace kiln::views
