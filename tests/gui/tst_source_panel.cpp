// SPDX-License-Identifier: MIT
// The Source panel on the graph-break example's trace: gutter markers and their tooltips, F8 /
// Shift+F8 through the three breaks with each break's reason and the graphs before and after
// it, clicks on the gutter and the text, Python highlighting, and a screenshot; a live run's
// refresh that keeps what is shown; the actions' tips and messages; a dark palette.
#include "break_details.h"
#include "python_highlighter.h"
#include "selection.h"
#include "source_panel.h"
#include "studio_fixture.h"
#include "trace_session.h"

#include <QAction>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest>
#include <map>
#include <set>

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

/// \p final as it was while running, before the compiles of \p laterFrames began: no
/// frames, compiles, graphs, guards or recompiles of theirs, and half of the output.
std::shared_ptr<views::RunSnapshot> earlier(const views::RunSnapshot& final,
                                            const std::set<int64_t>& laterFrames) {
    auto s = std::make_shared<views::RunSnapshot>(final);
    s->run.status = trace::RunStatus::Running;
    std::set<std::string> later;
    for (const trace::CompileRow& c : s->compiles)
        if (laterFrames.count(c.frameId)) later.insert(c.compileId);
    std::erase_if(s->frames, [&](const auto& f) { return laterFrames.count(f.frameId) > 0; });
    std::erase_if(s->compiles, [&](const auto& c) { return later.count(c.compileId) > 0; });
    std::erase_if(s->graphs, [&](const auto& g) { return later.count(g.compileId) > 0; });
    std::erase_if(s->guards, [&](const auto& g) { return later.count(g.compileId) > 0; });
    std::erase_if(s->recompiles, [&](const auto& r) { return later.count(r.compileId) > 0; });
    s->output.resize(s->output.size() / 2);
    return s;
}

/// Scrolls every scrollable view of \p details to the middle; returns their positions.
std::map<QPlainTextEdit*, std::pair<int, int>> scrollViews(views::BreakDetails& details) {
    std::map<QPlainTextEdit*, std::pair<int, int>> scrolled;
    for (QPlainTextEdit* view : details.findChildren<QPlainTextEdit*>()) {
        QScrollBar* h = view->horizontalScrollBar();
        QScrollBar* v = view->verticalScrollBar();
        if (h->maximum() == 0 && v->maximum() == 0) continue;
        h->setValue(h->maximum() / 2 + 1);
        v->setValue(v->maximum() / 2 + 1);
        scrolled[view] = {h->value(), v->value()};
    }
    return scrolled;
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
        QVERIFY2(recompileTip.startsWith("Recompiled scaled: 4 times, 5 cache entries\n"
                                         "Failing guards:\n"
                                         "  L['x']: 2 recompiles\n"),
                 qPrintable(recompileTip));
        QVERIFY2(recompileTip.contains("Latest:\n  4/1: entry 4/0 failed L['x']: expected "
                                       "torch.float32 [8, 128], actual torch.float32 [16, 128]"),
                 qPrintable(recompileTip));
        QVERIFY2(recompileTip.contains("  4/2: entry 4/1 failed L['scale']: expected 2.0, actual "
                                       "3.0 (and 1 other entries)"),
                 qPrintable(recompileTip));
        QVERIFY(recompileTip.contains("entry 4/2 failed L['flag']: expected True, actual False"));
        // The gutter's tooltip joins every marker of the line.
        QVERIFY(editor.toolTipAt(17).contains("Recompiled scaled"));
        QVERIFY(editor.toolTipAt(17).contains("Compiled frame scaled"));
        QVERIFY(editor.toolTipAt(7).isEmpty());
    }

    void aFunctionAtItsCacheLimitHasAShortTooltip() {
        // Issue 14, finding 5: 64 cache entries hold 2,016 recompile rows (each recompile names
        // every entry's failing guard); the tooltip groups the recompiles by failing guard,
        // lists the newest, one line each, and counts the rest, instead of a 2,000-line tooltip
        // built in quadratic time.
        QTemporaryDir dir;
        const QString trace =
            testing::scriptTrace(dir.path(), "limit.py",
                                 "import torch\n"
                                 "torch._dynamo.config.automatic_dynamic_shapes = False\n"
                                 "\n"
                                 "@torch.compile\n"
                                 "def f(x):\n"
                                 "    return x * 2\n"
                                 "\n"
                                 "for n in range(1, 71):\n"
                                 "    f(torch.ones(n))\n");
        views::SnapshotPtr snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(snapshot);
        QCOMPARE(snapshot->compiles.size(), size_t(64));
        QCOMPARE(snapshot->recompiles.size(), size_t(63 * 64 / 2));
        const views::LineMarkers markers = views::sourceMarkers(*snapshot);
        QVERIFY(markers.count(5));
        QString recompileTip, frameTip;
        for (const views::LineMarker& m : markers.at(5)) {
            if (m.kind == MarkerKind::Recompile) recompileTip = m.toolTip;
            if (m.kind == MarkerKind::Frame) frameTip = m.toolTip;
        }
        const QStringList lines = recompileTip.split('\n');
        QVERIFY2(lines.size() <= 15, qPrintable(recompileTip));
        QCOMPARE(lines.front(), QString("Recompiled f: 63 times, 64 cache entries"));
        // Finding 6: the calls past cache_size_limit are named here too, and the 63
        // recompiles, all on one guard, are one line.
        QCOMPARE(lines.at(1), QString("cache_size_limit (64) reached: 6 more calls ran eagerly"));
        QCOMPARE(lines.at(2), QString("Failing guards:"));
        QCOMPARE(lines.at(3), QString("  L['x']: 63 recompiles"));
        QCOMPARE(lines.at(4), QString("Latest:"));
        // The newest recompile is there, with the entry tried first and the others counted.
        QVERIFY2(recompileTip.contains("  0/63: entry 0/62 failed L['x']: expected "),
                 qPrintable(recompileTip));
        QVERIFY(recompileTip.contains("(and 62 other entries)"));
        QCOMPARE(lines.back(), QString("  … and 55 more earlier recompiles (see Guards & "
                                       "recompiles)"));
        const QStringList frameLines = frameTip.split('\n');
        QVERIFY2(frameLines.size() <= 10, qPrintable(frameTip));
        QVERIFY(frameLines.front().startsWith("Compiled frame f (line 5)"));
        QCOMPARE(frameLines.back(), QString("  … and 56 more compiles (see Compiles)"));
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
        // Graphs are named by graph id, as in every view and on the command line.
        auto graph = [&](const char* compile, int ops) {
            const trace::GraphRow* g = m_snapshot->graphsOf(compile).front();
            return QString("graph %1 · %2 · %3 op%4")
                .arg(g->id)
                .arg(compile)
                .arg(ops)
                .arg(ops == 1 ? "" : "s");
        };
        const std::vector<Expected> expected = {
            {8, "Graph break 1 of 3 · side_effect · graph_breaks.py:8:5", "builtin: print",
             graph("0/0", 2), graph("1/0", 2), "torch.sin(l_x_)", "l_a_.sum()"},
            {9, "Graph break 2 of 3 · data_dependent_branch · graph_breaks.py:9:8",
             "generic_jump TensorVariable()", graph("1/0", 2), graph("2/0", 2), "l_a_.sum()",
             "-l_a_"},
            {13, "Graph break 3 of 3 · item · graph_breaks.py:13:9", "Tensor.item", graph("2/0", 2),
             graph("3/0", 3), "b.mean()", "torch.cos(l_y_)"},
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
            if (b->text().startsWith(
                    QString("graph %1 · 2/0").arg(m_snapshot->graphsOf("2/0").front()->id)))
                resumed = b;
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

        // Issue 14, finding 9: a blank line (16, between the functions) or module code after
        // them (27) selects the line only, not the nearest frame above it.
        const QString before = selection.state().compileId;
        for (int line : {16, 27}) {
            QRect blank = editor.lineRect(line);
            QTest::mouseClick(editor.gutter(), Qt::LeftButton, {}, QPoint(20, blank.center().y()));
            QCOMPARE(selection.state().sourceLine, line);
            QCOMPARE(selection.state().compileId, before); // as before the click
        }
        selection.selectCompile("0/0");
        QTest::mouseClick(editor.gutter(), Qt::LeftButton, {},
                          QPoint(20, editor.lineRect(22).center().y()));
        QCOMPARE(selection.state().compileId, QString("0/0"));

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
        // F8 stays enabled so that it can say why it does not move.
        QSignalSpy messages(&panel, &views::SourcePanel::statusMessage);
        panel.nextBreakAction()->trigger();
        QCOMPARE(messages.takeFirst().at(0).toString(),
                 QString("Run 1 has no graph breaks: there is nothing to step through."));
        QCOMPARE(selection.state().breakOrder, 0);
        for (const views::LineMarker& m : panel.editor()->markersAt(9))
            QVERIFY(m.kind != MarkerKind::Break);
    }

    void aLiveRefreshKeepsWhatIsShown() {
        // The run while break 3's resume frame and `scaled` were not compiled yet, then all of it.
        std::set<int64_t> laterFrames;
        for (const trace::CompileRow& c : m_snapshot->compiles)
            if (c.compileId.starts_with("3/") || c.compileId.starts_with("4/"))
                laterFrames.insert(c.frameId);
        QCOMPARE(laterFrames.size(), size_t(2));
        auto first = earlier(*m_snapshot, laterFrames);
        auto grown = std::make_shared<views::RunSnapshot>(*m_snapshot);
        grown->run.status = trace::RunStatus::Running;
        views::TraceSession session;
        views::Selection selection;
        prepare(selection, first);
        views::SourcePanel panel(session, selection);
        panel.resize(600, 380);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        views::CodeEditor& editor = *panel.editor();
        views::BreakDetails& details = *panel.details();
        QVERIFY(editor.markersAt(17).empty());
        for (int i = 0; i < 4; ++i) // the walk ends at break 3 and says so
            panel.nextBreakAction()->trigger();
        QCOMPARE(details.resumedSummary(),
                 QString("no graph yet: the run is still going and no compiled code has resumed "
                         "after this break so far"));
        QCoreApplication::processEvents();
        auto scrolled = scrollViews(details);
        QVERIFY(!scrolled.empty());
        editor.verticalScrollBar()->setValue(0); // the user scrolls up, away from line 13
        QVERIFY(editor.lineRect(13).top() > editor.viewport()->height());
        QSignalSpy textSet(&editor, &QPlainTextEdit::textChanged);

        selection.setSnapshot(grown); // rows appended: the resume compile and `scaled`
        QCOMPARE(textSet.count(), 0);
        QCOMPARE(editor.verticalScrollBar()->value(), 0);
        QVERIFY(!editor.markersAt(17).empty()); // the new frame's markers are in the gutter
        QVERIFY(editor.toolTipAt(17).contains("Recompiled scaled"));
        QVERIFY(details.headerText().endsWith("(the last break: no more breaks after it)"));
        QCOMPARE(details.resumedSummary(),
                 QString("graph %1 · 3/0 · 3 ops").arg(m_snapshot->graphsOf("3/0").front()->id));
        // The ended side and the stack did not change: the same views at the same positions.
        for (auto [view, position] : scrolled) {
            QVERIFY(details.findChildren<QPlainTextEdit*>().contains(view));
            QCOMPARE(
                std::pair(view->horizontalScrollBar()->value(), view->verticalScrollBar()->value()),
                position);
        }

        // A fourth break appears: "3 of 4", the note is no longer true, the graphs stay.
        auto more = std::make_shared<views::RunSnapshot>(*grown);
        trace::GraphBreakRow fourth = more->graphBreaks.back();
        fourth.order = 4;
        fourth.line = 18;
        more->graphBreaks.push_back(fourth);
        auto views = details.findChildren<QPlainTextEdit*>();
        selection.setSnapshot(more);
        QCOMPARE(details.headerText(), QString("Graph break 3 of 4 · item · graph_breaks.py:13:9"));
        QCOMPARE(details.findChildren<QPlainTextEdit*>(), views);
        QCOMPARE(editor.verticalScrollBar()->value(), 0);
        QVERIFY(!editor.markersAt(18).empty());
        panel.nextBreakAction()->trigger();
        QCOMPARE(selection.state().breakOrder, 4);
    }

    void actionsSayTheirKeysAndWhyTheyDoNotMove() {
        views::TraceSession session;
        views::Selection selection;
        views::SourcePanel panel(session, selection);
        QAction* next = panel.nextBreakAction();
        QAction* previous = panel.previousBreakAction();
        QSignalSpy messages(&panel, &views::SourcePanel::statusMessage);
        // The Go menu adds the key to the text; tooltips and status tips name it.
        QCOMPARE(next->text(), QString("Next graph break"));
        QCOMPARE(next->toolTip(), QString("Next graph break (F8)"));
        QCOMPARE(previous->toolTip(), QString("Previous graph break (Shift+F8)"));
        const QString noRun("No run is selected: select a run to step through its graph breaks.");
        QCOMPARE(next->statusTip(), "Next graph break (F8). " + noRun);
        next->trigger();
        QCOMPARE(messages.takeFirst().at(0).toString(), noRun);

        selection.selectRun(1);
        previous->trigger();
        QCOMPARE(messages.takeFirst().at(0).toString(),
                 QString("Run 1 is still being read; its graph breaks show once it is loaded."));

        selection.setSnapshot(m_snapshot);
        QCOMPARE(previous->statusTip(),
                 QString("Previous graph break (Shift+F8): selects the break before the selected "
                         "one, in execution order (3 in this run)"));
        previous->trigger(); // from none: the last break
        QCOMPARE(selection.state().breakOrder, 3);
        QVERIFY(messages.isEmpty());
        next->trigger();
        QCOMPARE(messages.takeFirst().at(0).toString(),
                 QString("Graph break 3 of 3 is the last: no more breaks after it."));
    }

    void darkPaletteKeepsTheColoursReadable() {
        views::TraceSession session;
        views::Selection selection;
        prepare(selection);
        views::SourcePanel panel(session, selection);
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        selection.selectBreak(3);
        QCoreApplication::processEvents();
        panel.grab().save("/tmp/source-break3.png");
        QCOMPARE(qRound(views::contrastRatio(Qt::black, Qt::white)), 21);
        using T = views::PythonHighlighter::Token;
        const std::vector<T> tokens = {T::Keyword, T::Builtin,   T::String,    T::Comment,
                                       T::Number,  T::Decorator, T::Definition};
        auto readable = [&](const views::PythonHighlighter& h, const QColor& base) {
            for (T t : tokens) {
                double ratio = views::contrastRatio(h.format(t).foreground().color(), base);
                if (ratio < 3) {
                    qWarning() << "contrast" << ratio << h.format(t).foreground().color().name()
                               << "on" << base.name();
                    return false;
                }
            }
            return true;
        };
        auto* highlighter = panel.editor()->document()->findChild<views::PythonHighlighter*>();
        QVERIFY(!highlighter->usesDarkColours());
        QVERIFY(readable(*highlighter, panel.editor()->palette().color(QPalette::Base)));

        QPalette dark(QColor(0x45, 0x45, 0x45), QColor(0x35, 0x35, 0x35)); // derived roles
        for (auto [role, rgb] : {std::pair{QPalette::Window, 0x353535},
                                 {QPalette::Base, 0x2b2b2b},
                                 {QPalette::AlternateBase, 0x323232},
                                 {QPalette::Button, 0x353535},
                                 {QPalette::Text, 0xe0e0e0},
                                 {QPalette::WindowText, 0xe0e0e0},
                                 {QPalette::ButtonText, 0xe0e0e0},
                                 {QPalette::PlaceholderText, 0x9e9e9e}})
            dark.setColor(role, QColor(QRgb(rgb)));
        panel.setPalette(dark);
        const QColor base = panel.editor()->palette().color(QPalette::Base);
        QVERIFY(highlighter->usesDarkColours());
        QVERIFY(readable(*highlighter, base));
        for (T t : {T::Keyword, T::Comment, T::String}) // the brief's three, named in a failure
            QVERIFY2(views::contrastRatio(highlighter->format(t).foreground().color(), base) >= 3,
                     qPrintable(highlighter->format(t).foreground().color().name()));
        // The document was highlighted again: `def` on line 6 has the dark keyword colour.
        QCOMPARE(formatAt(*panel.editor()->document(), 6, 0).foreground(),
                 highlighter->format(T::Keyword).foreground());
        // The selected break's line keeps the light text readable.
        QCOMPARE(panel.editor()->extraSelections().size(), 1);
        QColor tint = panel.editor()->extraSelections().front().format.background().color();
        QVERIFY2(views::contrastRatio(tint, dark.color(QPalette::Text)) >= 4.5,
                 qPrintable(tint.name()));
        // The graph code below follows, both the views already shown and those made later.
        auto graphHighlighters = [&] {
            QList<views::PythonHighlighter*> all;
            for (QPlainTextEdit* view : panel.details()->findChildren<QPlainTextEdit*>())
                all += view->document()->findChildren<views::PythonHighlighter*>();
            return all;
        };
        QCOMPARE(graphHighlighters().size(), 2);
        for (views::PythonHighlighter* h : graphHighlighters())
            QVERIFY(h->usesDarkColours());
        QCoreApplication::processEvents();
        panel.grab().save("/tmp/source-break3-dark.png");
        panel.previousBreakAction()->trigger();
        QCOMPARE(panel.details()->shownBreak(), 2);
        for (views::PythonHighlighter* h : graphHighlighters())
            QVERIFY(h->usesDarkColours());
    }
};

QTEST_MAIN(SourcePanelTest)
#include "tst_source_panel.moc"
