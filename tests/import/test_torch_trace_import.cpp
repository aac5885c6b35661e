// SPDX-License-Identifier: MIT
// `kiln import`'s engine side: a real PyTorch 2.11 structured trace (tests/import/fixtures, see
// the README there) mapped into the trace schema, checked against what tlparse 0.4.3 reports
// for the same log, and damaged logs that must import what they can without crashing.
#include "import/md5.h"
#include "import/payload_text.h"
#include "import/torch_trace_import.h"
#include "trace/sqlite_handle.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sqlite3.h>
#include <sstream>

using namespace kiln;

namespace {

std::string fixture(const char* name) {
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

} // namespace

class TestTorchTraceImport : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

    importer::ImportSummary importInto(const std::string& log, const std::string& trace) {
        auto writer = trace::TraceWriter::open(trace);
        KILN_ASSERT(writer.ok(), "test trace must open");
        auto summary = importer::importTorchTraceLog(log, *writer.value());
        KILN_ASSERT(summary.ok(), "import of a readable file must succeed");
        return summary.value();
    }

private slots:
    void recompileReasonsNameTheirGuard() {
        using importer::parseRecompileReason;
        auto parsed = [](std::string_view reason) {
            importer::FailedGuardText g = parseRecompileReason(reason);
            return g.source + " | " + g.expected + " | " + g.actual;
        };
        // As PyTorch 2.11 words them (the fixtures, and torch/_guards.py's messages).
        QCOMPARE(parsed("tensor 'x' size mismatch at index 1. expected 64, actual 96"),
                 std::string("L['x'] | size[1] == 64 | size[1] == 96"));
        QCOMPARE(parsed("tensor 'L['x']' stride mismatch at index 0. expected 8, actual 1"),
                 std::string("L['x'] | stride[0] == 8 | stride[0] == 1"));
        QCOMPARE(parsed("tensor 'x' requires_grad mismatch. expected requires_grad=0"),
                 std::string("L['x'] | requires_grad=0 | "));
        QCOMPARE(parsed("tensor 'w' dtype mismatch. expected Float, actual Double"),
                 std::string("L['w'] | dtype == Float | dtype == Double"));
        QCOMPARE(parsed("L['n'] == 3"), std::string("L['n'] | 3 | "));
        QCOMPARE(parsed("len(L['xs']) == 2"), std::string("len(L['xs']) | 2 | "));
        QCOMPARE(parsed("___check_obj_id(L['self'], 140234)"),
                 std::string("L['self'] | the same object | "));
        QCOMPARE(parsed("GLOBAL_STATE changed: grad_mode "), std::string(" |  | "));
    }

    void md5MatchesRfc1321Vectors() {
        QCOMPARE(importer::md5Hex(""), std::string("d41d8cd98f00b204e9800998ecf8427e"));
        QCOMPARE(importer::md5Hex("abc"), std::string("900150983cd24fb0d6963f7d28e17f72"));
        // Longer than one 64-byte block, and fed in pieces that straddle blocks.
        std::string digits = "1234567890";
        std::string eighty;
        for (int i = 0; i < 8; ++i)
            eighty += digits;
        QCOMPARE(importer::md5Hex(eighty), std::string("57edf4a22be3c955ac49da2e2107b67a"));
        importer::Md5 pieces;
        pieces.update(eighty.substr(0, 63));
        pieces.update(eighty.substr(63));
        QCOMPARE(pieces.finishHex(), std::string("57edf4a22be3c955ac49da2e2107b67a"));
    }

    // Expected numbers from `tlparse cpu_train_default.torch_trace.log -o out` (tlparse 0.4.3,
    // the untrimmed log; compile_directory.json): compile dirs [0/0] [0/1] [1/0] [1/0_1] [1/1]
    // [1/1_1] [2/0] [2/1], i.e. 6 compile ids and 8 attempts; 2 dynamo_graph_break_reason and
    // 3 recompile_reasons artifacts. The trimmed fixture keeps every record those come from.
    void pytorch23LogMatchesTlparse() {
        // The fixture workload's training run logged by PyTorch 2.3.1 (gen_torch_traces.py,
        // recorded here in a venv with torch==2.3.1, trimmed with neutral paths): no
        // compilation_metrics, no graph break or recompile artifacts, guards as dynamo_guards
        // (a JSON list of Python checks), inductor_post_grad_graph as a record of its own, the
        // first backward compiled after Dynamo returned (its post-grad graph and output code
        // carry no compile id). tlparse 0.4.3 (`tlparse LOG -o DIR`, compile_directory.json):
        // compile ids 0/0 0/1 1/0 1/1 2/0 2/1, attempts [1/0_1] and [1/1_1] besides, 6
        // dynamo_output_graph, 10 AOT graphs, 8 inductor_post_grad_graph of which one under
        // [-/-], 8 output codes of which one under [-/-]; 38 checks in the 6 dynamo_guards
        // lists and 20 `= async_compile.cpp` kernels in the output codes with a compile id (a
        // python3 count over the payloads).
        std::string trace = path("train23.kiln");
        importer::ImportSummary s = importInto(fixture("cpu_train_default_2.3.trimmed.log"), trace);
        QCOMPARE(s.compiles, int64_t(6));
        QCOMPARE(s.attempts, int64_t(8));
        QCOMPARE(s.frames, int64_t(3));
        QCOMPARE(s.graphs, int64_t(6));
        QCOMPARE(s.aotGraphs, int64_t(10));
        QCOMPARE(s.postGradGraphs, int64_t(7));
        QCOMPARE(s.guards, int64_t(38));
        QCOMPARE(s.kernels, int64_t(20));
        QCOMPARE(s.md5Mismatches, int64_t(0));
        QCOMPARE(s.problemCount, int64_t(0));
        QCOMPARE(s.extraKinds, (std::map<std::string, int64_t>{{"inductor_output_code", 8},
                                                               {"inductor_post_grad_graph", 1}}));
        auto reader = trace::TraceReader::open(trace);
        QVERIFY(reader.ok());
        auto guards = reader.value()->guards(s.runId, "0/0");
        QVERIFY(guards.ok());
        std::map<std::string, std::string> sourceOfKind;
        for (const auto& g : guards.value())
            sourceOfKind.emplace(g.kind, g.source);
        QCOMPARE(sourceOfKind["TENSOR_MATCH"], std::string("L['x']"));
        QCOMPARE(sourceOfKind["ID_MATCH"], std::string("L['self']"));
        QCOMPARE(sourceOfKind["HASATTR"], std::string("L['x']"));
        QVERIFY(sourceOfKind.count("BACKEND_MATCH"));
    }

    void trainingLogMatchesTlparse() {
        std::string trace = path("train.kiln");
        importer::ImportSummary s = importInto(fixture("cpu_train_default.trimmed.log"), trace);
        QCOMPARE(s.compiles, int64_t(6));
        QCOMPARE(s.attempts, int64_t(8));
        QCOMPARE(s.breaks, int64_t(2));
        QCOMPARE(s.recompiles, int64_t(3));
        QCOMPARE(s.frames, int64_t(3));
        QCOMPARE(s.graphs, int64_t(6));
        // AOT autograd's graphs of the 6: a joint, forward and backward graph for each of the
        // two training compiles, an inference graph for each of the four others.
        QCOMPARE(s.aotGraphs, int64_t(10));
        // Every `NAME = async_compile.cpp_pybinding(` of the 8 inductor_output_code payloads
        // (forward and backward): grep -c in the log.
        QCOMPARE(s.kernels, int64_t(25));
        QCOMPARE(s.md5Mismatches, int64_t(0));
        QCOMPARE(s.problemCount, int64_t(0));

        auto reader = trace::TraceReader::open(trace);
        QVERIFY(reader.ok());
        auto compiles = reader.value()->compiles(s.runId);
        QVERIFY(compiles.ok());
        QCOMPARE(compiles.value().size(), size_t(6));
        QCOMPARE(compiles.value()[0].compileId, std::string("0/0"));
        QCOMPARE(compiles.value()[0].reason, std::string("first"));
        int recompiled = 0;
        for (const auto& row : compiles.value()) {
            QVERIFY(row.finished());
            recompiled += row.reason == "recompile";
        }
        QCOMPARE(recompiled, 3);

        auto breaks = reader.value()->graphBreaks(s.runId);
        QVERIFY(breaks.ok());
        QCOMPARE(breaks.value().size(), size_t(2));
        QVERIFY(breaks.value()[0].file.ends_with(".py"));
        QVERIFY(breaks.value()[0].line > 0);
        // The user stack as Kiln's own capture writes it: "  File ..., line N, in fn" lines,
        // each ending in a newline, innermost last; Dynamo's internal traceback left out.
        const std::string& stack = breaks.value()[0].userStack;
        QVERIFY(stack.starts_with("  File \"/home/user/workloads/gen_traces.py\""));
        QVERIFY(stack.ends_with("\n"));
        QVERIFY(stack.find("line 33, in with_break") != std::string::npos);
        QVERIFY(stack.find("symbolic_convert.py") == std::string::npos);
        QCOMPARE(breaks.value()[0].line, 33);
        // The resume function continues with_break (frame 1) after line 33: Studio's break
        // details find the graph that resumed through this link.
        auto frames = reader.value()->frames(s.runId);
        QVERIFY(frames.ok());
        QCOMPARE(frames.value().size(), size_t(3));
        QCOMPARE(frames.value()[2].kind, std::string("resume"));
        QCOMPARE(frames.value()[2].resumeLine, 33);
        QCOMPARE(frames.value()[2].parentFrameId, int64_t(1));
        QCOMPARE(frames.value()[1].parentFrameId, int64_t(-1));

        auto recompiles = reader.value()->recompiles(s.runId);
        QVERIFY(recompiles.ok());
        QCOMPARE(recompiles.value().size(), size_t(3));
        const trace::RecompileRow& first = recompiles.value()[0];
        QCOMPARE(first.reason,
                 std::string("0/0: tensor 'x' size mismatch at index 1. expected 64, actual 96"));
        QCOMPARE(first.failedCompileId, std::string("0/0"));
        QCOMPARE(first.guardSource, std::string("L['x']"));
        QCOMPARE(first.expected, std::string("size[1] == 64"));
        QCOMPARE(first.actual, std::string("size[1] == 96"));

        auto guards = reader.value()->guards(s.runId, "0/0");
        QVERIFY(guards.ok());
        bool tensorMatch = false;
        for (const auto& guard : guards.value())
            tensorMatch |= guard.kind == "TENSOR_MATCH";
        QVERIFY(tensorMatch);

        auto kernels = reader.value()->kernels(s.runId);
        QVERIFY(kernels.ok());
        QCOMPARE(int64_t(kernels.value().size()), s.kernels);
        QVERIFY(s.kernels > 0);
        QVERIFY(kernels.value()[0].name.starts_with("cpp_fused_"));
        QVERIFY(kernels.value()[0].sourceCode.find("extern \"C\"") != std::string::npos);

        // What has no table of its own is kept, one import_extras row per record: the
        // output code's wrapper and the cache artifacts.
        QCOMPARE(s.extraKinds, (std::map<std::string, int64_t>{{"artifact:fx_graph_cache_miss", 8},
                                                               {"inductor_output_code", 8}}));
        // The shape environment's 4 create_symbol and 5 guard_added_fast records are events:
        // symbol s27 for L['x'].size()[1], created at line 23 ("B, T, C = x.shape"), and
        // the guards the compiles added on it.
        QCOMPARE(s.symbolicShapes, int64_t(9));
        auto events = reader.value()->events(s.runId);
        QVERIFY(events.ok());
        std::vector<std::string> symbolic;
        for (const auto& e : events.value())
            if (e.category == "symbolic_shapes") symbolic.push_back(e.name + " " + e.detailJson);
        QCOMPARE(symbolic.size(), size_t(9));
        QVERIFY2(symbolic[0].starts_with("create_symbol ") &&
                     symbolic[0].find("\"symbol\":\"s27\"") != std::string::npos &&
                     symbolic[0].find("\"source\":\"L['x'].size()[1]\"") != std::string::npos &&
                     symbolic[0].find("gen_traces.py:23: B, T, C = x.shape") != std::string::npos,
                 symbolic[0].c_str());
        QVERIFY(std::any_of(symbolic.begin(), symbolic.end(), [](const std::string& e) {
            return e.starts_with("guard_added ") && e.find("Eq(s27, 96)") != std::string::npos;
        }));
        auto db = trace::Connection::open(trace, SQLITE_OPEN_READONLY);
        QVERIFY(db.ok());
        auto stored = db->queryInt("SELECT count(*) FROM import_extras", "cannot read");
        QVERIFY(stored.ok());
        QCOMPARE(stored.value(), s.extras);

        auto graphs = reader.value()->graphs(s.runId);
        QVERIFY(graphs.ok());
        // Node and op counts as the log's compilation_metrics (graph_node_count,
        // graph_op_count) give them, compile by compile.
        std::vector<int32_t> nodeCounts, opCounts;
        for (const auto& graph : graphs.value()) {
            nodeCounts.push_back(graph.nodeCount);
            opCounts.push_back(graph.opCount);
        }
        QCOMPARE(nodeCounts, (std::vector<int32_t>{36, 4, 4, 37, 5, 5}));
        QCOMPARE(opCounts, (std::vector<int32_t>{22, 2, 2, 22, 2, 2}));
        QVERIFY(graphs.value()[0].readableCode.find("def forward") != std::string::npos);

        // Each graph's AOT graphs, linked to it (the training issue's graph kinds).
        std::vector<std::string> kinds;
        for (const auto& graph : graphs.value()) {
            auto aot = reader.value()->aotGraphs(graph.id);
            QVERIFY(aot.ok());
            std::string row;
            for (const auto& a : aot.value()) {
                row += (row.empty() ? "" : ",") +
                       (a.kind.starts_with("aot_") ? a.kind.substr(4) : a.kind);
                QVERIFY(a.nodeCount > 0);
                QVERIFY(a.readableCode.find("torch.ops.aten.") != std::string::npos);
            }
            kinds.push_back(row);
        }
        // Inductor's post-grad graphs follow (inductor_post_grad_graph artifacts): forward and
        // backward for training, one for inference.
        QCOMPARE(s.postGradGraphs, int64_t(8));
        const std::string training = "joint,forward,backward,post_grad_forward,post_grad_backward";
        const std::string inference = "inference,post_grad_inference";
        QCOMPARE(kinds, (std::vector<std::string>{training, inference, inference, training,
                                                  inference, inference}));
    }

    void flippedPayloadByteIsReportedNotFatal() {
        std::string bytes = readAll(fixture("cpu_train_default.trimmed.log"));
        size_t payload = bytes.find("\n\t");
        QVERIFY(payload != std::string::npos);
        bytes[payload + 3] ^= 0x01;
        writeAll(path("flipped.log"), bytes);
        importer::ImportSummary s = importInto(path("flipped.log"), path("flipped.kiln"));
        QCOMPARE(s.md5Mismatches, int64_t(1));
        QCOMPARE(s.compiles, int64_t(6));
        QVERIFY(s.problems.at(0).message.find("MD5") != std::string::npos);
    }

    void truncatedLogImportsWhatItCan() {
        std::string bytes = readAll(fixture("cpu_train_default.trimmed.log"));
        // Cut in the middle of a payload after the first compile finished.
        size_t metrics = bytes.find("{\"compilation_metrics\"");
        size_t cut = bytes.find("\n\t", metrics + 1000);
        QVERIFY(cut != std::string::npos);
        writeAll(path("cut.log"), bytes.substr(0, cut + 20));
        importer::ImportSummary s = importInto(path("cut.log"), path("cut.kiln"));
        QVERIFY(s.compiles >= 1);
        QVERIFY(s.compiles < 6);
        QVERIFY(s.md5Mismatches + s.problemCount >= 1);
    }

    void garbageAndEmptyFilesNeverCrash() {
        std::mt19937 random(17);
        std::string garbage(256 * 1024, '\0');
        for (char& byte : garbage)
            byte = char(random());
        writeAll(path("garbage.log"), garbage);
        importer::ImportSummary s = importInto(path("garbage.log"), path("garbage.kiln"));
        QCOMPARE(s.records, int64_t(0));
        QVERIFY(s.problemCount > 0);

        writeAll(path("empty.log"), "");
        importer::ImportSummary empty = importInto(path("empty.log"), path("empty.kiln"));
        QCOMPARE(empty.records, int64_t(0));
        QCOMPARE(empty.problemCount, int64_t(0));
    }

    // Records of the right kind with the wrong shapes: kept as extras or skipped, never a throw.
    void wrongShapesAreNotFatal() {
        std::string p = "V1130 05:35:52.722000 875 x.py:1] ";
        writeAll(
            path("shapes.log"),
            p + "{\"dynamo_start\": \"fn\", \"frame_id\": 0, \"frame_compile_id\": 0}\n" + p +
                "{\"dynamo_start\": {}, \"frame_id\": 0, \"frame_compile_id\": 0}\n" + p +
                "{\"dynamo_start\": {\"stack\": [1]}, \"frame_id\": 1}\n" + p +
                "{\"dynamo_start\": {\"stack\": [{\"name\": 5}]}, \"frame_id\": 2, " +
                "\"frame_compile_id\": 0}\n" + p +
                "{\"compilation_metrics\": {\"compile_id\": \"2/0\", \"has_guarded_code\": 3, " +
                "\"start_time\": \"x\", \"code_gen_time_s\": []}}\n" + p +
                "{\"compilation_metrics\": [1, 2]}\n" + p + "{\"artifact\": 7}\n" + p +
                "{\"str\": \"no\"}\n" + p + "{\"chromium_event\": {}, \"has_payload\": 1}\n" +
                "\t{\"ph\": \"E\", \"args\": 3}\n");
        importer::ImportSummary s = importInto(path("shapes.log"), path("shapes.kiln"));
        QCOMPARE(s.compiles, int64_t(1)); // only 2/0 has a usable stack
        QCOMPARE(s.extraKinds.at("dynamo_start"), int64_t(3));
        QCOMPARE(s.extraKinds.at("compilation_metrics"), int64_t(1));
        QCOMPARE(s.md5Mismatches, int64_t(1));
    }

    void progressReachesTheFileSizeAndProvenanceIsKept() {
        const std::string log = fixture("cpu_train_default.trimmed.log");
        const int64_t size = int64_t(readAll(log).size());
        std::vector<std::pair<int64_t, int64_t>> reports;
        importer::ImportOptions options;
        options.progress = [&](int64_t done, int64_t total) {
            reports.emplace_back(done, total);
            return true;
        };
        auto writer = trace::TraceWriter::open(path("progress.kiln"));
        QVERIFY(writer.ok());
        auto summary = importer::importTorchTraceLog(log, *writer.value(), options);
        QVERIFY(summary.ok());
        QVERIFY(reports.size() >= 2); // 555 kB: a report per 256 KiB, and the end
        for (size_t i = 0; i < reports.size(); ++i) {
            QCOMPARE(reports[i].second, size);
            if (i) QVERIFY(reports[i].first >= reports[i - 1].first);
        }
        QCOMPARE(reports.back().first, size);
        // Where the run came from: the compilation_metrics' versions, no rank (one process).
        QCOMPARE(summary->pytorchVersion, std::string("2.11.0+cu130"));
        QCOMPARE(summary->rank, int64_t(-1));
        writer.value().reset();
        auto reader = trace::TraceReader::open(path("progress.kiln"));
        QVERIFY(reader.ok());
        auto runs = reader.value()->listRuns();
        QVERIFY(runs.ok() && runs->size() == 1);
        QCOMPARE(runs->front().machineJson,
                 std::string(R"({"cuda":"13.0","python":"3.11.7 (main, May  9 2026, 07:35:25) )"
                             R"([GCC 12.2.0]","pytorch":"2.11.0+cu130","source":"torch_trace"})"));
        QVERIFY(!runs->front().machine.recorded()); // no CPU facts: not a Kiln machine
    }

    void cancelledImportEndsTheRunCancelled() {
        importer::ImportOptions options;
        int calls = 0;
        options.progress = [&](int64_t, int64_t) { return ++calls < 2; }; // stop at the second
        auto writer = trace::TraceWriter::open(path("cancelled.kiln"));
        QVERIFY(writer.ok());
        auto summary = importer::importTorchTraceLog(fixture("cpu_train_default.trimmed.log"),
                                                     *writer.value(), options);
        QVERIFY(!summary.ok());
        QCOMPARE(summary.error().kind, std::string(importer::kImportCancelled));
        QCOMPARE(calls, 2);
        writer.value().reset();
        auto reader = trace::TraceReader::open(path("cancelled.kiln"));
        QVERIFY(reader.ok());
        auto runs = reader.value()->listRuns();
        QVERIFY(runs.ok() && runs->size() == 1);
        QCOMPARE(runs->front().status, trace::RunStatus::Cancelled);
        QCOMPARE(runs->front().errorType, std::string("ImportCancelled"));
        QVERIFY(runs->front().errorMessage.find("cancelled after line") != std::string::npos);
    }

    void unreadableFileIsAnError() {
        auto writer = trace::TraceWriter::open(path("none.kiln"));
        QVERIFY(writer.ok());
        auto summary = importer::importTorchTraceLog(path("no-such.log"), *writer.value());
        QVERIFY(!summary.ok());
        QVERIFY(summary.error().message.find("cannot read") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTorchTraceImport)
#include "test_torch_trace_import.moc"
