// SPDX-License-Identifier: MIT
#include "bench_command.h"

#include "api/compiler_bench.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <optional>

namespace kiln::app {

namespace {

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

/// The modes of --modes, or nullopt after a message listing the valid ones.
std::optional<std::vector<std::string>> parseModes(const std::string& text) {
    const std::vector<std::string> valid = api::benchModeNames();
    std::vector<std::string> modes;
    size_t start = 0;
    while (true) {
        size_t comma = text.find(',', start);
        std::string mode =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (std::find(valid.begin(), valid.end(), mode) == valid.end()) {
            std::fprintf(stderr, "kiln: error: --modes: unknown mode '%s'; valid modes: %s\n",
                         mode.c_str(), joined(valid).c_str());
            return std::nullopt;
        }
        if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
        if (comma == std::string::npos) return modes;
        start = comma + 1;
    }
}

} // namespace

int runBench(const BenchRequest& request) {
    api::CompilerBenchOptions options;
    if (request.modes) {
        auto modes = parseModes(*request.modes);
        if (!modes) return 2;
        options.modes = std::move(*modes);
    }
    if (request.quick) options.calls = 3;
    if (request.calls) {
        const std::string& text = *request.calls;
        int calls = 0;
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, calls);
        if (ec != std::errc() || ptr != end || calls <= 0) {
            std::fprintf(stderr,
                         "kiln: error: --calls takes a positive number of calls, got '%s'\n",
                         text.c_str());
            return 2;
        }
        options.calls = calls;
    }
    if (request.workloadFiles.empty()) options.workloads = api::builtinWorkloads(request.quick);
    for (const std::string& path : request.workloadFiles) {
        auto workload = api::loadWorkloadFile(path);
        if (!workload.ok()) {
            std::fprintf(stderr, "kiln: error: %s\n", workload.error().message.c_str());
            return 2;
        }
        options.workloads.push_back(std::move(workload).value());
    }
    if (request.timeoutSeconds) options.workloadTimeoutSeconds = *request.timeoutSeconds;
    // Each workload's rows as soon as they are measured: a long benchmark shows its progress,
    // and what failed says so at once.
    options.onWorkloadDone = [](const std::vector<api::CompilerBenchRow>& rows) {
        for (const api::CompilerBenchRow& r : rows)
            std::fprintf(stderr, "kiln: bench: %s, %s: %s\n", r.workload.c_str(), r.mode.c_str(),
                         r.error.empty() ? "measured" : r.error.c_str());
    };
    const std::string& json = request.json;

    auto rows = api::runCompilerBench(options);
    std::fputs(api::formatTable(rows).c_str(), stdout);
    size_t failed = static_cast<size_t>(std::count_if(
        rows.begin(), rows.end(), [](const api::CompilerBenchRow& r) { return !r.error.empty(); }));
    std::ofstream out(json, std::ios::binary);
    out << api::formatJson(rows);
    out.close();
    if (!out) {
        std::fprintf(stderr, "kiln: error: cannot write '%s'\n", json.c_str());
        return 1;
    }
    std::printf("\nresults written to %s\n", json.c_str());
    std::fflush(stdout);
    if (failed) {
        std::fprintf(stderr, "kiln: %zu of %zu rows failed\n", failed, rows.size());
        return 1;
    }
    return 0;
}

} // namespace kiln::app
