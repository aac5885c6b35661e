// SPDX-License-Identifier: MIT
// Durability of `kiln run` when it is stopped or its trace cannot keep up, run as a user runs
// it: a first SIGINT raises KeyboardInterrupt in the script, a second one stops at once;
// SIGTERM, SIGHUP, SIGQUIT, SIGPIPE (sent, or a real broken pipe), SIGUSR1/2, SIGALRM,
// SIGVTALRM and SIGXCPU record the run cancelled
// with every printed line; the trace stays within 10,000 lines of stdout; a trace locked by
// another process is waited out; a file-size limit fails the run instead of losing output
// silently; a crash prints where the run was recorded.
#include "cli_helpers.h"

#include <QtTest>
#include <csignal>
#include <sys/types.h>

using namespace kiln;
using namespace kiln::testing;

namespace {

const QByteArray kPrintLoop = "i = 0\n"
                              "while True:\n"
                              "    print(i)\n"
                              "    i += 1\n";

// The line is printed inside work(), so a signal sent once it is recorded lands in work's
// frame however the process is scheduled.
const QByteArray kSpin = "def work():\n"
                         "    n = 0\n"
                         "    print('spinning')\n"
                         "    while True:\n"
                         "        n += 1\n"
                         "work()\n";

/// The complete lines a process printed, read as they come.
class StdoutLines {
public:
    explicit StdoutLines(QProcess& process)
        : m_process(process) {}
    /// Waits up to \p ms for more and returns whether any came.
    bool poll(int ms) {
        m_process.waitForReadyRead(ms);
        return take();
    }
    bool take() {
        QByteArray data = m_process.readAllStandardOutput();
        if (data.isEmpty()) return false;
        m_partial += data;
        qsizetype start = 0;
        for (qsizetype nl = m_partial.indexOf('\n'); nl >= 0; nl = m_partial.indexOf('\n', start)) {
            m_lines.push_back(m_partial.mid(start, nl - start));
            start = nl + 1;
        }
        m_partial.remove(0, start);
        return true;
    }
    int64_t count() const { return int64_t(m_lines.size()); }
    const std::vector<QByteArray>& lines() const { return m_lines; }

private:
    QProcess& m_process;
    QByteArray m_partial;
    std::vector<QByteArray> m_lines;
};

/// Every complete line the process printed is the trace's line of the same position.
bool traceHasEveryPrintedLine(const QString& trace, const StdoutLines& printed, QString& why) {
    auto lines = traceOutput(trace, 1);
    if (int64_t(lines.size()) < printed.count()) {
        why = QString("stdout has %1 lines, the trace %2").arg(printed.count()).arg(lines.size());
        return false;
    }
    for (size_t i = 0; i < printed.lines().size(); ++i) {
        if (lines[i].text != printed.lines()[i].toStdString() || lines[i].seq != int64_t(i) + 1) {
            why = QString("line %1 differs").arg(i + 1);
            return false;
        }
    }
    return true;
}

void sendSignal(QProcess& process, int signalNumber) {
    ::kill(pid_t(process.processId()), signalNumber);
}

} // namespace

class CliSignalsTest : public QObject {
    Q_OBJECT

private slots:
    void aFirstSigintRaisesKeyboardInterrupt() {
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "spin.py", kSpin);
        QString trace = dir.filePath("spin.kiln");
        QProcess p;
        p.start(kilnBinary(), {"run", script});
        QVERIFY(p.waitForStarted());
        QVERIFY(waitUntil([&] { return traceLineCount(trace) == 1; }));
        sendSignal(p, SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        // Raised in work()'s loop (at its `while` or its body, wherever the check came).
        // CPython's words: the bare exception name.
        QVERIFY2(err.contains(", in work\n") && err.contains("\nKeyboardInterrupt\n"),
                 qPrintable(err));
        QVERIFY2(err.contains("kiln: cancelled: " + script + ":"), qPrintable(err));
        QVERIFY2(err.contains(": KeyboardInterrupt: run cancelled: interrupted by SIGINT\n"),
                 qPrintable(err));
        QVERIFY2(err.contains("kiln: recorded as run 1 in " + trace), qPrintable(err));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Cancelled);
        QCOMPARE(runs[0].exitCode.value_or(-1), int64_t(130));
        QCOMPARE(runs[0].errorType, std::string("KeyboardInterrupt"));
        QVERIFY(runs[0].errorTraceback.find(", in work\n") != std::string::npos);
        QCOMPARE(p.readAllStandardOutput(), QByteArray("spinning\n"));
    }

    void aCaughtKeyboardInterruptLetsTheScriptGoOn() {
        // As CPython: each SIGINT raises KeyboardInterrupt once; a script that catches it goes
        // on, and ends as it would have (it went on raising at every check).
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "catch.py",
                                         "caught = 0\n"
                                         "while caught < 2:\n"
                                         "    try:\n"
                                         "        print('waiting', caught)\n"
                                         "        while True:\n"
                                         "            pass\n"
                                         "    except KeyboardInterrupt:\n"
                                         "        caught += 1\n"
                                         "print('done after', caught)\n");
        QString trace = dir.filePath("catch.kiln");
        QProcess p;
        p.start(kilnBinary(), {"run", script});
        QVERIFY(p.waitForStarted());
        for (int64_t lines = 1; lines <= 2; ++lines) {
            QVERIFY(waitUntil([&] { return traceLineCount(trace) == lines; }));
            sendSignal(p, SIGINT);
        }
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput(), QByteArray("waiting 0\nwaiting 1\ndone after 2\n"));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Ok);
    }

    void aSigintDuringANativeCallRaisesAtTheNextStatement() {
        // The products run in one native call that never checks for interrupts: the
        // KeyboardInterrupt comes at the next statement, as CPython raises it at its next
        // instruction (the run was recorded 'ok' with the interrupt lost).
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "native.py",
                                         "import torch\n"
                                         "a = torch.ones(3000, 3000) / 3000\n"
                                         "print('start')\n"
                                         "b = a @ a @ a @ a @ a\n"
                                         "print('done')\n");
        QString trace = dir.filePath("native.kiln");
        QProcess p;
        p.start(kilnBinary(), {"run", script});
        QVERIFY(p.waitForStarted());
        QVERIFY(waitUntil([&] { return traceLineCount(trace) == 1; }));
        sendSignal(p, SIGINT);
        QVERIFY(p.waitForFinished(120000));
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(err.contains("line 5, in <module>\n    print('done')\nKeyboardInterrupt\n"),
                 qPrintable(err));
        QCOMPARE(p.readAllStandardOutput(), QByteArray("start\n"));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Cancelled);
    }

    void stopSignalsRecordTheRunWithEveryPrintedLine_data() {
        QTest::addColumn<int>("signalNumber");
        QTest::addColumn<QString>("name");
        QTest::newRow("SIGTERM") << int(SIGTERM) << "SIGTERM";
        QTest::newRow("SIGHUP") << int(SIGHUP) << "SIGHUP";
        QTest::newRow("SIGQUIT") << int(SIGQUIT) << "SIGQUIT";
        QTest::newRow("SIGPIPE") << int(SIGPIPE) << "SIGPIPE";
        // Left at their default (ending the process) by CPython; Kiln keeps the trace whole.
        QTest::newRow("SIGUSR1") << int(SIGUSR1) << "SIGUSR1";
        QTest::newRow("SIGUSR2") << int(SIGUSR2) << "SIGUSR2";
        QTest::newRow("SIGALRM") << int(SIGALRM) << "SIGALRM";
        QTest::newRow("SIGVTALRM") << int(SIGVTALRM) << "SIGVTALRM";
        QTest::newRow("SIGXCPU") << int(SIGXCPU) << "SIGXCPU";
    }

    void stopSignalsRecordTheRunWithEveryPrintedLine() {
        QFETCH(int, signalNumber);
        QFETCH(QString, name);
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "loop.py", kPrintLoop);
        QString trace = dir.filePath("loop.kiln");
        QProcess p;
        p.start(kilnBinary(), {"run", script});
        QVERIFY(p.waitForStarted());
        StdoutLines printed(p);
        // While it prints, the trace is never more than 10,000 lines behind what reached
        // stdout: kiln queues a line for the trace before printing it, and waits while 10,000
        // are uncommitted. Counting stdout first makes the check exact.
        int64_t worstLag = 0;
        while (printed.count() < 50000 && p.state() == QProcess::Running) {
            printed.poll(50);
            int64_t seen = printed.count();
            worstLag = std::max(worstLag, seen - traceLineCount(trace));
        }
        QVERIFY2(worstLag <= 10000,
                 qPrintable(QString("the trace was %1 lines behind stdout").arg(worstLag)));
        sendSignal(p, signalNumber);
        QVERIFY(p.waitForFinished(60000));
        printed.take();
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + signalNumber);
        QVERIFY2(err.contains("kiln: cancelled: stopped by " + name), qPrintable(err));
        QVERIFY2(err.contains("kiln: recorded as run 1 in " + trace), qPrintable(err));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Cancelled);
        QCOMPARE(runs[0].exitCode.value_or(-1), int64_t(128 + signalNumber));
        QCOMPARE(runs[0].errorType, std::string("Signal"));
        QCOMPARE(runs[0].errorMessage, "stopped by " + name.toStdString());
        QString why;
        QVERIFY2(traceHasEveryPrintedLine(trace, printed, why), qPrintable(why));
    }

    void aBrokenPipeStopsTheRunAndKeepsTheTrace() {
        // `kiln run loop.py | head -n 5`: the reader goes away and the next write fails.
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "loop.py", kPrintLoop);
        QString trace = dir.filePath("loop.kiln");
        QString status = dir.filePath("status");
        QProcess p;
        p.start("/bin/sh", {"-c", "{ \"$0\" run \"$1\"; echo $? > \"$2\"; } | head -n 5",
                            kilnBinary(), script, status});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.readAllStandardOutput(), QByteArray("0\n1\n2\n3\n4\n"));
        QCOMPARE(readFile(status), std::string("141\n"));
        QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("kiln: cancelled: stopped by SIGPIPE"), qPrintable(err));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Cancelled);
        QCOMPARE(runs[0].exitCode.value_or(-1), int64_t(141));
        QCOMPARE(runs[0].errorMessage, std::string("stopped by SIGPIPE"));
        auto lines = traceOutput(trace, 1);
        QVERIFY(lines.size() >= 5);
        QCOMPARE(lines[4].text, std::string("4"));
    }

    void aSecondSigintStopsAScriptThatCannotBeInterrupted() {
        // The script waits inside print() for a trace that another process holds locked, so
        // it reaches no check where KeyboardInterrupt could be raised.
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "loop.py", kPrintLoop);
        QString trace = dir.filePath("loop.kiln");
        QProcess p;
        p.start(kilnBinary(), {"run", script});
        QVERIFY(p.waitForStarted());
        QVERIFY(waitUntil([&] { return traceLineCount(trace) > 0; }));
        TraceWriteLock lock(trace);
        QVERIFY(lock.held());
        // Nothing commits now, so kiln stops printing once it is 10,000 lines ahead of what
        // the file has; less what its stdout buffer still holds (4 KiB, some 700 lines).
        const int64_t committed = traceLineCount(trace);
        StdoutLines printed(p);
        // Stuck: that far along, and no new output for a second.
        QElapsedTimer quiet;
        quiet.start();
        QElapsedTimer overall;
        overall.start();
        while ((quiet.elapsed() < 1000 || printed.count() < committed + 9000) &&
               overall.elapsed() < 60000)
            if (printed.poll(100)) quiet.restart();
        QVERIFY2(
            printed.count() >= committed + 9000,
            qPrintable(
                QString("%1 lines printed, %2 committed").arg(printed.count()).arg(committed)));
        QCOMPARE(p.state(), QProcess::Running);
        // Apart, or the kernel merges them into one; and both before the trace can move again.
        // Handling one takes microseconds: the pauses are generous.
        sendSignal(p, SIGINT);
        QThread::msleep(500);
        sendSignal(p, SIGINT);
        QThread::msleep(500);
        lock.release();
        QVERIFY(p.waitForFinished(60000));
        printed.take();
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(err.contains("kiln: cancelled: stopped by a second SIGINT"), qPrintable(err));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Cancelled);
        QCOMPARE(runs[0].errorType, std::string("Signal"));
        QCOMPARE(runs[0].errorMessage, std::string("stopped by a second SIGINT"));
        QString why;
        QVERIFY2(traceHasEveryPrintedLine(trace, printed, why), qPrintable(why));
    }

    void aTraceLockedByAnotherProcessIsWaitedOut() {
        // Held for 6 s, past SQLite's usual 5 s busy timeout: once the batch was dropped and
        // the run still said 'ok'. Now the script waits and nothing is lost.
        constexpr int kLines = 300000;
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "many.py",
                                         QByteArray("for i in range(") +
                                             QByteArray::number(kLines) + "):\n    print(i)\n");
        QString trace = dir.filePath("many.kiln");
        QProcess p;
        p.start(kilnBinary(), {"run", script});
        QVERIFY(p.waitForStarted());
        QVERIFY(
            waitUntil([&] { return traceLineCount(trace) > 0 || p.state() != QProcess::Running; }));
        {
            TraceWriteLock lock(trace);
            QVERIFY(lock.held());
            QThread::msleep(6000);
        }
        QVERIFY(p.waitForFinished(120000));
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(err.contains("300000 lines of output recorded as run 1"), qPrintable(err));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Ok);
        QCOMPARE(traceLineCount(trace), int64_t(kLines));
    }

    void aFileSizeLimitFailsTheRunInsteadOfLosingOutputSilently() {
        // `ulimit -f`: the trace cannot grow past 1 MiB, the script prints ~20 MiB.
        QTemporaryDir dir;
        QString script =
            writeScriptFile(dir, "wide.py", "for i in range(200000):\n    print('x' * 100, i)\n");
        QString trace = dir.filePath("wide.kiln");
        QProcess p;
        p.start("/bin/sh", {"-c", "ulimit -f 2048 && exec \"$0\" run \"$1\" > /dev/null",
                            kilnBinary(), script});
        QVERIFY(p.waitForFinished(120000));
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains("kiln: error: TraceError: could not write everything to trace '" +
                              trace + "': output lines "),
                 qPrintable(err));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY(runs[0].status != trace::RunStatus::Ok); // 'error', or 'running' if not even
                                                         // the run's end fitted
        if (runs[0].status == trace::RunStatus::Error) {
            QCOMPARE(runs[0].errorType, std::string("TraceError"));
            QVERIFY2(runs[0].errorMessage.find("the trace lost output lines ") == 0,
                     runs[0].errorMessage.c_str());
        }
    }

    void aCrashSaysWhereTheRunWasRecorded() {
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "spin.py", kSpin);
        QString trace = dir.filePath("spin.kiln");
        QProcess p;
        p.setWorkingDirectory(dir.path());
        // No core file: the signal is the test's, not a bug.
        p.start("/bin/sh", {"-c", "ulimit -c 0; exec \"$0\" run \"$1\"", kilnBinary(), script});
        QVERIFY(p.waitForStarted());
        QVERIFY(waitUntil([&] { return traceLineCount(trace) == 1; }));
        sendSignal(p, SIGSEGV);
        QVERIFY(p.waitForFinished(60000));
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QVERIFY2(err.contains("kiln: crashed: killed by SIGSEGV\nkiln: recorded as run 1 in " +
                              trace + "\n"),
                 qPrintable(err));
        auto runs = traceRuns(trace);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, trace::RunStatus::Crashed);
        QCOMPARE(runs[0].errorMessage, std::string("killed by SIGSEGV"));
    }
};

QTEST_GUILESS_MAIN(CliSignalsTest)
#include "tst_cli_signals.moc"
