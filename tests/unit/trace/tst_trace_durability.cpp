// SPDX-License-Identifier: MIT
// The writer under pressure and failure: the trace never falls more than kMaxUncommittedRows
// rows behind what was emitted (an emitting thread waits, even while another connection holds
// the file locked); a lock is waited out and nothing is lost; a batch that cannot be written (a
// lock held past the busy timeout, a full file) is recorded as lost, the run then says 'error'
// with the exact lines it misses, never 'ok'; a writer closed from another thread keeps every
// line emitted before and lets no emitter go on; and paths SQLite would misreport are refused
// with words that name the problem.
#include "support/clock.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <sqlite3.h>
#include <sys/stat.h>
#include <thread>

using namespace kiln::trace;
using namespace kiln::testing;
using kiln::OutputStream;
using kiln::Status;

namespace {

/// Another connection holding the file's write lock (BEGIN IMMEDIATE) until released, as a
/// `sqlite3` shell in a transaction or a second `kiln run` would.
class WriteLock {
public:
    explicit WriteLock(const std::string& path) {
        sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE, nullptr);
        sqlite3_busy_timeout(m_db, 10000); // the writer may be committing right now
        m_held = sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    ~WriteLock() {
        release();
        sqlite3_close(m_db);
    }
    bool held() const { return m_held; }
    void release() {
        if (m_held) sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
        m_held = false;
    }

private:
    sqlite3* m_db = nullptr;
    bool m_held = false;
};

std::string numbered(int64_t i) {
    return "line " + std::to_string(i) + "\n";
}

int64_t linesLost(const TraceWriter& writer) {
    int64_t lines = 0;
    for (const LostRows& rows : writer.lostRows())
        if (rows.firstSeq != 0) lines += rows.lastSeq - rows.firstSeq + 1;
    return lines;
}

} // namespace

class TraceDurabilityTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void uncommittedRowsStayBounded() {
        // A tight print loop: after each output() returns, at most the bound is uncommitted.
        std::string file = path("bounded.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/loop.py")).ok());
        constexpr int64_t kLines = 100000;
        int64_t worstLag = 0;
        for (int64_t i = 1; i <= kLines; ++i) {
            writer->output(OutputStream::Stdout, numbered(i));
            worstLag = std::max(worstLag, i - writer->rowsCommitted());
        }
        QVERIFY2(worstLag <= int64_t(TraceWriter::kMaxUncommittedRows),
                 qPrintable(QString("the trace fell %1 rows behind").arg(worstLag)));
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        QCOMPARE(queryInt(file, "SELECT count(*) FROM output"), kLines);
    }

    void anEmitterWaitsWhileTheFileIsLockedAndLosesNothing() {
        std::string file = path("locked_briefly.kiln");
        auto writer = openWriter(file);
        QVERIFY(writer->beginRun(sampleRunInfo("/w/loop.py")).ok());
        QVERIFY(writer->flush().ok());
        WriteLock lock(file);
        QVERIFY(lock.held());
        constexpr int64_t kLines = 50000;
        std::atomic<int64_t> emitted{0};
        std::thread producer([&] {
            for (int64_t i = 1; i <= kLines; ++i) {
                writer->output(OutputStream::Stdout, numbered(i));
                emitted.store(i);
            }
        });
        // Nothing commits while the lock is held, so the producer must stop at the bound; the
        // check holds at every sample, however the threads are scheduled.
        bool withinBound = true;
        for (int sample = 0; sample < 100; ++sample) {
            withinBound =
                withinBound && emitted.load() <= int64_t(TraceWriter::kMaxUncommittedRows);
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
        }
        QCOMPARE(writer->rowsCommitted(), int64_t(0));
        lock.release();
        producer.join();
        QVERIFY2(withinBound, "the producer ran past the bound while nothing could commit");
        QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        QVERIFY(writer->lostRows().empty());
        auto reader = openReader(file);
        auto run = reader->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Ok);
        auto lines = reader->outputLines(1, 0, kLines + 1);
        QVERIFY(lines.ok());
        QCOMPARE(int64_t(lines->size()), kLines);
        for (int64_t i = 0; i < kLines; ++i)
            QCOMPARE((*lines)[size_t(i)].seq, i + 1);
        QCOMPARE(lines->back().text, std::string("line 50000"));
    }

    void aBatchThatCannotBeWrittenMakesTheRunAnErrorNamingTheLostLines() {
        std::string file = path("locked_long.kiln");
        WriterOptions options;
        options.busyTimeoutMs = 200;
        options.degradedBusyTimeoutMs = 20;
        auto opened = TraceWriter::open(file, options);
        QVERIFY(opened.ok());
        TraceWriter& writer = *opened.value();
        QVERIFY(writer.beginRun(sampleRunInfo("/w/model.py")).ok());
        QVERIFY(writer.flush().ok());
        WriteLock lock(file);
        QVERIFY(lock.held());
        for (int64_t i = 1; i <= 100; ++i)
            writer.output(OutputStream::Stdout, numbered(i));
        // The writer gives up on these lines after its busy timeout.
        QVERIFY(eventually([&] { return linesLost(writer) == 100; }));
        lock.release();
        for (int64_t i = 101; i <= 150; ++i)
            writer.output(OutputStream::Stdout, numbered(i));
        Status finished = writer.finishRun(RunStatus::Ok, 0);
        QVERIFY(!finished.ok());
        QVERIFY2(finished.error().message.find("output lines 1-100 of run 1 could not be "
                                               "written (database is locked)") != std::string::npos,
                 finished.error().message.c_str());

        auto reader = openReader(file);
        auto run = reader->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Error); // never 'ok'
        QCOMPARE(run->errorType, std::string("TraceError"));
        QCOMPARE(run->errorMessage, std::string("the trace lost output lines 1-100: database is "
                                                "locked"));
        auto lines = reader->outputLines(1, 0, 1000);
        QVERIFY(lines.ok());
        QCOMPARE(lines->size(), size_t(50)); // the lines after the lock was released
        QCOMPARE(lines->front().seq, int64_t(101));
        QCOMPARE(lines->back().seq, int64_t(150));
        QCOMPARE(
            queryTexts(file, "SELECT detail_json FROM events WHERE category = 'trace' AND "
                             "name = 'lost_rows'"),
            std::vector<std::string>{
                R"({"first_seq":1,"last_seq":100,"other_rows":0,"reason":"database is locked"})"});
    }

    void aFailedRunKeepsItsErrorAndAddsTheLoss() {
        std::string file = path("locked_error.kiln");
        WriterOptions options;
        options.busyTimeoutMs = 200;
        auto opened = TraceWriter::open(file, options);
        QVERIFY(opened.ok());
        TraceWriter& writer = *opened.value();
        QVERIFY(writer.beginRun(sampleRunInfo("/w/model.py")).ok());
        QVERIFY(writer.flush().ok());
        WriteLock lock(file);
        writer.output(OutputStream::Stderr, "Traceback (most recent call last):\n");
        QVERIFY(eventually([&] { return linesLost(writer) == 1; }));
        lock.release();
        RunError error{"ZeroDivisionError", "division by zero", "Traceback ..."};
        QVERIFY(!writer.finishRun(RunStatus::Error, 1, &error).ok());
        auto run = openReader(file)->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Error);
        QCOMPARE(run->errorType, std::string("ZeroDivisionError"));
        QCOMPARE(run->errorMessage, std::string("division by zero; the trace lost output line 1"));
    }

    void aFullFileLosesRowsAndTheRunSaysWhich() {
        std::string file = path("full.kiln");
        {
            auto writer = openWriter(file); // the schema, at its size
        }
        int64_t pages = queryInt(file, "PRAGMA page_count");
        QVERIFY(pages > 0);
        WriterOptions options;
        options.maxPageCount = pages + 1; // room for the run and a few lines, no more
        auto opened = TraceWriter::open(file, options);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        TraceWriter& writer = *opened.value();
        QVERIFY(writer.beginRun(sampleRunInfo("/w/model.py")).ok());
        writer.output(OutputStream::Stdout, "fits\n");
        QVERIFY(writer.flush().ok());
        const std::string wide(1000, 'x');
        for (int i = 0; i < 200; ++i)
            writer.output(OutputStream::Stdout, wide + "\n");
        Status finished = writer.finishRun(RunStatus::Ok, 0);
        QVERIFY(!finished.ok());
        QVERIFY2(finished.error().message.find("output lines 2-201 of run 1 could not be written "
                                               "(database or disk is full)") != std::string::npos,
                 finished.error().message.c_str());
        auto run = openReader(file)->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Error);
        QCOMPARE(run->errorType, std::string("TraceError"));
        QCOMPARE(run->errorMessage,
                 std::string("the trace lost output lines 2-201: database or disk is full"));
        QCOMPARE(queryTexts(file, "SELECT text FROM output"), std::vector<std::string>{"fits"});
    }

    void closingFromAnotherThreadKeepsEveryEmittedLine() {
        // As a signal ends the process: the script's thread is still printing. Leaked on
        // purpose: its emitting thread never returns, which is the point.
        std::string file = path("closed.kiln");
        TraceWriter* writer = openWriter(file).release();
        QVERIFY(writer->beginRun(sampleRunInfo("/w/loop.py")).ok());
        auto* returned = new std::atomic<int64_t>(0);
        std::thread([writer, returned] {
            for (int64_t i = 1;; ++i) {
                writer->output(OutputStream::Stdout, numbered(i));
                returned->store(i);
            }
        }).detach();
        QVERIFY(eventually([&] { return returned->load() >= 20000; }));
        RunError error{"Signal", "stopped by SIGTERM", ""};
        QVERIFY(writer->finishRunAndClose(RunStatus::Cancelled, 143, &error).ok());
        const int64_t atClose = returned->load();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        QCOMPARE(returned->load(), atClose); // no output() returned after the close
        auto run = openReader(file)->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Cancelled);
        QCOMPARE(run->exitCode.value_or(-1), int64_t(143));
        QCOMPARE(run->errorMessage, std::string("stopped by SIGTERM"));
        // Every line whose output() returned is in the trace, in order.
        int64_t count = queryInt(file, "SELECT count(*) FROM output");
        QVERIFY2(count >= atClose, qPrintable(QString("%1 < %2").arg(count).arg(atClose)));
        QCOMPARE(queryInt(file, "SELECT max(seq) FROM output"), count);
        QVERIFY(!writer->beginRun(sampleRunInfo("/w/loop.py")).ok());
    }

    void pathsSQLiteWouldMisreportAreRefusedClearly() {
        auto writeError = [](const std::string& file) {
            auto writer = TraceWriter::open(file);
            return writer.ok() ? std::string("opened") : writer.error().message;
        };
        auto readError = [](const std::string& file) {
            auto reader = TraceReader::open(file);
            return reader.ok() ? std::string("opened") : reader.error().message;
        };
        QCOMPARE(writeError("/dev/null"), std::string("cannot open trace '/dev/null': it is a "
                                                      "character device, not a regular file"));
        QCOMPARE(readError("/dev/null"), writeError("/dev/null"));
        std::string fifo = path("fifo.kiln");
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(writeError(fifo),
                 "cannot open trace '" + fifo + "': it is a FIFO, not a regular file");
        std::string dir = m_dir.path().toStdString();
        QVERIFY(writeError(dir).find("it is a directory, not a regular file") != std::string::npos);
        std::string loop = path("loop.kiln");
        QVERIFY(QFile::link(QString::fromStdString(loop), QString::fromStdString(loop)));
        QCOMPARE(writeError(loop), "cannot open trace '" + loop +
                                       "': a symbolic link in it loops (too many levels of "
                                       "symbolic links)");
        QCOMPARE(readError(loop), writeError(loop));
        // Short names, so only the whole path is over SQLite's limit.
        std::string deep = m_dir.path().toStdString();
        while (deep.size() < 600)
            deep += "/d123456789";
        QVERIFY(QDir().mkpath(QString::fromStdString(deep)));
        std::string message = writeError(deep + "/t.kiln");
        QVERIFY2(message.find("bytes long; SQLite accepts at most") != std::string::npos,
                 message.c_str());
        QCOMPARE(readError(path("absent.kiln")),
                 "cannot open trace '" + path("absent.kiln") + "': no such file");
    }
};

QTEST_GUILESS_MAIN(TraceDurabilityTest)
#include "tst_trace_durability.moc"
