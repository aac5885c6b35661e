// SPDX-License-Identifier: MIT
// Golden tests: every script in tests/golden/<suite>/ (and the bundled example workloads in
// resources/workloads/, recorded in tests/golden/workloads/) runs through Kiln and must print what
// CPython (with PyTorch) printed when the expectations were recorded (tests/golden/record.py).
// Scripts that fail must exit with status 1 and report the same traceback frames (file, line,
// function, source line) and the same final "ErrorType: message" line.
#include "script_runner.h"

#include <QDir>
#include <QtTest>

using namespace kiln::testing;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

/// The lines of a traceback that must match exactly: each "  File ..." entry with the source
/// line after it, the chaining messages, and the final exception line. Caret lines are left out
/// (CPython's are heuristic).
std::vector<std::string> tracebackSkeleton(const std::string& text) {
    std::vector<std::string> all = lines(text);
    std::vector<std::string> out;
    for (size_t i = 0; i < all.size(); ++i) {
        const std::string& l = all[i];
        bool entry = l.rfind("  File \"", 0) == 0;
        if (entry || l.rfind("Traceback", 0) == 0 || l.rfind("During handling", 0) == 0 ||
            l.rfind("The above exception", 0) == 0 || l.rfind("  [Previous line", 0) == 0)
            out.push_back(l);
        if (entry && i + 1 < all.size() && all[i + 1].rfind("    ", 0) == 0 &&
            all[i + 1].find_first_not_of(" ^~") != std::string::npos)
            out.push_back(all[i + 1]);
    }
    while (!all.empty() && all.back().empty())
        all.pop_back();
    if (!all.empty()) out.push_back(all.back());
    return out;
}

/// Kiln's note under a ModuleNotFoundError (the module is not one Kiln provides) is not in
/// CPython's recording: drop it so the final line compared is the exception's.
std::string dropKilnImportNote(const std::string& text) {
    std::string out;
    for (const std::string& l : lines(text))
        if (l.rfind("Kiln workloads can import torch", 0) != 0 &&
            l.rfind("numpy is not available in Kiln workloads", 0) != 0)
            out += l + "\n";
    return out;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
    return s;
}

QString firstDifference(const std::vector<std::string>& got, const std::vector<std::string>& want) {
    for (size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
        std::string g = i < got.size() ? got[i] : "<missing>";
        std::string w = i < want.size() ? want[i] : "<missing>";
        if (g != w)
            return QString("line %1:\n  kiln:    %2\n  cpython: %3")
                .arg(i + 1)
                .arg(QString::fromStdString(g), QString::fromStdString(w));
    }
    return {};
}

} // namespace

class GoldenTest : public QObject {
    Q_OBJECT

private slots:
    void script_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QDir dir(sourceDir() + "/" + KILN_GOLDEN_SCRIPTS);
        QDir expected(sourceDir() + "/tests/golden/" + KILN_GOLDEN_SUITE);
        const QStringList scripts = dir.entryList({"*.py"}, QDir::Files, QDir::Name);
        QVERIFY2(!scripts.isEmpty(), qPrintable("no scripts in " + dir.path()));
        for (const QString& name : scripts)
            QTest::newRow(qPrintable(name))
                << dir.filePath(name) << expected.filePath(name.left(name.size() - 3));
    }

    void script() {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        const QString base = expected;
        if (!QFile::exists(base + ".out")) {
            // Only example workloads may lack a recording (those that need later parts of Kiln);
            // a golden script without one is a mistake.
            if (QString(KILN_GOLDEN_SUITE) == "workloads")
                QSKIP("no recording: the workload needs parts of Kiln that are not built yet");
            QFAIL(qPrintable("no recording " + base + ".out: run tests/golden/record.py"));
        }
        ScriptRun run = runScript(path.toStdString(), {}, 120);
        QVERIFY2(run.setupError.empty(), run.setupError.c_str());
        std::string expectedOut = readFile(base + ".out");
        std::string expectedErr = readFile(base + ".err");
        std::string expectedExit = readFile(base + ".exit");
        QString diff = firstDifference(lines(run.stdoutText), lines(expectedOut));
        QVERIFY2(diff.isEmpty(), qPrintable("stdout differs at " + diff + "\nstderr:\n" +
                                            QString::fromStdString(run.stderrText)));
        if (expectedExit.empty()) {
            QVERIFY2(run.result.exitCode == 0, run.stderrText.c_str());
            return;
        }
        QCOMPARE(run.result.exitCode, std::stoi(expectedExit));
        std::string dirPath = QFileInfo(path).absolutePath().toStdString();
        std::string got = dropKilnImportNote(replaceAll(run.stderrText, dirPath, "<dir>"));
        diff = firstDifference(tracebackSkeleton(got), tracebackSkeleton(expectedErr));
        QVERIFY2(diff.isEmpty(), qPrintable("traceback differs at " + diff +
                                            "\nfull kiln stderr:\n" + QString::fromStdString(got)));
    }
};

QTEST_APPLESS_MAIN(GoldenTest)
#include "tst_golden.moc"
