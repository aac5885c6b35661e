// SPDX-License-Identifier: MIT
// The whole window following a streaming run (window_cases.h): heartbeat gaps, and for the
// longest ones what the GUI thread was doing (events, panels' showSnapshot, paints).
#include "main_window.h"
#include "stream_case.h"
#include "window_cases.h"

#include <QEvent>
#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace kiln::bench {

namespace {

constexpr int64_t kRecordEventsOverNs = 500'000; // events shorter than 0.5 ms are not stalls

struct Stall {
    Heartbeat::Gap gap;
    std::vector<std::pair<std::string, double>> outerEvents;  ///< "Type → receiver", ms
    std::vector<std::pair<std::string, double>> showSnapshot; ///< per panel, ms
    std::vector<std::pair<std::string, double>> paints;       ///< per panel, ms
};

bool overlaps(int64_t start, int64_t end, int64_t from, int64_t to) {
    return start < to && end > from;
}

void addTo(std::vector<std::pair<std::string, double>>& parts, const std::string& key, double ms) {
    auto it = std::find_if(parts.begin(), parts.end(), [&](auto& p) { return p.first == key; });
    if (it == parts.end())
        parts.push_back({key, ms});
    else
        it->second += ms;
}

void sortLargestFirst(std::vector<std::pair<std::string, double>>& parts) {
    std::sort(parts.begin(), parts.end(), [](auto& a, auto& b) { return a.second > b.second; });
}

/// What ran on the GUI thread during each of the \p count longest gaps.
std::vector<Stall> explainStalls(std::vector<Heartbeat::Gap> gaps,
                                 const std::vector<EventRecord>& events, const PanelClock& clock,
                                 size_t count) {
    std::sort(gaps.begin(), gaps.end(), [](auto& a, auto& b) { return a.ms > b.ms; });
    gaps.resize(std::min(gaps.size(), count));
    std::vector<Stall> stalls;
    for (const Heartbeat::Gap& gap : gaps) {
        Stall s{gap, {}, {}, {}};
        const int64_t from = gap.startNs(), to = gap.endNs;
        for (const EventRecord& e : events) {
            if (!overlaps(e.startNs, e.endNs(), from, to)) continue;
            if (e.depth == 0)
                addTo(s.outerEvents, eventTypeName(e.type) + " → " + e.receiver,
                      e.durationNs / 1e6);
            if (e.type == QEvent::Paint) addTo(s.paints, e.panel, e.durationNs / 1e6);
        }
        for (const PanelClock::Call& c : clock.calls())
            if (overlaps(c.startNs, c.startNs + c.durationNs, from, to))
                addTo(s.showSnapshot, c.panel, c.durationNs / 1e6);
        sortLargestFirst(s.outerEvents);
        sortLargestFirst(s.showSnapshot);
        sortLargestFirst(s.paints);
        stalls.push_back(std::move(s));
    }
    return stalls;
}

std::string listMs(const std::vector<std::pair<std::string, double>>& parts, size_t most = 4) {
    std::string out;
    for (size_t i = 0; i < parts.size() && i < most; ++i)
        out += (out.empty() ? "" : ", ") + (parts[i].first.empty() ? "(window)" : parts[i].first) +
               " " + fixed(parts[i].second) + " ms";
    return out.empty() ? "-" : out;
}

std::string jsonList(const std::vector<std::pair<std::string, double>>& parts) {
    std::string out = "[";
    for (const auto& [name, ms] : parts) {
        std::string escaped;
        for (char ch : name.empty() ? std::string("(window)") : name)
            escaped += (ch == '"' || ch == '\\') ? std::string("\\") + ch : std::string(1, ch);
        out += (out.size() > 1 ? ", " : "") + std::string("[\"") + escaped + "\", " + fixed(ms, 3) +
               "]";
    }
    return out + "]";
}

/// Per panel: calls, median and max showSnapshot ms over the whole stream.
std::vector<std::string> showSnapshotSummary(const PanelClock& clock) {
    std::map<std::string, std::vector<double>> per;
    for (const PanelClock::Call& c : clock.calls())
        per[c.panel].push_back(c.durationNs / 1e6);
    std::vector<std::pair<std::string, Spread>> rows;
    for (auto& [panel, samples] : per)
        rows.push_back({panel, spreadOf(samples)});
    std::sort(rows.begin(), rows.end(),
              [](auto& a, auto& b) { return a.second.max > b.second.max; });
    std::vector<std::string> lines;
    for (auto& [panel, s] : rows)
        lines.push_back("showSnapshot " + panel + ": median " + fixed(s.median, 2) + " ms, max " +
                        fixed(s.max, 2) + " ms over " + std::to_string(per[panel].size()) +
                        " snapshots");
    return lines;
}

} // namespace

std::vector<Result> windowStreamCase(const std::string& name, const std::string& path,
                                     const SyntheticShape& shape, double seconds,
                                     int preloadGraphs) {
    studio::MainWindow window;
    showLikeTheApp(window);
    PanelClock clock(window);

    // The baseline: the same heartbeat while the shown window has nothing to do.
    Heartbeat heartbeat;
    heartbeat.start();
    const int64_t idleUntil = benchNowNs() + 1'000'000'000;
    runEventLoopUntil([&] { return benchNowNs() >= idleUntil; });
    Spread idle = spreadOf(Heartbeat::millis(heartbeat.stop()));

    StreamingWriter writer(path, shape, seconds, preloadGraphs);
    writer.start();
    // The user opens the trace of a workload that has been running for a moment.
    const int64_t openAt = benchNowNs() + 300'000'000;
    runEventLoopUntil([&] { return writer.finished() || benchNowNs() >= openAt; });
    BenchApplication::instance()->startRecording(kRecordEventsOverNs);
    heartbeat.start();
    // ... and looks at its first kernel.
    window.openFile(QString::fromStdString(path));
    window.selectItem(QStringLiteral("kernel:1"));
    runEventLoopUntil([&] { return writer.finished(); });
    writer.join();
    const int64_t settleUntil = benchNowNs() + 5'000'000'000;
    runEventLoopUntil([&] {
        auto s = window.selection().snapshot();
        return (s && !s->running() && s->launches.size() >= size_t(writer.launches())) ||
               benchNowNs() > settleUntil;
    });
    std::vector<Heartbeat::Gap> gaps = heartbeat.stop();
    std::vector<EventRecord> events = BenchApplication::instance()->stopRecording();
    if (!writer.error().empty()) throw std::runtime_error(writer.error());
    auto shown = window.selection().snapshot();
    if (!shown || shown->launches.size() != size_t(writer.launches()))
        throw std::runtime_error("the window did not follow the streaming run to its end");

    Spread gapSpread = spreadOf(Heartbeat::millis(gaps));
    std::vector<double> adoptions;
    for (const PanelClock::Emission& e : clock.emissions())
        adoptions.push_back(e.durationNs / 1e6);
    Spread adopt = spreadOf(adoptions);
    std::vector<Stall> stalls = explainStalls(gaps, events, clock, 3);

    const std::string idleWhat = "the same heartbeat, window shown and idle, 1 s";
    const std::string n = (preloadGraphs ? std::to_string(preloadGraphs) + " graphs first, " : "") +
                          std::to_string(clock.emissions().size()) + " snapshots adopted, " +
                          std::to_string(shown->launches.size()) + " of " +
                          std::to_string(writer.launches()) + " launches shown";
    Result max{name + ".gui_gap.max",
               "longest gap of a 5 ms heartbeat while the window follows a streaming run (" + n +
                   ")",
               "ms",
               gapSpread.max,
               idleWhat,
               idle.max,
               100};
    std::string json = "{\"stalls\": [";
    for (size_t i = 0; i < stalls.size(); ++i) {
        const Stall& s = stalls[i];
        max.notes.push_back("stall " + std::to_string(i + 1) + ": " + fixed(s.gap.ms) +
                            " ms; events: " + listMs(s.outerEvents, 3) + "; showSnapshot: " +
                            listMs(s.showSnapshot) + "; paint: " + listMs(s.paints));
        json += std::string(i ? ", " : "") + "{\"ms\": " + fixed(s.gap.ms, 3) +
                ", \"events\": " + jsonList(s.outerEvents) +
                ", \"show_snapshot\": " + jsonList(s.showSnapshot) +
                ", \"paint\": " + jsonList(s.paints) + "}";
    }
    max.detailsJson = json + "]}";
    Result adoptMax{name + ".adopt.max",
                    "the slowest snapshot adoption (every panel's showSnapshot)",
                    "ms",
                    adopt.max,
                    "",
                    0,
                    100};
    adoptMax.notes = showSnapshotSummary(clock);
    return {
        std::move(max),
        {name + ".gui_gap.p99", "99th percentile heartbeat gap while streaming", "ms",
         gapSpread.p99, idleWhat, idle.p99, 0},
        {name + ".adopt.median", "one snapshot adopted by every panel, median", "ms", adopt.median,
         "", 0, 0},
        std::move(adoptMax),
    };
}

} // namespace kiln::bench
