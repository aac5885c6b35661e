// SPDX-License-Identifier: MIT
// kiln-studio as a user starts it, offscreen: it opens a trace from a real `kiln run` and saves a
// screenshot once every table is loaded; a trace it cannot read is an error, not a crash.
#include "kiln_process.h"
#include "script_runner.h"

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using kiln::testing::binaryDir;

namespace {

/// Runs kiln-studio offscreen, or with no display at all when \p headless.
kiln::testing::KilnProcess runStudio(const QStringList& args, const QString& workDir,
                                     bool headless = false, const QString& kilnExecutable = {}) {
    QProcess p;
    p.setWorkingDirectory(workDir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CONFIG_HOME", workDir + "/config"); // the user's settings stay untouched
    if (!kilnExecutable.isEmpty()) env.insert("KILN_EXECUTABLE", kilnExecutable);
    if (headless) {
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(name);
    } else {
        env.insert("QT_QPA_PLATFORM", "offscreen");
    }
    p.setProcessEnvironment(env);
    p.start(binaryDir() + "/bin/kiln-studio", args);
    kiln::testing::KilnProcess r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class StudioTest : public QObject {
    Q_OBJECT

private slots:
    void screenshotOfACompiledRun() {
        QTemporaryDir dir;
        QFile script(dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(
            "import torch\n@torch.compile\ndef f(x):\n    return torch.softmax(x.sin(), -1)\n"
            "print(f(torch.randn(4, 8)).shape)\n");
        script.close();
        QCOMPARE(kiln::testing::runKilnBinary({"run", "w.py", "--quiet"}, dir.path()).exitCode, 0);
        auto shot = runStudio(
            {"--open", "w.kiln", "--screenshot", "shot.png", "--size", "1200x800"}, dir.path());
        QVERIFY2(shot.exitCode == 0, qPrintable(shot.err));
        QImage image(dir.filePath("shot.png"));
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1200, 800));
        // Not a blank window: the tables drew text (many distinct pixel colours).
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 8);
    }

    void withoutADisplayRunRunsTheWorkloadHeadless() {
        // The README's first command on a server: kiln-studio falls back to `kiln run`.
        QTemporaryDir dir;
        QVERIFY(
            QFile::copy(qEnvironmentVariable("KILN_SOURCE_DIR") + "/resources/workloads/demo.py",
                        dir.filePath("demo.py")));
        auto run = runStudio({"demo.py", "--run"}, dir.path(), true);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("no display"), qPrintable(run.err));
        QVERIFY(run.out.contains("parameters: 1,348"));
        QVERIFY2(run.err.contains("recorded as run 1 in " + dir.filePath("demo.kiln")),
                 qPrintable(run.err));
        // Without --run there is nothing it can do headless: a usage error, not a crash.
        auto open = runStudio({"demo.py"}, dir.path(), true);
        QCOMPARE(open.exitCode, 2);
        QVERIFY(open.err.contains("QT_QPA_PLATFORM=offscreen"));
    }

    void screenshotsEndWithAnExitStatusWhateverHappens() {
        QTemporaryDir dir;
        QFile script(dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("import torch\nprint(torch.ones(2).sum().item())\n");
        script.close();
        // kiln cannot start: a problem, exit 1 (not a window waiting forever).
        auto noKiln = runStudio({"w.py", "--run", "--screenshot", "a.png"}, dir.path(), false,
                                "/nonexistent/kiln");
        QCOMPARE(noKiln.exitCode, 1);
        QVERIFY2(noKiln.err.contains("cannot start"), qPrintable(noKiln.err));
        // A workload never run: the empty window is the screenshot.
        auto fresh = runStudio({"w.py", "--screenshot", "b.png"}, dir.path());
        QCOMPARE(fresh.exitCode, 0);
        QVERIFY(!QImage(dir.filePath("b.png")).isNull());
        // Something to select that the run does not have.
        QCOMPARE(kiln::testing::runKilnBinary({"run", "w.py", "--quiet"}, dir.path()).exitCode, 0);
        auto missing =
            runStudio({"w.kiln", "--select", "break:9", "--screenshot", "c.png"}, dir.path());
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("has no break 9"), qPrintable(missing.err));
    }

    void unreadableTraceFailsCleanly() {
        QTemporaryDir dir;
        QFile junk(dir.filePath("junk.kiln"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not a database");
        junk.close();
        auto shot = runStudio({"--open", "junk.kiln", "--screenshot", "shot.png"}, dir.path());
        QCOMPARE(shot.exitCode, 1);
        QVERIFY2(shot.err.contains("not a Kiln trace"), qPrintable(shot.err));
        QVERIFY(!QFile::exists(dir.filePath("shot.png")));
    }
};

QTEST_GUILESS_MAIN(StudioTest)
#include "tst_studio.moc"
