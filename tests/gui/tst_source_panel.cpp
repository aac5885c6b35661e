// SPDX-License-Identifier: MIT
// The Source panel on the graph-break example's trace: gutter markers and their tooltips, F8 /
// Shift+F8 through the three breaks with each break's reason and the graphs before and after
// it, clicks on the gutter and the text, Python highlighting, and a screenshot.
#include "break_details.h"
#include "python_highlighter.h"
#include "selection.h"
#include "source_panel.h"
#include "studio_fixture.h"
#include "trace_session.h"

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest>

using namespace kiln;
using views::MarkerKind;

namespace {

std::vector<MarkerKind> kindsAt(const views::CodeEditor& editor, int line) {
    std::vector<MarkerKind> kinds;
    for (const views::LineMarker& m : editor.markersAt(line))
        kinds.push_back(m.kind);
    return kinds;
}

QString tipOf(const views::CodeEditor& editor, int line, MarkerKind kind) {
    for (const views::LineMarker& m : editor.markersAt(line))
        if (m.kind == kind) return m.toolTip;
    return {};
}

/// The character format the highlighter gave position \p column of \p line (1-based line).
QTextCharFormat formatAt(const QTextDocument& document, int line, int column) {
    QTextBlock block = document.findBlockByNumber(line - 1);
    for (const QTextLayout::FormatRange& r : block.layout()->formats())
        if (column >= r.start && column < r.start + r.length) return r.format;
    return {};
}

} // namespace

class SourcePanelTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    views::SnapshotPtr m_snapshot;

    /// A selection on run 1 with its snapshot, as the main window sets it up.
    void prepare(views::Selection& selection, views::SnapshotPtr snapshot = nullptr) {
        selection.selectRun(1);
        selection.setSnapshot(snapshot ? snapshot : m_snapshot);
    }

private slots:
    void initTestCase() {
        QString trace = testing::graphBreaksTrace(m_dir.path());
        QVERIFY(!trace.isEmpty());
        m_snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(m_snapshot);
        QCOMPARE(m_snapshot->graphBreaks.size(), size_t(3));
    }

    void gutterMarksBreaksFramesAndRecompiles() {
        views::TraceSession session;
        views::Selection selection;
        prepare(selection);
        views::SourcePanel panel(session, selection);
        const views::CodeEditor& editor = *panel.editor();
        QCOMPARE(panel.objectName(), QString("source"));
        QCOMPARE(editor.toPlainText(), m_snapshot->source);
        QVERIFY(panel.changedBanner()->isHidden());

        // The three breaks at the print, the tensor branch and .item().
        QCOMPARE(tipOf(editor, 8, MarkerKind::Break),
                 QString("Graph break #1 [0/0]: side_effect — builtin: print [<class "
                         "'torch._dynamo.variables.constant.ConstantVariable'>] False"));
        QCOMPARE(tipOf(editor, 9, MarkerKind::Break),
                 QString("Graph break #2 [1/0]: data_dependent_branch — generic_jump "
                         "TensorVariable()"));
        QCOMPARE(tipOf(editor, 13, MarkerKind::Break),
                 QString("Graph break #3 [2/0]: item — Tensor.item"));
        int breaks = 0;
        for (int line = 1; line <= editor.blockCount(); ++line)
            for (MarkerKind k : kindsAt(editor, line))
                breaks += k == MarkerKind::Break;
        QCOMPARE(breaks, 3);

        // fn starts at line 6; its resume frames where they resume (after each break).
        QCOMPARE(kindsAt(editor, 6), std::vector<MarkerKind>{MarkerKind::Frame});
        QString fnTip = tipOf(editor, 6, MarkerKind::Frame);
        QVERIFY2(fnTip.startsWith("Compiled frame fn (line 6)\n  0/0 · first · break · "),
                 qPrintable(fnTip));
        QVERIFY(fnTip.endsWith(" ms"));
        QCOMPARE(kindsAt(editor, 8), (std::vector{MarkerKind::Frame, MarkerKind::Break}));
        QVERIFY(tipOf(editor, 8, MarkerKind::Frame)
                    .startsWith("Resume frame torch_dynamo_resume_in_fn_at_8: fn continues at "
                                "line 8\n  1/0 · first · break · "));
        QVERIFY(kindsAt(editor, 7).empty());

        // scaled was compiled five times: a frame marker and a recompile marker with each
        // recompile's failing guards, expected vs actual.
        QCOMPARE(kindsAt(editor, 17), (std::vector{MarkerKind::Frame, MarkerKind::Recompile}));
        QString scaledTip = tipOf(editor, 17, MarkerKind::Frame);
        for (const char* id : {"4/0 · first · ok", "4/1 · recompile · ok", "4/4 · recompile · ok"})
            QVERIFY2(scaledTip.contains(id), qPrintable(scaledTip));
        QString recompileTip = tipOf(editor, 17, MarkerKind::Recompile);
        QVERIFY2(recompileTip.startsWith("Recompiled scaled:\n  4/1:\n    entry 4/0 failed "
                                         "L['x']: expected torch.float32 [8, 128], actual "
                                         "torch.float32 [16, 128]"),
                 qPrintable(recompileTip));
        QVERIFY(recompileTip.contains("entry 4/1 failed L['scale']: expected 2.0, actual 3.0"));
        QVERIFY(recompileTip.contains("entry 4/2 failed L['flag']: expected True, actual False"));
        // The gutter's tooltip joins every marker of the line.
        QVERIFY(editor.toolTipAt(17).contains("Recompiled scaled"));
        QVERIFY(editor.toolTipAt(17).contains("Compiled frame scaled"));
        QVERIFY(editor.toolTipAt(7).isEmpty());
    }

    void f8StepsThroughTheBreaksInExecutionOrder() {
        views::TraceSession session;
        views::Selection selection;
        prepare(selection);
        views::SourcePanel panel(session, selection);
        panel.resize(900, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        views::BreakDetails& details = *panel.details();
        QVERIFY(details.isHidden());
        QVERIFY(panel.nextBreakAction()->isEnabled());
        QCOMPARE(panel.nextBreakAction()->shortcut(), QKeySequence(Qt::Key_F8));
        QCOMPARE(panel.previousBreakAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F8));

        struct Expected {
            int line;
            QString header, reason, ended, resumed, endedOp, resumedOp;
        };
        const std::vector<Expected> expected = {
            {8, "Graph break 1 of 3 · side_effect · graph_breaks.py:8:5", "builtin: print",
             "Graph 0/0 · 2 ops", "Graph 1/0 · 1 op", "torch.sin(l_x_)", "l_a_.sum()"},
            {9, "Graph break 2 of 3 · data_dependent_branch · graph_breaks.py:9:8",
             "generic_jump TensorVariable()", "Graph 1/0 · 1 op", "Graph 2/0 · 1 op", "l_a_.sum()",
             "-l_a_"},
            {13, "Graph break 3 of 3 · item · graph_breaks.py:13:9", "Tensor.item",
             "Graph 2/0 · 1 op", "Graph 3/0 · 3 ops", "neg.mean()", "torch.cos(l_y_)"},
        };
        for (int i = 0; i < 3; ++i) {
            const Expected& e = expected[size_t(i)];
            panel.nextBreakAction()->trigger();
            QCOMPARE(selection.state().breakOrder, i + 1);
            QCOMPARE(selection.state().sourceLine, e.line);
            QVERIFY(!details.isHidden());
            QCOMPARE(details.headerText(), e.header);
            QVERIFY2(details.reasonText().contains(e.reason), qPrintable(details.reasonText()));
            QVERIFY(details.userStackText().contains(QString(", line %1, in ").arg(e.line)));
            QCOMPARE(details.endedSummary(), e.ended);
            QCOMPARE(details.resumedSummary(), e.resumed);
            QVERIFY2(details.endedCode().contains(e.endedOp), qPrintable(details.endedCode()));
            QVERIFY2(details.resumedCode().contains(e.resumedOp),
                     qPrintable(details.resumedCode()));
            QVERIFY(details.endedCode() != details.resumedCode());
            QCOMPARE(panel.editor()->highlightedBreakLine(), e.line);
        }
        // No wrap-around: a fourth F8 stays on the last break and says so.
        panel.nextBreakAction()->trigger();
        QCOMPARE(selection.state().breakOrder, 3);
        QVERIFY2(details.headerText().contains("the last break: no more breaks after it"),
                 qPrintable(details.headerText()));
        panel.previousBreakAction()->trigger();
        QCOMPARE(selection.state().breakOrder, 2);
        QCOMPARE(details.headerText(), expected[1].header);

        // The real key, through the window's shortcut.
        QApplication::setActiveWindow(&panel);
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        QTest::keyClick(&panel, Qt::Key_F8);
        QCOMPARE(selection.state().breakOrder, 3);
        QTest::keyClick(&panel, Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(selection.state().breakOrder, 2);

        QCoreApplication::processEvents(); // lay out the details shown since the last paint
        QVERIFY(details.height() > 150);
        panel.grab().save("/tmp/source-panel.png");
    }

    void aGraphHeaderSelectsItsGraphAndKeepsTheBreak() {
        views::TraceSession session;
        views::Selection selection;
        prepare(selection);
        views::SourcePanel panel(session, selection);
        selection.selectBreak(2);
        QPushButton* resumed = nullptr;
        for (QPushButton* b : panel.details()->findChildren<QPushButton*>("graphHeader"))
            if (b->text().startsWith("Graph 2/0")) resumed = b;
        QVERIFY(resumed);
        QTest::mouseClick(resumed, Qt::LeftButton);
        const trace::GraphRow* graph = m_snapshot->graphsOf("2/0").front();
        QCOMPARE(selection.state().graphId, graph->id);
        QCOMPARE(selection.state().compileId, QString("2/0"));
        QVERIFY(!panel.details()->isHidden());
        QCOMPARE(panel.details()->shownBreak(), 2);
        QVERIFY(resumed->isChecked());
        // Stepping goes on from the break still shown.
        panel.nextBreakAction()->trigger();
        QCOMPARE(selection.state().breakOrder, 3);
    }

    void aSideWithoutAGraphSaysWhy() {
        // The last break as if its compile had captured nothing and no resume frame existed.
        auto edited = std::make_shared<views::RunSnapshot>(*m_snapshot);
        std::erase_if(edited->graphs,
                      [](const trace::GraphRow& g) { return g.compileId == "2/0"; });
        std::erase_if(edited->frames, [](const trace::FrameRow& f) { return f.resumeLine == 13; });
        views::TraceSession session;
        views::Selection selection;
        prepare(selection, edited);
        views::SourcePanel panel(session, selection);
        selection.selectBreak(3);
        QCOMPARE(panel.details()->endedSummary(),
                 QString("no graph: compile 2/0 captured no ops before the break (status break)"));
        QCOMPARE(panel.details()->resumedSummary(),
                 QString("no graph: no resume frame continues at this line; the rest of the "
                         "function ran eagerly"));
        QVERIFY(panel.details()->endedCode().isEmpty());
        QVERIFY(panel.details()->resumedCode().isEmpty());
        QVERIFY(panel.details()->findChildren<QPushButton*>("graphHeader").isEmpty());
    }

    void clicksSelectBreaksAndLines() {
        views::TraceSession session;
        views::Selection selection;
        prepare(selection);
        views::SourcePanel panel(session, selection);
        panel.resize(900, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        views::CodeEditor& editor = *panel.editor();

        // A break marker selects its break.
        QRect line9 = editor.lineRect(9);
        QVERIFY(!line9.isEmpty());
        QTest::mouseClick(editor.gutter(), Qt::LeftButton, {}, QPoint(20, line9.center().y()));
        QCOMPARE(selection.state().breakOrder, 2);
        QCOMPARE(panel.details()->shownBreak(), 2);

        // Any other gutter line selects the line, and the frame that covers it.
        QRect line18 = editor.lineRect(18);
        QTest::mouseClick(editor.gutter(), Qt::LeftButton, {}, QPoint(20, line18.center().y()));
        QCOMPARE(selection.state().breakOrder, 0);
        QCOMPARE(selection.state().sourceLine, 18);
        QCOMPARE(selection.state().compileId, QString("4/4"));
        QVERIFY(panel.details()->isHidden());
        QCOMPARE(editor.highlightedLine(), 18);

        // A click on the text of line 13 (a break line) selects the line, not the break.
        QRect line13 = editor.lineRect(13);
        QTest::mouseClick(editor.viewport(), Qt::LeftButton, {}, QPoint(60, line13.center().y()));
        QCOMPARE(selection.state().sourceLine, 13);
        QCOMPARE(selection.state().breakOrder, 0);

        // Another panel's selection scrolls to and highlights its line.
        selection.selectCompile("4/2");
        QCOMPARE(editor.highlightedLine(), 17);
        QVERIFY(!editor.lineRect(17).isEmpty());
        panel.grab().save("/tmp/source-line.png");
    }

    void highlighterFormatsPython() {
        views::TraceSession session;
        views::Selection selection;
        prepare(selection);
        views::SourcePanel panel(session, selection);
        QTextDocument& doc = *panel.editor()->document();
        auto* highlighter = doc.findChild<views::PythonHighlighter*>();
        QVERIFY(highlighter);
        using T = views::PythonHighlighter::Token;
        QCOMPARE(doc.findBlockByNumber(5).text(), QString("def fn(x, y):"));
        QTextCharFormat keyword = formatAt(doc, 6, 0); // def
        QTextCharFormat name = formatAt(doc, 6, 4);    // fn
        QTextCharFormat comment = formatAt(doc, 8, doc.findBlockByNumber(7).text().indexOf('#'));
        QTextCharFormat string = formatAt(doc, 8, 11); // "checkpoint"
        QCOMPARE(keyword.foreground(), highlighter->format(T::Keyword).foreground());
        QCOMPARE(name.foreground(), highlighter->format(T::Definition).foreground());
        QCOMPARE(comment.foreground(), highlighter->format(T::Comment).foreground());
        QVERIFY(comment.fontItalic());
        QCOMPARE(string.foreground(), highlighter->format(T::String).foreground());
        QVERIFY(keyword.foreground() != comment.foreground());
        QVERIFY(keyword.fontWeight() != comment.fontWeight());

        // Triple-quoted strings run across lines; a '#' inside one is no comment.
        QTextDocument other;
        views::PythonHighlighter python(&other);
        other.setPlainText("@torch.compile\nx = \"\"\"one\n# still text\n\"\"\" + 42  # done\n");
        python.rehighlight(); // a new document's first highlighting waits for the event loop
        QCOMPARE(formatAt(other, 1, 0).foreground(), python.format(T::Decorator).foreground());
        QCOMPARE(formatAt(other, 3, 0).foreground(), python.format(T::String).foreground());
        QCOMPARE(formatAt(other, 4, 0).foreground(), python.format(T::String).foreground());
        QCOMPARE(formatAt(other, 4, 6).foreground(), python.format(T::Number).foreground());
        QCOMPARE(formatAt(other, 4, 10).foreground(), python.format(T::Comment).foreground());
    }

    void aChangedFileShowsABannerAndARunWithoutBreaksCannotStep() {
        views::TraceSession session;
        views::Selection selection;
        auto changed = std::make_shared<views::RunSnapshot>(*m_snapshot);
        changed->sourceChanged = true;
        changed->graphBreaks.clear();
        prepare(selection, changed);
        views::SourcePanel panel(session, selection);
        panel.resize(900, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.grab().save("/tmp/source-banner.png");
        QVERIFY(!panel.changedBanner()->isHidden());
        QVERIFY(panel.changedBanner()->text().contains("markers may be off"));
        QVERIFY(!panel.nextBreakAction()->isEnabled());
        QVERIFY(!panel.previousBreakAction()->isEnabled());
        for (const views::LineMarker& m : panel.editor()->markersAt(9))
            QVERIFY(m.kind != MarkerKind::Break);
    }
};

QTEST_MAIN(SourcePanelTest)
#include "tst_source_panel.moc"
