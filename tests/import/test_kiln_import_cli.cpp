// SPDX-License-Identifier: MIT
// `kiln import LOG -o TRACE` as a user runs it: the summary, exit codes, and `kiln compiles`,
// `kiln breaks` and `kiln graph` reading the imported run.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int exitCode = -1;
    QString out;
    QString err;
};

Result kiln(const QStringList& args) {
    QProcess process;
    process.start(qEnvironmentVariable("KILN_BINARY_DIR") + "/bin/kiln", args);
    process.waitForFinished(60000);
    Result result;
    if (process.exitStatus() == QProcess::NormalExit) result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString fixture() {
    return qEnvironmentVariable("KILN_SOURCE_DIR") +
           "/tests/import/fixtures/cpu_train_default.trimmed.log";
}

} // namespace

class TestKilnImportCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void importsAndTheTraceCommandsReadIt() {
        QString trace = m_dir.filePath("train.kiln");
        Result imported = kiln({"import", fixture(), "-o", trace});
        QCOMPARE(imported.exitCode, 0);
        QVERIFY2(imported.out.contains("3 frames, 6 compiles (8 attempts), 2 graph breaks, 3 "
                                       "recompiles"),
                 qPrintable(imported.out));
        QVERIFY(imported.out.contains("0 md5 mismatches"));

        Result compiles = kiln({"compiles", trace});
        QCOMPARE(compiles.exitCode, 0);
        QVERIFY(compiles.out.contains("0/0"));
        QVERIFY(compiles.out.contains("2/1"));
        QVERIFY(compiles.out.contains("recompile"));

        Result breaks = kiln({"breaks", trace});
        QCOMPARE(breaks.exitCode, 0);
        QVERIFY2(breaks.out.contains("#2 "), qPrintable(breaks.out));

        Result graph = kiln({"graph", trace, "0/0"});
        QCOMPARE(graph.exitCode, 0);
        QVERIFY(graph.out.contains("def forward"));
    }

    void aMultiRankDirectoryIsARunPerRank() {
        // TORCH_TRACE=DIR in a 2-process job: one log per rank, each envelope saying its rank.
        // Made from the fixture by adding "rank" to every envelope (payloads and their md5s
        // unchanged); rank 10 sorts after rank 2, as numbers.
        QFile source(fixture());
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = source.readAll().split('\n');
        QDir dir(m_dir.filePath("torch_trace"));
        QVERIFY(dir.mkpath("."));
        for (int rank : {10, 2}) {
            QFile log(
                dir.filePath(QString("dedicated_log_torch_trace_rank_%1_x1y2.log").arg(rank)));
            QVERIFY(log.open(QIODevice::WriteOnly));
            for (const QByteArray& line : lines) {
                int brace = line.indexOf("] {\"");
                QByteArray out = line;
                if (brace >= 0 && !line.startsWith('\t'))
                    out.insert(brace + 3, QString("\"rank\": %1, ").arg(rank).toUtf8());
                log.write(out + '\n');
            }
        }
        QString trace = m_dir.filePath("ranks.kiln");
        Result imported = kiln({"import", dir.path(), "-o", trace});
        QCOMPARE(imported.exitCode, 0);
        QVERIFY2(imported.out.contains("rank_2_x1y2.log as run 1") &&
                     imported.out.contains("rank_10_x1y2.log as run 2") &&
                     imported.out.count("0 md5 mismatches") == 2,
                 qPrintable(imported.out));
        Result runs = kiln({"runs", trace});
        QCOMPARE(runs.exitCode, 0);
        // Each run lasts from the log's first record to its last (18:58:10.362 to 18:58:38.720
        // in the trimmed fixture), not until the import ended.
        QVERIFY2(runs.out.count(" 28.358 ") == 2, qPrintable(runs.out));
        QVERIFY2(runs.out.contains("imported: PyTorch 2.11.0+cu130 · CUDA 13.0 · rank 2\n") &&
                     runs.out.contains("imported: PyTorch 2.11.0+cu130 · CUDA 13.0 · rank 10\n"),
                 qPrintable(runs.out));

        QDir empty(m_dir.filePath("empty_trace"));
        QVERIFY(empty.mkpath("."));
        Result none = kiln({"import", empty.path(), "-o", m_dir.filePath("none.kiln")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains("has no .log files"), qPrintable(none.err));
    }

    void profileIntoTheLogsRun() {
        QString trace = m_dir.filePath("profiled.kiln");
        QCOMPARE(kiln({"import", fixture(), "-o", trace}).exitCode, 0);
        QString profile = qEnvironmentVariable("KILN_SOURCE_DIR") +
                          "/tests/import/fixtures/cpu_train_default.profile.json";
        Result imported = kiln({"import", profile, "--into", trace, "--run", "1"});
        QCOMPARE(imported.exitCode, 0);
        // 42 extern calls: see test_profile_import.cpp for where the numbers come from.
        QVERIFY2(imported.out.contains("6 compiled graph calls (6 linked"),
                 qPrintable(imported.out));
        QVERIFY2(imported.out.contains("42 kernel launches written (42 extern calls"),
                 qPrintable(imported.out));
        QVERIFY(imported.out.contains("graph 0/1 backward: 3 calls"));
        Result kernels = kiln({"kernels", trace});
        QCOMPARE(kernels.exitCode, 0);
        QVERIFY2(kernels.out.contains("extern_addmm"), qPrintable(kernels.out));
        // Into a run that has launches already: refused, exit 2.
        Result again = kiln({"import", profile, "--into", trace});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("already has 42 kernel launches"), qPrintable(again.err));
        // Not JSON: a clear message and exit 2.
        QString bad = m_dir.filePath("bad.json");
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"traceEvents\": [{\"ph\": \"X\", \"na");
        file.close();
        Result broken = kiln({"import", bad, "-o", m_dir.filePath("bad.kiln")});
        QCOMPARE(broken.exitCode, 2);
        QVERIFY2(broken.err.contains("is not a complete Chrome trace"), qPrintable(broken.err));
        QVERIFY(!QFile::exists(m_dir.filePath("bad.kiln")));
    }

    void unreadableLogExitsTwo() {
        Result result =
            kiln({"import", m_dir.filePath("missing.log"), "-o", m_dir.filePath("missing.kiln")});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("cannot read"), qPrintable(result.err));
    }

    void garbageSaysWhereItStopped() {
        QString garbage = m_dir.filePath("garbage.log");
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("V1130 05:35:52.722000 875 x.py:1] {\"dynamo_start\": {\"stack\n\x01\x02\xff\n");
        file.close();
        Result result = kiln({"import", garbage, "-o", m_dir.filePath("garbage.kiln")});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("line 1: the record's JSON does not parse"),
                 qPrintable(result.out));
        QVERIFY(result.out.contains("line 2: not a structured-trace record"));
    }
};

QTEST_GUILESS_MAIN(TestKilnImportCli)
#include "test_kiln_import_cli.moc"
