// SPDX-License-Identifier: MIT
// Bad input to the kiln executable is refused with a message that names the problem and exit
// status 2, before anything runs or is written: scripts that are not regular files or are too
// large (and one too large for memory is a MemoryError, not a crash), timeouts that are not a
// usable number of seconds (and a timeout that covers reading and opening the trace), unknown modes
// and backends, --run values that name no run, trace paths that are devices, the script itself, too
// long or a symlink loop. And what is accepted is shown whole: `kiln output` prints lines with NUL
// bytes in full.
#include "cli_helpers.h"

#include <QtTest>
#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;
using namespace kiln::testing;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

Result runKiln(const QStringList& args, const QString& workDir = {}) {
    QProcess p;
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.start(kilnBinary(), args);
    Result r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = "kiln did not finish in time";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class CliInputTest : public QObject {
    Q_OBJECT

private slots:
    void scriptsThatAreNotRegularFilesAreRefused() {
        QTemporaryDir dir;
        // /dev/zero was once read without end (std::bad_alloc, SIGABRT, no trace).
        Result zero = runKiln({"run", "/dev/zero", "--db", dir.filePath("zero.kiln")});
        QCOMPARE(zero.exitCode, 2);
        QVERIFY2(zero.err.contains("can't run '/dev/zero': it is a character device, not a "
                                   "regular file"),
                 qPrintable(zero.err));
        QVERIFY(!QFile::exists(dir.filePath("zero.kiln")));
        // A FIFO without a writer once blocked kiln, --timeout or not.
        QString fifo = dir.filePath("fifo.py");
        QCOMPARE(mkfifo(fifo.toUtf8().constData(), 0600), 0);
        Result pipe = runKiln({"run", fifo, "--timeout", "3"});
        QCOMPARE(pipe.exitCode, 2);
        QVERIFY2(pipe.err.contains("it is a FIFO (named pipe), not a regular file"),
                 qPrintable(pipe.err));
        Result directory = runKiln({"run", dir.path()});
        QCOMPARE(directory.exitCode, 2);
        QVERIFY2(directory.err.contains("it is a directory"), qPrintable(directory.err));
    }

    void scriptsOverTheSizeLimitAreRefused() {
        QTemporaryDir dir;
        QString big = dir.filePath("big.py");
        QFile file(big);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(64) * 1024 * 1024 + 1)); // sparse: no disk space needed
        file.close();
        Result r = runKiln({"run", big});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("can't run '" + big +
                                "': the script is 67108865 bytes; Kiln "
                                "runs scripts of at most 64 MiB (67108864 "
                                "bytes)"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("big.kiln")));
    }

    void runningOutOfMemoryIsAnErrorNotACrash() {
        // A script under the size limit whose parse needs more memory than the address-space
        // limit allows: std::bad_alloc once escaped and aborted kiln.
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("an address-space limit (ulimit -v) cannot apply to an AddressSanitizer build: "
              "its shadow memory reserves terabytes of address space");
#endif
        QTemporaryDir dir;
        QString script = dir.filePath("huge.py");
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x = [");
        const QByteArray chunk = QByteArray("1,").repeated(1 << 20);
        for (int i = 0; i < 28; ++i) // 56 MiB, 29 million list items
            file.write(chunk);
        file.write("]\nprint(len(x))\n");
        file.close();
        QProcess p;
        p.start("/bin/sh",
                {"-c", "ulimit -v 3000000 && exec \"$0\" run \"$1\"", kilnBinary(), script});
        QVERIFY(p.waitForFinished(120000));
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // not SIGABRT
        auto runs = traceRuns(dir.filePath("huge.kiln"));
        QCOMPARE(runs.size(), size_t(1));
        if (p.exitCode() == 0) { // a Kiln that parses this in 3 GB
            QCOMPARE(runs[0].status, trace::RunStatus::Ok);
            return;
        }
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("kiln: error: MemoryError: "), qPrintable(err));
        QCOMPARE(runs[0].status, trace::RunStatus::Error);
        QCOMPARE(runs[0].errorType, std::string("MemoryError"));
    }

    void tooManySuspendedGeneratorsIsAMemoryErrorNotACrash() {
        // Each suspended generator holds a stack mapping; once they took every mapping the
        // kernel allows, SQLite's writer thread could not allocate and the process aborted.
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "gens.py",
                                         "def g(i):\n"
                                         "    yield i\n"
                                         "    yield i + 1\n"
                                         "gens = []\n"
                                         "try:\n"
                                         "    while True:\n"
                                         "        it = g(len(gens))\n"
                                         "        next(it)\n"
                                         "        gens.append(it)\n"
                                         "except MemoryError as e:\n"
                                         "    print('MemoryError', e)\n"
                                         "print(sum([next(x) for x in gens[:3]]))\n"
                                         "gens = None\n"
                                         "print('done')\n");
        QProcess p;
        p.start(kilnBinary(), {"run", script, "--quiet"});
        QVERIFY(p.waitForFinished(120000));
        QString out = QString::fromUtf8(p.readAllStandardOutput());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(out.contains("MemoryError cannot run another generator: ") &&
                     out.contains("\n6\ndone"),
                 qPrintable(out));
        QCOMPARE(traceRuns(dir.filePath("gens.kiln")).at(0).status, trace::RunStatus::Ok);
    }

    void timeoutsMustBeAUsableNumberOfSeconds() {
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "x.py", "print('ran')\n");
        // inf and 1e300 once cancelled the run at once; nan never fired.
        for (const char* bad :
             {"inf", "-inf", "nan", "1e300", "2592001", "0", "-1", "", "3s", "0x10", " 5"}) {
            Result r = runKiln({"run", script, "--timeout", bad});
            QVERIFY2(r.exitCode == 2, bad);
            QVERIFY2(r.err.contains("--timeout needs a positive, finite number of seconds up to "
                                    "2592000 (30 days), got '" +
                                    QString(bad) + "'"),
                     qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
        Result longest = runKiln({"run", script, "--timeout", "2592000", "--quiet"});
        QCOMPARE(longest.exitCode, 0);
        QCOMPARE(longest.out, QByteArray("ran\n"));
        Result fraction = runKiln({"run", script, "--timeout", "2.5e1", "--quiet"});
        QCOMPARE(fraction.exitCode, 0);
    }

    void theTimeoutCoversOpeningTheTrace() {
        // Another process holds the trace locked for longer than the timeout: kiln waits for
        // the lock, and the timeout ends the wait instead of starting after it.
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "x.py", "print('ran')\n");
        QString trace = dir.filePath("x.kiln");
        QCOMPARE(runKiln({"run", script, "--quiet"}).exitCode, 0);
        TraceWriteLock lock(trace);
        QVERIFY(lock.held());
        Result r = runKiln({"run", script, "--timeout", "1"});
        QCOMPARE(r.exitCode, 124);
        QVERIFY2(r.err.contains("kiln: cancelled: run cancelled: the --timeout of 1 s expired "
                                "before the script started"),
                 qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        lock.release();
        QCOMPARE(traceRuns(trace).size(), size_t(1));
    }

    void unknownModesAndBackendsAreUsageErrors() {
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "c.py",
                                         "import torch\n"
                                         "def f(x):\n"
                                         "    return x.sin()\n"
                                         "print(torch.compile(f)(torch.ones(2)))\n");
        Result mode = runKiln({"run", script, "--mode", "bogus"});
        QCOMPARE(mode.exitCode, 2);
        QVERIFY2(mode.err.contains("unknown --mode 'bogus'; torch.compile's modes are default, "
                                   "reduce-overhead, max-autotune-no-cudagraphs or max-autotune"),
                 qPrintable(mode.err));
        Result backend = runKiln({"run", script, "--backend", "nosuch"});
        QCOMPARE(backend.exitCode, 2);
        QVERIFY2(backend.err.contains("unknown --backend 'nosuch'; --backend takes a built-in "
                                      "backend: aot_eager, cudagraphs, eager or inductor (a "
                                      "custom backend exists only inside its script"),
                 qPrintable(backend.err));
        // --options as torch.compile(options=) checks them: a known option of its type.
        Result unknown = runKiln({"run", script, "--options", "nosuch=1"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("kiln: error: --options: Unexpected optimization option "
                                      "nosuch, known options are ["),
                 qPrintable(unknown.err));
        Result mistyped = runKiln({"run", script, "--options", "max_autotune=banana"});
        QCOMPARE(mistyped.exitCode, 2);
        QVERIFY2(mistyped.err.contains("Unexpected type of attr max_autotune, got str should be "
                                       "bool"),
                 qPrintable(mistyped.err));
        QVERIFY(mode.out.isEmpty() && backend.out.isEmpty() && unknown.out.isEmpty() &&
                mistyped.out.isEmpty());
        QVERIFY(!QFile::exists(dir.filePath("c.kiln"))); // refused before the trace was made
        Result eager =
            runKiln({"run", script, "--backend", "eager", "--mode", "default", "--quiet"});
        QCOMPARE(eager.exitCode, 0);
    }

    void runFlagsMustNameARunOfTheTrace() {
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "x.py", "print('one')\n");
        QCOMPARE(runKiln({"run", script, "--quiet"}).exitCode, 0);
        QString trace = dir.filePath("x.kiln");
        QList<QStringList> commands = {{"output", trace},
                                       {"compiles", trace},
                                       {"breaks", trace},
                                       {"kernels", trace},
                                       {"graph", trace, "0/0"}};
        for (const QStringList& command : commands) {
            for (const char* missing : {"999", "2"}) {
                Result r = runKiln(command + QStringList{"--run", missing});
                QVERIFY2(r.exitCode == 2, qPrintable(command.join(' ')));
                QVERIFY2(r.err.contains(trace + " has no run " + missing + " (`kiln runs " + trace +
                                        "` lists its 1 run)"),
                         qPrintable(r.err));
                QVERIFY(r.out.isEmpty());
            }
            for (const char* bad : {"-1", "0", "abc", "1x", ""}) {
                Result r = runKiln(command + QStringList{"--run", bad});
                QVERIFY2(r.exitCode == 2, qPrintable(command.join(' ') + " --run " + bad));
                QVERIFY2(r.err.contains("--run takes a run number (1, 2, ...: the run column of "
                                        "`kiln runs`), got '" +
                                        QString(bad) + "'"),
                         qPrintable(r.err));
            }
        }
        Result first = runKiln({"output", trace, "--run", "1"});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.out, QByteArray("one\n"));
    }

    void tracePathsThatCannotBeATraceAreRefused() {
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "s.py", "print('ran')\n");
        Result null = runKiln({"run", script, "--db", "/dev/null"});
        QCOMPARE(null.exitCode, 2);
        QVERIFY2(null.err.contains("cannot open trace '/dev/null': it is a character device, not "
                                   "a regular file"),
                 qPrintable(null.err));
        QVERIFY(null.out.isEmpty());
        // A script named *.kiln would be its own default trace.
        QString kilnScript = writeScriptFile(dir, "t.kiln", "print('ran')\n");
        Result own = runKiln({"run", kilnScript});
        QCOMPARE(own.exitCode, 2);
        QVERIFY2(own.err.contains("ends in .kiln, so its default trace would be the script "
                                  "itself; name the trace with --db"),
                 qPrintable(own.err));
        QCOMPARE(readFile(kilnScript), std::string("print('ran')\n"));
        // --db naming the script, even an empty one (which SQLite would claim as a database),
        // and through a symbolic link.
        QString empty = writeScriptFile(dir, "empty.py", "");
        QVERIFY(QFile::link(empty, dir.filePath("link.kiln")));
        for (const QString& db : {empty, dir.filePath("link.kiln")}) {
            Result same = runKiln({"run", empty, "--db", db});
            QCOMPARE(same.exitCode, 2);
            QVERIFY2(same.err.contains("' is the script itself; the trace must be another file"),
                     qPrintable(same.err));
            QCOMPARE(QFileInfo(empty).size(), qint64(0));
        }
        // A path over SQLite's limit (short names, so only the whole is too long).
        QString deep = dir.path();
        while (deep.size() < 600)
            deep += "/d123456789";
        QVERIFY(QDir().mkpath(deep));
        Result longPath = runKiln({"run", script, "--db", deep + "/t.kiln"});
        QCOMPARE(longPath.exitCode, 2);
        QVERIFY2(longPath.err.contains("bytes long; SQLite accepts at most 504"),
                 qPrintable(longPath.err));
        // Symbolic-link loops, for the script and for the trace.
        QString loop = dir.filePath("loop");
        QVERIFY(QFile::link(loop, loop));
        Result loopScript = runKiln({"run", loop});
        QCOMPARE(loopScript.exitCode, 2);
        QVERIFY2(loopScript.err.contains("can't open file '" + loop +
                                         "': [Errno 40] Too many levels of symbolic links"),
                 qPrintable(loopScript.err));
        Result loopTrace = runKiln({"run", script, "--db", loop});
        QCOMPARE(loopTrace.exitCode, 2);
        QVERIFY2(
            loopTrace.err.contains("cannot open trace '" + loop + "': a symbolic link in it loops"),
            qPrintable(loopTrace.err));
        QVERIFY(!QFile::exists(dir.filePath("s.kiln")));
    }

    void outputPrintsLinesWithNulBytesWhole() {
        QTemporaryDir dir;
        QString script = writeScriptFile(dir, "nul.py", "print('a\\x00b')\nprint('c')\n");
        Result run = runKiln({"run", script, "--quiet"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("a\0b\nc\n", 6));
        Result shown = runKiln({"output", dir.filePath("nul.kiln")});
        QCOMPARE(shown.exitCode, 0);
        QCOMPARE(shown.out, QByteArray("a\0b\nc\n", 6));
    }
};

QTEST_GUILESS_MAIN(CliInputTest)
#include "tst_cli_input.moc"
