// SPDX-License-Identifier: MIT
// kiln-bench [--quick] [--json PATH] [--filter SUBSTRING]
// Runs the benchmark cases, prints a table and writes the results as JSON (default
// bench/results/latest.json relative to the working directory's build, or --json PATH).
#include "bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace kiln::bench;

namespace {

std::string jsonEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

void writeJson(const std::string& path, const std::vector<Measurement>& results, bool quick) {
    std::filesystem::path p(path);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    std::ofstream out(path);
    std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    out << "{\n  \"tool\": \"kiln-bench\",\n  \"timestamp\": \"" << stamp << "\",\n"
        << "  \"hardware_threads\": " << std::thread::hardware_concurrency() << ",\n"
        << "  \"quick\": " << (quick ? "true" : "false") << ",\n  \"results\": [\n";
    for (size_t i = 0; i < results.size(); ++i) {
        const Measurement& m = results[i];
        out << "    {\"name\": \"" << m.name << "\", \"what\": \"" << jsonEscape(m.what)
            << "\", \"baseline\": \"" << jsonEscape(m.baselineWhat)
            << "\", \"iterations\": " << m.iterations << ", \"ns_per_op\": " << m.nsPerOp
            << ", \"baseline_ns_per_op\": " << m.baselineNsPerOp
            << ", \"ratio\": " << (m.baselineNsPerOp > 0 ? m.nsPerOp / m.baselineNsPerOp : 0)
            << ", \"goal_ns_per_op\": " << m.goalNsPerOp << "}"
            << (i + 1 < results.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench/results/latest.json";
    std::string filter;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonPath = argv[++i];
        else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: kiln-bench [--quick] [--json PATH] [--filter SUBSTRING]\n");
            return 2;
        }
    }
    std::vector<Measurement> results;
    bool failed = false;
    std::printf("%-22s %10s %12s %14s %8s %10s  %s\n", "benchmark", "iters", "ns/op",
                "baseline ns/op", "ratio", "goal", "verdict");
    std::vector<Case> cases = interpreterCases();
    for (Case& c : captureCases())
        cases.push_back(std::move(c));
    for (Case& c : launchCases())
        cases.push_back(std::move(c));
    for (const Case& c : cases) {
        if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
        int64_t n = quick ? std::max<int64_t>(c.iterations / 10, 1000) : c.iterations;
        Measurement m;
        try {
            m = c.run(n);
        } catch (const std::exception& e) {
            std::printf("%-22s failed: %s\n", c.name.c_str(), e.what());
            failed = true;
            continue;
        }
        double ratio = m.baselineNsPerOp > 0 ? m.nsPerOp / m.baselineNsPerOp : 0;
        std::string goal =
            m.goalNsPerOp > 0 ? "<" + std::to_string(static_cast<int>(m.goalNsPerOp)) : "-";
        const char* verdict = m.goalNsPerOp <= 0          ? ""
                              : m.nsPerOp < m.goalNsPerOp ? "meets goal"
                                                          : "MISSES goal";
        std::printf("%-22s %10lld %12.1f %14.1f %8.2f %10s  %s\n", m.name.c_str(),
                    static_cast<long long>(m.iterations), m.nsPerOp, m.baselineNsPerOp, ratio,
                    goal.c_str(), verdict);
        std::fflush(stdout);
        results.push_back(m);
    }
    writeJson(jsonPath, results, quick);
    std::printf("\nresults written to %s\n", jsonPath.c_str());
    return failed ? 1 : 0;
}
