// SPDX-License-Identifier: MIT
// TraceWriter and TraceReader together: runs and output round-trip, lines are assembled from
// arbitrary pieces, a second connection sees output while the run is still open, runs end with
// their status and error, files take more runs, and crashes (an emergency flush from a real
// SIGSEGV handler in a child process, the parent's mark, a reader's guess) end up as 'crashed'.
#include "support/clock.h"
#include "trace/process_info.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace kiln::trace;
using namespace kiln::testing;
using kiln::OutputStream;

namespace {

std::vector<std::string> texts(const std::vector<OutputLine>& lines) {
    std::vector<std::string> result;
    for (const OutputLine& line : lines)
        result.push_back(line.text);
    return result;
}

// The pid of a process that has exited and been reaped.
int64_t deadPid() {
    pid_t child = fork();
    if (child == 0) _exit(0);
    waitpid(child, nullptr, 0);
    return child;
}

void crashHandler(int signalNumber) {
    TraceWriter::emergencyFlush(signalNumber);
    signal(signalNumber, SIG_DFL);
    raise(signalNumber);
}

// Child side of the crash test; exits with a code > 0 only when the setup fails.
[[noreturn]] void runAndCrash(const std::string& path) {
    rlimit noCore{0, 0};
    setrlimit(RLIMIT_CORE, &noCore);
    auto writer = TraceWriter::open(path);
    if (!writer) _exit(2);
    if (!(*writer)->beginRun(sampleRunInfo("/w/crash.py"))) _exit(3);
    (*writer)->output(OutputStream::Stdout, "before the crash\n");
    (*writer)->output(OutputStream::Stderr, "unfinished line");
    signal(SIGSEGV, crashHandler);
    raise(SIGSEGV);
    _exit(4);
}

} // namespace

class TraceWriterTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void runRoundTrips() {
        std::string file = path("roundtrip.kiln");
        RunInfo info = sampleRunInfo("/w/model.py");
        info.argv.push_back("quote\" backslash\\ newline\n tab\t caf\xc3\xa9");
        int64_t before = kiln::wallClockNs();
        {
            auto writer = openWriter(file);
            auto runId = writer->beginRun(info);
            QVERIFY(runId.ok());
            QCOMPARE(runId.value(), int64_t(1));
            QCOMPARE(writer->activeRunId(), int64_t(1));
            writer->output(OutputStream::Stdout, "tensor([1., 2.])\n");
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
            QCOMPARE(writer->activeRunId(), int64_t(0));
        }
        int64_t after = kiln::wallClockNs();
        auto reader = openReader(file);
        auto runs = reader->listRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(1));
        const RunRow& run = runs->front();
        QCOMPARE(run.id, int64_t(1));
        QCOMPARE(run.workloadPath, info.workloadPath);
        QCOMPARE(run.workloadHash, info.workloadHash);
        QCOMPARE(run.mode, std::string("max-autotune"));
        QCOMPARE(run.backend, std::string("inductor"));
        QCOMPARE(run.optionsJson, info.optionsJson);
        QCOMPARE(run.device, std::string("cpu"));
        QVERIFY(run.argv == info.argv);
        QCOMPARE(run.host, localHostName());
        QCOMPARE(run.pid, int64_t(getpid()));
        QVERIFY(run.startedAtNs >= before && run.startedAtNs <= after);
        QVERIFY(run.endedAtNs.has_value());
        QVERIFY(*run.endedAtNs >= run.startedAtNs && *run.endedAtNs <= after);
        QCOMPARE(run.status, RunStatus::Ok);
        QCOMPARE(run.exitCode, std::optional<int64_t>(0));
        QCOMPARE(run.errorType, std::string());
        QCOMPARE(queryTexts(file, "SELECT argv FROM runs"),
                 std::vector<std::string>{
                     "[\"kiln\",\"run\",\"/w/model.py\",\"--mode=max-autotune\","
                     "\"quote\\\" backslash\\\\ newline\\u000a tab\\u0009 caf\xc3\xa9\"]"});
        QCOMPARE(queryTexts(file, "SELECT coalesce(error_type, 'NULL') FROM runs"),
                 std::vector<std::string>{"NULL"});
        auto single = reader->run(1);
        QVERIFY(single.ok());
        QCOMPARE(single->workloadPath, info.workloadPath);
        auto missing = reader->run(7);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().message, "trace '" + file + "' has no run 7");
        auto lines = reader->outputLines(1);
        QVERIFY(lines.ok());
        QCOMPARE(texts(*lines), std::vector<std::string>{"tensor([1., 2.])"});
    }

    void emptyOptionalFieldsReadAsNull() {
        std::string file = path("sparse.kiln");
        {
            auto writer = openWriter(file);
            RunInfo info;
            info.workloadPath = "/w/bare.py";
            info.pid = 4242;
            info.startedAtNs = 1'000;
            QVERIFY(writer->beginRun(info).ok());
            QVERIFY(writer->finishRun(RunStatus::Cancelled, 130).ok());
        }
        QCOMPARE(queryTexts(file, "SELECT coalesce(mode, 'NULL') || ',' || "
                                  "coalesce(workload_hash, 'NULL') || ',' || argv || ',' || pid "
                                  "|| ',' || started_at_ns || ',' || status FROM runs"),
                 std::vector<std::string>{"NULL,NULL,[],4242,1000,cancelled"});
        auto run = openReader(file)->run(1);
        QVERIFY(run.ok());
        QVERIFY(run->argv.empty());
        QCOMPARE(run->status, RunStatus::Cancelled);
        QCOMPARE(run->exitCode, std::optional<int64_t>(130));
    }

    void partialAndMultiLineTextBecomesLines() {
        std::string file = path("lines.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/print.py")).ok());
            writer->output(OutputStream::Stdout, "hel"); // print("hel", end="")
            writer->output(OutputStream::Stdout, "");
            writer->output(OutputStream::Stdout, "lo\nwor");
            writer->output(OutputStream::Stderr, "err one\nerr two\n");
            writer->output(OutputStream::Stdout, "ld\n\n");
            writer->output(OutputStream::Log, "a\r\nb");
            writer->output(OutputStream::Stdout, "x");
            writer->output(OutputStream::Stdout, "y");
            writer->output(OutputStream::Stdout, "\n");
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok()); // completes the log's "b"
        }
        auto reader = openReader(file);
        auto lines = reader->outputLines(1);
        QVERIFY(lines.ok());
        struct Expected {
            OutputStream stream;
            const char* text;
        };
        std::vector<Expected> expected = {
            {OutputStream::Stdout, "hello"},   {OutputStream::Stderr, "err one"},
            {OutputStream::Stderr, "err two"}, {OutputStream::Stdout, "world"},
            {OutputStream::Stdout, ""},        {OutputStream::Log, "a\r"},
            {OutputStream::Stdout, "xy"},      {OutputStream::Log, "b"}};
        QCOMPARE(lines->size(), expected.size());
        int64_t previousT = 0;
        for (size_t i = 0; i < expected.size(); ++i) {
            const OutputLine& line = (*lines)[i];
            QCOMPARE(line.seq, int64_t(i + 1));
            QCOMPARE(line.runId, int64_t(1));
            QCOMPARE(line.stream, expected[i].stream);
            QCOMPARE(line.text, std::string(expected[i].text));
            QVERIFY(line.tNs >= previousT);
            previousT = line.tNs;
        }
        QCOMPARE(queryTexts(file, "SELECT DISTINCT stream FROM output ORDER BY stream"),
                 (std::vector<std::string>{"log", "stderr", "stdout"}));
        // Tailing: the rows after a given id, limited.
        auto tail = reader->outputLines(1, (*lines)[5].id, 1);
        QVERIFY(tail.ok());
        QCOMPARE(texts(*tail), std::vector<std::string>{"xy"});
        QVERIFY(reader->outputLines(2)->empty());
    }

    void readerSeesOutputWhileRunIsOpen() {
        std::string file = path("live.kiln");
        auto writer = openWriter(file);
        auto runId = writer->beginRun(sampleRunInfo("/w/live.py"));
        QVERIFY(runId.ok());
        auto reader = openReader(file);
        auto version = reader->dataVersion();
        QVERIFY(version.ok());

        int64_t startNs = kiln::monotonicNs();
        for (int i = 0; i < 10; ++i)
            writer->output(OutputStream::Stdout, "step " + std::to_string(i) + "\n");
        std::vector<OutputLine> seen;
        while (seen.size() < 10 && kiln::monotonicNs() - startNs < 5'000'000'000) {
            auto lines = reader->outputLines(*runId);
            QVERIFY(lines.ok());
            seen = std::move(lines).value();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        double latencyMs = double(kiln::monotonicNs() - startNs) / 1e6;
        QCOMPARE(seen.size(), size_t(10));
        QCOMPARE(seen.back().text, std::string("step 9"));
        qInfo("first batch visible to the reader after %.1f ms", latencyMs);
        QVERIFY(reader->dataVersion().value() != version.value());
        auto running = reader->run(*runId);
        QVERIFY(running.ok());
        QCOMPARE(running->status, RunStatus::Running);
        QVERIFY(!running->endedAtNs.has_value());
        QVERIFY(!TraceReader::runLooksCrashed(*running)); // this process is alive

        // Tail from the last id seen.
        writer->output(OutputStream::Stdout, "step 10\nstep 11\n");
        std::vector<OutputLine> more;
        for (int tries = 0; more.size() < 2 && tries < 2500; ++tries) {
            more = reader->outputLines(*runId, seen.back().id).value();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        QCOMPARE(texts(more), (std::vector<std::string>{"step 10", "step 11"}));
        QCOMPARE(more.front().seq, int64_t(11));

        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        QCOMPARE(reader->run(*runId)->status, RunStatus::Ok);
    }

    void finishRunRecordsError() {
        std::string file = path("error.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/bad.py")).ok());
            writer->output(OutputStream::Stderr, "Traceback (most recent call last):\n");
            RunError error{"ZeroDivisionError", "division by zero",
                           "Traceback (most recent call last):\n  File \"/w/bad.py\", line 3, "
                           "in <module>\n    1 / 0\nZeroDivisionError: division by zero\n"};
            QVERIFY(writer->finishRun(RunStatus::Error, 1, &error).ok());
        }
        auto run = openReader(file)->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Error);
        QCOMPARE(run->exitCode, std::optional<int64_t>(1));
        QCOMPARE(run->errorType, std::string("ZeroDivisionError"));
        QCOMPARE(run->errorMessage, std::string("division by zero"));
        QVERIFY(run->errorTraceback.find("line 3, in <module>\n    1 / 0\n") != std::string::npos);
        QVERIFY(run->endedAtNs.has_value());
    }

    void reopeningAppendsAnotherRun() {
        std::string file = path("append.kiln");
        std::string createdAt;
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->output(OutputStream::Stdout, "default mode\n");
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
            // Two runs in one writer work too.
            QCOMPARE(writer->beginRun(sampleRunInfo("/w/model.py")).value(), int64_t(2));
            writer->output(OutputStream::Stdout, "reduce-overhead\n");
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        createdAt = queryTexts(file, "SELECT value FROM meta WHERE key = 'created_at_ns'").at(0);
        {
            auto writer = openWriter(file);
            RunInfo info = sampleRunInfo("/w/model.py");
            info.mode = "default";
            auto runId = writer->beginRun(info);
            QCOMPARE(runId.value(), int64_t(3));
            writer->output(OutputStream::Stdout, "max-autotune\n");
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto runs = reader->listRuns();
        QCOMPARE(runs->size(), size_t(3));
        QCOMPARE(runs->at(2).mode, std::string("default"));
        QCOMPARE(texts(reader->outputLines(1).value()), std::vector<std::string>{"default mode"});
        QCOMPARE(texts(reader->outputLines(2).value()),
                 std::vector<std::string>{"reduce-overhead"});
        QCOMPARE(texts(reader->outputLines(3).value()), std::vector<std::string>{"max-autotune"});
        QCOMPARE(reader->outputLines(3)->front().seq, int64_t(1)); // seq restarts per run
        QCOMPARE(reader->meta()->at("created_at_ns"), createdAt);
    }

    void destructionWithoutFinishDrainsQueue() {
        std::string file = path("abandoned.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/abandoned.py")).ok());
            for (int i = 0; i < 500; ++i)
                writer->output(OutputStream::Stdout, "row " + std::to_string(i) + "\n");
            writer->output(OutputStream::Stdout, "no newline yet");
        }
        auto reader = openReader(file);
        auto lines = reader->outputLines(1, 0, 1000);
        QCOMPARE(lines->size(), size_t(501));
        QCOMPARE(lines->at(499).text, std::string("row 499"));
        QCOMPARE(lines->at(500).text, std::string("no newline yet"));
        auto run = reader->run(1);
        QCOMPARE(run->status, RunStatus::Running);
        QVERIFY(!run->endedAtNs.has_value());
        QVERIFY(!TraceReader::runLooksCrashed(*run));
    }

    void flushMakesQueuedLinesVisibleAtOnce() {
        std::string file = path("flush.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/flush.py")).ok());
        writer->output(OutputStream::Log, "one\ntwo\n");
        writer->output(OutputStream::Log, "partial stays queued");
        QVERIFY(writer->flush().ok());
        QCOMPARE(queryTexts(file, "SELECT text FROM output ORDER BY id"),
                 (std::vector<std::string>{"one", "two"}));
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        QCOMPARE(queryInt(file, "SELECT count(*) FROM output"), int64_t(3));
    }

    void tricklingOutputIsBatched() {
        // A line every millisecond: visible within the batch window, yet not one transaction
        // per line.
        std::string file = path("trickle.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/trickle.py")).ok());
        int64_t before = writer->batchesCommitted();
        constexpr int kLines = 100;
        for (int i = 0; i < kLines; ++i) {
            writer->output(OutputStream::Stdout, "tick " + std::to_string(i) + "\n");
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        QVERIFY(writer->flush().ok());
        int64_t batches = writer->batchesCommitted() - before;
        qInfo("%d trickled lines went in %lld transactions", kLines, (long long)batches);
        QVERIFY(batches >= 1);
        QVERIFY(batches <= kLines / 2);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM output"), int64_t(kLines));
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
    }

    void runLooksCrashedJudgesPidAndHost() {
        RunRow run;
        run.status = RunStatus::Running;
        run.host = localHostName();
        run.pid = deadPid();
        QVERIFY(TraceReader::runLooksCrashed(run));
        run.pid = getpid();
        QVERIFY(!TraceReader::runLooksCrashed(run));
        run.pid = 1; // init: alive, even if owned by someone else
        QVERIFY(!TraceReader::runLooksCrashed(run));
        run.pid = deadPid();
        run.host = "some-other-machine";
        QVERIFY(!TraceReader::runLooksCrashed(run));
        run.host = localHostName();
        run.status = RunStatus::Ok;
        QVERIFY(!TraceReader::runLooksCrashed(run));
    }

    void zombieCountsAsDead() {
        pid_t child = fork();
        if (child == 0) _exit(0);
        // Until reaped, the child is a zombie, which is how a crashed `kiln run` looks to the
        // GUI that has not yet handled QProcess::finished.
        bool zombie = false;
        for (int i = 0; i < 500 && !zombie; ++i) {
            zombie = !processLooksAlive(child);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        QVERIFY(zombie);
        QCOMPARE(kill(child, 0), 0); // still has a process-table entry
        waitpid(child, nullptr, 0);
        QVERIFY(!processLooksAlive(child));
    }

    void parentMarksRunsOfDeadChildCrashed() {
        std::string file = path("parent_marks.kiln");
        int64_t child = deadPid();
        {
            auto writer = openWriter(file);
            RunInfo info = sampleRunInfo("/w/segfault.py");
            info.pid = child;
            QVERIFY(writer->beginRun(info).ok());
            writer->output(OutputStream::Stdout, "last words\n");
        }
        auto before = openReader(file)->run(1);
        QVERIFY(TraceReader::runLooksCrashed(*before));
        auto marked = TraceWriter::markRunsCrashed(file, child, 139, "killed by SIGSEGV");
        QVERIFY(marked.ok());
        QCOMPARE(marked.value(), 1);
        auto run = openReader(file)->run(1);
        QCOMPARE(run->status, RunStatus::Crashed);
        QCOMPARE(run->exitCode, std::optional<int64_t>(139));
        QCOMPARE(run->errorType, std::string("Crash"));
        QCOMPARE(run->errorMessage, std::string("killed by SIGSEGV"));
        QVERIFY(run->endedAtNs.has_value());
        QVERIFY(!TraceReader::runLooksCrashed(*run));
        QCOMPARE(TraceWriter::markRunsCrashed(file, child, 139, "again").value(), 0);
    }

    void emergencyFlushFromSignalHandlerMarksCrash() {
        std::string file = path("sigsegv.kiln");
        pid_t child = fork();
        if (child == 0) runAndCrash(file);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(
            WIFSIGNALED(status),
            qPrintable(
                QString("child exited with %1").arg(WIFEXITED(status) ? WEXITSTATUS(status) : -1)));
        QCOMPARE(WTERMSIG(status), SIGSEGV);
        auto reader = openReader(file);
        auto run = reader->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Crashed);
        QCOMPARE(run->exitCode, std::optional<int64_t>(128 + SIGSEGV));
        QCOMPARE(run->errorType, std::string("Signal"));
        QCOMPARE(run->errorMessage, std::string("killed by SIGSEGV"));
        QCOMPARE(run->pid, int64_t(child));
        QCOMPARE(texts(reader->outputLines(1).value()),
                 (std::vector<std::string>{"before the crash", "unfinished line"}));
    }

    void emergencyFlushWithoutWriterReturnsFalse() {
        QVERIFY(!TraceWriter::emergencyFlush(SIGSEGV, 10));
    }

    void hundredThousandLines() {
        // Measures the interpreter thread's cost of print()-like output; no timing assertion.
        // Typical on the 2-core build machine: see the qInfo lines and the helper's report.
        std::string file = path("bulk.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/bulk.py")).ok());
        std::string text;
        int64_t startNs = kiln::monotonicNs();
        for (int i = 0; i < 100'000; ++i) {
            text = "iteration " + std::to_string(i) + " loss=0.125";
            writer->output(OutputStream::Stdout, text); // print() writes the text, then "\n"
            writer->output(OutputStream::Stdout, "\n");
        }
        int64_t producedNs = kiln::monotonicNs();
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        int64_t committedNs = kiln::monotonicNs();
        qInfo("100k lines: %.1f ms on the printing thread, %.1f ms until all committed",
              double(producedNs - startNs) / 1e6, double(committedNs - startNs) / 1e6);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM output WHERE run_id = 1"), int64_t(100'000));
        QCOMPARE(queryInt(file, "SELECT max(seq) FROM output"), int64_t(100'000));
        QCOMPARE(queryTexts(file, "SELECT text FROM output WHERE seq = 100000"),
                 std::vector<std::string>{"iteration 99999 loss=0.125"});
        QCOMPARE(queryInt(file, "SELECT count(*) FROM output o JOIN output p "
                                "ON p.seq = o.seq + 1 WHERE p.id < o.id OR p.t_ns < o.t_ns"),
                 int64_t(0));
    }

    void outputFromSeveralThreads() {
        // output() is documented thread-safe; each thread's lines stay whole and in order.
        std::string file = path("threads.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/threads.py")).ok());
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&writer, t] {
                OutputStream stream = t % 2 ? OutputStream::Log : OutputStream::Stderr;
                std::string prefix = std::string(1, 't') + std::to_string(t);
                for (int i = 0; i < 5000; ++i)
                    writer->output(stream, prefix + ' ' + std::to_string(i) + '\n');
            });
        for (std::thread& thread : threads)
            thread.join();
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        QCOMPARE(queryInt(file, "SELECT count(*) FROM output"), int64_t(20'000));
        QCOMPARE(queryInt(file, "SELECT count(DISTINCT seq) FROM output"), int64_t(20'000));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM output WHERE text LIKE 't2 %'"),
                 int64_t(5000));
    }
};

QTEST_APPLESS_MAIN(TraceWriterTest)
#include "tst_trace_writer.moc"
