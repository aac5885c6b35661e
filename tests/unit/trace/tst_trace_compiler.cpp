// SPDX-License-Identifier: MIT
// The compiler tables (schema version 3) through TraceWriter and TraceReader: kernels, autotune
// choices, kernel launches and diagrams round-trip every field; kernels and diagrams find their
// graph whether capture reports it before or after them (the real pipeline reports it after);
// launch times are run-relative and summed per kernel (count, total, median); rows stay with
// their run; launches from several threads all land in few batches; and a version-2 file is
// upgraded to the current version by the writer (in place) and by the reader (in memory).
#include "support/clock.h"
#include "trace/schema.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <functional>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace kiln::trace;
using namespace kiln::testing;
using kiln::AutotuneChoiceEvent;
using kiln::DiagramEvent;
using kiln::KernelEvent;
using kiln::KernelLaunchEvent;

namespace {

// The schema as a version-2 Kiln shipped it: its first two steps.
SchemaHistory version2History() {
    return SchemaHistory({currentSchema().steps().at(0), currentSchema().steps().at(1)});
}

// Runs \p body in a forked child; "signal N" or "exit N". For the writer's misuse assertions.
std::string childOutcome(const std::function<void()>& body) {
    pid_t child = fork();
    if (child == 0) {
        rlimit noCore{0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        signal(SIGABRT, SIG_DFL); // not Qt Test's crash handler, which would print a backtrace
        body();
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
    return "exit " + std::to_string(WEXITSTATUS(status));
}

template <typename T>
T rows(kiln::Expected<T> result) {
    KILN_ASSERT(result.ok(), "test: query failed");
    return std::move(result).value();
}

} // namespace

class TraceCompilerTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void kernelsRoundTripAndFindTheirGraph() {
        std::string file = path("kernels.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            // As the pipeline does it: the backend reports kernels, then capture the graph.
            writer->kernel(sampleKernel(7, "0/0", 0));
            QVERIFY(writer->flush().ok()); // in an earlier batch than the graph
            KernelEvent bare;
            bare.kernelId = 8;
            bare.compileId = "0/0";
            bare.name = "extern_mm";
            bare.kind = "extern"; // no fused nodes, source or launch config
            writer->kernel(bare);
            writer->graph(sampleGraph("0/0", 0, 4));
            // A graph reported first; its kernel comes after it.
            writer->compile(sampleCompileStart(1, 0, kiln::monotonicNs()));
            writer->graph(sampleGraph("1/0", 1, 3));
            writer->kernel(sampleKernel(9, "1/0", 1));
            // A kernel of a compile that never produced a graph.
            writer->kernel(sampleKernel(10, "2/0", 2));
            // Reported again: replaces its facts, keeps its row.
            KernelEvent again = sampleKernel(7, "0/0", 0);
            again.launchConfig = "threads=4 outer=8 inner=16 vector=16";
            writer->kernel(again);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto graphs = rows(reader->graphs(1));
        QCOMPARE(graphs.size(), size_t(2));
        auto all = rows(reader->kernels(1));
        QCOMPARE(all.size(), size_t(4));
        const KernelRow& first = all[0];
        KernelEvent expected = sampleKernel(7, "0/0", 0);
        QCOMPARE(first.runId, int64_t(1));
        QCOMPARE(first.graphId, graphs[0].id);
        QCOMPARE(first.compileId, std::string("0/0"));
        QCOMPARE(first.graphIndex, 0);
        QCOMPARE(first.kernelId, int64_t(7));
        QCOMPARE(first.name, expected.name);
        QCOMPARE(first.kind, std::string("pointwise"));
        QCOMPARE(first.fusedNodes, std::string("sin_1,sin_2"));
        QCOMPARE(first.sourceCode, expected.sourceCode);
        QCOMPARE(first.launchConfig, std::string("threads=4 outer=8 inner=16 vector=16"));
        QCOMPARE(all[1].kernelId, int64_t(8));
        QCOMPARE(all[1].graphId, graphs[0].id);
        QCOMPARE(all[1].kind, std::string("extern"));
        QCOMPARE(all[1].fusedNodes, std::string());
        QCOMPARE(all[2].kernelId, int64_t(9));
        QCOMPARE(all[2].graphId, graphs[1].id);
        QCOMPARE(all[3].kernelId, int64_t(10));
        QCOMPARE(all[3].graphId, int64_t(0)); // no such graph
        QCOMPARE(queryTexts(file,
                            "SELECT coalesce(graph_id, 'NULL') || ',' || "
                            "coalesce(fused_nodes, 'NULL') || ',' || "
                            "coalesce(source_code, 'NULL') || ',' || "
                            "coalesce(launch_config, 'NULL') FROM kernels WHERE kernel_id = 8"),
                 std::vector<std::string>{std::to_string(graphs[0].id) + ",NULL,NULL,NULL"});
        QCOMPARE(queryInt(file, "SELECT count(*) FROM kernels WHERE graph_id IS NULL"), int64_t(1));

        auto ofFirst = rows(reader->graphKernels(graphs[0].id));
        QCOMPARE(ofFirst.size(), size_t(2));
        QCOMPARE(ofFirst[0].name, expected.name);
        QCOMPARE(ofFirst[1].name, std::string("extern_mm"));
        auto ofSecond = rows(reader->graphKernels(graphs[1].id));
        QCOMPARE(ofSecond.size(), size_t(1));
        QCOMPARE(ofSecond[0].kernelId, int64_t(9));
        // Paging.
        auto after = rows(reader->kernels(1, all[1].id, 1));
        QCOMPARE(after.size(), size_t(1));
        QCOMPARE(after[0].kernelId, int64_t(9));

        auto graph = rows(reader->graph(graphs[1].id));
        QVERIFY(graph.has_value());
        QCOMPARE(graph->compileId, std::string("1/0"));
        QCOMPARE(graph->graphIndex, 1);
        QCOMPARE(graph->nodeCount, 3);
        QVERIFY(!rows(reader->graph(graphs[1].id + 100)).has_value());
    }

    void aotGraphsLinkToTheirDynamoGraph() {
        // As the inductor backend reports a training compile: the forward's and the backward's
        // kernels while compiling, then the Dynamo graph, then its AOT graphs.
        std::string file = path("aot.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/train.py")).ok());
            writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            KernelEvent forward = sampleKernel(1, "0/0", 0);
            forward.graphKind = "aot_forward";
            KernelEvent backward = sampleKernel(2, "0/0", 0);
            backward.graphKind = "aot_backward";
            writer->kernel(forward);
            writer->kernel(backward);
            writer->graph(sampleGraph("0/0", 0, 4));
            for (const char* kind : {"aot_joint", "aot_forward", "aot_backward"}) {
                kiln::GraphEvent g = sampleGraph("0/0", 0, 3);
                g.kind = kind;
                if (g.kind == "aot_forward") {
                    g.savedTensors = R"([{"name": "sin", "shape": "[8]", "dtype": )"
                                     R"("torch.float32", "bytes": 32}])";
                    g.savedCount = 1;
                    g.savedBytes = 32;
                }
                writer->graph(g);
            }
            // A kernel reported again after the AOT graphs still belongs to the Dynamo graph.
            writer->kernel(forward);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto graphs = rows(reader->graphs(1));
        QCOMPARE(graphs.size(), size_t(1)); // Dynamo's graphs only
        QCOMPARE(graphs[0].kind, std::string("dynamo"));
        QCOMPARE(graphs[0].dynamoGraphId, int64_t(0));
        auto aot = rows(reader->aotGraphs(graphs[0].id));
        QCOMPARE(aot.size(), size_t(3));
        QCOMPARE(aot[0].kind, std::string("aot_joint"));
        QCOMPARE(aot[1].kind, std::string("aot_forward"));
        QCOMPARE(aot[2].kind, std::string("aot_backward"));
        for (const GraphRow& g : aot) {
            QCOMPARE(g.dynamoGraphId, graphs[0].id);
            QCOMPARE(g.compileId, std::string("0/0"));
            QCOMPARE(g.nodeCount, 3);
        }
        QCOMPARE(aot[1].savedCount, 1);
        QCOMPARE(aot[1].savedBytes, int64_t(32));
        QVERIFY(aot[1].savedTensors.find("\"sin\"") != std::string::npos);
        QCOMPARE(aot[2].savedCount, 0);
        QCOMPARE(aot[2].savedTensors, std::string());
        QCOMPARE(rows(reader->graphNodes(aot[1].id)).size(), size_t(3));
        // graph() reads any kind; the run's nodes are the Dynamo graph's.
        QCOMPARE(rows(reader->graph(aot[2].id))->kind, std::string("aot_backward"));
        QCOMPARE(rows(reader->graphNodesOfRun(1)).size(), size_t(4));
        auto kernels = rows(reader->kernels(1));
        QCOMPARE(kernels.size(), size_t(2));
        QCOMPARE(kernels[0].graphId, graphs[0].id);
        QCOMPARE(kernels[0].graphKind, std::string("aot_forward"));
        QCOMPARE(kernels[1].graphId, graphs[0].id);
        QCOMPARE(kernels[1].graphKind, std::string("aot_backward"));
    }

    void autotuneChoicesPerKernel() {
        std::string file = path("autotune.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->kernel(sampleKernel(1, "0/0", 0));
            writer->kernel(sampleKernel(2, "0/0", 0));
            const char* candidates[] = {"extern_mm (BLAS)", "template tile=64x64x32 +epilogue",
                                        "template tile=128x64x32"};
            int64_t times[] = {52'000, 31'000, 40'000};
            for (int i = 0; i < 3; ++i) {
                AutotuneChoiceEvent choice;
                choice.kernelId = 1;
                choice.candidate = candidates[i];
                choice.timeNs = times[i];
                choice.chosen = i == 1;
                writer->autotuneChoice(choice);
            }
            AutotuneChoiceEvent other;
            other.kernelId = 2;
            other.candidate = "extern_mm (BLAS)";
            other.timeNs = 9'000;
            other.chosen = true;
            writer->autotuneChoice(other);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto choices = rows(reader->autotuneChoices(1, 1));
        QCOMPARE(choices.size(), size_t(3));
        QCOMPARE(choices[0].runId, int64_t(1));
        QCOMPARE(choices[0].kernelId, int64_t(1));
        QCOMPARE(choices[0].candidate, std::string("extern_mm (BLAS)"));
        QCOMPARE(choices[0].timeNs, int64_t(52'000));
        QVERIFY(!choices[0].chosen);
        QCOMPARE(choices[1].candidate, std::string("template tile=64x64x32 +epilogue"));
        QVERIFY(choices[1].chosen);
        QVERIFY(!choices[2].chosen);
        QVERIFY(choices[0].id < choices[1].id && choices[1].id < choices[2].id);
        auto others = rows(reader->autotuneChoices(1, 2));
        QCOMPARE(others.size(), size_t(1));
        QVERIFY(others[0].chosen);
        QCOMPARE(rows(reader->autotuneChoices(1, 3)).size(), size_t(0));
        QCOMPARE(queryTexts(file, "SELECT group_concat(chosen, ',') FROM autotune_choices"),
                 std::vector<std::string>{"0,1,0,1"});
    }

    void launchesAreRunRelativeAndSummed() {
        std::string file = path("launches.kiln");
        int64_t beforeRun = 0, afterRun = 0, t0 = 0;
        {
            auto writer = openWriter(file);
            beforeRun = kiln::monotonicNs();
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            afterRun = kiln::monotonicNs();
            writer->kernel(sampleKernel(1, "0/0", 0));
            writer->kernel(sampleKernel(2, "0/0", 0));
            writer->kernel(sampleKernel(3, "0/0", 0)); // never launched
            t0 = kiln::monotonicNs();
            // Kernel 1: durations 30, 10, 20 (median 20); kernel 2: 5, 1, 7, 3 (median 4).
            int64_t at = t0;
            for (int64_t d : {30, 10, 20}) {
                writer->kernelLaunch(sampleLaunch(1, at, d));
                at += 100;
            }
            for (int64_t d : {5, 1, 7, 3}) {
                writer->kernelLaunch(sampleLaunch(2, at, d));
                at += 100;
            }
            KernelLaunchEvent gpu;
            gpu.kernelId = 1;
            gpu.startNs = at;
            gpu.endNs = at + 40;
            gpu.device = "cuda:0";
            gpu.grid = "(128, 1, 1)";
            gpu.block = "(256, 1, 1)";
            gpu.registers = 32;
            gpu.sharedMemory = 4096;
            writer->kernelLaunch(gpu);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto launches = rows(reader->kernelLaunches(1));
        QCOMPARE(launches.size(), size_t(8));
        const KernelLaunchRow& first = launches[0];
        QCOMPARE(first.runId, int64_t(1));
        QCOMPARE(first.kernelId, int64_t(1));
        // Run-relative, as output.t_ns: the run started between beforeRun and afterRun.
        QVERIFY(first.startNs >= t0 - afterRun && first.startNs <= t0 - beforeRun);
        QCOMPARE(first.durationNs(), int64_t(30));
        QCOMPARE(first.device, std::string("cpu"));
        QCOMPARE(first.grid, std::string("threads=2"));
        QCOMPARE(first.block, std::string());
        QCOMPARE(first.registers, 0);
        QCOMPARE(launches[1].startNs - first.startNs, int64_t(100));
        const KernelLaunchRow& gpu = launches[7];
        QCOMPARE(gpu.device, std::string("cuda:0"));
        QCOMPARE(gpu.grid, std::string("(128, 1, 1)"));
        QCOMPARE(gpu.block, std::string("(256, 1, 1)"));
        QCOMPARE(gpu.registers, 32);
        QCOMPARE(gpu.sharedMemory, 4096);
        QCOMPARE(gpu.durationNs(), int64_t(40));
        QCOMPARE(queryTexts(file, "SELECT coalesce(block, 'NULL') FROM kernel_launches "
                                  "ORDER BY id LIMIT 1"),
                 std::vector<std::string>{"NULL"});

        auto ofTwo = rows(reader->launchesOfKernel(1, 2));
        QCOMPARE(ofTwo.size(), size_t(4));
        QCOMPARE(ofTwo[2].durationNs(), int64_t(7));
        auto page = rows(reader->launchesOfKernel(1, 1, launches[0].id, 1));
        QCOMPARE(page.size(), size_t(1));
        QCOMPARE(page[0].id, launches[1].id);
        auto tail = rows(reader->kernelLaunches(1, launches[5].id));
        QCOMPARE(tail.size(), size_t(2));

        auto stats = rows(reader->kernelLaunchStats(1));
        QCOMPARE(stats.size(), size_t(2)); // kernel 3 never ran
        QCOMPARE(stats[0].kernelId, int64_t(1));
        QCOMPARE(stats[0].count, int64_t(4));
        QCOMPARE(stats[0].totalNs, int64_t(100));
        QCOMPARE(stats[0].medianNs, int64_t(25)); // 10 20 30 40
        QCOMPARE(stats[0].minNs, int64_t(10));
        QCOMPARE(stats[0].maxNs, int64_t(40));
        QCOMPARE(stats[1].kernelId, int64_t(2));
        QCOMPARE(stats[1].count, int64_t(4));
        QCOMPARE(stats[1].totalNs, int64_t(16));
        QCOMPARE(stats[1].medianNs, int64_t(4)); // 1 3 5 7
        auto one = rows(reader->kernelLaunchStats(1, 2));
        QCOMPARE(one.count, int64_t(4));
        QCOMPARE(one.medianNs, int64_t(4));
        auto never = rows(reader->kernelLaunchStats(1, 3));
        QCOMPARE(never.kernelId, int64_t(3));
        QCOMPARE(never.count, int64_t(0));
        QCOMPARE(never.totalNs, int64_t(0));
        QCOMPARE(never.medianNs, int64_t(0));
    }

    void oddCountMedianIsTheMiddle() {
        std::string file = path("median.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            int64_t t0 = kiln::monotonicNs();
            for (int64_t d : {9, 1000, 3, 7, 5})
                writer->kernelLaunch(sampleLaunch(4, t0, d));
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto stats = rows(openReader(file)->kernelLaunchStats(1, 4));
        QCOMPARE(stats.count, int64_t(5));
        QCOMPARE(stats.medianNs, int64_t(7));
        QCOMPARE(stats.totalNs, int64_t(1024));
    }

    void diagramsByGraphAndKind() {
        std::string file = path("diagrams.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            // Before the graph, as the pipeline reports them.
            writer->diagram(sampleDiagram("0/0", 0, "pre_fusion"));
            writer->diagram(sampleDiagram("0/0", 0, "post_fusion"));
            QVERIFY(writer->flush().ok());
            writer->graph(sampleGraph("0/0", 0, 4));
            // Drawn again: replaces the DOT text.
            DiagramEvent again = sampleDiagram("0/0", 0, "post_fusion");
            again.dot = "digraph G { fused -> output; }";
            writer->diagram(again);
            // Another graph with only a pre-fusion diagram.
            writer->compile(sampleCompileStart(1, 0, kiln::monotonicNs()));
            writer->graph(sampleGraph("1/0", 1, 3));
            writer->diagram(sampleDiagram("1/0", 1, "pre_fusion"));
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto graphs = rows(reader->graphs(1));
        QCOMPARE(graphs.size(), size_t(2));
        auto both = rows(reader->diagrams(graphs[0].id));
        QCOMPARE(both.size(), size_t(2));
        QCOMPARE(both[0].kind, std::string("post_fusion"));
        QCOMPARE(both[1].kind, std::string("pre_fusion"));
        QCOMPARE(both[0].graphId, graphs[0].id);
        QCOMPARE(both[0].runId, int64_t(1));
        QCOMPARE(both[0].compileId, std::string("0/0"));
        QCOMPARE(both[0].graphIndex, 0);
        QCOMPARE(both[0].dot, std::string("digraph G { fused -> output; }"));
        QCOMPARE(both[1].dot, sampleDiagram("0/0", 0, "pre_fusion").dot);
        auto pre = rows(reader->diagram(graphs[0].id, "pre_fusion"));
        QVERIFY(pre.has_value());
        QCOMPARE(pre->kind, std::string("pre_fusion"));
        auto post = rows(reader->diagram(graphs[1].id, "post_fusion"));
        QVERIFY(!post.has_value());
        QVERIFY(rows(reader->diagram(graphs[1].id, "pre_fusion")).has_value());
        QCOMPARE(queryInt(file, "SELECT count(*) FROM diagrams"), int64_t(3));
        QCOMPARE(rows(reader->diagrams(graphs[1].id + 100)).size(), size_t(0));
    }

    void runsKeepTheirOwnRows() {
        std::string file = path("two_runs.kiln");
        {
            auto writer = openWriter(file);
            for (int run = 1; run <= 2; ++run) {
                QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
                writer->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
                writer->kernel(sampleKernel(1, "0/0", 0)); // the same ids in both runs
                writer->diagram(sampleDiagram("0/0", 0, "post_fusion"));
                writer->graph(sampleGraph("0/0", 0, 3));
                for (int i = 0; i < run; ++i)
                    writer->kernelLaunch(sampleLaunch(1, kiln::monotonicNs(), 10 * run));
                QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
            }
        }
        auto reader = openReader(file);
        for (int64_t run = 1; run <= 2; ++run) {
            auto graphs = rows(reader->graphs(run));
            QCOMPARE(graphs.size(), size_t(1));
            auto kernels = rows(reader->graphKernels(graphs[0].id));
            QCOMPARE(kernels.size(), size_t(1));
            QCOMPARE(kernels[0].runId, run);
            QVERIFY(rows(reader->diagram(graphs[0].id, "post_fusion")).has_value());
            auto stats = rows(reader->kernelLaunchStats(run, 1));
            QCOMPARE(stats.count, run);
            QCOMPARE(stats.medianNs, 10 * run);
        }
    }

    void launchesFromSeveralThreadsAllLand() {
        std::string file = path("threads.kiln");
        constexpr int kThreads = 4;
        constexpr int kPerThread = 25'000;
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
        for (int k = 0; k < kThreads; ++k)
            writer->kernel(sampleKernel(k, "0/0", 0));
        std::vector<std::thread> threads;
        for (int k = 0; k < kThreads; ++k)
            threads.emplace_back([&writer, k] {
                for (int i = 0; i < kPerThread; ++i) {
                    int64_t now = kiln::monotonicNs();
                    writer->kernelLaunch(sampleLaunch(k, now, 1 + i % 10));
                }
            });
        for (auto& thread : threads)
            thread.join();
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        // Batched: far fewer transactions than launches.
        QVERIFY2(writer->batchesCommitted() < kThreads * kPerThread / 100,
                 qPrintable(QString::number(writer->batchesCommitted())));
        writer.reset();
        auto reader = openReader(file);
        auto stats = rows(reader->kernelLaunchStats(1));
        QCOMPARE(stats.size(), size_t(kThreads));
        for (const KernelLaunchStats& s : stats) {
            QCOMPARE(s.count, int64_t(kPerThread));
            QCOMPARE(s.totalNs, int64_t(kPerThread / 10 * 55));
            QCOMPARE(s.minNs, int64_t(1));
            QCOMPARE(s.maxNs, int64_t(10));
        }
        // Each thread's launches keep their order.
        QCOMPARE(queryInt(file,
                          "SELECT count(*) FROM kernel_launches a JOIN kernel_launches b "
                          "ON b.run_id = a.run_id AND b.kernel_id = a.kernel_id AND b.id > a.id "
                          "AND b.start_ns < a.start_ns WHERE a.id % 997 = 0"),
                 int64_t(0));
    }

    void misuseIsCaughtWhenReported() {
        std::string file = path("misuse.kiln");
        std::string aborted = "signal " + std::to_string(SIGABRT);
        auto inRun = [&](const std::function<void(TraceWriter&)>& report) {
            return childOutcome([&] {
                auto writer = TraceWriter::open(file);
                if (!writer || !(*writer)->beginRun(sampleRunInfo("/w/x.py"))) _exit(2);
                report(**writer);
            });
        };
        QCOMPARE(inRun([](TraceWriter& w) {
                     KernelEvent kernel = sampleKernel(1, "0/0", 0);
                     kernel.kind = "triton"; // not one of the documented kinds
                     w.kernel(kernel);
                 }),
                 aborted);
        QCOMPARE(inRun([](TraceWriter& w) { w.kernel(sampleKernel(1, "", 0)); }), aborted);
        QCOMPARE(inRun([](TraceWriter& w) { w.diagram(sampleDiagram("0/0", 0, "fused")); }),
                 aborted);
        QCOMPARE(childOutcome([&] {
                     auto writer = TraceWriter::open(file);
                     if (!writer) _exit(2);
                     (*writer)->kernelLaunch(sampleLaunch(1, kiln::monotonicNs(), 5)); // no run
                 }),
                 aborted);
        // A writer of a version-2 schema has nowhere to put compiler facts.
        std::string version2File = path("misuse_v2.kiln");
        QCOMPARE(childOutcome([&] {
                     auto writer = TraceWriter::open(version2File, version2History());
                     if (!writer || !(*writer)->beginRun(sampleRunInfo("/w/x.py"))) _exit(2);
                     (*writer)->kernelLaunch(sampleLaunch(1, kiln::monotonicNs(), 5));
                 }),
                 aborted);
        // Without a mistake the same child ends normally.
        QCOMPARE(inRun([](TraceWriter& w) {
                     w.kernel(sampleKernel(1, "0/0", 0));
                     w.diagram(sampleDiagram("0/0", 0, "pre_fusion"));
                     w.kernelLaunch(sampleLaunch(1, kiln::monotonicNs(), 5));
                     if (!w.finishRun(RunStatus::Ok, 0)) _exit(3);
                 }),
                 std::string("exit 0"));
    }

    void writerUpgradesVersion2FileInPlace() {
        std::string file = path("v2_writer.kiln");
        {
            auto writer = TraceWriter::open(file, version2History());
            QVERIFY(writer.ok());
            QVERIFY((*writer)->beginRun(sampleRunInfo("/w/old.py")).ok());
            (*writer)->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            (*writer)->graph(sampleGraph("0/0", 0, 3));
            (*writer)->output(kiln::OutputStream::Stdout, "old\n");
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(2));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM sqlite_master WHERE name = 'kernels'"),
                 int64_t(0));
        {
            auto writer = TraceWriter::open(file);
            QVERIFY2(writer.ok(), writer.ok() ? "" : writer.error().render().c_str());
            auto runId = (*writer)->beginRun(sampleRunInfo("/w/new.py"));
            QVERIFY(runId.ok());
            QCOMPARE(runId.value(), int64_t(2));
            (*writer)->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            (*writer)->kernel(sampleKernel(1, "0/0", 0));
            (*writer)->diagram(sampleDiagram("0/0", 0, "post_fusion"));
            (*writer)->graph(sampleGraph("0/0", 0, 3));
            (*writer)->kernelLaunch(sampleLaunch(1, kiln::monotonicNs(), 50));
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(currentSchemaVersion()));
        QCOMPARE(queryTexts(file, "SELECT value FROM meta WHERE key = 'schema_version'"),
                 std::vector<std::string>{std::to_string(currentSchemaVersion())});
        auto reader = openReader(file);
        QVERIFY(!reader->isUpgradedSnapshot());
        QCOMPARE(reader->schemaVersion(), currentSchemaVersion());
        // The old run kept its rows and has no compiler facts; the new one has them.
        QCOMPARE(rows(reader->outputLines(1)).front().text, std::string("old"));
        auto oldGraphs = rows(reader->graphs(1));
        QCOMPARE(oldGraphs.size(), size_t(1));
        QCOMPARE(rows(reader->graphKernels(oldGraphs[0].id)).size(), size_t(0));
        QVERIFY(rows(reader->kernels(1)).empty());
        auto newGraphs = rows(reader->graphs(2));
        QCOMPARE(newGraphs.size(), size_t(1));
        auto kernels = rows(reader->graphKernels(newGraphs[0].id));
        QCOMPARE(kernels.size(), size_t(1));
        QCOMPARE(kernels[0].runId, int64_t(2));
        QVERIFY(rows(reader->diagram(newGraphs[0].id, "post_fusion")).has_value());
        QCOMPARE(rows(reader->kernelLaunchStats(2, 1)).count, int64_t(1));
    }

    void readerUpgradesVersion2FileInMemory() {
        std::string file = path("v2_reader.kiln");
        {
            auto writer = TraceWriter::open(file, version2History());
            QVERIFY(writer.ok());
            QVERIFY((*writer)->beginRun(sampleRunInfo("/w/old.py")).ok());
            (*writer)->compile(sampleCompileStart(0, 0, kiln::monotonicNs()));
            (*writer)->graph(sampleGraph("0/0", 0, 3));
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        std::string before = readFileBytes(file);
        auto reader = TraceReader::open(file);
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().render().c_str());
        QVERIFY((*reader)->isUpgradedSnapshot());
        QCOMPARE((*reader)->schemaVersion(), 2);
        QCOMPARE((*reader)->meta()->at("schema_version"), std::to_string(currentSchemaVersion()));
        auto graphs = rows((*reader)->graphs(1));
        QCOMPARE(graphs.size(), size_t(1));
        // The compiler tables exist in the snapshot, empty.
        QCOMPARE(rows((*reader)->kernels(1)).size(), size_t(0));
        QCOMPARE(rows((*reader)->graphKernels(graphs[0].id)).size(), size_t(0));
        QCOMPARE(rows((*reader)->autotuneChoices(1, 1)).size(), size_t(0));
        QCOMPARE(rows((*reader)->kernelLaunches(1)).size(), size_t(0));
        QCOMPARE(rows((*reader)->kernelLaunchStats(1)).size(), size_t(0));
        QCOMPARE(rows((*reader)->diagrams(graphs[0].id)).size(), size_t(0));
        QVERIFY(readFileBytes(file) == before);
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(2));
    }
};

QTEST_APPLESS_MAIN(TraceCompilerTest)
#include "tst_trace_compiler.moc"
