// SPDX-License-Identifier: MIT
#include "studio_cases.h"

#include "chrome_trace.h"
#include "selection.h"
#include "timeline_panel.h"
#include "timeline_view.h"
#include "trace_models.h"
#include "trace_session.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QImage>
#include <QScrollBar>
#include <QTableView>
#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace kiln::bench {

namespace {

double msSince(const QElapsedTimer& t) {
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

/// Paints \p view's viewport into \p image and returns how long that took.
double paintMs(views::TimelineView& view, QImage& image) {
    QElapsedTimer t;
    t.start();
    view.viewport()->render(&image);
    return msSince(t);
}

} // namespace

std::vector<double> timelineTour(views::TimelineView& view, const std::function<double()>& frame) {
    std::vector<double> frames;
    view.fit();
    for (int i = 0; i < 10; ++i)
        frames.push_back(frame());
    for (int i = 0; i < 30; ++i) {
        view.zoomIn();
        frames.push_back(frame());
    }
    for (int i = 0; i < 60; ++i) {
        double width = view.visibleEndNs() - view.visibleStartNs();
        view.setVisibleRange(view.visibleStartNs() + width / 8, view.visibleEndNs() + width / 8);
        frames.push_back(frame());
    }
    for (int i = 0; i < 30; ++i) {
        view.zoomOut();
        frames.push_back(frame());
    }
    view.fit();
    QScrollBar* lanes = view.verticalScrollBar();
    for (int i = 0; i <= 40; ++i) {
        lanes->setValue(lanes->maximum() * i / 40);
        frames.push_back(frame());
    }
    lanes->setValue(0);
    double extent = view.timeline() ? static_cast<double>(view.timeline()->extentNs()) : 1e9;
    for (int i = 0; i < 40; ++i) {
        double start = extent * i / 40;
        view.setVisibleRange(start, start + extent / (i % 2 ? 1000 : 20));
        frames.push_back(frame());
    }
    return frames;
}

std::string fixed(double v, int decimals) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(decimals);
    out << v;
    return out.str();
}

Spread spreadOf(std::vector<double> samples) {
    if (samples.empty()) return {};
    std::sort(samples.begin(), samples.end());
    auto at = [&](double q) {
        return samples[std::min(samples.size() - 1, static_cast<size_t>(q * samples.size()))];
    };
    return {at(0.5), at(0.95), at(0.99), samples.back()};
}

views::SnapshotPtr readSnapshotDirect(const std::string& path, int64_t runId) {
    auto reader = trace::TraceReader::open(path);
    if (!reader) throw std::runtime_error(reader.error().render());
    auto snapshot = views::readRunSnapshot(*reader.value(), runId);
    if (!snapshot) throw std::runtime_error(snapshot.error().render());
    return std::make_shared<const views::RunSnapshot>(std::move(snapshot).value());
}

std::vector<Result> firstViewCase(const std::string& path, int64_t runId,
                                  const std::string& screenshot) {
    QElapsedTimer direct;
    direct.start();
    (void)readSnapshotDirect(path, runId);
    double directMs = msSince(direct);

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
    QApplication::processEvents();

    QElapsedTimer total;
    total.start();
    session.open(QString::fromStdString(path));
    if (!waitForSignal(&session, &views::TraceSession::runsChanged, 30'000))
        throw std::runtime_error("the trace's runs never arrived");
    double runsMs = msSince(total);
    selection.selectRun(runId);
    session.requestSnapshot(runId);
    if (!waitForSignal(&session, &views::TraceSession::snapshotReady, 60'000))
        throw std::runtime_error("the run's snapshot never arrived");
    double readMs = msSince(total);
    views::SnapshotPtr snapshot = session.snapshot(runId);
    selection.setSnapshot(snapshot);
    kernels.setKernels(views::KernelRecords(snapshot, &snapshot->kernels));
    if (!waitForSignal(&panel, &views::TimelinePanel::timelineShown, 30'000))
        throw std::runtime_error("the timeline never showed the run");
    double adoptedMs = msSince(total);
    QImage timelineImage = panel.grab().toImage();
    QImage tableImage = table.grab().toImage();
    double firstViewMs = msSince(total);
    if (timelineImage.isNull() || tableImage.isNull())
        throw std::runtime_error("the first view did not paint");
    if (!screenshot.empty()) timelineImage.save(QString::fromStdString(screenshot));

    const std::string sql = "reading the run's snapshot on the calling thread (SQL only)";
    return {
        {"first_view", "open → snapshot adopted → timeline and kernels table painted", "ms",
         firstViewMs, sql, directMs, 1000},
        {"first_view.runs_listed", "open → run list on the GUI thread", "ms", runsMs, "", 0, 0},
        {"first_view.snapshot_read", "run list → snapshot read on the worker thread", "ms",
         readMs - runsMs, sql, directMs, 0},
        {"first_view.adopt",
         "snapshot → selection, kernels model, timeline layout (a worker) adopted", "ms",
         adoptedMs - readMs, "", 0, 0},
        {"first_view.paint", "timeline panel and kernels table painted once (GUI)", "ms",
         firstViewMs - adoptedMs, "", 0, 100},
    };
}

std::vector<Result> timelinePaintCase(const std::string& path, int64_t runId) {
    views::SnapshotPtr snapshot = readSnapshotDirect(path, runId);
    std::vector<double> builds;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        views::TimelineLayout layout(snapshot);
        builds.push_back(msSince(t));
    }
    auto layout = std::make_shared<const views::TimelineLayout>(snapshot);
    views::TimelineView view;
    view.resize(1600, 900);
    view.show();
    view.setTimeline(layout);
    view.setSelectedKernel(1);
    views::TimelineView empty;
    empty.resize(1600, 900);
    empty.show();
    QApplication::processEvents();
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    Spread frames = spreadOf(timelineTour(view, [&] { return paintMs(view, image); }));
    Spread baseline = spreadOf(timelineTour(empty, [&] { return paintMs(empty, image); }));
    const std::string emptyWhat = "the same tour of an empty timeline (ruler, labels, background)";
    return {
        {"timeline.layout", "TimelineLayout of the run (lanes, sorted spans, indexes), median",
         "ms", spreadOf(builds).median, "", 0, 0},
        {"timeline.paint.median", "timeline frame over zooms, pans, lane scrolls (1600x900)", "ms",
         frames.median, emptyWhat, baseline.median, 16},
        {"timeline.paint.p95", "95th percentile frame", "ms", frames.p95, emptyWhat, baseline.p95,
         16},
        {"timeline.paint.max", "slowest frame", "ms", frames.max, emptyWhat, baseline.max, 16},
    };
}

std::vector<Result> chromeExportCase(const std::string& path, int64_t runId) {
    views::SnapshotPtr snapshot = readSnapshotDirect(path, runId);
    QElapsedTimer t;
    t.start();
    QByteArray json = views::chromeTraceJson(*snapshot);
    double ms = msSince(t);
    return {{"chrome_trace.export",
             "the run as Chrome trace JSON (" + std::to_string(json.size() / 1024 / 1024) +
                 " MiB, one event per launch)",
             "ms", ms, "", 0, 0}};
}

} // namespace kiln::bench
