// SPDX-License-Identifier: MIT
#include "compiler_commands.h"

#include "diagram/diagram_render.h"
#include "trace/trace_reader.h"
#include "trace_commands.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>

namespace kiln::app {

namespace {

void printError(const Diagnostic& error) {
    std::fprintf(stderr, "kiln: %s\n", error.render().c_str());
    for (const std::string& note : error.notes)
        std::fprintf(stderr, "kiln: note: %s\n", note.c_str());
}

template <typename T>
bool fetch(Expected<T> result, T& into) {
    if (!result.ok()) {
        printError(result.error());
        return false;
    }
    into = std::move(result).value();
    return true;
}

/// A positive integer id, or nullopt after a message naming \p flag.
std::optional<int64_t> parseId(const std::string& text, const char* flag) {
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value <= 0) {
        std::fprintf(stderr, "kiln: error: %s takes a positive graph id, got '%s'\n", flag,
                     text.c_str());
        return std::nullopt;
    }
    return value;
}

std::unique_ptr<trace::TraceReader> openTrace(const std::string& path) {
    auto reader = trace::TraceReader::open(path);
    if (!reader.ok()) {
        printError(reader.error());
        return nullptr;
    }
    return std::move(reader).value();
}

/// The format asked for, or the one the output file's extension names.
std::string chooseFormat(const ExportDiagramRequest& request) {
    if (!request.format.empty()) return request.format;
    size_t dot = request.output.rfind('.');
    size_t slash = request.output.rfind('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    return request.output.substr(dot + 1);
}

bool writeOutput(const std::string& path, const std::string& bytes) {
    if (path == "-") return std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size();
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) return false;
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    return std::fclose(file) == 0 && ok;
}

std::string formatMs(int64_t ns) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", static_cast<double>(ns) * 1e-6);
    return buffer;
}

std::string formatUs(int64_t ns) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", static_cast<double>(ns) * 1e-3);
    return buffer;
}

std::string formatUsRange(int64_t lowNs, int64_t highNs) {
    return formatUs(lowNs) + "-" + formatUs(highNs);
}

/// The candidates max-autotune measured for the listed kernels, fastest first per kernel, with
/// how each time was measured; nothing when none was autotuned.
void printAutotuning(const std::vector<trace::KernelRow>& kernels,
                     const std::vector<trace::AutotuneChoiceRow>& choices) {
    std::map<int64_t, std::vector<const trace::AutotuneChoiceRow*>> byKernel;
    for (const auto& c : choices)
        byKernel[c.kernelId].push_back(&c);
    bool header = false, anyCached = false;
    for (const auto& k : kernels) {
        auto found = byKernel.find(k.kernelId);
        if (found == byKernel.end()) continue;
        if (!header) {
            std::printf("\nautotuning: the median of the timed runs and their spread "
                        "(fastest-slowest), per candidate\n");
            header = true;
        }
        std::vector<const trace::AutotuneChoiceRow*>& list = found->second;
        std::stable_sort(list.begin(), list.end(),
                         [](auto* a, auto* b) { return a->timeNs < b->timeNs; });
        int nameWidth = int(std::strlen("candidate"));
        for (const trace::AutotuneChoiceRow* c : list)
            nameWidth = std::max(nameWidth, int(c->candidate.size()));
        std::printf("%s\n  %-*s %10s %5s %16s  %-12s  %s\n", k.name.c_str(), nameWidth, "candidate",
                    "median us", "runs", "spread us", "measured", "outcome");
        for (const trace::AutotuneChoiceRow* c : list) {
            // "-" where the trace does not say (files older than schema version 4).
            std::string runs = c->runs > 0 ? std::to_string(c->runs) : "-";
            std::string spread = c->hasSpread() ? formatUsRange(c->minNs, c->maxNs) : "-";
            std::string measured = !c->fromCache   ? "-"
                                   : *c->fromCache ? "tuning cache"
                                                   : "this run";
            const char* outcome = c->chosen ? "  chosen"
                                  : c->stoppedEarly.value_or(false)
                                      ? "  stopped early (could not win)"
                                      : "";
            anyCached = anyCached || c->fromCache.value_or(false);
            std::string last = measured; // no trailing blanks when there is no outcome
            if (*outcome) last.resize(12, ' ');
            std::printf("  %-*s %10s %5s %16s  %s%s\n", nameWidth, c->candidate.c_str(),
                        formatUs(c->timeNs).c_str(), runs.c_str(), spread.c_str(), last.c_str(),
                        outcome);
        }
    }
    if (anyCached)
        std::printf("tuning cache: measured by an earlier run on the same CPU for the same kernel "
                    "and sizes, not measured again in this run\n");
}

} // namespace

int exportDiagram(const ExportDiagramRequest& request) {
    if (request.graphId.empty()) {
        std::fprintf(stderr, "kiln: error: export-diagram needs --graph ID (the graph column of "
                             "`kiln compiles`)\n");
        return 2;
    }
    auto graphId = parseId(request.graphId, "--graph");
    if (!graphId) return 2;
    if (request.output.empty()) {
        std::fprintf(stderr, "kiln: error: export-diagram needs -o FILE ('-' for stdout)\n");
        return 2;
    }
    std::string format = chooseFormat(request);
    if (format.empty()) {
        std::fprintf(stderr, "kiln: error: export-diagram needs --format svg, png or dot\n");
        return 2;
    }
    if (format != "dot" && !diagram::parseImageFormat(format)) {
        std::fprintf(stderr, "kiln: error: --format takes svg, png or dot, got '%s'\n",
                     format.c_str());
        return 2;
    }
    auto reader = openTrace(request.tracePath);
    if (!reader) return 2;
    std::optional<trace::GraphRow> graph;
    if (!fetch(reader->graph(*graphId), graph)) return 2;
    if (!graph) {
        std::fprintf(stderr, "kiln: error: %s has no graph %lld (`kiln compiles` lists them)\n",
                     request.tracePath.c_str(), static_cast<long long>(*graphId));
        return 1;
    }
    const char* kind = request.preFusion ? "pre_fusion" : "post_fusion";
    std::optional<trace::DiagramRow> found;
    if (!fetch(reader->diagram(*graphId, kind), found)) return 2;
    if (!found) {
        std::fprintf(stderr, "kiln: error: graph %lld (compile %s, run %lld) has no %s diagram%s\n",
                     static_cast<long long>(*graphId), graph->compileId.c_str(),
                     static_cast<long long>(graph->runId),
                     request.preFusion ? "pre-fusion" : "post-fusion",
                     request.preFusion ? "" : " (pass --pre-fusion for the graph before fusion)");
        return 1;
    }
    std::string bytes = found->dot;
    if (format != "dot") {
        auto image = diagram::renderDot(found->dot, *diagram::parseImageFormat(format));
        if (!image.ok()) {
            printError(image.error());
            return 1;
        }
        bytes = std::move(image).value();
    }
    if (!writeOutput(request.output, bytes)) {
        std::fprintf(stderr, "kiln: error: cannot write '%s'\n", request.output.c_str());
        return 1;
    }
    return 0;
}

int listKernels(const std::string& tracePath, const std::string& runFlag,
                const std::string& graphFlag) {
    std::unique_ptr<trace::TraceReader> reader;
    int64_t run = 0;
    std::vector<trace::KernelRow> kernels;
    if (!graphFlag.empty()) {
        auto graphId = parseId(graphFlag, "--graph");
        if (!graphId) return 2;
        reader = openTrace(tracePath);
        if (!reader) return 2;
        std::optional<trace::GraphRow> graph;
        if (!fetch(reader->graph(*graphId), graph)) return 2;
        if (!graph) {
            std::fprintf(stderr, "kiln: error: %s has no graph %lld (`kiln compiles` lists them)\n",
                         tracePath.c_str(), static_cast<long long>(*graphId));
            return 1;
        }
        run = graph->runId;
        if (!fetch(reader->graphKernels(*graphId), kernels)) return 2;
    } else {
        if (!openRun(tracePath, runFlag, reader, run)) return 2;
        if (!fetch(reader->kernels(run), kernels)) return 2;
    }
    std::vector<trace::KernelLaunchStats> stats;
    if (!fetch(reader->kernelLaunchStats(run), stats)) return 2;
    std::map<int64_t, trace::KernelLaunchStats> byKernel;
    for (const auto& s : stats)
        byKernel[s.kernelId] = s;
    if (kernels.empty()) {
        std::printf("no kernels\n");
        return 0;
    }
    // `pass`: the AOT graph the kernel belongs to (forward, backward, inference).
    std::printf("%-5s %-40s %-10s %-9s %8s %10s %10s  %s\n", "graph", "kernel", "kind", "pass",
                "launches", "total ms", "median us", "fused nodes");
    for (const auto& k : kernels) {
        auto s = byKernel.find(k.kernelId);
        int64_t launches = s == byKernel.end() ? 0 : s->second.count;
        std::string graph = k.graphId ? std::to_string(k.graphId) : "-";
        std::string pass = k.graphKind.starts_with("aot_") ? k.graphKind.substr(4) : "-";
        std::printf("%-5s %-40s %-10s %-9s %8lld %10s %10s  %s\n", graph.c_str(), k.name.c_str(),
                    k.kind.c_str(), pass.c_str(), static_cast<long long>(launches),
                    launches ? formatMs(s->second.totalNs).c_str() : "-",
                    launches ? formatUs(s->second.medianNs).c_str() : "-", k.fusedNodes.c_str());
    }
    std::vector<trace::AutotuneChoiceRow> choices;
    if (!fetch(reader->autotuneChoicesOfRun(run), choices)) return 2;
    printAutotuning(kernels, choices);
    return 0;
}

} // namespace kiln::app
