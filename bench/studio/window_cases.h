// SPDX-License-Identifier: MIT
/// \file
/// Kiln Studio as a whole: the real MainWindow (default layout, 1600x1000, every panel docked)
/// opening the large trace, selecting a graph and a kernel, scrolling its timeline, and following
/// a run that streams into the trace, with each panel's share of the GUI thread's time.
#pragma once

#include "event_profiler.h"
#include "studio_cases.h"
#include "synthetic_trace.h"

#include <QObject>

namespace kiln::studio {
class MainWindow;
}

namespace kiln::bench {

/// The same-run measurements the window's rows are compared with.
struct WindowBaselines {
    double sessionFirstViewMs = 0;    ///< first_view: a TraceSession + timeline + kernels table
    double timelineFrameMedianMs = 0; ///< timeline.paint.median (the view alone, 1600x900)
    double timelineFrameP95Ms = 0;
    double timelineFrameMaxMs = 0;
};

/// First view of the whole window (then a graph and a kernel selected), full-window repaints,
/// and the tour of the window's own timeline; saves the window as shown to \p screenshot.
std::vector<Result> windowViewCases(const std::string& path, int64_t runId,
                                    const WindowBaselines& baselines,
                                    const std::string& screenshot);

/// GUI stalls while a run streams into a trace the whole window has open (a 5 ms heartbeat),
/// with the causes of the three longest stalls. Rows are named \p name (window.stream...); with
/// \p preloadGraphs the live run compiles that many graphs first (a large model's run).
std::vector<Result> windowStreamCase(const std::string& name, const std::string& path,
                                     const SyntheticShape& shape, double seconds,
                                     int preloadGraphs);

/// GUI stalls while the window runs a real `kiln run` child (F5) of a workload that compiles and
/// launches kernels for \p iterations calls, from the run's start to its end.
std::vector<Result> windowChildRunCase(int iterations);

/// GUI stalls over a real trace of one function recompiled \p entries times (N²/2 recompile
/// rows): hovering the recompile marker in the source gutter, clicking its line, stepping
/// through the compiles.
std::vector<Result> windowRecompileCase(int entries);

/// A main window as the app shows it: the default dock layout, 1600x1000, shown.
void showLikeTheApp(studio::MainWindow& window);

/// Times every Panel::showSnapshot of a window: each panel's connection to the selection's
/// snapshotChanged is replaced by one that calls the same function between two clock reads, in
/// the same order, so the window behaves as before.
class PanelClock {
public:
    struct Call {
        std::string panel;
        int64_t startNs = 0;
        int64_t durationNs = 0;
        int emission = 0; ///< which snapshotChanged it answered (counted from 1)
    };
    struct Emission {
        int64_t startNs = 0;
        int64_t durationNs = 0; ///< every panel's showSnapshot for one snapshotChanged
    };

    explicit PanelClock(studio::MainWindow& window);

    const std::vector<Call>& calls() const { return m_calls; }
    const std::vector<Emission>& emissions() const { return m_emissions; }
    void clear();
    /// ms per panel over the calls that started at or after \p sinceNs, in call order.
    std::vector<std::pair<std::string, double>> msPerPanel(int64_t sinceNs = 0) const;

private:
    std::vector<Call> m_calls;
    std::vector<Emission> m_emissions;
};

} // namespace kiln::bench
