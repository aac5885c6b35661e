// SPDX-License-Identifier: MIT
// `kiln import PROFILE.json`'s engine side: real torch.profiler Chrome traces of PyTorch 2.11
// CPU runs (tests/import/fixtures, see the README there) matched to the runs imported from the
// same processes' TORCH_TRACE logs, a hand-written CUDA profile in kineto's field names, and
// damaged profiles that must change nothing.
#include "import/profile_import.h"
#include "import/torch_trace_import.h"
#include "trace/sqlite_handle.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sqlite3.h>
#include <sstream>

using namespace kiln;

namespace {

std::string fixture(const std::string& name) {
    const char* root = std::getenv("KILN_SOURCE_DIR");
    return std::string(root ? root : ".") + "/tests/import/fixtures/" + name;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeAll(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

/// The extern ops a compiled CPU graph calls (what the wrapper's extern_kernels.* and
/// torch.ops.aten.* calls are profiled as).
const std::set<std::string> kExternOps = {
    "aten::mm", "aten::addmm", "aten::_scaled_dot_product_flash_attention_for_cpu",
    "aten::_scaled_dot_product_flash_attention_for_cpu_backward"};

/// The profile's durations of the events named in \p names, in ns as the import rounds them.
std::vector<int64_t> profileDurations(const std::string& path, const std::set<std::string>& names) {
    nlohmann::json doc = nlohmann::json::parse(readAll(path));
    std::vector<int64_t> out;
    for (const auto& e : doc["traceEvents"])
        if (e.value("ph", "") == "X" && names.count(e.value("name", "")))
            out.push_back(std::llround(e["dur"].get<double>() * 1000.0));
    std::sort(out.begin(), out.end());
    return out;
}

struct Launch {
    std::string kernel, kind, device, grid, block;
    int64_t startNs, endNs, registers, sharedMemory;
};

std::vector<Launch> launchesOf(const std::string& trace, int64_t runId) {
    auto db = trace::Connection::open(trace, SQLITE_OPEN_READONLY);
    KILN_ASSERT(db.ok(), "test trace must open");
    auto stmt = trace::Statement::prepare(
        db.value(), "SELECT k.name, k.kind, l.device, coalesce(l.grid, ''), coalesce(l.block, ''), "
                    "l.start_ns, l.end_ns, l.registers, l.shared_memory FROM kernel_launches l "
                    "JOIN kernels k ON k.run_id = l.run_id AND k.kernel_id = l.kernel_id "
                    "WHERE l.run_id = ?1 ORDER BY l.id");
    KILN_ASSERT(stmt.ok(), "query must prepare");
    stmt->bindInt(1, runId);
    std::vector<Launch> out;
    while (stmt->step("read").value())
        out.push_back({stmt->columnText(0), stmt->columnText(1), stmt->columnText(2),
                       stmt->columnText(3), stmt->columnText(4), stmt->columnInt(5),
                       stmt->columnInt(6), stmt->columnInt(7), stmt->columnInt(8)});
    return out;
}

int64_t count(const std::string& trace, const std::string& sql) {
    auto db = trace::Connection::open(trace, SQLITE_OPEN_READONLY);
    KILN_ASSERT(db.ok(), "test trace must open");
    auto n = db->queryInt(sql.c_str(), "read");
    KILN_ASSERT(n.ok(), "count must run");
    return n.value();
}

} // namespace

class TestProfileImport : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string path(const std::string& name) const {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }

    /// Imports fixture \p stem's trimmed log into a new trace; returns the trace path.
    std::string importLog(const std::string& stem, const std::string& tag = "") {
        std::string trace = path(stem + tag + ".kiln");
        auto writer = trace::TraceWriter::open(trace);
        KILN_ASSERT(writer.ok(), "test trace must open");
        auto summary =
            importer::importTorchTraceLog(fixture(stem + ".trimmed.log"), *writer.value());
        KILN_ASSERT(summary.ok() && summary->runId == 1, "the fixture log must import as run 1");
        return trace;
    }

    /// Each launch per extern kernel, checked against the profile: \p launches launches in all
    /// (one per extern call event), \p perKernel each, durations equal to the JSON's `dur`.
    void checkCpuFixture(const std::string& stem, int64_t launches, int64_t kernels,
                         int64_t calls) {
        std::string trace = importLog(stem);
        auto summary = importer::importProfile(fixture(stem + ".profile.json"), trace, 1);
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.error().render().c_str());
        const importer::ProfileSummary& s = summary.value();
        QCOMPARE(s.graphCalls, calls);
        QCOMPARE(s.linkedCalls, calls); // every call's key names an output code of the log
        QCOMPARE(s.launches, launches);
        QCOMPARE(s.externLaunches, launches);
        QCOMPARE(s.kernelsAdded, kernels);
        QCOMPARE(s.unmatchedGpu, int64_t(0));

        std::vector<Launch> rows = launchesOf(trace, 1);
        QCOMPARE(int64_t(rows.size()), launches);
        std::map<std::string, int64_t> perKernel;
        std::vector<int64_t> durations;
        for (const Launch& l : rows) {
            QCOMPARE(l.device, std::string("cpu"));
            QVERIFY(l.kind == "extern");
            QVERIFY(l.startNs > 0);
            durations.push_back(l.endNs - l.startNs);
        }
        std::sort(durations.begin(), durations.end());
        QCOMPARE(durations, profileDurations(fixture(stem + ".profile.json"), kExternOps));
        // Each extern kernel ran once per graph call: calls / graphs launches each.
        auto db = trace::Connection::open(trace, SQLITE_OPEN_READONLY);
        QVERIFY(db.ok());
        auto perKernelQuery = trace::Statement::prepare(
            db.value(), "SELECT count(*) FROM kernel_launches WHERE run_id = 1 GROUP BY kernel_id");
        QVERIFY(perKernelQuery.ok());
        while (perKernelQuery->step("read").value())
            QCOMPARE(perKernelQuery->columnInt(0), int64_t(3)); // the 3 profiled steps
        // The graph calls are timeline events with the calls' own durations.
        QCOMPARE(count(trace, "SELECT count(*) FROM events WHERE run_id = 1 AND category = 'call'"),
                 calls);
        // The CPU kernels' time is not in any launch, but in the graph calls: each graph's
        // calls outlast its extern calls.
        for (const auto& g : s.graphs) {
            QVERIFY(g.linked);
            QVERIFY(g.totalNs > g.externNs);
            QVERIFY(g.externNs > 0);
        }
        // Placed after the compiles, where the profile ran (its clock is the log's).
        QVERIFY(count(trace, "SELECT min(start_ns) FROM kernel_launches WHERE run_id = 1") >
                count(trace, "SELECT max(start_ns) FROM compiles WHERE run_id = 1"));
        // A second profile into the same run would double every launch: refused, nothing written.
        auto again = importer::importProfile(fixture(stem + ".profile.json"), trace, 1);
        QVERIFY(!again.ok());
        QVERIFY(again.error().render().find("already has") != std::string::npos);
        QCOMPARE(count(trace, "SELECT count(*) FROM kernel_launches"), launches);
    }

private slots:
    // Expected numbers from the fixtures, independently of Kiln:
    //   python3 -c "import json;
    //   ev=json.load(open('cpu_train_default.profile.json'))['traceEvents'];
    //     print(sum(e.get('name') in {'aten::mm','aten::addmm',
    //       'aten::_scaled_dot_product_flash_attention_for_cpu',
    //       'aten::_scaled_dot_product_flash_attention_for_cpu_backward'} for e in ev))"
    // gives 42 (aten::mm 24, aten::addmm 12, the attention and its backward 3 each); the same for
    // cpu_infer_default and cpu_infer_max_autotune gives 15 (aten::addmm 12, attention 3).
    // `## Call CompiledFxGraph` events: 6 (3 forward, 3 backward), 3 and 3. The wrappers of the
    // called graphs (grep extern_kernels./torch.ops.aten. in their output code): training
    // forward 4 addmm + attention, backward 8 mm + attention backward: 14 extern kernels;
    // inference 4 addmm (max-autotune: 1 bias_addmm + 3 addmm) + attention: 5.
    void trainingProfileMatchesItsLog() { checkCpuFixture("cpu_train_default", 42, 14, 6); }
    void inferenceProfileMatchesItsLog() { checkCpuFixture("cpu_infer_default", 15, 5, 3); }
    void maxAutotuneProfileMatchesItsLog() {
        checkCpuFixture("cpu_infer_max_autotune", 15, 5, 3);
        // bias_addmm takes the bias's first row (aten::select) before its aten::addmm: that
        // select is an op of the graph no extern call names, counted and kept.
        std::string trace = path("cpu_infer_max_autotune.kiln");
        QCOMPARE(count(trace, "SELECT count(*) FROM import_extras WHERE kind = 'profile:in graph' "
                              "AND json_extract(envelope, '$.name') = 'aten::select' AND "
                              "json_extract(envelope, '$.count') = 3"),
                 int64_t(1));
    }

    void cppKernelsProfiledByName() {
        // cpu_kernel_profile (gen_kernel_profile.py): Inductor's C++ kernel profiled by name
        // under cpp.enable_kernel_profile, as "graph_0_cpp_fused_add_cos_relu_sin_sum_0" inside
        // each of the 3 graph calls: the log's kernel gets 3 CPU launches with the JSON's
        // durations (python3 -c "import json; print([e['dur'] for e in json.load(open(
        // 'cpu_kernel_profile.profile.json'))['traceEvents'] if e['name'].startswith(
        // 'graph_0_')])").
        std::string trace = importLog("cpu_kernel_profile");
        auto summary =
            importer::importProfile(fixture("cpu_kernel_profile.profile.json"), trace, 1);
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.error().render().c_str());
        QCOMPARE(summary->graphCalls, int64_t(3));
        QCOMPARE(summary->cpuKernelLaunches, int64_t(3));
        QCOMPARE(summary->launches, int64_t(3));
        QCOMPARE(summary->unmatchedInGraph, int64_t(0));
        std::vector<Launch> rows = launchesOf(trace, 1);
        QCOMPARE(rows.size(), size_t(3));
        std::vector<int64_t> durations;
        for (const Launch& l : rows) {
            QCOMPARE(l.kind, std::string("pointwise"));
            QCOMPARE(l.device, std::string("cpu"));
            durations.push_back(l.endNs - l.startNs);
        }
        std::sort(durations.begin(), durations.end());
        QCOMPARE(durations, profileDurations(fixture("cpu_kernel_profile.profile.json"),
                                             {"graph_0_cpp_fused_add_cos_relu_sin_sum_0"}));
    }

    void trainingKernelsSayTheirPass() {
        // The log import now says which AOT graph a kernel computes (forward output code first).
        std::string trace = path("pass.kiln");
        {
            auto writer = trace::TraceWriter::open(trace);
            QVERIFY(writer.ok());
            QVERIFY(importer::importTorchTraceLog(fixture("cpu_train_default.trimmed.log"),
                                                  *writer.value())
                        .ok());
        }
        // Compile 0/1: one forward and one backward output code; 1/0 an inference graph.
        QVERIFY(count(trace, "SELECT count(*) FROM kernels WHERE compile_id = '0/1' AND "
                             "graph_kind = 'aot_forward'") > 0);
        QVERIFY(count(trace, "SELECT count(*) FROM kernels WHERE compile_id = '0/1' AND "
                             "graph_kind = 'aot_backward'") > 0);
        QCOMPARE(count(trace, "SELECT count(*) FROM kernels WHERE compile_id = '1/0' AND "
                              "coalesce(graph_kind, '') <> 'aot_inference'"),
                 int64_t(0));
    }

    void profileAloneMakesARun() {
        // No log: the graph calls' extern ops become the run's kernels.
        std::string trace = path("alone.kiln");
        auto summary = importer::importProfile(fixture("cpu_train_default.profile.json"), trace, 0);
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.error().render().c_str());
        QVERIFY(summary->newRun);
        QCOMPARE(summary->runId, int64_t(1));
        QCOMPARE(summary->launches, int64_t(42));
        QCOMPARE(summary->linkedCalls, int64_t(0));
        // Forward: addmm #0..#3 and the attention; backward: mm #0..#7 and its backward.
        QCOMPARE(summary->kernelsAdded, int64_t(14));
        QCOMPARE(count(trace, "SELECT count(*) FROM kernels WHERE compile_id = '0/1' AND "
                              "graph_kind = 'aot_forward'"),
                 int64_t(5));
        QCOMPARE(count(trace, "SELECT count(*) FROM kernels WHERE graph_kind = 'aot_backward'"),
                 int64_t(9));
        auto reader = trace::TraceReader::open(trace);
        QVERIFY(reader.ok());
        auto runs = reader.value()->listRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(1));
        QCOMPARE(runs->front().mode, std::string("imported"));
    }

    // A CUDA profile written by hand in kineto's field names (ChromeTraceLogger: "kernel" with
    // args "correlation", "grid", "block", "registers per thread", "shared memory"; the CPU side's
    // "cuda_runtime" cudaLaunchKernel with the same "correlation").
    void cudaKernelsByNameAndUnderExternCalls() {
        const char* json = R"({"schemaVersion": 1, "baseTimeNanoseconds": 1700000000000000000,
 "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 10, "tid": 10, "ts": 100.0, "dur": 100.0},
  {"ph": "X", "cat": "cpu_op", "name": "## Call CompiledFxGraph fabc ##", "pid": 10, "tid": 10, "ts": 105.0, "dur": 80.0},
  {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 10, "tid": 10, "ts": 110.0, "dur": 10.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 111.0, "dur": 5.0, "args": {"correlation": 11, "External id": 3}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 125.0, "dur": 20.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 130.0, "dur": 5.0, "args": {"correlation": 12}},
  {"ph": "X", "cat": "cpu_op", "name": "triton_red_fused_sum_1", "pid": 10, "tid": 10, "ts": 150.0, "dur": 10.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 151.0, "dur": 5.0, "args": {"correlation": 13}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 10, "ts": 300.0, "dur": 10.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 301.0, "dur": 5.0, "args": {"correlation": 20}},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 120.0, "dur": 2.5,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 11, "registers per thread": 24, "shared memory": 0, "blocks per SM": 0.5, "warps per SM": 2.0, "grid": [64, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 9}},
  {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32", "pid": 0, "tid": 7, "ts": 140.0, "dur": 12.25,
   "args": {"device": 0, "stream": 7, "correlation": 12, "registers per thread": 168, "shared memory": 65536, "grid": [8, 4, 1], "block": [256, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "triton_red_fused_sum_1", "pid": 0, "tid": 7, "ts": 160.0, "dur": 4.0,
   "args": {"device": 0, "stream": 7, "correlation": 13, "registers per thread": 32, "shared memory": 1024, "grid": [16, 1, 1], "block": [64, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4>", "pid": 0, "tid": 7, "ts": 305.0, "dur": 1.0,
   "args": {"device": 0, "stream": 7, "correlation": 20, "grid": [1, 1, 1], "block": [128, 1, 1]}},
  {"ph": "f", "id": 11, "pid": 0, "tid": 7, "ts": 120.0, "cat": "ac2g", "name": "ac2g", "bp": "e"}
 ]})";
        std::string profile = path("cuda.profile.json");
        writeAll(profile, json);
        std::string trace = path("cuda.kiln");
        auto summary = importer::importProfile(profile, trace, 0);
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.error().render().c_str());
        QCOMPARE(summary->graphCalls, int64_t(1));
        QCOMPARE(summary->launches, int64_t(3));
        QCOMPARE(summary->externLaunches, int64_t(1));
        QCOMPARE(summary->gpuLaunches, int64_t(2));
        QCOMPARE(summary->unmatchedGpu, int64_t(1)); // the eager add's kernel
        std::vector<Launch> rows = launchesOf(trace, summary->runId);
        QCOMPARE(rows.size(), size_t(3));
        std::map<std::string, Launch> byName;
        for (const Launch& l : rows)
            byName.emplace(l.kernel, l);
        QVERIFY(byName.count("extern_mm"));
        QVERIFY(byName.count("triton_poi_fused_add_0"));
        QVERIFY(byName.count("triton_red_fused_sum_1"));
        // The mm's launch is its cuBLAS kernel's device time and geometry.
        const Launch& mm = byName.at("extern_mm");
        QCOMPARE(mm.device, std::string("cuda:0"));
        QCOMPARE(mm.endNs - mm.startNs, int64_t(12250));
        QCOMPARE(mm.grid, std::string("(8, 4, 1)"));
        QCOMPARE(mm.block, std::string("(256, 1, 1)"));
        QCOMPARE(mm.registers, int64_t(168));
        QCOMPARE(mm.sharedMemory, int64_t(65536));
        QCOMPARE(mm.kind, std::string("extern"));
        const Launch& add = byName.at("triton_poi_fused_add_0");
        QCOMPARE(add.kind, std::string("pointwise"));
        QCOMPARE(add.endNs - add.startNs, int64_t(2500));
        QCOMPARE(add.grid, std::string("(64, 1, 1)"));
        QCOMPARE(add.registers, int64_t(24));
        QCOMPARE(byName.at("triton_red_fused_sum_1").kind, std::string("reduction"));
        QCOMPARE(byName.at("triton_red_fused_sum_1").sharedMemory, int64_t(1024));
        // Run-relative: the run starts at the profile's first event.
        QCOMPARE(add.startNs, int64_t(20000));
        QCOMPARE(count(trace, "SELECT count(*) FROM kernels WHERE compile_id = '0/0'"), int64_t(3));
        QCOMPARE(count(trace, "SELECT count(*) FROM import_extras WHERE kind = 'profile:gpu'"),
                 int64_t(1));
    }

    void wrongTypesAreSkippedNotFatal() {
        std::string profile = path("types.json");
        writeAll(profile, R"({"traceEvents": [1, "x", null, {"ph": 5}, {"ph": "X", "name": 5,
            "ts": 1, "dur": 1}, {"ph": "X", "name": "aten::mm", "ts": "a", "dur": 1},
            {"ph": "X", "name": "aten::mm", "ts": 1, "dur": -4},
            {"ph": "X", "name": "## Call CompiledFxGraph k ##", "pid": [1], "tid": {}, "ts": 1,
             "dur": 9, "args": {"correlation": "no", "grid": [1, "a", 3], "device": null}},
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": [1], "tid": {}, "ts": 2,
             "dur": 3, "args": 7}], "baseTimeNanoseconds": "soon"})");
        std::string trace = path("types.kiln");
        auto summary = importer::importProfile(profile, trace, 0);
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.error().render().c_str());
        QCOMPARE(summary->records, int64_t(9));
        QCOMPARE(summary->skipped, int64_t(7));
        QCOMPARE(summary->events, int64_t(2));
        QCOMPARE(summary->graphCalls, int64_t(1));
        QCOMPARE(summary->launches, int64_t(1)); // the mm inside the call
    }

    void progressAndCancellation() {
        const std::string profile = fixture("cpu_train_default.profile.json");
        const int64_t size = int64_t(readAll(profile).size());
        std::string trace = importLog("cpu_train_default", "-progress");
        // Cancelled while reading: nothing written.
        importer::ImportOptions cancel;
        cancel.progress = [](int64_t, int64_t) { return false; };
        auto cancelled = importer::importProfile(profile, trace, 1, cancel);
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().kind, std::string(importer::kImportCancelled));
        QCOMPARE(count(trace, "SELECT count(*) FROM kernel_launches"), int64_t(0));
        QCOMPARE(count(trace, "SELECT count(*) FROM runs"), int64_t(1));
        // A profile alone, cancelled: not even its run is made.
        std::string fresh = path("cancelled-alone.kiln");
        QVERIFY(!importer::importProfile(profile, fresh, 0, cancel).ok());
        QVERIFY(!QFile::exists(QString::fromStdString(fresh)));
        // Reported up to the file's size, then imported as without a callback.
        std::vector<int64_t> done;
        importer::ImportOptions watch;
        watch.progress = [&](int64_t bytes, int64_t total) {
            KILN_ASSERT(total == size, "the total is the file's size");
            done.push_back(bytes);
            return true;
        };
        auto summary = importer::importProfile(profile, trace, 1, watch);
        QVERIFY(summary.ok());
        QCOMPARE(summary->launches, int64_t(42));
        QVERIFY(!done.empty());
        QVERIFY(std::is_sorted(done.begin(), done.end()));
        QCOMPARE(done.back(), size);
    }

    void damagedProfilesChangeNothing() {
        std::string trace = importLog("cpu_infer_default", "-damaged");
        int64_t extras = count(trace, "SELECT count(*) FROM import_extras");
        std::string whole = readAll(fixture("cpu_infer_default.profile.json"));
        std::mt19937 random(17);
        std::string binary(4096, '\0');
        for (char& c : binary)
            c = char(random() & 0xff);
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"truncated", whole.substr(0, whole.size() / 2)},
            {"cut at the end", whole.substr(0, whole.size() - 3)},
            {"empty", ""},
            {"binary", binary},
            {"not an object", "42"},
            {"no traceEvents", R"({"schemaVersion": 1})"},
        };
        for (const auto& [name, bytes] : cases) {
            std::string profile = path("bad.json");
            writeAll(profile, bytes);
            auto summary = importer::importProfile(profile, trace, 1);
            QVERIFY2(!summary.ok(), name.c_str());
            QCOMPARE(summary.error().kind, std::string("ImportError"));
            QVERIFY2(summary.error().render().find("bad.json") != std::string::npos,
                     summary.error().render().c_str());
            QCOMPARE(count(trace, "SELECT count(*) FROM kernel_launches"), int64_t(0));
            QCOMPARE(count(trace, "SELECT count(*) FROM import_extras"), extras);
            QCOMPARE(count(trace, "SELECT count(*) FROM runs"), int64_t(1));
        }
        // A profile-alone import of a damaged file makes no run either.
        std::string fresh = path("fresh.kiln");
        writeAll(path("bad.json"), whole.substr(0, 1000));
        QVERIFY(!importer::importProfile(path("bad.json"), fresh, 0).ok());
        QVERIFY(!QFile::exists(QString::fromStdString(fresh)));
        // A run that does not exist.
        auto missing = importer::importProfile(fixture("cpu_infer_default.profile.json"), trace, 9);
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().render().find("no run 9") != std::string::npos);
        QCOMPARE(count(trace, "SELECT count(*) FROM kernel_launches"), int64_t(0));
        // A missing file.
        QVERIFY(!importer::importProfile(path("nowhere.json"), trace, 1).ok());
    }
};

QTEST_GUILESS_MAIN(TestProfileImport)
#include "test_profile_import.moc"
