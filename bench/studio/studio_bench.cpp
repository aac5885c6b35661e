// SPDX-License-Identifier: MIT
/// \file
/// kiln-bench-studio [--json FILE] [--graphs N] [--launches N] [--stream-seconds S]
///                   [--trace PATH] [--screenshot PNG] [--window-screenshot PNG]
///                   [--recompiles N] [--only-recompiles]
/// Kiln Studio against a large trace: (a) writes a synthetic run of 1,000 graphs and 100,000
/// launches through the real TraceWriter, (b) the time from opening it to the first view (the
/// snapshot adopted, the timeline and a kernels table painted once), (c) timeline paint times
/// over a sequence of zooms, pans and scrolls, against an empty paint of the same widget, and
/// (d) the GUI thread's longest stall while another thread streams a live run into the trace
/// and Studio follows it; then the same as a whole: the real MainWindow (default layout,
/// 1600x1000) opening the trace, picking a graph and a kernel, scrolling its timeline and
/// following a streaming run, with each panel's share of the GUI thread (window_cases.h).
/// Prints a table and writes JSON (default kiln-bench-studio.json).
#include "stream_case.h"
#include "studio_cases.h"
#include "synthetic_trace.h"
#include "window_cases.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <thread>
#include <tuple>

using namespace kiln::bench;

namespace {

struct Options {
    std::string jsonPath = "kiln-bench-studio.json";
    std::string tracePath;
    std::string screenshot;       ///< the first view's timeline as a PNG
    std::string windowScreenshot; ///< the whole window's first view (graph and kernel picked)
    SyntheticShape shape;
    double streamSeconds = 5;
    int recompiles = 300; ///< cache entries of the recompile case
    bool recompilesOnly = false;
};

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* v = nullptr;
        if (!std::strcmp(argv[i], "--json") && (v = value()))
            o.jsonPath = v;
        else if (!std::strcmp(argv[i], "--trace") && (v = value()))
            o.tracePath = v;
        else if (!std::strcmp(argv[i], "--screenshot") && (v = value()))
            o.screenshot = v;
        else if (!std::strcmp(argv[i], "--window-screenshot") && (v = value()))
            o.windowScreenshot = v;
        else if (!std::strcmp(argv[i], "--graphs") && (v = value()))
            o.shape.graphs = std::atoi(v);
        else if (!std::strcmp(argv[i], "--launches") && (v = value()))
            o.shape.launches = std::atoll(v);
        else if (!std::strcmp(argv[i], "--stream-seconds") && (v = value()))
            o.streamSeconds = std::atof(v);
        else if (!std::strcmp(argv[i], "--recompiles") && (v = value()))
            o.recompiles = std::atoi(v);
        else if (!std::strcmp(argv[i], "--only-recompiles"))
            o.recompilesOnly = true;
        else
            return false;
    }
    return o.shape.graphs > 0 && o.shape.launches > 0;
}

void printRow(const Result& r) {
    char baseline[32] = "-", ratio[16] = "-", goal[16] = "-";
    if (r.baseline > 0) {
        std::snprintf(baseline, sizeof baseline, "%.2f %s", r.baseline, r.unit.c_str());
        std::snprintf(ratio, sizeof ratio, "%.2f", r.ratio());
    }
    if (r.goal > 0) std::snprintf(goal, sizeof goal, "< %.0f", r.goal);
    std::printf("%-36s %11.2f %-3s %14s %8s %9s  %s\n", r.name.c_str(), r.value, r.unit.c_str(),
                baseline, ratio, goal, r.goal <= 0 ? "" : (r.value <= r.goal ? "ok" : "OVER GOAL"));
    for (const std::string& note : r.notes)
        std::printf("    %s\n", note.c_str());
}

std::string jsonEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

void writeJson(const Options& o, const SyntheticCounts& counts, double writeSeconds,
               const std::vector<Result>& results) {
    std::ofstream out(o.jsonPath);
    std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    out << "{\n  \"tool\": \"kiln-bench-studio\",\n  \"timestamp\": \"" << stamp << "\",\n"
        << "  \"hardware_threads\": " << std::thread::hardware_concurrency() << ",\n"
        << "  \"trace\": {\"graphs\": " << counts.graphs << ", \"kernels\": " << counts.kernels
        << ", \"launches\": " << counts.launches << ", \"extent_ms\": " << counts.extentNs / 1e6
        << ", \"write_s\": " << writeSeconds << "},\n  \"results\": [\n";
    for (size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        out << "    {\"name\": \"" << r.name << "\", \"what\": \"" << jsonEscape(r.what)
            << "\", \"unit\": \"" << r.unit << "\", \"value\": " << r.value
            << ", \"baseline\": " << r.baseline << ", \"baseline_what\": \""
            << jsonEscape(r.baselineWhat) << "\", \"ratio\": " << r.ratio()
            << ", \"goal\": " << r.goal;
        if (!r.detailsJson.empty()) out << ", \"details\": " << r.detailsJson;
        out << "}" << (i + 1 < results.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

void printHeader() {
    std::printf("%-36s %15s %14s %8s %9s  %s\n", "measure", "value", "baseline", "ratio", "goal",
                "verdict");
}

std::pair<SyntheticCounts, double> writeTrace(const std::string& path,
                                              const SyntheticShape& shape) {
    std::printf("writing a synthetic run: %d graphs, %lld launches ...\n", shape.graphs,
                static_cast<long long>(shape.launches));
    QElapsedTimer written;
    written.start();
    SyntheticCounts counts = writeSyntheticRun(path, shape);
    double writeSeconds = written.nsecsElapsed() / 1e9;
    std::printf("  %lld launches over %.1f s of run time, written in %.1f s\n\n",
                static_cast<long long>(counts.launches), counts.extentNs / 1e9, writeSeconds);
    return {counts, writeSeconds};
}

/// The cases over the synthetic trace at \p path (everything but the recompile case).
template <typename Add>
void syntheticCases(const Options& o, const std::string& path, const SyntheticCounts& counts,
                    Add& add, const std::vector<Result>& results) {
    auto valueOf = [&](const char* name) {
        for (const Result& r : results)
            if (r.name == name) return r.value;
        return 0.0;
    };
    add(firstViewCase(path, counts.runId, o.screenshot));
    add(timelinePaintCase(path, counts.runId));
    add(chromeExportCase(path, counts.runId));
    WindowBaselines baselines{valueOf("first_view"), valueOf("timeline.paint.median"),
                              valueOf("timeline.paint.p95"), valueOf("timeline.paint.max")};
    add(windowViewCases(path, counts.runId, baselines, o.windowScreenshot));
    add(streamCase(path, o.shape, o.streamSeconds));
    add(windowStreamCase("window.stream", path, o.shape, o.streamSeconds, 0));
    add(windowStreamCase("window.stream_large", path, o.shape, o.streamSeconds, o.shape.graphs));
    add(windowChildRunCase(100'000));
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    BenchApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // the window's QSettings stay out of the user's
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: kiln-bench-studio [--json FILE] [--graphs N] [--launches N] "
                             "[--stream-seconds S] [--trace PATH] [--screenshot PNG] "
                             "[--window-screenshot PNG] [--recompiles N] [--only-recompiles]\n");
        return 2;
    }
    QTemporaryDir dir;
    std::string path = o.tracePath.empty()
                           ? QDir(dir.path()).filePath("studio-bench.kiln").toStdString()
                           : o.tracePath;
    QFile::remove(QString::fromStdString(path));
    try {
        std::vector<Result> results;
        auto add = [&](std::vector<Result> more) {
            for (Result& r : more) {
                printRow(r);
                results.push_back(std::move(r));
            }
        };
        SyntheticCounts counts;
        double writeSeconds = 0;
        if (!o.recompilesOnly) std::tie(counts, writeSeconds) = writeTrace(path, o.shape);
        printHeader();
        if (!o.recompilesOnly) syntheticCases(o, path, counts, add, results);
        add(windowRecompileCase(o.recompiles));
        writeJson(o, counts, writeSeconds, results);
        std::printf("\nwrote %s\n", o.jsonPath.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kiln-bench-studio: %s\n", e.what());
        return 1;
    }
    return 0;
}
