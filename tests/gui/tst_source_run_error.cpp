// SPDX-License-Identifier: MIT
// Where a run stopped, as the Source panel shows it: the traceback parser on CPython's format
// and its edge cases, then real `kiln run`s of a script with a SyntaxError, one with a
// ZeroDivisionError raised inside a compiled function called from module level, one that was
// cancelled and one that ran fine: the error marker, its tooltip, the line's highlight, the
// banner's sentence and what clicking it does, and a screenshot.
#include "selection.h"
#include "source_panel.h"
#include "studio_fixture.h"
#include "trace_session.h"

#include <QLabel>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;
using views::MarkerKind;
using views::RunEndNotice;

namespace {

const char* kSyntaxError = "import torch\n"
                           "\n"
                           "def f(x):\n"
                           "    return x + 1\n"
                           "\n"
                           "y = f(torch.ones(3)\n"
                           "print(y)\n";

// The error is raised in `scale` (compiled), called from `main`, called from module level.
const char* kZeroDivision = "import torch\n"
                            "\n"
                            "\n"
                            "@torch.compile\n"
                            "def scale(x, n):\n"
                            "    y = x * 2\n"
                            "    return y * (1 / n)\n"
                            "\n"
                            "\n"
                            "def main():\n"
                            "    x = torch.ones(4)\n"
                            "    print(scale(x, 1))\n"
                            "    print(scale(x, 0))\n"
                            "\n"
                            "\n"
                            "if __name__ == \"__main__\":\n"
                            "    main()\n";

const char* kEndless = "i = 0\n"
                       "while True:\n"
                       "    i += 1\n";

/// A traceback as CPython prints it when the innermost frames are in another file.
const char* kThroughHelper = "Traceback (most recent call last):\n"
                             "  File \"/work/job/train.py\", line 12, in <module>\n"
                             "    main()\n"
                             "  File \"/work/job/train.py\", line 9, in main\n"
                             "    return ratio(total, 0)\n"
                             "           ^^^^^^^^^^^^^^^\n"
                             "  File \"/work/job/helper.py\", line 2, in ratio\n"
                             "    return a / b\n"
                             "           ~~^~~\n"
                             "ZeroDivisionError: division by zero\n";

std::vector<int> linesWith(const views::CodeEditor& editor, MarkerKind kind) {
    std::vector<int> lines;
    for (int line = 1; line <= editor.blockCount(); ++line)
        for (const views::LineMarker& m : editor.markersAt(line))
            if (m.kind == kind) lines.push_back(line);
    return lines;
}

QString tipOf(const views::CodeEditor& editor, int line, MarkerKind kind) {
    for (const views::LineMarker& m : editor.markersAt(line))
        if (m.kind == kind) return m.toolTip;
    return {};
}

/// The banner's background as painted, sampled inside its padding.
QColor bannerColour(QLabel& banner) {
    return banner.grab().toImage().pixelColor(2, 2);
}

bool isRed(const QColor& c) {
    return c.red() > c.green() + 20 && c.red() > c.blue() + 20;
}

bool isGrey(const QColor& c) {
    return qAbs(c.red() - c.green()) < 10 && qAbs(c.green() - c.blue()) < 10;
}

} // namespace

class SourceRunErrorTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    views::SnapshotPtr runScript(const QString& name, const char* source,
                                 const QStringList& args = {}) {
        QString trace = testing::scriptTrace(m_dir.path(), name, source, args);
        return trace.isEmpty() ? nullptr : testing::readSnapshot(trace, 1);
    }

private slots:
    void parseTracebackReadsEveryFrame() {
        std::vector<views::TracebackFrame> frames = views::parseTraceback(kThroughHelper);
        QCOMPARE(frames.size(), size_t(3));
        QCOMPARE(frames[0].file, QString("/work/job/train.py"));
        QCOMPARE(frames[0].line, 12);
        QCOMPARE(frames[0].function, QString("<module>"));
        QCOMPARE(frames[1].function, QString("main"));
        QCOMPARE(frames[2].file, QString("/work/job/helper.py"));
        QCOMPARE(frames[2].line, 2);
        QCOMPARE(frames[2].function, QString("ratio"));
    }

    void theInnermostFrameInTheWorkloadIsTheCallerOfAnotherFile() {
        auto frame = views::innermostFrameIn(kThroughHelper, "/work/job/train.py");
        QVERIFY(frame);
        QCOMPARE(frame->line, 9);
        QCOMPARE(frame->function, QString("main"));
        // The same path written differently is the same file.
        QCOMPARE(views::innermostFrameIn(kThroughHelper, "/work/job/./train.py")->line, 9);
        QCOMPARE(views::innermostFrameIn(kThroughHelper, "/work/job/helper.py")->line, 2);
        QVERIFY(!views::innermostFrameIn(kThroughHelper, "/elsewhere/train.py"));
    }

    void noTracebackOrNoFrameInTheFileGivesNoLine() {
        QVERIFY(views::parseTraceback({}).empty());
        QVERIFY(!views::innermostFrameIn({}, "/work/job/train.py"));
        QVERIFY(!views::innermostFrameIn(kThroughHelper, {}));
        // Kiln's own failure: a message, no frames.
        QVERIFY(views::parseTraceback("TraceError: cannot write to /x.kiln\n").empty());
        // A source line that reads like a frame is indented by four, not two.
        QVERIFY(views::parseTraceback("  File \"/a.py\", line 3, in f\n"
                                      "    print('  File \"/b.py\", line 9, in g')\n"
                                      "    File \"/c.py\", line 4, in h\n")
                    .size() == 1);
    }

    void aSyntaxErrorFrameAndAChainedExceptionAndAnOddPath() {
        auto syntax = views::parseTraceback("  File \"/w/a b, c.py\", line 6\n"
                                            "    y = f(torch.ones(3)\n"
                                            "         ^\n"
                                            "SyntaxError: '(' was never closed\n");
        QCOMPARE(syntax.size(), size_t(1));
        QCOMPARE(syntax[0].file, QString("/w/a b, c.py"));
        QCOMPARE(syntax[0].line, 6);
        QVERIFY(syntax[0].function.isEmpty());
        // With chained exceptions the one printed last ended the run.
        QString chained = QString(kThroughHelper) +
                          "\nDuring handling of the above exception, another exception "
                          "occurred:\n\nTraceback (most recent call last):\n"
                          "  File \"/work/job/train.py\", line 14, in <module>\n"
                          "    raise RuntimeError('bad')\n"
                          "RuntimeError: bad\n";
        QCOMPARE(views::innermostFrameIn(chained, "/work/job/train.py")->line, 14);
    }

    void aSyntaxErrorIsMarkedAtItsLine() {
        views::SnapshotPtr snapshot = runScript("syntax_error.py", kSyntaxError);
        QVERIFY(snapshot);
        QCOMPARE(snapshot->run.status, trace::RunStatus::Error);
        QCOMPARE(QString::fromStdString(snapshot->run.errorType), QString("SyntaxError"));

        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(snapshot);
        views::SourcePanel panel(session, selection);
        const views::CodeEditor& editor = *panel.editor();
        QCOMPARE(linesWith(editor, MarkerKind::Error), std::vector<int>{6});
        QCOMPARE(editor.errorLine(), 6);
        QString tip = tipOf(editor, 6, MarkerKind::Error);
        QVERIFY2(tip.startsWith("SyntaxError: '(' was never closed\n\n  File \"" + m_dir.path() +
                                "/syntax_error.py\", line 6\n"),
                 qPrintable(tip));
        QVERIFY(tip.contains("    y = f(torch.ones(3)\n         ^\n"));
        QVERIFY(!panel.endBanner()->isHidden());
        QCOMPARE(panel.endBanner()->text(),
                 QString("The run ended with SyntaxError: '(' was never closed at line 6"));
        QVERIFY(isRed(bannerColour(*panel.endBanner())));

        // Clicking the banner selects the line, which the editor then highlights.
        QTest::mouseClick(panel.endBanner(), Qt::LeftButton);
        QCOMPARE(selection.state().sourceLine, 6);
        QCOMPARE(editor.highlightedLine(), 6);
        panel.resize(1000, 600);
        panel.grab().save("/tmp/source-syntax-error.png");
    }

    void aRuntimeErrorIsMarkedAtTheInnermostFrameInTheFile() {
        views::SnapshotPtr snapshot = runScript("zero_division.py", kZeroDivision);
        QVERIFY(snapshot);
        QCOMPARE(snapshot->run.status, trace::RunStatus::Error);

        views::TraceSession session;
        views::Selection selection;
        views::SourcePanel panel(session, selection);
        panel.resize(1000, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.endBanner()->isHidden()); // no run yet

        // While it runs, nothing has gone wrong yet; the final snapshot brings the error.
        auto live = std::make_shared<views::RunSnapshot>(*snapshot);
        live->run.status = trace::RunStatus::Running;
        live->run.errorType = live->run.errorMessage = live->run.errorTraceback = {};
        selection.selectRun(1);
        selection.setSnapshot(live);
        QVERIFY(panel.endBanner()->isHidden());
        QVERIFY(linesWith(*panel.editor(), MarkerKind::Error).empty());
        selection.setSnapshot(snapshot);

        const views::CodeEditor& editor = *panel.editor();
        // In `scale` (line 7), not at the calls in main (13) or at module level (17).
        QCOMPARE(linesWith(editor, MarkerKind::Error), std::vector<int>{7});
        QCOMPARE(editor.errorLine(), 7);
        QString tip = tipOf(editor, 7, MarkerKind::Error);
        QVERIFY2(tip.startsWith("ZeroDivisionError: division by zero\n\nTraceback (most recent "
                                "call last):\n"),
                 qPrintable(tip));
        QVERIFY(tip.contains("zero_division.py\", line 13, in main\n"));
        QVERIFY(tip.contains("zero_division.py\", line 7, in scale\n    return y * (1 / n)\n"));
        QVERIFY(editor.toolTipAt(7).contains("font-family:monospace"));
        // The compiled frame's marker stays next to the error's.
        QCOMPARE(linesWith(editor, MarkerKind::Frame).front(), 5);
        QCOMPARE(panel.endBanner()->text(),
                 QString("The run ended with ZeroDivisionError: division by zero at line 7"));
        QVERIFY(panel.endBanner()->toolTip().contains("line 7, in scale"));
        QVERIFY(panel.changedBanner()->isHidden());
        panel.grab().save("/tmp/source-error.png");
    }

    void theBannerBringsAFarErrorLineBackIntoView() {
        QString source = "import torch\n";
        for (int i = 0; i < 80; ++i)
            source += QString("# filler line %1 before the error\n").arg(i + 2);
        source += "x = torch.ones(2)\nprint(x.sum().item() / 0)\n"; // line 83
        QString trace = testing::scriptTrace(m_dir.path(), "far_error.py", source);
        views::SnapshotPtr snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(snapshot);

        views::TraceSession session;
        views::Selection selection;
        views::SourcePanel panel(session, selection);
        panel.resize(700, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        selection.selectRun(1);
        selection.setSnapshot(snapshot);
        views::CodeEditor& editor = *panel.editor();
        QCOMPARE(editor.errorLine(), 83);
        QCOMPARE(
            panel.endBanner()->text(),
            QString("The run ended with ZeroDivisionError: float division by zero at line 83"));
        auto inView = [&](int line) {
            QRect r = editor.lineRect(line);
            return !r.isEmpty() && r.top() >= 0 && r.bottom() <= editor.viewport()->height();
        };
        QVERIFY(inView(83)); // shown where it stopped, as a debugger does
        editor.verticalScrollBar()->setValue(0);
        QVERIFY(!inView(83));
        QTest::mouseClick(panel.endBanner(), Qt::LeftButton);
        QVERIFY(inView(83));
        QCOMPARE(selection.state().sourceLine, 83);
        // Again after scrolling away: the line is still the selected one, and comes back.
        editor.verticalScrollBar()->setValue(0);
        QTest::mouseClick(panel.endBanner(), Qt::LeftButton);
        QVERIFY(inView(83));
    }

    void aCancelledOrCrashedRunGetsANeutralBanner() {
        views::SnapshotPtr snapshot = runScript("endless.py", kEndless, {"--timeout", "1"});
        QVERIFY(snapshot);
        QCOMPARE(snapshot->run.status, trace::RunStatus::Cancelled);
        RunEndNotice end = views::runEndNotice(*snapshot);
        QCOMPARE(end.kind, RunEndNotice::Kind::Stopped);
        QVERIFY2(end.line == 2 || end.line == 3, qPrintable(end.toolTip));

        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(snapshot);
        views::SourcePanel panel(session, selection);
        QCOMPARE(panel.endBanner()->text(),
                 QString("The run was cancelled at line %1: run cancelled: the --timeout of 1 s "
                         "expired")
                     .arg(end.line));
        QVERIFY(isGrey(bannerColour(*panel.endBanner())));
        QVERIFY(linesWith(*panel.editor(), MarkerKind::Error).empty());
        QCOMPARE(panel.editor()->errorLine(), 0);
        panel.resize(1000, 600);
        panel.grab().save("/tmp/source-cancelled.png");

        // Studio's run controller records a killed child as crashed, with no traceback.
        auto crashed = std::make_shared<views::RunSnapshot>(*snapshot);
        crashed->run.status = trace::RunStatus::Crashed;
        crashed->run.errorType = "Crash";
        crashed->run.errorMessage = "kiln run died: Killed";
        crashed->run.errorTraceback.clear();
        selection.setSnapshot(crashed);
        QCOMPARE(panel.endBanner()->text(), QString("The run crashed: kiln run died: Killed"));
        QVERIFY(isGrey(bannerColour(*panel.endBanner())));
        QVERIFY(linesWith(*panel.editor(), MarkerKind::Error).empty());

        // Still 'running' in the trace but its process is gone.
        auto gone = std::make_shared<views::RunSnapshot>(*crashed);
        gone->run.status = trace::RunStatus::Running;
        gone->run.errorType = gone->run.errorMessage = {};
        gone->looksCrashed = true;
        selection.setSnapshot(gone);
        QCOMPARE(panel.endBanner()->text(),
                 QString("The run's process is gone without recording how it ended: it crashed "
                         "or was killed."));
    }

    void aRunThatEndedWellHasNoBannerAndNoErrorMarker() {
        QString trace = testing::graphBreaksTrace(m_dir.path());
        views::SnapshotPtr snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(snapshot);
        QCOMPARE(snapshot->run.status, trace::RunStatus::Ok);
        QCOMPARE(views::runEndNotice(*snapshot).kind, RunEndNotice::Kind::None);
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(snapshot);
        views::SourcePanel panel(session, selection);
        QVERIFY(panel.endBanner()->isHidden());
        QVERIFY(linesWith(*panel.editor(), MarkerKind::Error).empty());
        QCOMPARE(panel.editor()->errorLine(), 0);
        QCOMPARE(linesWith(*panel.editor(), MarkerKind::Break), (std::vector<int>{8, 9, 13}));
    }
};

QTEST_MAIN(SourceRunErrorTest)
#include "tst_source_run_error.moc"
