// SPDX-License-Identifier: MIT
// The capture tables while a run goes on: a second connection sees capture facts before
// finishRun without any flush, never sees a guard before its compile's row, several emitting
// threads keep their own order, ten thousand guards and graph nodes stay cheap for the emitting
// thread (measured, not asserted), and misuse by the capture layer stops the process.
#include "support/clock.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <csignal>
#include <ctime>
#include <functional>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace kiln::trace;
using namespace kiln::testing;
using kiln::CompileEvent;
using kiln::GraphEvent;
using kiln::GuardEvent;
using kiln::OutputStream;

namespace {

// CPU time of the calling thread: what the emitting thread itself spends, even when a loaded
// machine stretches the wall-clock time.
int64_t threadCpuNs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// Runs \p body in a child process; "signal N" or "exit N" says how the child ended.
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

} // namespace

class TraceCaptureLiveTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void readerSeesCaptureWhileRunIsOpen() {
        std::string file = path("live.kiln");
        auto writer = openWriter(file);
        auto runId = writer->beginRun(sampleRunInfo("/w/live.py"));
        QVERIFY(runId.ok());
        auto reader = openReader(file);
        int64_t version = reader->dataVersion().value();

        CompileEvent start = sampleCompileStart(0, 0, kiln::monotonicNs());
        int64_t emittedNs = kiln::monotonicNs();
        writer->frame(sampleFrame(0));
        writer->compile(start);
        writer->guard(sampleGuard("0/0", 0));
        writer->graph(sampleGraph("0/0", 0, 5));
        // No flush: the writer thread's batch window alone must make them visible.
        QVERIFY(eventually([&] { return reader->graphs(*runId)->size() == 1; }));
        qInfo("capture rows visible to the reader after %.1f ms",
              double(kiln::monotonicNs() - emittedNs) / 1e6);
        QVERIFY(reader->dataVersion().value() != version);
        QCOMPARE(reader->frames(*runId)->size(), size_t(1));
        QCOMPARE(reader->guards(*runId)->size(), size_t(1));
        QCOMPARE(reader->graphNodes(reader->graphs(*runId)->front().id)->size(), size_t(5));
        auto compiling = reader->compiles(*runId);
        QCOMPARE(compiling->size(), size_t(1));
        QVERIFY(!compiling->front().finished());
        QCOMPARE(reader->run(*runId)->status, RunStatus::Running);

        writer->compile(sampleCompileFinish(start, "ok", 42'000));
        QVERIFY(eventually([&] { return reader->compiles(*runId)->front().finished(); }));
        QCOMPARE(reader->compiles(*runId)->front().durationNs, std::optional<int64_t>(42'000));
        QCOMPARE(reader->run(*runId)->status, RunStatus::Running);
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
    }

    void liveReaderNeverSeesGuardsBeforeTheirCompile() {
        // One thread reports compiles, each followed by its guards, while another connection
        // checks at every poll that no guard is visible without its compile row.
        std::string file = path("ordering.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/ordering.py")).ok());
        constexpr int kCompiles = 200;
        std::thread emitter([&writer] {
            for (int c = 0; c < kCompiles; ++c) {
                CompileEvent start = sampleCompileStart(c, 0, kiln::monotonicNs());
                writer->compile(start);
                for (int g = 0; g < 20; ++g)
                    writer->guard(sampleGuard(start.compileId, g));
                writer->compile(sampleCompileFinish(start, "ok", 1000));
                if (c % 2 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
        int64_t orphans = 0;
        int polls = 0;
        bool complete = eventually([&] {
            ++polls;
            // One statement, one read transaction: a consistent snapshot of both tables.
            orphans += std::max<int64_t>(
                0, queryInt(file, "SELECT count(*) FROM guards g WHERE NOT EXISTS ("
                                  "SELECT 1 FROM compiles c WHERE c.run_id = g.run_id "
                                  "AND c.compile_id = g.compile_id)"));
            return queryInt(file, "SELECT count(*) FROM guards") == kCompiles * 20;
        });
        emitter.join();
        QVERIFY(complete);
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        qInfo("%d polls while %d compiles and their guards arrived", polls, kCompiles);
        QCOMPARE(orphans, int64_t(0));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM compiles WHERE status = 'ok'"),
                 int64_t(kCompiles));
    }

    void captureFromSeveralThreads() {
        std::string file = path("threads.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/threads.py")).ok());
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&writer, t] {
                std::string compileId = std::to_string(t) + "/0";
                writer->compile(sampleCompileStart(t, 0, kiln::monotonicNs()));
                for (int i = 0; i < 2000; ++i) {
                    writer->guard(sampleGuard(compileId, i));
                    if (i % 500 == 0) writer->output(OutputStream::Log, "progress\n");
                }
            });
        for (std::thread& thread : threads)
            thread.join();
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        auto reader = openReader(file);
        QCOMPARE(reader->guards(1)->size(), size_t(8000));
        QCOMPARE(reader->guards(1, "2/0")->size(), size_t(2000));
        QCOMPARE(reader->compiles(1)->size(), size_t(4));
        QCOMPARE(reader->outputLines(1)->size(), size_t(16));
        // Each thread's guards keep their order.
        auto ofThree = reader->guards(1, "3/0").value();
        for (size_t i = 0; i < ofThree.size(); ++i)
            QCOMPARE(ofThree[i].source, "L['x" + std::to_string(i) + "']");
    }

    void tenThousandGuardsAndGraphNodes() {
        // Measures the emitting thread's cost; no timing assertion (see the qInfo lines).
        std::string file = path("load.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/load.py")).ok());
        constexpr int kCount = 10'000;
        // Built before timing: only the sink's cost counts.
        CompileEvent start = sampleCompileStart(0, 0, kiln::monotonicNs());
        std::vector<GuardEvent> guardEvents;
        for (int i = 0; i < kCount; ++i)
            guardEvents.push_back(sampleGuard("0/0", i));
        GraphEvent graph = sampleGraph("0/0", 0, kCount);
        int64_t t0 = kiln::monotonicNs();
        int64_t cpu0 = threadCpuNs();
        writer->compile(start);
        for (const GuardEvent& guard : guardEvents)
            writer->guard(guard);
        int64_t t1 = kiln::monotonicNs();
        int64_t cpu1 = threadCpuNs();
        writer->graph(graph);
        int64_t t2 = kiln::monotonicNs();
        int64_t cpu2 = threadCpuNs();
        writer->compile(sampleCompileFinish(start, "ok", t2 - t0));
        QVERIFY(writer->flush().ok());
        int64_t t3 = kiln::monotonicNs();
        qInfo("10k guard() calls on the calling thread: %.2f ms wall, %.2f ms CPU (%.0f ns each)",
              double(t1 - t0) / 1e6, double(cpu1 - cpu0) / 1e6, double(cpu1 - cpu0) / kCount);
        qInfo("one graph() of 10k nodes on the calling thread: %.2f ms wall, %.2f ms CPU",
              double(t2 - t1) / 1e6, double(cpu2 - cpu1) / 1e6);
        qInfo("all committed %.1f ms after the first call", double(t3 - t0) / 1e6);
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());

        auto reader = openReader(file);
        auto guards = reader->guards(1, "0/0");
        QCOMPARE(guards->size(), size_t(kCount));
        QCOMPARE(guards->back().source, std::string("L['x9999']"));
        auto graphs = reader->graphs(1);
        QCOMPARE(graphs->size(), size_t(1));
        auto nodes = reader->graphNodes(graphs->front().id);
        QCOMPARE(nodes->size(), size_t(kCount));
        QCOMPARE(nodes->at(5000).name, std::string("sin_5000"));
        QCOMPARE(nodes->at(5000).args, std::string("(sin_4999,)"));
        QCOMPARE(nodes->back().op, std::string("output"));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM graph_nodes n JOIN graph_nodes m "
                                "ON m.graph_id = n.graph_id AND m.ord = n.ord + 1 "
                                "WHERE m.id < n.id"),
                 int64_t(0));
        // Paging through the guards, as a view would.
        auto page = reader->guards(1, "", guards->at(99).id, 100);
        QCOMPARE(page->size(), size_t(100));
        QCOMPARE(page->front().source, std::string("L['x100']"));
    }

    void captureMisuseStopsTheProcess() {
        std::string file = path("misuse.kiln");
        std::string aborted = "signal " + std::to_string(SIGABRT);
        QCOMPARE(childOutcome([&] {
                     auto writer = TraceWriter::open(file);
                     if (!writer) _exit(2);
                     (*writer)->guard(sampleGuard("0/0", 0)); // no run open
                 }),
                 aborted);
        QCOMPARE(childOutcome([&] {
                     auto writer = TraceWriter::open(file);
                     if (!writer || !(*writer)->beginRun(sampleRunInfo("/w/x.py"))) _exit(2);
                     CompileEvent compile = sampleCompileStart(0, 0, kiln::monotonicNs());
                     compile.status = "done"; // not one of the documented statuses
                     (*writer)->compile(compile);
                 }),
                 aborted);
        // A writer of an older schema has nowhere to put capture facts.
        std::string version1File = path("misuse_v1.kiln");
        QCOMPARE(childOutcome([&] {
                     auto writer = TraceWriter::open(version1File,
                                                     SchemaHistory({currentSchema().steps()[0]}));
                     if (!writer || !(*writer)->beginRun(sampleRunInfo("/w/x.py"))) _exit(2);
                     (*writer)->frame(sampleFrame(0));
                 }),
                 aborted);
        // The same child without a mistake ends normally.
        QCOMPARE(childOutcome([&] {
                     auto writer = TraceWriter::open(file);
                     if (!writer || !(*writer)->beginRun(sampleRunInfo("/w/x.py"))) _exit(2);
                     (*writer)->frame(sampleFrame(0));
                     if (!(*writer)->finishRun(RunStatus::Ok, 0)) _exit(3);
                 }),
                 std::string("exit 0"));
    }
};

QTEST_APPLESS_MAIN(TraceCaptureLiveTest)
#include "tst_trace_capture_live.moc"
