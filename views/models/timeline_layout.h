// SPDX-License-Identifier: MIT
/// \file
/// What the Timeline panel draws, computed once per snapshot: lanes of spans on the run's time
/// axis (ns since the run started). The "Compiles" lane holds each compile with its phases and
/// its compiler passes and autotuning steps nested under it, "Events" the other timeline events,
/// and one lane per graph and device holds the launches of that graph's kernels there.
///
/// Every lane keeps its spans sorted by start with a running maximum of their ends, so the spans
/// overlapping any time range are found by two binary searches and visited alone: a paint costs
/// what is visible, not what the run recorded. launchBlocks() then merges the launches narrower
/// than a pixel into one column per pixel, so 100,000 launches never mean 100,000 rectangles.
#pragma once

#include "run_snapshot.h"

#include <QString>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace kiln::views {

/// What a span stands for; the index in TimelineSpan says which row of the snapshot.
enum class SpanKind : uint8_t {
    Compile,  ///< snapshot.compiles
    Phase,    ///< a CompileRow::phases entry of snapshot.compiles[index]
    Pass,     ///< snapshot.events, category "pass"
    Autotune, ///< snapshot.events, category "autotune" (instants)
    Event,    ///< snapshot.events, any other category
    Launch,   ///< snapshot.launches
};

/// Kernel kinds as colour classes; Other for a launch whose kernel row has not arrived yet.
enum class LaunchKind : uint8_t { Pointwise, Reduction, Template, Extern, Fallback, Other };
inline constexpr int kLaunchKindCount = 6;
LaunchKind launchKindOf(const std::string& kernelKind);
/// "pointwise", ... (for legends and tooltips).
QString launchKindName(LaunchKind kind);

struct TimelineSpan {
    int64_t startNs = 0;
    int64_t endNs = 0; ///< == startNs for instants
    SpanKind kind = SpanKind::Compile;
    uint8_t row = 0;                           ///< sub-row within the lane (nesting depth)
    LaunchKind launchKind = LaunchKind::Other; ///< launches only
    uint32_t index = 0;                        ///< row of the snapshot table named by kind
    uint32_t phase = 0;                        ///< Phase: which entry of the compile's phases
};

/// Spans sorted by start, with the running maximum of their ends (endsUpTo[i] is the largest
/// end among spans[0..i]); that sequence never decreases, so it can be binary-searched.
class SpanIndex {
public:
    void build(std::vector<TimelineSpan> spans);
    const std::vector<TimelineSpan>& spans() const { return m_spans; }
    size_t size() const { return m_spans.size(); }
    /// The index range [first, last) holding every span that overlaps [startNs, endNs): spans in
    /// it may still end before startNs (the caller checks endNs > startNs), none outside it
    /// overlaps. An instant at t overlaps [s, e) when s <= t < e.
    std::pair<size_t, size_t> candidates(int64_t startNs, int64_t endNs) const;
    /// Calls fn(span) for exactly the spans overlapping [startNs, endNs), in start order.
    template <typename Fn>
    void forEachOverlapping(int64_t startNs, int64_t endNs, Fn&& fn) const {
        auto [first, last] = candidates(startNs, endNs);
        for (size_t i = first; i < last; ++i)
            if (overlaps(m_spans[i], startNs, endNs)) fn(m_spans[i]);
    }
    static bool overlaps(const TimelineSpan& s, int64_t startNs, int64_t endNs) {
        return s.startNs < endNs &&
               (s.endNs > startNs || (s.endNs == s.startNs && s.startNs >= startNs));
    }

private:
    std::vector<TimelineSpan> m_spans;
    std::vector<int64_t> m_endsUpTo;
};

enum class LaneKind : uint8_t { Compiles, Events, Launches };

struct TimelineLane {
    QString label; ///< "Compiles", "Events", "graph 4/1"
    LaneKind kind = LaneKind::Launches;
    int rows = 1;                   ///< sub-rows the lane needs
    std::vector<QString> rowLabels; ///< the Compiles lane: what each sub-row shows
    int64_t graphId = 0; ///< launch lanes: the graph (0 when the kernel's graph is unknown)
    QString compileId;   ///< launch lanes: the graph's compile
    QString device;      ///< launch lanes: where the launches ran ("cpu", "cuda:0")
    SpanIndex spans;
};

/// Launches of one lane as drawn at one zoom: a launch of a pixel or more is a block of its own,
/// narrower ones that fall in the same pixel column are merged into one block of width 1.
struct LaunchBlock {
    double x0 = 0; ///< pixels from the left of the visible range
    double x1 = 0;
    int count = 0;                       ///< launches merged into this block
    uint32_t firstLaunch = 0;            ///< snapshot.launches index of the first one
    LaunchKind kind = LaunchKind::Other; ///< the kind that took the most time among them
    bool selected = false;               ///< one of them launched the selected kernel
    double busy = 1; ///< the share of the block's width its launches cover, up to 1
};

/// The visible time range and its scale.
struct TimeWindow {
    double startNs = 0;
    double nsPerPixel = 1;
    int widthPx = 0;
    double endNs() const { return startNs + nsPerPixel * widthPx; }
};

class TimelineLayout {
public:
    /// Lays out \p snapshot (kept alive by the layout: spans index into its tables).
    explicit TimelineLayout(SnapshotPtr snapshot);

    const SnapshotPtr& snapshot() const { return m_snapshot; }
    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    /// The end of the last span (ns since the run started); 0 for an empty run.
    int64_t extentNs() const { return m_extentNs; }
    /// How many launches the lanes hold (each launch is in exactly one lane).
    size_t launchCount() const { return m_launchCount; }

    /// The blocks of launch lane \p lane inside \p window; blocks of launches of
    /// \p selectedKernel are marked selected. The counts of the blocks add up to the number of
    /// launches that overlap the window.
    std::vector<LaunchBlock> launchBlocks(const TimelineLane& lane, const TimeWindow& window,
                                          int64_t selectedKernel) const;

    /// The span of \p lane's sub-row \p row (any row in a launch lane) nearest to \p timeNs
    /// within \p slopNs; none when nothing is that close.
    std::optional<TimelineSpan> spanNear(const TimelineLane& lane, int row, double timeNs,
                                         double slopNs) const;
    /// A tooltip's rich text: name, kind, compile, duration and start.
    QString describe(const TimelineSpan& span) const;
    /// One line naming a span, for labels and tooltips.
    QString spanName(const TimelineSpan& span) const;
    /// The compile a span belongs to ("f/c"), empty when none.
    QString compileIdOf(const TimelineSpan& span) const;
    /// The kernel a launch span ran; -1 for other spans.
    int64_t kernelIdOf(const TimelineSpan& span) const;

private:
    void addCompileLane();
    void addEventLane();
    void addLaunchLanes();

    SnapshotPtr m_snapshot;
    std::vector<TimelineLane> m_lanes;
    int64_t m_extentNs = 0;
    size_t m_launchCount = 0;
};

/// The launches of one kernel inside a time range (what a kernels table filtered by the
/// timeline's range selection shows).
struct KernelRangeStats {
    int64_t kernelId = 0;
    int64_t launches = 0; ///< launches that overlap the range
    int64_t totalNs = 0;  ///< their time inside the range (cut at its edges)
};

/// Per kernel, the launches of \p layout's run that overlap [startNs, endNs), by kernel id.
/// Visits only those launches (each lane's index is searched), so it can follow a drag.
std::vector<KernelRangeStats> kernelStatsInRange(const TimelineLayout& layout, int64_t startNs,
                                                 int64_t endNs);

using TimelineLayoutPtr = std::shared_ptr<const TimelineLayout>;

/// "12.5 ms", "1.20 s", "830 ns": a duration or time with a unit that suits its size.
QString formatNs(double ns);
/// A time on a ruler or of an event, in the unit its size suits, with as many decimals as
/// `resolutionNs` needs to be seen: ticks 20 µs apart read "63.42 ms", "63.44 ms" (not
/// "63.4 ms" five times), and a 75 µs kernel starts at "1.420123 s".
QString formatNsAt(double ns, double resolutionNs);

} // namespace kiln::views
