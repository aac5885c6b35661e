// SPDX-License-Identifier: MIT
#include "import_command.h"

#include "import/torch_trace_import.h"
#include "trace/trace_writer.h"

#include <cstdio>

namespace kiln::app {
namespace {

void printSummary(const importer::ImportSummary& s, const std::string& tracePath) {
    std::printf("imported %s as run %lld of %s\n", s.logPath.c_str(), (long long)s.runId,
                tracePath.c_str());
    std::printf(
        "  %lld records: %lld frames, %lld compiles (%lld attempts), %lld graph breaks, "
        "%lld recompiles (%lld failed entries), %lld guards, %lld graphs (%lld AOT graphs), "
        "%lld kernels, %lld events\n",
        (long long)s.records, (long long)s.frames, (long long)s.compiles, (long long)s.attempts,
        (long long)s.breaks, (long long)s.recompiles, (long long)s.recompileRows,
        (long long)s.guards, (long long)s.graphs, (long long)s.aotGraphs, (long long)s.kernels,
        (long long)s.events);
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

} // namespace

int importLogs(const std::vector<std::string>& logs, const std::string& tracePath) {
    auto writer = trace::TraceWriter::open(tracePath);
    if (!writer) {
        std::fprintf(stderr, "kiln: error: %s\n", writer.error().render().c_str());
        return 2;
    }
    for (const std::string& log : logs) {
        auto summary = importer::importTorchTraceLog(log, *writer.value());
        if (!summary) {
            std::fprintf(stderr, "kiln: error: %s\n", summary.error().render().c_str());
            return 2;
        }
        printSummary(summary.value(), tracePath);
    }
    return 0;
}

} // namespace kiln::app
