// SPDX-License-Identifier: MIT
// Bad input never crashes and loses nothing: for each kind of script error, `kiln run` prints
// the Python-style report and a file:line:col summary, exits with status 1, and the trace
// records the run as 'error' with the exception type, message and traceback, keeping the
// output printed before the error.
#include "script_runner.h"
#include "trace/trace_reader.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;

namespace {

struct Case {
    const char* name;
    const char* source;
    const char* errorType;
    const char* messagePart;
    const char* location; ///< "line:col" of the innermost frame
};

const Case kCases[] = {
    {"syntax", "print('before')\nx = (1 +\n", "SyntaxError", "'(' was never closed", "2:5"},
    {"indentation", "def f():\nreturn 1\n", "IndentationError", "expected an indented block",
     "2:1"},
    {"unsupported", "x = 1\nasync def g():\n    pass\n", "SyntaxError", "'async'", "2:1"},
    {"name", "print('before')\nprint(undefined)\n", "NameError", "name 'undefined' is not defined",
     "2:7"},
    {"type_arity", "def f(a, b):\n    return a\nf(1)\n", "TypeError",
     "f() missing 1 required positional argument: 'b'", "3:1"},
    {"type_operands", "x = 1 + 'a'\n", "TypeError",
     "unsupported operand type(s) for +: 'int' and 'str'", "1:5"},
    {"attribute", "class A:\n    pass\nA().missing\n", "AttributeError",
     "'A' object has no attribute 'missing'", "3:1"},
    {"index", "xs = [1, 2]\nprint(xs[5])\n", "IndexError", "list index out of range", "2:7"},
    {"key", "d = {'a': 1}\nd['b']\n", "KeyError", "'b'", "2:1"},
    {"zero_division", "def f(x):\n    return x / 0\nf(3)\n", "ZeroDivisionError",
     "division by zero", "2:12"},
    {"recursion", "def r(n):\n    return r(n + 1)\nr(0)\n", "RecursionError",
     "maximum recursion depth exceeded", "2:12"},
    {"shape", "import torch\na = torch.ones(3)\nb = torch.ones(4)\nc = a + b\n", "RuntimeError",
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0",
     "4:5"},
    {"allocation", "import torch\nx = torch.empty(1 << 40, 1 << 20)\n", "RuntimeError",
     "you tried to allocate", "2:5"},
    // Kiln's ints are 64-bit: rounding a float outside them is an OverflowError (CPython would
    // return a big int), never a silently wrong -9223372036854775808.
    {"round_overflow", "print(round(1e19))\n", "OverflowError",
     "integer overflow: 1e+19 does not fit in Kiln's 64-bit integers", "1:7"},
    {"floor_overflow", "import math\nprint(math.floor(-1e300))\n", "OverflowError",
     "integer overflow: -1e+300 does not fit in Kiln's 64-bit integers", "2:7"},
    {"ceil_overflow", "import math\nx = math.ceil(9.3e18)\n", "OverflowError",
     "integer overflow: 9.3e+18 does not fit in Kiln's 64-bit integers", "2:5"},
    // CPython NFKC-normalizes identifiers ('ﬁle' is 'file'); Kiln refuses such spellings.
    {"identifier_nfkc", "print('before')\n\xef\xac\x81le = 3\n", "SyntaxError",
     "identifier character '\xef\xac\x81' (U+FB01) is not in NFKC normal form", "2:1"},
    {"trunc_overflow", "import math\nx = math.trunc(-2.0 ** 70)\n", "OverflowError",
     "integer overflow: -1.1805916207174113e+21 does not fit in Kiln's 64-bit integers", "2:5"},
};

} // namespace

class ScriptErrorsTest : public QObject {
    Q_OBJECT

private slots:
    void reportsAndRecords_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kCases)); ++i)
            QTest::newRow(kCases[i].name) << i;
    }

    void reportsAndRecords() {
        QFETCH(int, index);
        const Case& c = kCases[index];
        QTemporaryDir dir;
        QString script = dir.filePath(QString(c.name) + ".py");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(c.source);
        f.close();
        QProcess p;
        p.start(testing::binaryDir() + "/bin/kiln", {"run", script});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QString expectedLast = QString(c.errorType) + ": ";
        QVERIFY2(err.contains(expectedLast) && err.contains(c.messagePart), qPrintable(err));
        QVERIFY2(err.contains("File \"" + script + "\", line"), qPrintable(err));
        QString summary = "kiln: error: " + script + ":" + c.location + ": " + c.errorType;
        QVERIFY2(err.contains(summary), qPrintable("expected '" + summary + "' in:\n" + err));
        if (QString(c.errorType).endsWith("Error") && !QString(c.errorType).contains("Syntax") &&
            !QString(c.errorType).contains("Indentation"))
            QVERIFY2(err.contains("Traceback (most recent call last):"), qPrintable(err));

        auto reader =
            trace::TraceReader::open(dir.filePath(QString(c.name) + ".kiln").toStdString());
        QVERIFY(reader.ok());
        auto runs = reader.value()->listRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs.value().size(), size_t(1));
        const trace::RunRow& run = runs.value()[0];
        QCOMPARE(run.status, trace::RunStatus::Error);
        QCOMPARE(run.exitCode.value_or(-1), int64_t(1));
        QCOMPARE(QString::fromStdString(run.errorType), QString(c.errorType));
        QVERIFY(QString::fromStdString(run.errorMessage).contains(c.messagePart));
        QVERIFY(!run.errorTraceback.empty());
        auto lines = reader.value()->outputLines(run.id, 0, 1000);
        QVERIFY(lines.ok());
        QString recorded;
        for (const auto& l : lines.value())
            recorded += QString::fromStdString(l.text) + "\n";
        QVERIFY2(recorded.contains(expectedLast) && recorded.contains(c.messagePart),
                 qPrintable(recorded));
        if (QByteArray(c.source).startsWith("print('before')") &&
            QString(c.errorType) != "SyntaxError")
            QVERIFY(recorded.startsWith("before\n"));
    }

    // A module Kiln does not provide: CPython's message line, then the note (PEP 678) that
    // says why, as CPython prints notes under the message.
    void unavailableModuleNote_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");
        QTest::newRow("numpy") << "import numpy as np\n"
                               << "ModuleNotFoundError: No module named 'numpy'\n"
                                  "numpy is not available in Kiln workloads: use torch tensors\n";
        QTest::newRow("other") << "from requests.adapters import HTTPAdapter\n"
                               << "ModuleNotFoundError: No module named 'requests'\n"
                                  "Kiln workloads can import torch and the standard library "
                                  "modules that Kiln provides; 'requests' is not one of them\n";
        QTest::newRow("submodule")
            << "import torch.distributions\n"
            << "ModuleNotFoundError: No module named 'torch.distributions'\n"
               "Kiln provides torch but not its module 'torch.distributions' (see "
               "docs/language.md)\n";
    }

    void unavailableModuleNote() {
        QFETCH(QString, source);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString script = dir.filePath("imports.py");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(source.toUtf8());
        f.close();
        QProcess p;
        p.start(testing::binaryDir() + "/bin/kiln", {"run", script});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 1);
        QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(expected), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(ScriptErrorsTest)
#include "tst_script_errors.moc"
