// SPDX-License-Identifier: MIT
#include "import_command.h"

#include "import/profile_import.h"
#include "import/torch_trace_import.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <unistd.h>

namespace kiln::app {
namespace {

void printSummary(const importer::ImportSummary& s, const std::string& tracePath) {
    std::printf("imported %s as run %lld of %s\n", s.logPath.c_str(), (long long)s.runId,
                tracePath.c_str());
    std::printf("  %lld records: %lld frames, %lld compiles (%lld attempts), %lld graph breaks, "
                "%lld recompiles (%lld failed entries), %lld guards, %lld graphs (%lld AOT graphs, "
                "%lld post-grad graphs), %lld kernels, %lld events (%lld symbolic-shape records)\n",
                (long long)s.records, (long long)s.frames, (long long)s.compiles,
                (long long)s.attempts, (long long)s.breaks, (long long)s.recompiles,
                (long long)s.recompileRows, (long long)s.guards, (long long)s.graphs,
                (long long)s.aotGraphs, (long long)s.postGradGraphs, (long long)s.kernels,
                (long long)s.events, (long long)s.symbolicShapes);
    std::printf("  %lld extras kept verbatim", (long long)s.extras);
    const char* separator = ": ";
    for (const auto& [kind, count] : s.extraKinds) {
        std::printf("%s%s %lld", separator, kind.c_str(), (long long)count);
        separator = ", ";
    }
    std::printf("\n  %lld md5 mismatches\n", (long long)s.md5Mismatches);
    if (s.problemCount == 0) return;
    std::printf("  %lld problems (read %lld lines):\n", (long long)s.problemCount,
                (long long)s.linesRead);
    for (const auto& problem : s.problems)
        std::printf("    line %lld: %s\n", (long long)problem.line, problem.message.c_str());
    if (s.problemCount > int64_t(s.problems.size()))
        std::printf("    ... and %lld more\n",
                    (long long)(s.problemCount - int64_t(s.problems.size())));
}

void printProfileSummary(const importer::ProfileSummary& s, const std::string& tracePath) {
    std::printf("imported %s into run %lld of %s%s\n", s.profilePath.c_str(), (long long)s.runId,
                tracePath.c_str(), s.newRun ? " (a new run: the profile alone)" : "");
    std::printf("  %lld trace events: %lld complete events, %lld skipped (wrong shape)\n",
                (long long)s.records, (long long)s.events, (long long)s.skipped);
    std::printf("  %lld compiled graph calls (%lld linked to the run's output code by FX graph "
                "cache key)\n",
                (long long)s.graphCalls, (long long)s.linkedCalls);
    for (const auto& g : s.graphs) {
        double totalMs = double(g.totalNs) / 1e6, externMs = double(g.externNs) / 1e6;
        std::printf("    graph %s%s%s: %lld calls, %.3f ms; extern calls %.3f ms, the rest "
                    "(Inductor's kernels and the wrapper) %.3f ms%s\n",
                    g.compileId.c_str(), g.pass.empty() ? "" : " ", g.pass.c_str(),
                    (long long)g.calls, totalMs, externMs, totalMs - externMs,
                    g.linked ? "" : " (not in the run's log: kernels made from the profile)");
    }
    std::printf("  %lld kernel launches written (%lld extern calls, %lld GPU kernels by name, "
                "%lld C++ kernels by name), %lld kernels added\n",
                (long long)s.launches, (long long)s.externLaunches, (long long)s.gpuLaunches,
                (long long)s.cpuKernelLaunches, (long long)s.kernelsAdded);
    std::printf("  unmatched: %lld GPU kernels/copies, %lld ops in compiled graphs, %lld top-level "
                "ops outside compiled graphs (kept as %lld import_extras rows)\n",
                (long long)s.unmatchedGpu, (long long)s.unmatchedInGraph,
                (long long)s.outsideGraphs, (long long)s.extras);
    for (const auto& [what, count] : s.topUnmatched)
        std::printf("    %6lld  %s\n", (long long)count, what.c_str());
}

/// A progress line on stderr while \p path is read: rewritten in place on a terminal for files
/// of 4 MiB or more, a line per tenth otherwise for files of 64 MiB or more (a CI log); nothing
/// for smaller files, so the usual output is unchanged.
class ProgressLine {
public:
    explicit ProgressLine(const std::string& path)
        : m_path(path) {
        std::error_code error;
        const auto size = std::filesystem::file_size(path, error);
        const int64_t bytes = error ? 0 : int64_t(size);
        m_tty = isatty(STDERR_FILENO) != 0;
        m_on = bytes >= (m_tty ? kTtyBytes : kLogBytes);
    }
    ~ProgressLine() {
        if (m_on && m_tty && m_shown) std::fputs("\r\033[K", stderr);
    }

    importer::ImportOptions options() {
        importer::ImportOptions options;
        if (m_on)
            options.progress = [this](int64_t done, int64_t total) {
                report(done, total);
                return true;
            };
        return options;
    }

private:
    void report(int64_t done, int64_t total) {
        if (total <= 0) return;
        int percent = int(done * 100 / total);
        if (percent == m_percent || (!m_tty && percent / 10 == m_percent / 10)) return;
        m_percent = percent;
        m_shown = true;
        std::fprintf(stderr, "%simporting %s: %d%% (%.1f of %.1f MB)%s", m_tty ? "\r\033[K" : "",
                     m_path.c_str(), percent, double(done) / 1e6, double(total) / 1e6,
                     m_tty ? "" : "\n");
        std::fflush(stderr);
    }

    static constexpr int64_t kTtyBytes = int64_t(4) << 20;
    static constexpr int64_t kLogBytes = int64_t(64) << 20;
    std::string m_path;
    bool m_tty = false;
    bool m_on = false;
    bool m_shown = false;
    int m_percent = -1;
};

bool isProfile(const std::string& path) {
    return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

int fail(const Diagnostic& error) {
    std::fprintf(stderr, "kiln: error: %s\n", error.render().c_str());
    return 2;
}

int importProfileInto(const std::string& profile, const std::string& tracePath, int64_t runId) {
    auto summary = [&] {
        ProgressLine progress(profile);
        return importer::importProfile(profile, tracePath, runId, progress.options());
    }();
    if (!summary) return fail(summary.error());
    printProfileSummary(summary.value(), tracePath);
    return 0;
}

} // namespace

int importFiles(const ImportRequest& request) {
    if (!request.into.empty()) {
        if (request.outputGiven) {
            std::fputs("kiln: error: import takes -o (a trace to add runs to) or --into (a run "
                       "to add a profile to), not both\n",
                       stderr);
            return 2;
        }
        for (const std::string& file : request.files)
            if (!isProfile(file)) {
                std::fprintf(stderr,
                             "kiln: error: --into takes profiles (.json, torch.profiler's "
                             "export_chrome_trace), not '%s'; import logs with -o\n",
                             file.c_str());
                return 2;
            }
        int64_t runId = 0;
        if (!request.run.empty()) {
            char* end = nullptr;
            runId = std::strtoll(request.run.c_str(), &end, 10);
            if (*end != '\0' || runId <= 0) {
                std::fprintf(stderr,
                             "kiln: error: --run takes a run number (1, 2, ...: the run column "
                             "of `kiln runs`), got '%s'\n",
                             request.run.c_str());
                return 2;
            }
        } else {
            auto reader = trace::TraceReader::open(request.into);
            if (!reader) return fail(reader.error());
            auto runs = reader.value()->listRuns();
            if (!runs) return fail(runs.error());
            if (runs->empty()) {
                std::fprintf(stderr, "kiln: error: %s has no runs to add a profile to\n",
                             request.into.c_str());
                return 2;
            }
            runId = runs->back().id;
        }
        for (const std::string& profile : request.files)
            if (int rc = importProfileInto(profile, request.into, runId); rc != 0) return rc;
        return 0;
    }
    if (!request.run.empty()) {
        std::fputs("kiln: error: --run goes with --into TRACE\n", stderr);
        return 2;
    }
    // A TORCH_TRACE directory stands for its logs, one run per process (rank).
    std::vector<std::string> files;
    for (const std::string& file : request.files) {
        if (isProfile(file) || !std::filesystem::is_directory(file)) {
            files.push_back(file);
            continue;
        }
        std::vector<std::string> logs = importer::torchTraceLogsIn(file);
        if (logs.empty()) {
            std::fprintf(stderr,
                         "kiln: error: %s has no .log files (TORCH_TRACE writes one per "
                         "process)\n",
                         file.c_str());
            return 2;
        }
        files.insert(files.end(), logs.begin(), logs.end());
    }
    int64_t lastLogRun = 0;
    std::unique_ptr<trace::TraceWriter> writer;
    for (const std::string& file : files) {
        if (isProfile(file)) {
            writer.reset(); // the profile import writes on its own connection
            if (int rc = importProfileInto(file, request.trace, lastLogRun); rc != 0) return rc;
            lastLogRun = 0; // one profile per run: a second one makes a run of its own
            continue;
        }
        if (!writer) {
            auto opened = trace::TraceWriter::open(request.trace);
            if (!opened) return fail(opened.error());
            writer = std::move(opened).value();
        }
        auto summary = [&] {
            ProgressLine progress(file); // cleared before the summary is printed
            return importer::importTorchTraceLog(file, *writer, progress.options());
        }();
        if (!summary) return fail(summary.error());
        printSummary(summary.value(), request.trace);
        lastLogRun = summary->runId;
    }
    return 0;
}

} // namespace kiln::app
