// SPDX-License-Identifier: MIT
#include "window_cases.h"

#include "graph_panel.h"
#include "main_window.h"
#include "stream_case.h"
#include "timeline_panel.h"
#include "timeline_view.h"

#include <QEvent>
#include <QImage>
#include <QScrollBar>
#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace kiln::bench {

namespace {

/// Lets the bench call a panel's protected showSnapshot through a pointer to member.
struct PanelAccess : views::Panel {
    using Panel::showSnapshot;
};

double msBetween(int64_t fromNs, int64_t toNs) {
    return static_cast<double>(toNs - fromNs) / 1e6;
}

/// "kernels 12.3 ms, compiles 4.5 ms, ..." and the same as a JSON object.
std::string listMs(const std::vector<std::pair<std::string, double>>& parts) {
    std::string out;
    for (const auto& [name, ms] : parts)
        out += (out.empty() ? "" : ", ") + (name.empty() ? "(window)" : name) + " " + fixed(ms) +
               " ms";
    return out;
}

std::string jsonMs(const std::vector<std::pair<std::string, double>>& parts) {
    std::string out = "{";
    for (const auto& [name, ms] : parts)
        out += (out.size() > 1 ? ", \"" : "\"") + (name.empty() ? "(window)" : name) +
               "\": " + fixed(ms, 3);
    return out + "}";
}

/// Runs the event loop until \p done() holds; throws \p what after \p timeoutMs.
template <typename Done>
void waitFor(Done done, int timeoutMs, const char* what) {
    const int64_t deadline = benchNowNs() + int64_t(timeoutMs) * 1'000'000;
    runEventLoopUntil([&] { return done() || benchNowNs() > deadline; });
    if (!done()) throw std::runtime_error(what);
}

/// Grabs the whole window (every widget painted into one image); ms it took.
double grabWindow(studio::MainWindow& window, QImage* image) {
    const int64_t start = benchNowNs();
    *image = window.grab().toImage();
    return msBetween(start, benchNowNs());
}

/// Paint events per panel recorded while \p paint runs.
template <typename Paint>
std::vector<std::pair<std::string, double>> paintPerPanel(Paint paint) {
    BenchApplication::instance()->startRecording(0);
    paint();
    return msPerPanel(BenchApplication::instance()->stopRecording(), QEvent::Paint);
}

} // namespace

void showLikeTheApp(studio::MainWindow& window) {
    window.useDefaultLayout();
    window.resize(1600, 1000);
    window.show();
    QCoreApplication::processEvents();
}

PanelClock::PanelClock(studio::MainWindow& window) {
    views::Selection& selection = window.selection();
    void (views::Panel::*show)(const views::SnapshotPtr&) = &PanelAccess::showSnapshot;
    const QList<views::Panel*> panels = window.findChildren<views::Panel*>();
    for (views::Panel* panel : panels)
        QObject::disconnect(&selection, &views::Selection::snapshotChanged, panel, nullptr);
    QObject::connect(&selection, &views::Selection::snapshotChanged, &window, [this] {
        m_emissions.push_back({benchNowNs(), 0});
    });
    for (views::Panel* panel : panels) {
        QObject::connect(&selection, &views::Selection::snapshotChanged, panel,
                         [this, panel, show, id = panel->objectName().toStdString()](
                             const views::SnapshotPtr& snapshot) {
                             const int64_t start = benchNowNs();
                             (panel->*show)(snapshot);
                             m_calls.push_back({id, start, benchNowNs() - start,
                                                static_cast<int>(m_emissions.size())});
                         });
    }
    QObject::connect(&selection, &views::Selection::snapshotChanged, &window, [this] {
        m_emissions.back().durationNs = benchNowNs() - m_emissions.back().startNs;
    });
}

void PanelClock::clear() {
    m_calls.clear();
    m_emissions.clear();
}

std::vector<std::pair<std::string, double>> PanelClock::msPerPanel(int64_t sinceNs) const {
    std::vector<std::pair<std::string, double>> out;
    for (const Call& c : m_calls) {
        if (c.startNs < sinceNs) continue;
        auto it = std::find_if(out.begin(), out.end(), [&](auto& p) { return p.first == c.panel; });
        if (it == out.end()) it = out.insert(out.end(), {c.panel, 0.0});
        it->second += c.durationNs / 1e6;
    }
    return out;
}

namespace {

/// Moments of the first view, stamped by the signals that mark them.
struct FirstViewClock {
    int64_t openNs = 0, runsNs = 0, readyNs = 0, timelineNs = 0, diagramNs = 0;
};

void stampFirstView(studio::MainWindow& window, FirstViewClock& c) {
    auto* timeline = qobject_cast<views::TimelinePanel*>(window.panel("timeline"));
    auto* graph = qobject_cast<views::GraphPanel*>(window.panel("graph"));
    if (!timeline || !graph) throw std::runtime_error("the window has no timeline or graph panel");
    QObject::connect(&window.session(), &views::TraceSession::runsChanged, &window, [&c] {
        if (!c.runsNs) c.runsNs = benchNowNs();
    });
    QObject::connect(&window, &studio::MainWindow::ready, &window, [&c] {
        if (!c.readyNs) c.readyNs = benchNowNs();
    });
    QObject::connect(timeline, &views::TimelinePanel::timelineShown, &window, [&c, &window] {
        if (!c.timelineNs && window.selection().snapshot()) c.timelineNs = benchNowNs();
    });
    QObject::connect(graph, &views::GraphPanel::diagramShown, &window,
                     [&c] { c.diagramNs = benchNowNs(); });
}

/// The kernel most often launched, so the graph and kernels panels show a busy one.
/// The most launched kernel outside graph \p shownGraph (the window opens on the first compile's
/// graph: picking that one again would change nothing).
int64_t hottestKernel(const views::RunSnapshot& snapshot, int64_t shownGraph) {
    std::map<int64_t, int64_t> graphOf;
    for (const views::KernelRecord& k : snapshot.kernels)
        graphOf[k.kernel.kernelId] = k.kernel.graphId;
    std::map<int64_t, int> counts;
    for (const trace::KernelLaunchRow& l : snapshot.launches)
        if (graphOf[l.kernelId] != shownGraph) ++counts[l.kernelId];
    auto best = std::max_element(counts.begin(), counts.end(),
                                 [](auto& a, auto& b) { return a.second < b.second; });
    if (best == counts.end()) throw std::runtime_error("the run has no launches");
    return best->first;
}

/// The tour of the window's timeline; each frame = posted events + a synchronous repaint of the
/// view's viewport through the window's backing store, as a real frame is drawn.
std::vector<Result> windowTimelineTour(studio::MainWindow& window, const WindowBaselines& b) {
    auto* panel = qobject_cast<views::TimelinePanel*>(window.panel("timeline"));
    views::TimelineView& view = *panel->view();
    auto frame = [&view] {
        const int64_t start = benchNowNs();
        QCoreApplication::sendPostedEvents();
        view.viewport()->repaint();
        return msBetween(start, benchNowNs());
    };
    Spread frames = spreadOf(timelineTour(view, frame));
    const std::string size =
        std::to_string(view.viewport()->width()) + "x" + std::to_string(view.viewport()->height());
    const std::string alone = "timeline.paint: the view alone at 1600x900, rendered to an image";
    return {
        {"window.timeline.frame.median",
         "the window's timeline (" + size + ") over the same tour, a repaint per frame", "ms",
         frames.median, alone, b.timelineFrameMedianMs, 16},
        {"window.timeline.frame.p95", "95th percentile frame", "ms", frames.p95, alone,
         b.timelineFrameP95Ms, 16},
        {"window.timeline.frame.max", "slowest frame", "ms", frames.max, alone,
         b.timelineFrameMaxMs, 16},
    };
}

/// Full-window repaints (every visible panel) of the window as it stands.
Result fullRepaint(studio::MainWindow& window) {
    std::vector<double> samples;
    auto perPanel = paintPerPanel([&] {
        for (int i = 0; i < 20; ++i) {
            const int64_t start = benchNowNs();
            window.repaint();
            samples.push_back(msBetween(start, benchNowNs()));
        }
    });
    for (auto& part : perPanel)
        part.second /= 20;
    Result r{"window.repaint.median",
             "the whole window repainted (1600x1000), median of 20",
             "ms",
             spreadOf(samples).median,
             "",
             0,
             16};
    r.notes.push_back("paint per panel, mean: " + listMs(perPanel));
    r.detailsJson = "{\"paint_ms_per_panel\": " + jsonMs(perPanel) + "}";
    return r;
}

} // namespace

std::vector<Result> windowViewCases(const std::string& path, int64_t runId,
                                    const WindowBaselines& baselines,
                                    const std::string& screenshot) {
    studio::MainWindow window;
    showLikeTheApp(window);
    PanelClock clock(window);
    FirstViewClock c;
    stampFirstView(window, c);
    auto* timeline = qobject_cast<views::TimelinePanel*>(window.panel("timeline"));

    c.openNs = benchNowNs();
    if (!window.openFile(QString::fromStdString(path)))
        throw std::runtime_error("the window could not open the trace");
    waitFor([&] { return c.readyNs && c.timelineNs && timeline->view()->timeline(); }, 60'000,
            "the window never showed the run");
    if (window.selection().state().runId != runId)
        throw std::runtime_error("the window selected another run than the last one");
    const int64_t shownNs = std::max(c.readyNs, c.timelineNs);
    QImage image;
    std::vector<std::pair<std::string, double>> firstPaint;
    double paintMs = 0;
    firstPaint = paintPerPanel([&] { paintMs = grabWindow(window, &image); });
    const double firstViewMs = msBetween(c.openNs, shownNs) + paintMs;
    const PanelClock::Emission adoption = clock.emissions().at(0);
    const auto adoptPerPanel = clock.msPerPanel();

    // The user picks the hottest kernel's graph, then the kernel: a diagram and code appear.
    views::SnapshotPtr snapshot = window.selection().snapshot();
    const int64_t kernelId = hottestKernel(*snapshot, window.selection().state().graphId);
    const int64_t graphId = snapshot->kernel(kernelId)->kernel.graphId;
    const size_t emissionsBefore = clock.emissions().size();
    const int64_t pickNs = benchNowNs();
    window.selection().selectGraph(graphId);
    const int64_t graphPickedNs = benchNowNs();
    window.selection().selectKernel(kernelId);
    const int64_t kernelPickedNs = benchNowNs();
    const auto pickPerPanel = clock.msPerPanel(pickNs);
    const size_t readoptions = clock.emissions().size() - emissionsBefore;
    waitFor([&] { return c.diagramNs > pickNs; }, 60'000, "the graph's diagram never showed");
    double selectedPaintMs = grabWindow(window, &image);
    const double selectedViewMs =
        firstViewMs + msBetween(pickNs, std::max(c.diagramNs, kernelPickedNs)) + selectedPaintMs;
    if (!screenshot.empty()) image.save(QString::fromStdString(screenshot));

    const std::string session = "first_view: TraceSession + timeline + kernels table alone";
    std::vector<Result> rows{
        {"window.first_view",
         "MainWindow::openFile → last run adopted by every panel, timeline laid out, window "
         "painted",
         "ms", firstViewMs, session, baselines.sessionFirstViewMs, 1000},
        {"window.first_view.runs_listed", "openFile → run list (worker, then GUI)", "ms",
         msBetween(c.openNs, c.runsNs), "", 0, 0},
        {"window.first_view.snapshot_read", "run list → snapshot read on the worker, delivered",
         "ms", msBetween(c.runsNs, adoption.startNs), "", 0, 0},
        {"window.first_view.adopt",
         "every panel's showSnapshot (GUI thread; " + std::to_string(clock.emissions().size()) +
             " adoption(s) before the first paint)",
         "ms", adoption.durationNs / 1e6, "", 0, 100},
        {"window.first_view.timeline_layout", "panels adopted → timeline layout (worker) shown",
         "ms", std::max(0.0, msBetween(adoption.startNs + adoption.durationNs, c.timelineNs)), "",
         0, 0},
        {"window.first_view.paint", "the whole window painted once (grab)", "ms", paintMs, "", 0,
         100},
    };
    rows.back().notes.push_back("first paint per panel: " + listMs(firstPaint));
    rows.back().detailsJson = "{\"first_paint_ms_per_panel\": " + jsonMs(firstPaint) + "}";
    for (const auto& [panel, ms] : adoptPerPanel)
        rows.push_back(
            {"window.first_view.adopt." + panel, panel + "'s showSnapshot", "ms", ms, "", 0, 0});
    Result pick{"window.select.graph_then_kernel",
                "selectGraph + selectKernel on the GUI thread (" + std::to_string(readoptions) +
                    " snapshot re-adoptions by every panel)",
                "ms",
                msBetween(pickNs, kernelPickedNs),
                "",
                0,
                100};
    pick.notes.push_back("graph " + fixed(msBetween(pickNs, graphPickedNs)) + " ms, kernel " +
                         fixed(msBetween(graphPickedNs, kernelPickedNs)) +
                         " ms; showSnapshot inside: " + listMs(pickPerPanel));
    pick.detailsJson = "{\"show_snapshot_ms_per_panel\": " + jsonMs(pickPerPanel) + "}";
    rows.push_back(std::move(pick));
    rows.push_back({"window.select.diagram_shown",
                    "selectGraph → its diagram rendered (worker) and on screen", "ms",
                    msBetween(pickNs, c.diagramNs), "", 0, 0});
    rows.push_back({"window.first_view.selected",
                    "first view, then a graph and a kernel selected, diagram shown, painted", "ms",
                    selectedViewMs, session, baselines.sessionFirstViewMs, 0});
    rows.push_back(fullRepaint(window));
    for (Result& r : windowTimelineTour(window, baselines))
        rows.push_back(std::move(r));
    return rows;
}

} // namespace kiln::bench
