// SPDX-License-Identifier: MIT
/// \file
/// The measurements of kiln-bench-studio over one trace. Each returns result rows; a row's
/// baseline is measured in the same process so its ratio means the same on any machine.
#pragma once

#include "run_snapshot.h"

#include <QObject>
#include <functional>
#include <string>
#include <vector>

namespace kiln::views {
class TimelineView;
}

namespace kiln::bench {

struct Result {
    std::string name;
    std::string what;
    std::string unit; ///< "ms"
    double value = 0;
    std::string baselineWhat; ///< empty when the row has no baseline
    double baseline = 0;
    double goal = 0; ///< 0 when there is no absolute goal
    /// Extra facts for the JSON (the stalls' causes, per-panel times): a JSON value or "".
    std::string detailsJson;
    /// Lines printed under the row (what the time went to).
    std::vector<std::string> notes;
    double ratio() const { return baseline > 0 ? value / baseline : 0; }
};

/// Median, 95th and 99th percentile and maximum of \p samples.
struct Spread {
    double median = 0;
    double p95 = 0;
    double p99 = 0;
    double max = 0;
};
Spread spreadOf(std::vector<double> samples);

/// \p v with \p decimals digits after the point, for the table's notes.
std::string fixed(double v, int decimals = 1);

/// Runs the event loop until \p sender emits \p signal or \p timeoutMs pass; false on timeout.
template <typename Sender, typename Signal>
bool waitForSignal(Sender* sender, Signal signal, int timeoutMs);

/// Opening the trace with a TraceSession to the first view painted (timeline + kernels table);
/// saves the timeline as painted to \p screenshot unless it is empty.
std::vector<Result> firstViewCase(const std::string& path, int64_t runId,
                                  const std::string& screenshot);
/// Timeline paints over a scripted sequence of zooms, pans and lane scrolls.
std::vector<Result> timelinePaintCase(const std::string& path, int64_t runId);
/// Writing the run as Chrome trace JSON.
std::vector<Result> chromeExportCase(const std::string& path, int64_t runId);

/// A user's tour of the timeline: fitted, zooming in around the middle, panning, zooming out,
/// scrolling the lanes, then jumping to short windows across the run. Each step is one frame:
/// \p frame paints it and returns its ms.
std::vector<double> timelineTour(views::TimelineView& view, const std::function<double()>& frame);

/// Reads one run's snapshot on the calling thread (the baseline of the first view).
views::SnapshotPtr readSnapshotDirect(const std::string& path, int64_t runId);

} // namespace kiln::bench

#include <QEventLoop>
#include <QTimer>

template <typename Sender, typename Signal>
bool kiln::bench::waitForSignal(Sender* sender, Signal signal, int timeoutMs) {
    QEventLoop loop;
    bool arrived = false;
    auto connection = QObject::connect(sender, signal, &loop, [&] {
        arrived = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(connection);
    return arrived;
}
