// SPDX-License-Identifier: MIT
#include "capture_commands.h"

#include "trace_commands.h"

#include <cstdio>
#include <map>

namespace kiln::app {

namespace {

template <typename T>
bool fetch(Expected<std::vector<T>> result, std::vector<T>& into) {
    if (!result.ok()) {
        std::fprintf(stderr, "kiln: %s\n", result.error().render().c_str());
        return false;
    }
    into = std::move(result).value();
    return true;
}

std::string bytesText(int64_t bytes) {
    char text[32];
    if (bytes < 1024)
        std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
    else if (bytes < 1024 * 1024)
        std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
    else
        std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024 * 1024));
    return text;
}

/// "forward graph 3 (9 ops, saves 3 tensors, 640 B)": one AOT graph, as `kiln compiles` and
/// `kiln graph` name it.
bool isPostGrad(const trace::GraphRow& g) {
    return g.kind.starts_with("post_grad_");
}

/// "forward graph 3 (14 ops, saves ...)", "post-grad forward graph 5 (12 ops)".
std::string aotGraphSummary(const trace::GraphRow& g) {
    std::string kind = isPostGrad(g) ? "post-grad " + g.kind.substr(10) : g.kind.substr(4);
    std::string name =
        kind + " graph " + std::to_string(g.id) + " (" + std::to_string(g.opCount) + " ops";
    if (g.kind == "aot_forward" && !g.savedTensors.empty()) // imported runs do not say
        name += ", saves " + std::to_string(g.savedCount) + " tensors, " + bytesText(g.savedBytes);
    return name + ")";
}

/// What AOT autograd made of a Dynamo graph; the joint graph is left out (kiln graph shows it).
std::vector<trace::GraphRow> aotGraphsOf(trace::TraceReader& reader, int64_t graphId,
                                         bool withJoint) {
    std::vector<trace::GraphRow> graphs;
    if (!fetch(reader.aotGraphs(graphId), graphs)) return {};
    if (!withJoint)
        std::erase_if(graphs, [](const trace::GraphRow& g) { return g.kind == "aot_joint"; });
    return graphs;
}

} // namespace

int listCompiles(const std::string& tracePath, const std::string& runFlag) {
    std::unique_ptr<trace::TraceReader> reader;
    int64_t run = 0;
    if (!openRun(tracePath, runFlag, reader, run)) return 2;
    std::vector<trace::FrameRow> frames;
    std::vector<trace::CompileRow> compiles;
    std::vector<trace::RecompileRow> recompiles;
    std::vector<trace::GraphRow> graphs;
    if (!fetch(reader->frames(run), frames) || !fetch(reader->compiles(run), compiles) ||
        !fetch(reader->recompiles(run), recompiles) || !fetch(reader->graphs(run), graphs))
        return 2;
    std::map<int64_t, const trace::FrameRow*> frameById;
    for (const auto& f : frames)
        frameById[f.frameId] = &f;
    std::map<std::string, const trace::GraphRow*> graphOf;
    for (const auto& g : graphs)
        graphOf[g.compileId] = &g;
    // `graph` is the graph's row id, what `kiln kernels --graph` and `kiln export-diagram` take.
    std::printf("%-8s %-40s %-10s %-8s %9s %-10s %4s %5s\n", "compile", "function", "reason",
                "status", "ms", "backend", "ops", "graph");
    for (const auto& c : compiles) {
        auto f = frameById.find(c.frameId);
        std::string where = f == frameById.end() ? "?"
                                                 : f->second->function + " (line " +
                                                       std::to_string(f->second->kind == "resume"
                                                                          ? f->second->resumeLine
                                                                          : f->second->line) +
                                                       ")";
        double ms = c.durationNs ? static_cast<double>(*c.durationNs) * 1e-6 : 0.0;
        auto g = graphOf.find(c.compileId);
        bool hasGraph = g != graphOf.end();
        std::printf("%-8s %-40s %-10s %-8s %9.3f %-10s %4s %5s\n", c.compileId.c_str(),
                    where.c_str(), c.reason.c_str(),
                    c.status.empty() ? "running" : c.status.c_str(), ms, c.backend.c_str(),
                    hasGraph ? std::to_string(g->second->opCount).c_str() : "-",
                    hasGraph ? std::to_string(g->second->id).c_str() : "-");
        if (!c.failure.empty()) std::printf("         %s\n", c.failure.c_str());
        if (hasGraph) {
            std::string aot;
            for (const trace::GraphRow& a : aotGraphsOf(*reader, g->second->id, false))
                if (!isPostGrad(a)) aot += (aot.empty() ? "" : ", ") + aotGraphSummary(a);
            if (!aot.empty()) std::printf("         aot: %s\n", aot.c_str());
        }
        for (const auto& r : recompiles)
            if (r.compileId == c.compileId)
                if (r.guardSource.empty()) // an imported reason in words Kiln does not parse
                    std::printf("         %s\n", r.reason.c_str());
                else
                    std::printf("         entry %s failed: %s (expected %s, actual %s)\n",
                                r.failedCompileId.c_str(), r.guardSource.c_str(),
                                r.expected.c_str(), r.actual.c_str());
    }
    return 0;
}

int listBreaks(const std::string& tracePath, const std::string& runFlag) {
    std::unique_ptr<trace::TraceReader> reader;
    int64_t run = 0;
    if (!openRun(tracePath, runFlag, reader, run)) return 2;
    std::vector<trace::GraphBreakRow> breaks;
    if (!fetch(reader->graphBreaks(run), breaks)) return 2;
    for (const auto& b : breaks) {
        std::printf("#%d [%s] %s:%d:%d %s\n    %s\n", b.order, b.compileId.c_str(), b.file.c_str(),
                    b.line, b.column, b.reasonKind.c_str(), b.reason.c_str());
        std::fputs(b.userStack.c_str(), stdout);
    }
    if (breaks.empty()) std::printf("no graph breaks\n");
    return 0;
}

int showGraph(const std::string& tracePath, const std::string& compileId,
              const std::string& runFlag) {
    std::unique_ptr<trace::TraceReader> reader;
    int64_t run = 0;
    if (!openRun(tracePath, runFlag, reader, run)) return 2;
    std::vector<trace::GraphRow> graphs;
    std::vector<trace::GuardRow> guards;
    if (!fetch(reader->graphs(run), graphs) || !fetch(reader->guards(run, compileId), guards))
        return 2;
    bool found = false;
    for (const auto& g : graphs) {
        if (g.compileId != compileId) continue;
        found = true;
        std::printf("# graph %lld (kiln kernels/export-diagram --graph %lld)\n%s\n",
                    static_cast<long long>(g.id), static_cast<long long>(g.id),
                    g.readableCode.c_str());
        // What AOT autograd made of it, as TORCH_LOGS=aot_graphs prints it.
        for (const trace::GraphRow& a : aotGraphsOf(*reader, g.id, true)) {
            // Imported runs: Inductor's post-grad graphs (what it lowered) follow the AOT ones.
            std::printf("# %s%s\n", isPostGrad(a) ? "Inductor " : "AOT ",
                        aotGraphSummary(a).c_str());
            if (a.kind == "aot_forward")
                for (const trace::SavedTensor& t : trace::savedTensorsOf(a))
                    std::printf("#   saves %s: %s%s, %s\n", t.name.c_str(),
                                t.dtype.substr(t.dtype.rfind('.') + 1).c_str(), t.shape.c_str(),
                                bytesText(t.bytes).c_str());
            std::printf("%s\n", a.readableCode.c_str());
        }
    }
    if (!found && guards.empty()) {
        std::fprintf(stderr, "kiln: run %lld has no compile '%s'\n", static_cast<long long>(run),
                     compileId.c_str());
        return 2;
    }
    if (!found) std::printf("(compile %s produced no graph)\n", compileId.c_str());
    std::printf("GUARDS:\n");
    size_t notInstalled = 0;
    for (const auto& g : guards) {
        if (!g.installed) {
            ++notInstalled;
            continue;
        }
        std::printf("  %-12s %s\n", g.kind.c_str(), g.expression.c_str());
    }
    if (notInstalled == 0) return 0;
    // What the entry read but does not check: a change there reuses it (PyTorch 2.3's default).
    std::printf("NOT GUARDED (read through an nn.Module; torch._dynamo.config.guard_nn_modules "
                "= False):\n");
    for (const auto& g : guards)
        if (!g.installed) std::printf("  %-12s %s\n", g.kind.c_str(), g.expression.c_str());
    return 0;
}

} // namespace kiln::app
