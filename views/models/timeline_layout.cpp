// SPDX-License-Identifier: MIT
#include "timeline_layout.h"

#include "graph_name.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace kiln::views {

namespace {

// Sub-rows of the Compiles lane: a compile, then what happened inside it.
constexpr uint8_t kCompileRow = 0;
constexpr uint8_t kPhaseRow = 1;
constexpr uint8_t kPassRow = 2;
constexpr uint8_t kAutotuneRow = 3;
/// Overlapping events stack in at most this many rows (later ones share the last row).
constexpr int kMaxEventRows = 4;

uint32_t index32(size_t i) {
    return static_cast<uint32_t>(i);
}

/// Drops the empty sub-rows so a run without passes or autotuning has no blank band; returns
/// the names of the rows that remain.
std::vector<QString> compactRows(std::vector<TimelineSpan>& spans) {
    const std::array<QString, 4> names = {QStringLiteral("Compiles"), QStringLiteral("phases"),
                                          QStringLiteral("passes"), QStringLiteral("autotuning")};
    std::array<bool, names.size()> used{};
    used[kCompileRow] = true;
    for (const TimelineSpan& s : spans)
        used[s.row] = true;
    std::array<uint8_t, names.size()> renumbered{};
    std::vector<QString> kept;
    for (size_t r = 0; r < used.size(); ++r)
        if (used[r]) {
            renumbered[r] = static_cast<uint8_t>(kept.size());
            kept.push_back(names[r]);
        }
    for (TimelineSpan& s : spans)
        s.row = renumbered[s.row];
    return kept;
}

/// The latest time the run has recorded anything at (ns since it started).
int64_t latestRecordedNs(const RunSnapshot& snap) {
    int64_t latest = 0;
    for (const trace::KernelLaunchRow& l : snap.launches)
        latest = std::max(latest, l.endNs);
    for (const trace::EventRow& e : snap.events)
        latest = std::max(latest, e.startNs + e.durationNs);
    for (const trace::CompileRow& c : snap.compiles)
        latest = std::max(latest, c.startNs + c.durationNs.value_or(0));
    if (!snap.output.empty()) latest = std::max(latest, snap.output.back().tNs);
    return latest;
}

bool isCompileDetail(const std::string& category) {
    return category == "pass" || category == "autotune";
}

} // namespace

LaunchKind launchKindOf(const std::string& kernelKind) {
    if (kernelKind == "pointwise") return LaunchKind::Pointwise;
    if (kernelKind == "reduction") return LaunchKind::Reduction;
    if (kernelKind == "template") return LaunchKind::Template;
    if (kernelKind == "extern") return LaunchKind::Extern;
    if (kernelKind == "fallback") return LaunchKind::Fallback;
    return LaunchKind::Other;
}

QString launchKindName(LaunchKind kind) {
    switch (kind) {
    case LaunchKind::Pointwise:
        return QStringLiteral("pointwise");
    case LaunchKind::Reduction:
        return QStringLiteral("reduction");
    case LaunchKind::Template:
        return QStringLiteral("template");
    case LaunchKind::Extern:
        return QStringLiteral("extern");
    case LaunchKind::Fallback:
        return QStringLiteral("fallback");
    case LaunchKind::Other:
        break;
    }
    return QStringLiteral("unknown");
}

// --- SpanIndex

void SpanIndex::build(std::vector<TimelineSpan> spans) {
    std::stable_sort(spans.begin(), spans.end(), [](const TimelineSpan& a, const TimelineSpan& b) {
        return a.startNs < b.startNs;
    });
    m_spans = std::move(spans);
    m_endsUpTo.resize(m_spans.size());
    int64_t most = INT64_MIN;
    for (size_t i = 0; i < m_spans.size(); ++i) {
        most = std::max(most, m_spans[i].endNs);
        m_endsUpTo[i] = most;
    }
}

std::pair<size_t, size_t> SpanIndex::candidates(int64_t startNs, int64_t endNs) const {
    // Before `first` every span ended before startNs; from `last` on every span starts at or
    // after endNs.
    auto first = std::lower_bound(m_endsUpTo.begin(), m_endsUpTo.end(), startNs);
    auto last = std::lower_bound(m_spans.begin(), m_spans.end(), endNs,
                                 [](const TimelineSpan& s, int64_t t) { return s.startNs < t; });
    size_t f = static_cast<size_t>(first - m_endsUpTo.begin());
    size_t l = static_cast<size_t>(last - m_spans.begin());
    return {f, std::max(f, l)};
}

// --- TimelineLayout

TimelineLayout::TimelineLayout(SnapshotPtr snapshot)
    : m_snapshot(std::move(snapshot)) {
    if (!m_snapshot) return;
    addCompileLane();
    addEventLane();
    addLaunchLanes();
    for (const TimelineLane& lane : m_lanes)
        for (const TimelineSpan& s : lane.spans.spans())
            m_extentNs = std::max(m_extentNs, s.endNs);
}

void TimelineLayout::addCompileLane() {
    const RunSnapshot& snap = *m_snapshot;
    std::vector<TimelineSpan> spans;
    const int64_t latest = latestRecordedNs(snap);
    for (size_t i = 0; i < snap.compiles.size(); ++i) {
        const trace::CompileRow& c = snap.compiles[i];
        // A compile still running has no duration yet: it lasts as far as the run has got.
        int64_t end = c.durationNs ? c.startNs + *c.durationNs : std::max(c.startNs, latest);
        spans.push_back(
            {c.startNs, end, SpanKind::Compile, kCompileRow, LaunchKind::Other, index32(i), 0});
        // Phases carry durations only, reported in the order they ran: laid end to end from
        // the compile's start, and cut at its end so they stay nested inside it.
        int64_t at = c.startNs;
        for (size_t p = 0; p < c.phases.size(); ++p) {
            int64_t phaseEnd = at + c.phases[p].second;
            if (c.durationNs) phaseEnd = std::min(phaseEnd, end);
            spans.push_back({at, phaseEnd, SpanKind::Phase, kPhaseRow, LaunchKind::Other,
                             index32(i), index32(p)});
            at = phaseEnd;
        }
    }
    for (size_t i = 0; i < snap.events.size(); ++i) {
        const trace::EventRow& e = snap.events[i];
        if (!isCompileDetail(e.category)) continue;
        bool pass = e.category == "pass";
        spans.push_back({e.startNs, e.startNs + e.durationNs,
                         pass ? SpanKind::Pass : SpanKind::Autotune, pass ? kPassRow : kAutotuneRow,
                         LaunchKind::Other, index32(i), 0});
    }
    TimelineLane lane;
    lane.label = QStringLiteral("Compiles");
    lane.kind = LaneKind::Compiles;
    lane.rowLabels = compactRows(spans);
    lane.rows = static_cast<int>(lane.rowLabels.size());
    lane.spans.build(std::move(spans));
    m_lanes.push_back(std::move(lane));
}

void TimelineLayout::addEventLane() {
    const RunSnapshot& snap = *m_snapshot;
    std::vector<TimelineSpan> spans;
    for (size_t i = 0; i < snap.events.size(); ++i) {
        const trace::EventRow& e = snap.events[i];
        // "compile" events repeat the compiles table, which the Compiles lane already shows.
        if (e.category == "compile" || isCompileDetail(e.category)) continue;
        spans.push_back({e.startNs, e.startNs + e.durationNs, SpanKind::Event, 0, LaunchKind::Other,
                         index32(i), 0});
    }
    if (spans.empty()) return;
    std::stable_sort(spans.begin(), spans.end(), [](const TimelineSpan& a, const TimelineSpan& b) {
        return a.startNs < b.startNs;
    });
    // Overlapping events go to the first row that is free by then.
    std::vector<int64_t> rowEnds;
    for (TimelineSpan& s : spans) {
        size_t row = 0;
        while (row < rowEnds.size() && rowEnds[row] > s.startNs)
            ++row;
        if (row == rowEnds.size() && rowEnds.size() < kMaxEventRows) rowEnds.push_back(0);
        row = std::min(row, rowEnds.size() - 1);
        rowEnds[row] = std::max(rowEnds[row], std::max(s.endNs, s.startNs + 1));
        s.row = static_cast<uint8_t>(row);
    }
    TimelineLane lane;
    lane.label = QStringLiteral("Events");
    lane.kind = LaneKind::Events;
    lane.rows = static_cast<int>(rowEnds.size());
    lane.spans.build(std::move(spans));
    m_lanes.push_back(std::move(lane));
}

void TimelineLayout::addLaunchLanes() {
    const RunSnapshot& snap = *m_snapshot;
    std::unordered_map<int64_t, const KernelRecord*> kernels;
    for (const KernelRecord& k : snap.kernels)
        kernels.emplace(k.kernel.kernelId, &k);
    // One lane per graph and device, in graph order with the host's lane first; launches of
    // kernels not reported yet share graph 0. A GPU graph's launches are CUPTI's device times,
    // so they get a lane of their own next to any host launches of the same graph.
    // A training graph's forward and backward kernels (AOT autograd) get a lane each, the
    // forward's first.
    struct LaneKey {
        int64_t graphId;
        std::string device;
        std::string pass; ///< KernelRow::graphKind: aot_forward, aot_backward, or other
    };
    auto passRank = [](const std::string& pass) { return pass == "aot_backward" ? 1 : 0; };
    auto hostFirst = [passRank](const LaneKey& a, const LaneKey& b) {
        if (a.graphId != b.graphId) return a.graphId < b.graphId;
        if ((a.device == "cpu") != (b.device == "cpu")) return a.device == "cpu";
        if (a.device != b.device) return a.device < b.device;
        return passRank(a.pass) < passRank(b.pass);
    };
    std::map<LaneKey, std::vector<TimelineSpan>, decltype(hostFirst)> byLane(hostFirst);
    std::map<int64_t, QString> compileOfGraph;
    for (size_t i = 0; i < snap.launches.size(); ++i) {
        const trace::KernelLaunchRow& l = snap.launches[i];
        auto k = kernels.find(l.kernelId);
        int64_t graphId = k == kernels.end() ? 0 : k->second->kernel.graphId;
        LaunchKind kind =
            k == kernels.end() ? LaunchKind::Other : launchKindOf(k->second->kernel.kind);
        std::string pass = k == kernels.end() ? std::string() : k->second->kernel.graphKind;
        if (pass != "aot_forward" && pass != "aot_backward") pass.clear();
        byLane[{graphId, l.device.empty() ? "cpu" : l.device, pass}].push_back(
            {l.startNs, l.endNs, SpanKind::Launch, 0, kind, index32(i), 0});
        if (k != kernels.end())
            compileOfGraph.emplace(graphId, QString::fromStdString(k->second->kernel.compileId));
    }
    for (auto& [key, spans] : byLane) {
        TimelineLane lane;
        lane.kind = LaneKind::Launches;
        lane.graphId = key.graphId;
        lane.device = QString::fromStdString(key.device);
        lane.compileId = compileOfGraph[key.graphId];
        lane.label = graphName(key.graphId);
        if (!key.pass.empty()) // short: the lane's label column is narrow
            lane.label +=
                key.pass == "aot_backward" ? QStringLiteral(" bwd") : QStringLiteral(" fwd");
        if (!lane.compileId.isEmpty()) lane.label += QStringLiteral(" · ") + lane.compileId;
        if (key.device != "cpu") lane.label += QStringLiteral(" · ") + lane.device;
        m_launchCount += spans.size();
        lane.spans.build(std::move(spans));
        m_lanes.push_back(std::move(lane));
    }
}

std::vector<LaunchBlock> TimelineLayout::launchBlocks(const TimelineLane& lane,
                                                      const TimeWindow& window,
                                                      int64_t selectedKernel) const {
    std::vector<LaunchBlock> blocks;
    // Per merged block, the launch time of each kind in it: the colour is the kind that took
    // the most time there (a column of one long matrix product and three short pointwise
    // kernels is a matrix-product column).
    std::vector<std::array<int64_t, kLaunchKindCount>> kindNs;
    size_t lastMerged = SIZE_MAX;
    const auto start = static_cast<int64_t>(std::floor(window.startNs));
    const auto end = static_cast<int64_t>(std::ceil(window.endNs()));
    lane.spans.forEachOverlapping(start, end, [&](const TimelineSpan& s) {
        double x0 = (static_cast<double>(s.startNs) - window.startNs) / window.nsPerPixel;
        double x1 = (static_cast<double>(s.endNs) - window.startNs) / window.nsPerPixel;
        bool selected =
            selectedKernel >= 0 && m_snapshot->launches[s.index].kernelId == selectedKernel;
        if (x1 - x0 >= 1.0) {
            blocks.push_back({x0, x1, 1, s.index, s.launchKind, selected, 1.0});
            kindNs.push_back({});
            return;
        }
        double column = std::max(0.0, std::floor(x0));
        if (lastMerged == SIZE_MAX || blocks[lastMerged].x0 != column) {
            lastMerged = blocks.size();
            blocks.push_back({column, column + 1, 0, s.index, s.launchKind, false, 0.0});
            kindNs.push_back({});
        }
        LaunchBlock& b = blocks[lastMerged];
        ++b.count;
        b.selected = b.selected || selected;
        b.busy += (x1 - x0);
        kindNs[lastMerged][static_cast<size_t>(s.launchKind)] += s.endNs - s.startNs;
    });
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i].count < 2) continue;
        const auto& ns = kindNs[i];
        blocks[i].kind =
            static_cast<LaunchKind>(std::max_element(ns.begin(), ns.end()) - ns.begin());
        blocks[i].busy = std::min(1.0, blocks[i].busy);
    }
    return blocks;
}

std::optional<TimelineSpan> TimelineLayout::spanNear(const TimelineLane& lane, int row,
                                                     double timeNs, double slopNs) const {
    std::optional<TimelineSpan> best;
    double bestDistance = 0;
    lane.spans.forEachOverlapping(static_cast<int64_t>(std::floor(timeNs - slopNs)),
                                  static_cast<int64_t>(std::ceil(timeNs + slopNs)),
                                  [&](const TimelineSpan& s) {
                                      if (lane.kind != LaneKind::Launches && s.row != row) return;
                                      double d = timeNs < s.startNs
                                                     ? s.startNs - timeNs
                                                     : (timeNs > s.endNs ? timeNs - s.endNs : 0);
                                      if (!best || d < bestDistance) {
                                          best = s;
                                          bestDistance = d;
                                      }
                                  });
    return best;
}

QString TimelineLayout::describe(const TimelineSpan& s) const {
    QString text = QStringLiteral("<b>%1</b>").arg(spanName(s).toHtmlEscaped());
    if (s.kind == SpanKind::Launch) {
        const trace::KernelLaunchRow& l = m_snapshot->launches[s.index];
        text +=
            QStringLiteral("<br>%1 kernel, launch %2").arg(launchKindName(s.launchKind)).arg(l.id);
        if (!l.grid.empty())
            text +=
                QStringLiteral("<br>grid %1").arg(QString::fromStdString(l.grid).toHtmlEscaped());
    }
    if (QString compile = compileIdOf(s); !compile.isEmpty())
        text += QStringLiteral("<br>compile %1").arg(compile);
    if (s.endNs > s.startNs)
        text += QStringLiteral("<br>duration %1")
                    .arg(formatNs(static_cast<double>(s.endNs - s.startNs)));
    // To a tenth of the span's duration (at least a microsecond), so that the start of a short
    // kernel late in the run is not rounded to the run's time scale ("start 1.42 s").
    const double resolution = std::max(1e3, static_cast<double>(s.endNs - s.startNs) / 10);
    return text + QStringLiteral("<br>start %1")
                      .arg(formatNsAt(static_cast<double>(s.startNs), resolution));
}

QString TimelineLayout::spanName(const TimelineSpan& span) const {
    const RunSnapshot& snap = *m_snapshot;
    switch (span.kind) {
    case SpanKind::Compile: {
        const trace::CompileRow& c = snap.compiles[span.index];
        const trace::FrameRow* f = snap.frame(c.frameId);
        QString status =
            c.finished() ? QString::fromStdString(c.status) : QStringLiteral("compiling");
        return QStringLiteral("[%1] %2 (%3)")
            .arg(QString::fromStdString(c.compileId),
                 f ? QString::fromStdString(f->function)
                   : QStringLiteral("frame %1").arg(c.frameId),
                 status);
    }
    case SpanKind::Phase:
        return QString::fromStdString(snap.compiles[span.index].phases[span.phase].first);
    case SpanKind::Pass:
    case SpanKind::Autotune:
    case SpanKind::Event: {
        const trace::EventRow& e = snap.events[span.index];
        return QStringLiteral("%1: %2").arg(QString::fromStdString(e.category),
                                            QString::fromStdString(e.name));
    }
    case SpanKind::Launch: {
        const KernelRecord* k = snap.kernel(snap.launches[span.index].kernelId);
        if (!k) return QStringLiteral("kernel %1").arg(snap.launches[span.index].kernelId);
        QString name = QString::fromStdString(k->kernel.name);
        if (k->kernel.graphKind == "aot_backward") name += QStringLiteral(" (backward)");
        return name;
    }
    }
    return {};
}

QString TimelineLayout::compileIdOf(const TimelineSpan& span) const {
    const RunSnapshot& snap = *m_snapshot;
    switch (span.kind) {
    case SpanKind::Compile:
    case SpanKind::Phase:
        return QString::fromStdString(snap.compiles[span.index].compileId);
    case SpanKind::Pass:
    case SpanKind::Autotune:
    case SpanKind::Event:
        return QString::fromStdString(snap.events[span.index].compileId);
    case SpanKind::Launch: {
        const KernelRecord* k = snap.kernel(snap.launches[span.index].kernelId);
        return k ? QString::fromStdString(k->kernel.compileId) : QString();
    }
    }
    return {};
}

int64_t TimelineLayout::kernelIdOf(const TimelineSpan& span) const {
    return span.kind == SpanKind::Launch ? m_snapshot->launches[span.index].kernelId : -1;
}

std::vector<KernelRangeStats> kernelStatsInRange(const TimelineLayout& layout, int64_t startNs,
                                                 int64_t endNs) {
    std::map<int64_t, KernelRangeStats> byKernel;
    const RunSnapshot& snap = *layout.snapshot();
    for (const TimelineLane& lane : layout.lanes()) {
        if (lane.kind != LaneKind::Launches) continue;
        lane.spans.forEachOverlapping(startNs, endNs, [&](const TimelineSpan& s) {
            int64_t kernelId = snap.launches[s.index].kernelId;
            KernelRangeStats& k = byKernel[kernelId];
            k.kernelId = kernelId;
            ++k.launches;
            k.totalNs += std::min(s.endNs, endNs) - std::max(s.startNs, startNs);
        });
    }
    std::vector<KernelRangeStats> out;
    out.reserve(byKernel.size());
    for (const auto& [id, stats] : byKernel)
        out.push_back(stats);
    return out;
}

QString formatNsAt(double ns, double resolutionNs) {
    const double magnitude = std::max(std::abs(ns), resolutionNs);
    double unit = 1;
    const char* name = "ns";
    if (magnitude >= 1e9) {
        unit = 1e9, name = "s";
    } else if (magnitude >= 1e6) {
        unit = 1e6, name = "ms";
    } else if (magnitude >= 1e3) {
        unit = 1e3, name = "µs";
    }
    const double steps = resolutionNs > 0 ? unit / resolutionNs : 1;
    const int decimals = steps <= 1 ? 0 : std::min(9, int(std::ceil(std::log10(steps) - 1e-9)));
    return QStringLiteral("%1 %2").arg(ns / unit, 0, 'f', decimals).arg(QString::fromUtf8(name));
}

QString formatNs(double ns) {
    double magnitude = std::abs(ns);
    if (magnitude < 1e3) return QStringLiteral("%1 ns").arg(ns, 0, 'f', 0);
    if (magnitude < 1e6) return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'g', 3);
    if (magnitude < 1e9) return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'g', 3);
    return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'g', 3);
}

} // namespace kiln::views
