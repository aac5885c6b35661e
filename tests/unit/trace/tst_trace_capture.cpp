// SPDX-License-Identifier: MIT
// The capture tables (schema version 2) through TraceWriter and TraceReader, one event kind at a
// time: every field round-trips, "none" values are stored as NULL and come back as the events'
// sentinels, a compile's two reports become one row, graphs bring their nodes in order, config
// keeps the last write, timestamps are run-relative like output.t_ns, and rows stay with their
// run. Live visibility, ordering and load are in tst_trace_capture_live.cpp.
#include "support/clock.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kiln::trace;
using namespace kiln::testing;
using kiln::CompileEvent;
using kiln::FrameEvent;
using kiln::GraphBreakEvent;
using kiln::GraphEvent;
using kiln::GuardEvent;
using kiln::OutputStream;
using kiln::RecompileEvent;

namespace {

RecompileEvent sampleRecompile() {
    RecompileEvent recompile;
    recompile.compileId = "0/1";
    recompile.failedCompileId = "0/0";
    recompile.guardSource = "L['x'].size()[0]";
    recompile.expected = "8";
    recompile.actual = "16";
    recompile.reason = "tensor 'L['x']' size mismatch at index 0. expected 8, actual 16";
    return recompile;
}

GraphBreakEvent sampleGraphBreak() {
    GraphBreakEvent brk;
    brk.compileId = "0/0";
    brk.order = 1;
    brk.file = "/w/model.py";
    brk.line = 7;
    brk.column = 4;
    brk.reasonKind = "print";
    brk.reason = "Unsupported: builtin: print [<class 'torch._dynamo.variables.misc."
                 "StringFormatVariable'>] False";
    brk.userStack = "  File \"/w/model.py\", line 12, in <module>\n"
                    "  File \"/w/model.py\", line 7, in fn";
    return brk;
}

} // namespace

class TraceCaptureTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void framesRoundTrip() {
        std::string file = path("frames.kiln");
        FrameEvent function = sampleFrame(0);
        FrameEvent resume;
        resume.frameId = 1;
        resume.function = "torch_dynamo_resume_in_fn_at_7";
        resume.file = "/w/model.py";
        resume.line = 7;
        resume.kind = "resume";
        resume.parentFrameId = 0;
        resume.resumeLine = 7;
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->frame(function);
            writer->frame(resume);
            FrameEvent again = function; // reported again: last write wins, one row
            again.line = 5;
            writer->frame(again);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto frames = openReader(file)->frames(1);
        QVERIFY(frames.ok());
        QCOMPARE(frames->size(), size_t(2));
        const FrameRow& first = frames->at(0);
        QCOMPARE(first.runId, int64_t(1));
        QCOMPARE(first.frameId, int64_t(0));
        QCOMPARE(first.function, std::string("fn"));
        QCOMPARE(first.file, std::string("/w/model.py"));
        QCOMPARE(first.line, 5);
        QCOMPARE(first.kind, std::string("function"));
        QCOMPARE(first.parentFrameId, int64_t(-1));
        QCOMPARE(first.resumeLine, 0);
        const FrameRow& second = frames->at(1);
        QVERIFY(second.id > first.id);
        QCOMPARE(second.frameId, int64_t(1));
        QCOMPARE(second.function, resume.function);
        QCOMPARE(second.kind, std::string("resume"));
        QCOMPARE(second.parentFrameId, int64_t(0));
        QCOMPARE(second.resumeLine, 7);
        QCOMPARE(queryTexts(file, "SELECT coalesce(parent_frame_id, 'NULL') || ',' || "
                                  "coalesce(resume_line, 'NULL') FROM frames ORDER BY frame_id"),
                 (std::vector<std::string>{"NULL,NULL", "0,7"}));
    }

    void compileStartThenFinishIsOneRow() {
        std::string file = path("compile.kiln");
        auto writer = openWriter(file);
        int64_t beforeRun = kiln::monotonicNs();
        QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
        int64_t afterRun = kiln::monotonicNs();
        int64_t startNs = kiln::monotonicNs();
        CompileEvent start = sampleCompileStart(0, 0, startNs);
        writer->compile(start);
        QVERIFY(writer->flush().ok());

        auto reader = openReader(file);
        auto compiling = reader->compiles(1);
        QVERIFY(compiling.ok());
        QCOMPARE(compiling->size(), size_t(1));
        const CompileRow& row = compiling->front();
        QCOMPARE(row.compileId, std::string("0/0"));
        QCOMPARE(row.frameId, int64_t(0));
        QCOMPARE(row.compileIndex, 0);
        QCOMPARE(row.reason, std::string("first"));
        // Run-relative, as output.t_ns: the run started between beforeRun and afterRun.
        QVERIFY(row.startNs >= startNs - afterRun && row.startNs <= startNs - beforeRun);
        QVERIFY(!row.durationNs.has_value());
        QVERIFY(!row.finished());
        QCOMPARE(row.status, std::string());
        QCOMPARE(row.backend, std::string("inductor"));
        QVERIFY(row.phases.empty());
        QCOMPARE(queryTexts(file, "SELECT coalesce(status, 'NULL') || ',' || "
                                  "coalesce(duration_ns, 'NULL') || ',' || "
                                  "coalesce(phases_json, 'NULL') FROM compiles"),
                 std::vector<std::string>{"NULL,NULL,NULL"});

        // The finish repeats the id; backend and mode left empty keep what the start said.
        CompileEvent finish = sampleCompileFinish(start, "ok", 8'000'000);
        finish.backend.clear();
        finish.mode.clear();
        finish.startNs = startNs + 123; // ignored: the start row's time stays
        writer->compile(finish);
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());

        auto done = reader->compiles(1);
        QVERIFY(done.ok());
        QCOMPARE(done->size(), size_t(1));
        const CompileRow& finished = done->front();
        QCOMPARE(finished.id, row.id);
        QCOMPARE(finished.startNs, row.startNs);
        QCOMPARE(finished.durationNs, std::optional<int64_t>(8'000'000));
        QCOMPARE(finished.status, std::string("ok"));
        QVERIFY(finished.finished());
        QCOMPARE(finished.failure, std::string());
        QCOMPARE(finished.backend, std::string("inductor"));
        QCOMPARE(finished.mode, std::string("max-autotune"));
        std::vector<std::pair<std::string, int64_t>> phases = {
            {"trace", 4'000'000}, {"guards", 1'000'000}, {"backend_compile", 2'000'000}};
        QVERIFY(finished.phases == phases);
        QCOMPARE(queryTexts(file, "SELECT phases_json FROM compiles"),
                 std::vector<std::string>{
                     R"({"trace":4000000,"guards":1000000,"backend_compile":2000000})"});
        QCOMPARE(queryInt(file, "SELECT json_extract(phases_json, '$.guards') FROM compiles"),
                 int64_t(1'000'000));
    }

    void failedAndRecompiledCompiles() {
        std::string file = path("recompile.kiln");
        int64_t t0 = kiln::monotonicNs();
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            CompileEvent first = sampleCompileStart(0, 0, t0);
            writer->compile(first);
            writer->compile(sampleCompileFinish(first, "ok", 5'000));
            CompileEvent second = sampleCompileStart(0, 1, t0 + 10'000);
            writer->compile(second);
            writer->recompile(sampleRecompile());
            CompileEvent failed = sampleCompileFinish(second, "failed", 7'000);
            failed.failure = "BackendCompilerFailed: backend='inductor' raised: boom";
            failed.phases.clear();
            writer->compile(failed);
            QVERIFY(writer->finishRun(RunStatus::Error, 1).ok());
        }
        auto reader = openReader(file);
        auto compiles = reader->compiles(1);
        QVERIFY(compiles.ok());
        QCOMPARE(compiles->size(), size_t(2));
        QCOMPARE(compiles->at(0).status, std::string("ok"));
        QCOMPARE(compiles->at(1).compileId, std::string("0/1"));
        QCOMPARE(compiles->at(1).reason, std::string("recompile"));
        QCOMPARE(compiles->at(1).compileIndex, 1);
        QCOMPARE(compiles->at(1).status, std::string("failed"));
        QCOMPARE(compiles->at(1).failure,
                 std::string("BackendCompilerFailed: backend='inductor' raised: boom"));
        QCOMPARE(compiles->at(1).durationNs, std::optional<int64_t>(7'000));
        QVERIFY(compiles->at(1).phases.empty());
        QCOMPARE(compiles->at(1).startNs - compiles->at(0).startNs, int64_t(10'000));
        // Tailing from the first row: only the later one.
        auto after = reader->compiles(1, compiles->at(0).id);
        QCOMPARE(after->size(), size_t(1));
        QCOMPARE(after->front().compileId, std::string("0/1"));

        auto recompiles = reader->recompiles(1);
        QVERIFY(recompiles.ok());
        QCOMPARE(recompiles->size(), size_t(1));
        const RecompileRow& recompile = recompiles->front();
        RecompileEvent expected = sampleRecompile();
        QCOMPARE(recompile.runId, int64_t(1));
        QCOMPARE(recompile.compileId, expected.compileId);
        QCOMPARE(recompile.failedCompileId, expected.failedCompileId);
        QCOMPARE(recompile.guardSource, expected.guardSource);
        QCOMPARE(recompile.expected, expected.expected);
        QCOMPARE(recompile.actual, expected.actual);
        QCOMPARE(recompile.reason, expected.reason);
    }

    void guardsRoundTripAndFilter() {
        std::string file = path("guards.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            for (int i = 0; i < 3; ++i)
                writer->guard(sampleGuard("0/0", i));
            writer->compile(sampleCompileStart(0, 1, kiln::monotonicNs()));
            GuardEvent global;
            global.compileId = "0/1";
            global.kind = "GRAD_MODE";
            global.expression = "___check_global_state()";
            writer->guard(global); // no source, expected value or user line
            GuardEvent unguarded = sampleGuard("0/1", 7);
            unguarded.installed = false; // a read through an nn.Module (guard_nn_modules=False)
            writer->guard(unguarded);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto all = reader->guards(1);
        QVERIFY(all.ok());
        QCOMPARE(all->size(), size_t(5));
        QVERIFY(all->at(3).installed);
        QVERIFY(!all->at(4).installed);
        QCOMPARE(all->at(4).source, sampleGuard("0/1", 7).source);
        QCOMPARE(queryTexts(file, "SELECT installed FROM guards ORDER BY id"),
                 (std::vector<std::string>{"1", "1", "1", "1", "0"}));
        GuardEvent expected = sampleGuard("0/0", 2);
        const GuardRow& third = all->at(2);
        QCOMPARE(third.runId, int64_t(1));
        QCOMPARE(third.compileId, expected.compileId);
        QCOMPARE(third.kind, expected.kind);
        QCOMPARE(third.source, expected.source);
        QCOMPARE(third.expression, expected.expression);
        QCOMPARE(third.expected, expected.expected);
        QCOMPARE(third.userLine, expected.userLine);
        const GuardRow& last = all->at(3);
        QCOMPARE(last.kind, std::string("GRAD_MODE"));
        QCOMPARE(last.source, std::string());
        QCOMPARE(last.userLine, 0);
        QCOMPARE(queryTexts(file, "SELECT coalesce(source, 'NULL') || ',' || "
                                  "coalesce(expected, 'NULL') || ',' || "
                                  "coalesce(user_line, 'NULL') FROM guards WHERE id = " +
                                      std::to_string(last.id)),
                 std::vector<std::string>{"NULL,NULL,NULL"});

        auto ofSecond = reader->guards(1, "0/1");
        QCOMPARE(ofSecond->size(), size_t(2));
        QCOMPARE(ofSecond->front().id, last.id);
        auto ofFirst = reader->guards(1, "0/0", all->at(0).id, 1);
        QCOMPARE(ofFirst->size(), size_t(1));
        QCOMPARE(ofFirst->front().source, std::string("L['x1']"));
        QVERIFY(reader->guards(1, "9/9")->empty());
        QVERIFY(reader->guards(2)->empty());
    }

    void graphBreaksRoundTrip() {
        std::string file = path("breaks.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            writer->graphBreak(sampleGraphBreak());
            GraphBreakEvent second = sampleGraphBreak();
            second.order = 2;
            second.line = 9;
            second.reasonKind = "item";
            second.reason = "Unsupported: Tensor.item";
            second.userStack.clear();
            writer->graphBreak(second);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto breaks = openReader(file)->graphBreaks(1);
        QVERIFY(breaks.ok());
        QCOMPARE(breaks->size(), size_t(2));
        GraphBreakEvent expected = sampleGraphBreak();
        const GraphBreakRow& first = breaks->front();
        QCOMPARE(first.runId, int64_t(1));
        QCOMPARE(first.compileId, expected.compileId);
        QCOMPARE(first.order, 1);
        QCOMPARE(first.file, expected.file);
        QCOMPARE(first.line, 7);
        QCOMPARE(first.column, 4);
        QCOMPARE(first.reasonKind, expected.reasonKind);
        QCOMPARE(first.reason, expected.reason);
        QCOMPARE(first.userStack, expected.userStack);
        QCOMPARE(breaks->at(1).order, 2);
        QCOMPARE(breaks->at(1).reasonKind, std::string("item"));
        QCOMPARE(breaks->at(1).userStack, std::string());
        QCOMPARE(queryTexts(file, "SELECT ord || ':' || line || ':' || col || ':' || "
                                  "coalesce(user_stack, 'NULL') FROM graph_breaks ORDER BY id"),
                 (std::vector<std::string>{"1:7:4:" + expected.userStack, "2:9:4:NULL"}));
    }

    void graphsWithNodes() {
        std::string file = path("graphs.kiln");
        GraphEvent first = sampleGraph("0/0", 0, 4);
        GraphEvent second = sampleGraph("1/0", 1, 3);
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            writer->graph(first);
            writer->compile(sampleCompileStart(1, 0, kiln::monotonicNs()));
            writer->graph(second);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto graphs = reader->graphs(1);
        QVERIFY(graphs.ok());
        QCOMPARE(graphs->size(), size_t(2));
        const GraphRow& graph = graphs->front();
        QCOMPARE(graph.runId, int64_t(1));
        QCOMPARE(graph.compileId, std::string("0/0"));
        QCOMPARE(graph.graphIndex, 0);
        QCOMPARE(graph.readableCode, first.readableCode);
        QCOMPARE(graph.nodeCount, 4);
        QCOMPARE(graph.opCount, 2);
        QCOMPARE(graphs->at(1).compileId, std::string("1/0"));
        QCOMPARE(graphs->at(1).graphIndex, 1);

        auto nodes = reader->graphNodes(graph.id);
        QVERIFY(nodes.ok());
        QCOMPARE(nodes->size(), first.nodes.size());
        for (size_t i = 0; i < nodes->size(); ++i) {
            const GraphNodeRow& node = nodes->at(i);
            const kiln::GraphNodeInfo& want = first.nodes[i];
            QCOMPARE(node.graphId, graph.id);
            QCOMPARE(node.order, int32_t(i));
            QCOMPARE(node.name, want.name);
            QCOMPARE(node.op, want.op);
            QCOMPARE(node.target, want.target);
            QCOMPARE(node.args, want.args);
            QCOMPARE(node.shape, want.shape);
            QCOMPARE(node.dtype, want.dtype);
            QCOMPARE(node.sourceLine, want.sourceLine);
        }
        QCOMPARE(nodes->at(2).args, std::string("(sin_1,)"));
        QCOMPARE(nodes->at(2).sourceLine, 7);
        QCOMPARE(reader->graphNodes(graphs->at(1).id)->size(), size_t(3));
        QVERIFY(reader->graphNodes(graphs->at(1).id + 1)->empty());
        QCOMPARE(queryTexts(file, "SELECT coalesce(args, 'NULL') || ',' || coalesce(shape, 'NULL')"
                                  " || ',' || coalesce(source_line, 'NULL') FROM graph_nodes "
                                  "WHERE name = 'output' ORDER BY id"),
                 (std::vector<std::string>{"((sin,),),NULL,NULL", "((sin,),),NULL,NULL"}));
    }

    void configKeepsLastWritePerRun() {
        std::string file = path("config.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->config({"max_autotune", "False", "False", "default"});
            writer->config({"triton.cudagraphs", "False", "False", "default"});
            writer->config({"max_autotune", "True", "False", "mode"}); // mode patch applied
            writer->config({"trace.debug_dir", "", "", "default"});
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->config({"max_autotune", "False", "False", "env"});
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto config = reader->config(1);
        QVERIFY(config.ok());
        QCOMPARE(config->size(), size_t(3));
        const ConfigRow& autotune = config->at(0);
        QCOMPARE(autotune.key, std::string("max_autotune"));
        QCOMPARE(autotune.value, std::string("True"));
        QCOMPARE(autotune.defaultValue, std::string("False"));
        QCOMPARE(autotune.source, std::string("mode"));
        QCOMPARE(config->at(1).key, std::string("trace.debug_dir"));
        QCOMPARE(config->at(1).value, std::string());
        QCOMPARE(config->at(2).key, std::string("triton.cudagraphs"));
        auto second = reader->config(2);
        QCOMPARE(second->size(), size_t(1));
        QCOMPARE(second->front().source, std::string("env"));
        QCOMPARE(second->front().runId, int64_t(2));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM config"), int64_t(4));
    }

    void timelineEventsAreRunRelative() {
        std::string file = path("events.kiln");
        int64_t beforeRun = kiln::monotonicNs();
        int64_t afterRun = 0;
        int64_t spanStart = 0;
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            afterRun = kiln::monotonicNs();
            spanStart = kiln::monotonicNs();
            writer->timeline({"compile", "backend_compile", "0/0", spanStart, 2'500'000,
                              R"({"backend": "inductor"})"});
            writer->timeline({"call", "fn", "", spanStart + 3'000'000, 0, ""});
            writer->output(OutputStream::Stdout, "line\n");
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto events = reader->events(1);
        QVERIFY(events.ok());
        QCOMPARE(events->size(), size_t(2));
        const EventRow& span = events->front();
        QCOMPARE(span.runId, int64_t(1));
        QCOMPARE(span.category, std::string("compile"));
        QCOMPARE(span.name, std::string("backend_compile"));
        QCOMPARE(span.compileId, std::string("0/0"));
        QVERIFY(span.startNs >= spanStart - afterRun && span.startNs <= spanStart - beforeRun);
        QCOMPARE(span.durationNs, int64_t(2'500'000));
        QCOMPARE(span.detailJson, std::string(R"({"backend": "inductor"})"));
        const EventRow& instant = events->at(1);
        QCOMPARE(instant.startNs - span.startNs, int64_t(3'000'000));
        QCOMPARE(instant.durationNs, int64_t(0));
        QCOMPARE(instant.compileId, std::string());
        QCOMPARE(instant.detailJson, std::string("{}"));
        // Same clock and origin as output.t_ns: the line came after the span started.
        QVERIFY(reader->outputLines(1)->front().tNs >= span.startNs);
        QCOMPARE(queryTexts(file, "SELECT coalesce(compile_id, 'NULL') FROM events ORDER BY id"),
                 (std::vector<std::string>{"0/0", "NULL"}));
        QCOMPARE(reader->events(1, span.id)->size(), size_t(1));
    }

    void captureRowsBelongToTheirRun() {
        std::string file = path("two_runs.kiln");
        {
            auto writer = openWriter(file);
            for (int run = 0; run < 2; ++run) {
                QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
                writer->frame(sampleFrame(0));
                writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
                for (int i = 0; i <= run; ++i)
                    writer->guard(sampleGuard("0/0", i));
                writer->graph(sampleGraph("0/0", 0, 3 + run));
                QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
            }
        }
        auto reader = openReader(file);
        QCOMPARE(reader->frames(1)->size(), size_t(1));
        QCOMPARE(reader->frames(2)->size(), size_t(1)); // frame 0 again: unique per run only
        QCOMPARE(reader->compiles(2)->front().compileId, std::string("0/0"));
        QCOMPARE(reader->guards(1, "0/0")->size(), size_t(1));
        QCOMPARE(reader->guards(2, "0/0")->size(), size_t(2));
        QCOMPARE(reader->graphs(2)->front().nodeCount, 4);
        QCOMPARE(reader->graphNodes(reader->graphs(2)->front().id)->size(), size_t(4));
    }
};

QTEST_APPLESS_MAIN(TraceCaptureTest)
#include "tst_trace_capture.moc"
