// SPDX-License-Identifier: MIT
// Compiled workloads as a user runs them with `kiln run`: the on-disk kernel cache is shared by
// processes and survives corrupt entries (checksummed: a flipped bit is recompiled); the trace of a
// compiled run has its kernels, launches and diagrams, and `kiln export-diagram` turns the recorded
// diagram into SVG and PNG.
#include "kiln_process.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Result = kiln::testing::KilnProcess;

Result runKiln(const QStringList& args, const QString& workDir, const QProcessEnvironment& env) {
    return kiln::testing::runKilnBinary(args, workDir, env);
}

const char* kScript = "import torch\n"
                      "@torch.compile\n"
                      "def f(x):\n"
                      "    return torch.softmax(x.sin() * 3, -1)\n"
                      "torch.manual_seed(0)\n"
                      "print(round(f(torch.randn(32, 64)).sum().item(), 3))\n";

} // namespace

class CompiledRunTest : public QObject {
    Q_OBJECT

private slots:
    void kernelCacheIsSharedAndSurvivesCorruptEntries() {
        QTemporaryDir dir, cache;
        QFile script(dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(kScript);
        script.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("KILN_KERNEL_CACHE_DIR", cache.path());
        env.insert("TORCH_LOGS", "output_code");

        Result first = runKiln({"run", "w.py"}, dir.path(), env);
        QCOMPARE(first.exitCode, 0);
        QVERIFY2(first.err.contains("cache hits: 0 in memory, 0 on disk"),
                 qPrintable(first.err.left(2000)));
        QStringList objects = QDir(cache.path()).entryList({"*.kobj"}, QDir::Files);
        QCOMPARE(objects.size(), 1);

        Result second = runKiln({"run", "w.py"}, dir.path(), env);
        QCOMPARE(second.exitCode, 0);
        QCOMPARE(second.out, first.out);
        QVERIFY(second.err.contains("cache hits: 0 in memory, 1 on disk"));

        QFile entry(cache.filePath(objects[0]));
        QVERIFY(entry.open(QIODevice::WriteOnly | QIODevice::Truncate));
        entry.write("not an object file");
        entry.close();
        Result third = runKiln({"run", "w.py"}, dir.path(), env);
        QCOMPARE(third.exitCode, 0);
        QCOMPARE(third.out, first.out);
        QVERIFY(third.err.contains("cache hits: 0 in memory, 0 on disk"));
        QVERIFY2(QFileInfo(cache.filePath(objects[0])).size() > 200,
                 "the corrupt entry was not rewritten");
        QVERIFY(QDir(cache.path()).entryList({"*.tmp*"}, QDir::Files).isEmpty());

        // One flipped bit anywhere in an entry (header, checksum or machine code) is caught by
        // its checksum: the kernel is compiled again, never linked and run.
        QFile whole(cache.filePath(objects[0]));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray good = whole.readAll();
        whole.close();
        for (qsizetype at : {qsizetype(3), good.size() / 2, good.size() - 5}) {
            QByteArray flipped = good;
            flipped[at] = char(flipped[at] ^ 0x10);
            QVERIFY(whole.open(QIODevice::WriteOnly | QIODevice::Truncate));
            whole.write(flipped);
            whole.close();
            Result again = runKiln({"run", "w.py"}, dir.path(), env);
            QCOMPARE(again.exitCode, 0);
            QCOMPARE(again.out, first.out);
            QVERIFY2(again.err.contains("cache hits: 0 in memory, 0 on disk"),
                     qPrintable(QString("a flip at byte %1 was linked").arg(at)));
        }
    }

    void exportDiagramOfACompiledRun() {
        QTemporaryDir dir;
        QFile script(dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(kScript);
        script.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QCOMPARE(runKiln({"run", "w.py"}, dir.path(), env).exitCode, 0);
        Result kernels = runKiln({"kernels", "w.kiln"}, dir.path(), env);
        QCOMPARE(kernels.exitCode, 0);
        QVERIFY2(kernels.out.contains("kiln_red_fused_mul_sin_softmax_0"), qPrintable(kernels.out));
        Result dot =
            runKiln({"export-diagram", "w.kiln", "--graph", "1", "--format", "dot", "-o", "-"},
                    dir.path(), env);
        QCOMPARE(dot.exitCode, 0);
        QVERIFY(dot.out.contains("target=fused: kiln_red_fused_mul_sin_softmax_0"));
        QVERIFY(dot.out.contains("\"arg0_1\" -> \"buf0_buf1_buf2\""));
        Result svg = runKiln({"export-diagram", "w.kiln", "--graph", "1", "-o", "post.svg"},
                             dir.path(), env);
        if (svg.err.contains("without Graphviz")) QSKIP("this build renders no diagrams");
        QCOMPARE(svg.exitCode, 0);
        QFile svgFile(dir.filePath("post.svg"));
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QByteArray text = svgFile.readAll();
        QVERIFY(text.contains("<svg") && text.contains("kiln_red_fused_mul_sin_softmax_0"));
        QCOMPARE(
            runKiln({"export-diagram", "w.kiln", "--graph", "1", "--pre-fusion", "-o", "pre.png"},
                    dir.path(), env)
                .exitCode,
            0);
        QFile png(dir.filePath("pre.png"));
        QVERIFY(png.open(QIODevice::ReadOnly));
        QVERIFY(png.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    }
};

QTEST_GUILESS_MAIN(CompiledRunTest)
#include "tst_compiled_run.moc"
