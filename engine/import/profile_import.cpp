// SPDX-License-Identifier: MIT
// The profile import (profile_import.h): the run as the trace has it (readRun), the matched rows
// written in one transaction (write), and importProfile that strings reading, matching and
// writing together.
#include "import/profile_import.h"

#include "import/payload_text.h"
#include "import/profile_match.h"
#include "trace/sqlite_handle.h"
#include "trace/trace_writer.h"

#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sqlite3.h>

namespace kiln::importer {
namespace {

using nlohmann::json;
using namespace profile_detail;

Diagnostic importError(std::string message) {
    return makeDiagnostic("ImportError", std::move(message));
}

Status readRun(const trace::Connection& db, int64_t runId, RunState& run) {
    auto started = trace::Statement::prepare(db, "SELECT started_at_ns FROM runs WHERE id = ?1");
    if (!started) return started.error();
    started->bindInt(1, runId);
    auto row = started->step("cannot read");
    if (!row) return row.error();
    if (!row.value())
        return importError("trace '" + db.path() + "' has no run " + std::to_string(runId) +
                           " (`kiln runs` lists them)");
    run.startedAtNs = started->columnInt(0);
    auto launches =
        trace::Statement::prepare(db, "SELECT count(*) FROM kernel_launches WHERE run_id = ?1");
    if (!launches) return launches.error();
    launches->bindInt(1, runId);
    if (auto r = launches->step("cannot read"); !r) return r.error();
    if (int64_t n = launches->columnInt(0); n > 0)
        return importError("run " + std::to_string(runId) + " of '" + db.path() + "' already has " +
                           std::to_string(n) +
                           " kernel launches (a Kiln run, or a profile imported before); import "
                           "the profile into a run imported from a TORCH_TRACE log, or into a "
                           "new trace with -o");
    auto latest = trace::Statement::prepare(
        db, "SELECT max(coalesce((SELECT max(start_ns + duration_ns) FROM events WHERE run_id = "
            "?1), 0), coalesce((SELECT max(start_ns + coalesce(duration_ns, 0)) FROM compiles "
            "WHERE run_id = ?1), 0))");
    if (!latest) return latest.error();
    latest->bindInt(1, runId);
    if (auto r = latest->step("cannot read"); !r) return r.error();
    run.latestNs = latest->columnInt(0);

    // The run's kernels in kernel id order: the log import numbered them output code by output
    // code, so walking the output codes (import_extras, log order) regroups them.
    struct Row {
        int64_t kernelId, graphId;
        std::string compileId, name, graphKind;
        int32_t graphIndex;
    };
    std::vector<Row> rows;
    auto kernels = trace::Statement::prepare(
        db, "SELECT kernel_id, coalesce(graph_id, 0), compile_id, graph_index, name, "
            "coalesce(graph_kind, '') FROM kernels WHERE run_id = ?1 ORDER BY kernel_id");
    if (!kernels) return kernels.error();
    kernels->bindInt(1, runId);
    for (;;) {
        auto r = kernels->step("cannot read");
        if (!r) return r.error();
        if (!r.value()) break;
        rows.push_back({kernels->columnInt(0), kernels->columnInt(1), kernels->columnText(2),
                        kernels->columnText(4), kernels->columnText(5),
                        int32_t(kernels->columnInt(3))});
        run.kernelsByName[rows.back().name].push_back(rows.back().kernelId);
        run.nextKernelId = std::max(run.nextKernelId, rows.back().kernelId + 1);
    }
    std::map<std::string, std::set<std::string>> aotKinds; // compile id -> graph kinds
    auto graphs = trace::Statement::prepare(
        db, "SELECT compile_id, coalesce(kind, 'dynamo') FROM graphs WHERE run_id = ?1");
    if (!graphs) return graphs.error();
    graphs->bindInt(1, runId);
    for (;;) {
        auto r = graphs->step("cannot read");
        if (!r) return r.error();
        if (!r.value()) break;
        aotKinds[graphs->columnText(0)].insert(graphs->columnText(1));
    }
    auto extras = trace::Statement::prepare(
        db, "SELECT kind, coalesce(compile_id, ''), coalesce(payload, '') FROM import_extras "
            "WHERE run_id = ?1 AND kind IN ('inductor_output_code', "
            "'artifact:fx_graph_cache_miss', 'artifact:fx_graph_cache_hit') ORDER BY line, id");
    if (!extras) return extras.error();
    extras->bindInt(1, runId);
    size_t cursor = 0;
    std::map<std::string, Target*> lastOfCompile;
    std::map<std::string, int> codesOfCompile;
    for (;;) {
        auto r = extras->step("cannot read");
        if (!r) return r.error();
        if (!r.value()) break;
        std::string kind = extras->columnText(0), compileId = extras->columnText(1);
        std::string payload = extras->columnText(2);
        if (kind != "inductor_output_code") {
            // The cache artifact follows the output code it keys (logged after compiling, or
            // after loading a hit), within the same compile.
            json artifact = json::parse(payload, nullptr, false);
            auto last = lastOfCompile.find(compileId);
            if (artifact.is_object() && artifact.contains("key") && artifact["key"].is_string() &&
                last != lastOfCompile.end() && last->second->key.empty()) {
                last->second->key = artifact["key"].get<std::string>();
                run.byKey[last->second->key] = last->second;
            }
            continue;
        }
        std::vector<KernelEvent> defined = parseOutputCode(payload);
        bool ours = cursor + defined.size() <= rows.size();
        for (size_t i = 0; ours && i < defined.size(); ++i)
            ours =
                rows[cursor + i].compileId == compileId && rows[cursor + i].name == defined[i].name;
        if (!ours) continue; // an output code the log import kept without kernels rows
        auto target = std::make_unique<Target>();
        target->compileId = compileId;
        target->linked = true;
        if (!defined.empty()) {
            target->graphIndex = rows[cursor].graphIndex;
            target->graphId = rows[cursor].graphId;
            target->graphKind = rows[cursor].graphKind;
        }
        for (size_t i = 0; i < defined.size(); ++i)
            target->kernelsByName[defined[i].name] = rows[cursor + i].kernelId;
        cursor += defined.size();
        // Which AOT graph: the log import's graph_kind, else the compile's AOT graphs (an
        // inference graph, or a forward's output code first and its backward's second).
        int nth = codesOfCompile[compileId]++;
        const std::set<std::string>& kinds = aotKinds[compileId];
        if (target->graphKind.empty()) {
            if (kinds.count("aot_inference"))
                target->graphKind = "aot_inference";
            else if (kinds.count("aot_forward"))
                target->graphKind = nth == 0 ? "aot_forward" : "aot_backward";
        }
        if (defined.empty() && !rows.empty()) {
            // No generated kernels: the graph is still the compile's Dynamo graph.
            for (const Row& row : rows)
                if (row.compileId == compileId) {
                    target->graphIndex = row.graphIndex;
                    target->graphId = row.graphId;
                    break;
                }
        }
        target->externs = parseExternCalls(payload);
        lastOfCompile[compileId] = target.get();
        run.logGraphs.push_back(std::move(target));
    }
    return Status();
}

Status write(const trace::Connection& db, int64_t runId, const Matcher& m,
             ProfileSummary& summary) {
    auto kernel = trace::Statement::prepare(
        db, "INSERT INTO kernels(run_id, graph_id, compile_id, graph_index, kernel_id, name, kind, "
            "fused_nodes, source_code, launch_config, graph_kind) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
            "?7, ?8, ?9, NULL, ?10)");
    if (!kernel) return kernel.error();
    auto launch = trace::Statement::prepare(
        db, "INSERT INTO kernel_launches(run_id, kernel_id, start_ns, end_ns, device, grid, block, "
            "registers, shared_memory) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    if (!launch) return launch.error();
    auto event = trace::Statement::prepare(
        db, "INSERT INTO events(run_id, category, name, compile_id, start_ns, duration_ns, "
            "detail_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!event) return event.error();
    auto extra = trace::Statement::prepare(
        db, "INSERT INTO import_extras(run_id, line, kind, compile_id, envelope, payload) "
            "VALUES (?1, ?2, ?3, ?4, ?5, NULL)");
    if (!extra) return extra.error();
    if (Status s = db.exec("BEGIN IMMEDIATE", "cannot lock"); !s) return s;
    auto fail = [&](Status s) {
        (void)db.exec("ROLLBACK", "cannot roll back");
        return s;
    };
    for (const NewKernel& k : m.newKernels) {
        kernel->bindInt(1, runId);
        if (k.graphId)
            kernel->bindInt(2, k.graphId);
        else
            kernel->bindNull(2);
        kernel->bindText(3, k.compileId);
        kernel->bindInt(4, k.graphIndex);
        kernel->bindInt(5, k.kernelId);
        kernel->bindText(6, k.name);
        kernel->bindText(7, k.kind);
        kernel->bindTextOrNull(8, k.nodes);
        kernel->bindTextOrNull(9, k.source);
        kernel->bindTextOrNull(10, k.graphKind);
        if (Status s = kernel->run("cannot write to"); !s) return fail(s);
    }
    for (const Launch& l : m.launches) {
        launch->bindInt(1, runId);
        launch->bindInt(2, l.kernelId);
        launch->bindInt(3, l.startNs);
        launch->bindInt(4, l.endNs);
        launch->bindText(5, l.device);
        launch->bindTextOrNull(6, l.grid);
        launch->bindTextOrNull(7, l.block);
        launch->bindInt(8, l.registers);
        launch->bindInt(9, l.sharedMemory);
        if (Status s = launch->run("cannot write to"); !s) return fail(s);
    }
    for (const EventRow& e : m.events) {
        event->bindInt(1, runId);
        event->bindText(2, e.category);
        event->bindText(3, e.name);
        event->bindTextOrNull(4, e.compileId);
        event->bindInt(5, e.startNs);
        event->bindInt(6, e.durationNs);
        event->bindText(7, e.detail);
        if (Status s = event->run("cannot write to"); !s) return fail(s);
    }
    for (const auto& [key, u] : m.unmatched) {
        // bindText does not copy: the texts must live until run().
        size_t tab = key.find('\t');
        std::string kind = "profile:" + key.substr(0, tab);
        std::string compileId = u.compileId == "profile" ? "" : u.compileId;
        std::string envelope = json{
            {"name", key.substr(tab + 1)},
            {"where", key.substr(0, tab)},
            {"count", u.count},
            {"total_us", u.totalUs},
            {"profile",
             summary.profilePath}}.dump();
        extra->bindInt(1, runId);
        extra->bindInt(2, u.firstIndex);
        extra->bindText(3, kind);
        extra->bindTextOrNull(4, compileId);
        extra->bindText(5, envelope);
        if (Status s = extra->run("cannot write to"); !s) return fail(s);
        ++summary.extras;
    }
    return db.exec("COMMIT", "cannot commit to");
}

} // namespace

Expected<ProfileSummary> importProfile(const std::string& profilePath, const std::string& tracePath,
                                       int64_t runId, const ImportOptions& options) {
    auto profile = readProfile(profilePath, options);
    if (!profile) return profile.error();
    ProfileSummary summary;
    summary.profilePath = profilePath;
    summary.records = profile->records;
    summary.events = int64_t(profile->events.size());
    summary.skipped = profile->skipped;
    {
        // Opening a writer checks the file is a Kiln trace and upgrades an older schema.
        auto writer = trace::TraceWriter::open(tracePath);
        if (!writer) return writer.error();
        if (runId == 0) {
            trace::RunInfo info;
            info.workloadPath = profilePath;
            info.mode = "imported";
            info.argv = {"kiln", "import", profilePath};
            info.pid = -1;
            double firstUs = 0;
            for (size_t i = 0; i < profile->events.size(); ++i)
                if (i == 0 || profile->events[i].tsUs < firstUs) firstUs = profile->events[i].tsUs;
            if (profile->baseTimeNs > 0)
                info.startedAtNs = profile->baseTimeNs + std::llround(firstUs * 1000.0);
            auto id = writer.value()->beginRun(info);
            if (!id) return id.error();
            runId = id.value();
            summary.newRun = true;
            if (Status s = writer.value()->finishRun(trace::RunStatus::Ok, 0); !s) return s.error();
        }
    }
    summary.runId = runId;
    auto db = trace::Connection::open(tracePath, SQLITE_OPEN_READWRITE);
    if (!db) return db.error();
    db->setBusyTimeout(30000);
    RunState run;
    if (Status s = readRun(db.value(), runId, run); !s) return s.error();
    if (summary.newRun) run.latestNs = 0;
    Matcher matcher(profile.value(), run, summary);
    matcher.match();
    if (Status s = write(db.value(), runId, matcher, summary); !s) {
        if (summary.newRun)
            (void)db->exec("UPDATE runs SET status = 'error', error_type = 'ImportError', "
                           "error_message = 'the profile could not be written' WHERE id = " +
                               std::to_string(runId),
                           "cannot mark");
        return s.error();
    }
    return summary;
}

} // namespace kiln::importer
