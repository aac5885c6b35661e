// SPDX-License-Identifier: MIT
#include "trace_commands.h"

#include "trace/trace_reader.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ctime>

namespace kiln::app {

namespace {

std::string formatTime(int64_t ns) {
    if (ns <= 0) return "-";
    std::time_t seconds = static_cast<std::time_t>(ns / 1000000000);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", std::localtime(&seconds));
    return buf;
}

} // namespace

int listRuns(const std::string& tracePath) {
    auto reader = trace::TraceReader::open(tracePath);
    if (!reader.ok()) {
        std::fprintf(stderr, "kiln: %s\n", reader.error().render().c_str());
        return 2;
    }
    auto runs = reader.value()->listRuns();
    if (!runs.ok()) {
        std::fprintf(stderr, "kiln: %s\n", runs.error().render().c_str());
        return 2;
    }
    std::printf("%-5s %-10s %-19s %9s  %s\n", "run", "status", "started", "seconds", "workload");
    for (const trace::RunRow& r : runs.value()) {
        std::string status = trace::runStatusName(r.status);
        if (trace::TraceReader::runLooksCrashed(r)) status = "crashed?";
        // An imported run ends at its log's last record (kiln import sets it so).
        std::string seconds = "-";
        if (r.endedAtNs) {
            char text[32];
            std::snprintf(text, sizeof text, "%.3f",
                          static_cast<double>(*r.endedAtNs - r.startedAtNs) * 1e-9);
            seconds = text;
        }
        std::printf("%-5lld %-10s %-19s %9s  %s\n", static_cast<long long>(r.id), status.c_str(),
                    formatTime(r.startedAtNs).c_str(), seconds.c_str(), r.workloadPath.c_str());
        if (!r.errorType.empty())
            std::printf("      %s: %s\n", r.errorType.c_str(), r.errorMessage.c_str());
        if (r.mode == "imported")
            std::printf("      imported: %s\n", trace::importedOrigin(r.machineJson).c_str());
        // Where it ran: its timings only compare with runs on the same machine and libraries.
        if (r.machine.recorded())
            std::printf("      machine: %s\n", trace::machineSummary(r.machine).c_str());
        if (!r.machine.matmul.empty())
            std::printf("      matmul:  %s\n", trace::matmulSummary(r.machine).c_str());
    }
    return 0;
}

bool openRun(const std::string& tracePath, const std::string& runFlag,
             std::unique_ptr<trace::TraceReader>& reader, int64_t& runId) {
    auto opened = trace::TraceReader::open(tracePath);
    if (!opened.ok()) {
        std::fprintf(stderr, "kiln: %s\n", opened.error().render().c_str());
        return false;
    }
    reader = std::move(opened).value();
    auto runs = reader->listRuns();
    if (!runs.ok() || runs.value().empty()) {
        std::fprintf(stderr, "kiln: %s has no runs\n", tracePath.c_str());
        return false;
    }
    if (runFlag.empty()) {
        runId = runs.value().back().id;
        return true;
    }
    const char* end = runFlag.data() + runFlag.size();
    auto [stop, ec] = std::from_chars(runFlag.data(), end, runId);
    if (ec != std::errc() || stop != end || runId <= 0) {
        std::fprintf(stderr,
                     "kiln: error: --run takes a run number (1, 2, ...: the run column of `kiln "
                     "runs`), got '%s'\n",
                     runFlag.c_str());
        return false;
    }
    const auto& all = runs.value();
    if (std::none_of(all.begin(), all.end(),
                     [&](const trace::RunRow& r) { return r.id == runId; })) {
        std::fprintf(stderr,
                     "kiln: error: %s has no run %lld (`kiln runs %s` lists its %zu run%s)\n",
                     tracePath.c_str(), static_cast<long long>(runId), tracePath.c_str(),
                     all.size(), all.size() == 1 ? "" : "s");
        return false;
    }
    return true;
}

int printOutput(const std::string& tracePath, const std::string& runFlag) {
    std::unique_ptr<trace::TraceReader> reader;
    int64_t runId = 0;
    if (!openRun(tracePath, runFlag, reader, runId)) return 2;
    int64_t after = 0;
    while (true) {
        auto lines = reader->outputLines(runId, after, 1000);
        if (!lines.ok()) {
            std::fprintf(stderr, "kiln: %s\n", lines.error().render().c_str());
            return 2;
        }
        if (lines.value().empty()) break;
        for (const trace::OutputLine& line : lines.value()) {
            std::FILE* out = line.stream == OutputStream::Stdout ? stdout : stderr;
            // The whole line, NUL bytes included, as the script printed it.
            std::fwrite(line.text.data(), 1, line.text.size(), out);
            std::fputc('\n', out);
            after = line.id;
        }
    }
    return 0;
}

} // namespace kiln::app
