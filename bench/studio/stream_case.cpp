// SPDX-License-Identifier: MIT
#include "stream_case.h"

#include "event_profiler.h"
#include "selection.h"
#include "support/clock.h"
#include "timeline_panel.h"
#include "trace_models.h"
#include "trace_session.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTableView>
#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>

namespace kiln::bench {

namespace {

constexpr int kHeartbeatMs = 5;
constexpr int64_t kCompileEveryNs = 250'000'000;
constexpr int64_t kOutputEveryNs = 50'000'000;
constexpr int kCallsPerTick = 5;

} // namespace

StreamingWriter::StreamingWriter(std::string path, SyntheticShape shape, double seconds,
                                 int preloadGraphs)
    : m_path(std::move(path))
    , m_shape(shape)
    , m_seconds(seconds)
    , m_preloadGraphs(std::min(preloadGraphs, shape.graphs)) {}

void StreamingWriter::start() {
    m_thread = std::thread([this] { run(); });
}

void StreamingWriter::join() {
    if (m_thread.joinable()) m_thread.join();
}

void StreamingWriter::run() {
    try {
        stream();
    } catch (const std::exception& e) {
        m_error = e.what();
    }
    m_started = true;
    m_finished = true;
}

void StreamingWriter::stream() {
    auto opened = trace::TraceWriter::open(m_path);
    if (!opened) throw std::runtime_error(opened.error().render());
    trace::TraceWriter& w = **opened;
    auto run = w.beginRun({"streaming_model.py",
                           "",
                           "default",
                           "inductor",
                           "{}",
                           "cpu",
                           {"kiln", "run", "streaming_model.py"},
                           0,
                           0});
    if (!run) throw std::runtime_error(run.error().render());
    m_started = true;
    std::mt19937 rng(3);
    const int64_t deadline = monotonicNs() + static_cast<int64_t>(m_seconds * 1e9);
    int graphs = 0;
    int64_t t = monotonicNs(), nextCompile = 0, nextOutput = 0;
    // A large model compiles its layers first, as fast as the compiler goes.
    for (; graphs < m_preloadGraphs; ++graphs)
        t = emitCompiledGraph(w, m_shape, graphs, kernelBase(graphs), std::max(t, monotonicNs()));
    for (int64_t now = monotonicNs(); now < deadline; now = monotonicNs()) {
        if (now >= nextCompile && graphs < m_shape.graphs) {
            t = emitCompiledGraph(w, m_shape, graphs, kernelBase(graphs), std::max(t, now));
            ++graphs;
            nextCompile = now + kCompileEveryNs;
        }
        for (int c = 0; c < kCallsPerTick; ++c) {
            int g = static_cast<int>(rng() % static_cast<uint32_t>(graphs));
            t = emitGraphCall(w, m_shape, g, kernelBase(g), std::max(t, now));
            m_launches += m_shape.kernelsPerGraph;
        }
        if (now >= nextOutput) {
            w.output(OutputStream::Stdout, "step " + std::to_string(m_launches) + "\n");
            nextOutput = now + kOutputEveryNs;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (auto done = w.finishRun(trace::RunStatus::Ok, 0); !done)
        throw std::runtime_error(done.error().render());
}

Heartbeat::Heartbeat() {
    m_timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_timer, &QTimer::timeout, [this] {
        const int64_t now = benchNowNs();
        m_gaps.push_back({static_cast<double>(now - m_lastNs) / 1e6, now});
        m_lastNs = now;
    });
}

void Heartbeat::start() {
    m_gaps.clear();
    m_lastNs = benchNowNs();
    m_timer.start(kHeartbeatMs);
}

std::vector<Heartbeat::Gap> Heartbeat::stop() {
    m_timer.stop();
    return std::move(m_gaps);
}

std::vector<double> Heartbeat::millis(const std::vector<Gap>& gaps) {
    std::vector<double> out;
    out.reserve(gaps.size());
    for (const Gap& g : gaps)
        out.push_back(g.ms);
    return out;
}

std::vector<Result> streamCase(const std::string& path, const SyntheticShape& shape,
                               double seconds) {
    views::TraceSession session;
    views::Selection selection;
    views::TimelinePanel panel(session, selection);
    panel.resize(1600, 600);
    panel.show();
    views::KernelsModel kernels;
    QTableView table;
    table.setModel(&kernels);
    table.resize(1600, 400);
    table.show();

    // The baseline: the same heartbeat while the GUI thread has nothing to do.
    Heartbeat heartbeat;
    heartbeat.start();
    QElapsedTimer idle;
    idle.start();
    runEventLoopUntil([&] { return idle.elapsed() >= 1000; });
    Spread idleGaps = spreadOf(Heartbeat::millis(heartbeat.stop()));

    StreamingWriter writer(path, shape, seconds);
    writer.start();
    runEventLoopUntil([&] { return writer.started(); });
    qint64 liveRun = 0;
    std::vector<double> adoptions;
    size_t launchesSeen = 0;
    QObject::connect(&session, &views::TraceSession::runsChanged, [&] {
        if (liveRun || !session.runs() || session.runs()->empty()) return;
        liveRun = session.runs()->back().id;
        selection.selectRun(liveRun);
        session.requestSnapshot(liveRun);
    });
    QObject::connect(&session, &views::TraceSession::snapshotReady,
                     [&](qint64 runId, const views::SnapshotPtr& s) {
                         if (runId != liveRun) return;
                         QElapsedTimer t;
                         t.start();
                         selection.setSnapshot(s);
                         kernels.setKernels(views::KernelRecords(s, &s->kernels));
                         panel.repaint();
                         table.repaint();
                         adoptions.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
                         launchesSeen = s->launches.size();
                     });
    heartbeat.start();
    session.open(QString::fromStdString(path));
    session.setPolling(true, 100);
    runEventLoopUntil([&] { return writer.finished(); });
    writer.join();
    session.refresh();
    QElapsedTimer settle;
    settle.start();
    runEventLoopUntil([&] {
        return launchesSeen >= static_cast<size_t>(writer.launches()) || settle.elapsed() > 5000;
    });
    Spread gaps = spreadOf(Heartbeat::millis(heartbeat.stop()));
    session.setPolling(false);
    if (!writer.error().empty()) throw std::runtime_error(writer.error());
    Spread adopt = spreadOf(adoptions);
    const std::string idleWhat = "the same heartbeat on an idle GUI thread for 1 s";
    const std::string n = std::to_string(adoptions.size()) + " snapshots, " +
                          std::to_string(launchesSeen) + " of " +
                          std::to_string(writer.launches()) + " launches shown";
    return {
        {"stream.gui_gap.max",
         "longest gap of a 5 ms GUI heartbeat while a run streams (" + n + ")", "ms", gaps.max,
         idleWhat, idleGaps.max, 100},
        {"stream.gui_gap.p99", "99th percentile heartbeat gap while streaming", "ms", gaps.p99,
         idleWhat, idleGaps.p99, 0},
        {"stream.adopt.median", "one snapshot adopted and painted on the GUI thread, median", "ms",
         adopt.median, "", 0, 0},
        {"stream.adopt.max", "the slowest snapshot adoption and paint", "ms", adopt.max, "", 0,
         100},
    };
}

} // namespace kiln::bench
