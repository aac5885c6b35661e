// SPDX-License-Identifier: MIT
#include "source_panel.h"

#include "break_details.h"
#include "counted.h"
#include "eager_calls.h"
#include "imported_source.h"
#include "python_highlighter.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace kiln::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

bool inWorkload(const RunSnapshot& snapshot, const std::string& file) {
    if (file == snapshot.sourceFile) return true;
    return QFileInfo(qs(file)).fileName() == QFileInfo(qs(snapshot.sourceFile)).fileName();
}

/// Where a frame's compiled code starts in the source: a resume frame at the line it resumes.
int frameStartLine(const trace::FrameRow& f) {
    return f.kind == "resume" && f.resumeLine > 0 ? f.resumeLine : f.line;
}

QString compileLine(const trace::CompileRow& c) {
    QString ms = c.durationNs ? QString("%1 ms").arg(double(*c.durationNs) * 1e-6, 0, 'f', 2)
                              : QStringLiteral("compiling");
    QString status = c.finished() ? qs(c.status) : QStringLiteral("running");
    return QString("  %1 · %2 · %3 · %4").arg(qs(c.compileId), qs(c.reason), status, ms);
}

/// A tooltip lists at most this many compiles (or recompiles) of a frame and counts the rest: a
/// function at cache_size_limit has hundreds, and a tooltip taller than the screen helps nobody.
constexpr int kTooltipItems = 8;

/// "… and N more <what> (see <where>)" when \p total exceeds what was listed.
QString moreLine(qsizetype total, qsizetype listed, const QString& what, const QString& where) {
    return total > listed
               ? QString("  … and %1 more %2 (see %3)").arg(total - listed).arg(what, where)
               : QString();
}

LineMarker frameMarker(const RunSnapshot& snapshot, const trace::FrameRow& f,
                       const std::vector<const trace::CompileRow*>& compiles) {
    QStringList lines;
    const trace::FrameRow* parent = snapshot.frame(f.parentFrameId);
    if (f.kind == "resume")
        lines << QString("Resume frame %1: %2 continues at line %3")
                     .arg(qs(f.function),
                          parent ? qs(parent->function) : QStringLiteral("its caller"))
                     .arg(f.resumeLine);
    else
        lines << QString("Compiled frame %1 (line %2)").arg(qs(f.function)).arg(f.line);
    const qsizetype listed = std::min<qsizetype>(qsizetype(compiles.size()), kTooltipItems);
    for (qsizetype i = 0; i < listed; ++i)
        lines << compileLine(*compiles[size_t(i)]);
    if (QString more = moreLine(qsizetype(compiles.size()), listed, "compiles", "Compiles");
        !more.isEmpty())
        lines << more;
    return {MarkerKind::Frame, lines.join('\n'), 0};
}

/// Every compile's recompile rows (one per cache entry that failed), by compile id.
using RecompilesByCompile =
    std::unordered_map<std::string, std::vector<const trace::RecompileRow*>>;

RecompilesByCompile recompilesByCompile(const RunSnapshot& snapshot) {
    RecompilesByCompile out;
    for (const trace::RecompileRow& r : snapshot.recompiles)
        out[r.compileId].push_back(&r);
    return out;
}

/// One line per recompile: the entry tried first (the newest) and how many others failed too.
QString recompileLine(const trace::CompileRow& c,
                      const std::vector<const trace::RecompileRow*>& rows) {
    if (rows.empty()) return QString("  %1").arg(qs(c.compileId));
    const trace::RecompileRow& r = *rows.front();
    QString line = QString("  %1: entry %2 failed %3: expected %4, actual %5")
                       .arg(qs(c.compileId), qs(r.failedCompileId), qs(r.guardSource),
                            qs(r.expected), qs(r.actual));
    if (rows.size() > 1) line += QString(" (and %1 other entries)").arg(rows.size() - 1);
    return line;
}

/// Null when none of the frame's compiles is a recompile. The newest recompiles are listed
/// (the ones the user is likely after), the rest counted.
std::optional<LineMarker> recompileMarker(const trace::FrameRow& f,
                                          const std::vector<const trace::CompileRow*>& compiles,
                                          const RecompilesByCompile& byCompile,
                                          const EagerCalls* eager) {
    std::vector<const trace::CompileRow*> recompiled;
    for (const trace::CompileRow* c : compiles)
        if (c->reason == "recompile") recompiled.push_back(c);
    if (recompiled.empty()) return std::nullopt;
    static const std::vector<const trace::RecompileRow*> none;
    QStringList lines{QString("Recompiled %1: %2 times, %3 cache entries")
                          .arg(qs(f.function))
                          .arg(recompiled.size())
                          .arg(compiles.size())};
    if (eager)
        lines << QString("cache_size_limit (%1) reached: %2 more %3 ran eagerly")
                     .arg(eager->limit)
                     .arg(eager->count)
                     .arg(eager->count == 1 ? "call" : "calls");
    // Why, grouped: the guard that failed in the entry each recompile tried first.
    std::map<std::string, int> byGuard;
    for (const trace::CompileRow* c : recompiled)
        if (auto it = byCompile.find(c->compileId); it != byCompile.end() && !it->second.empty())
            ++byGuard[it->second.front()->guardSource];
    std::vector<std::pair<std::string, int>> groups(byGuard.begin(), byGuard.end());
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    lines << "Failing guards:";
    for (size_t i = 0; i < groups.size() && i < size_t(kTooltipItems); ++i)
        lines
            << QString("  %1: %2").arg(qs(groups[i].first), counted(groups[i].second, "recompile"));
    if (groups.size() > size_t(kTooltipItems))
        lines << QString("  ... and %1 more guards").arg(groups.size() - size_t(kTooltipItems));
    lines << "Latest:";
    const qsizetype listed = std::min<qsizetype>(qsizetype(recompiled.size()), kTooltipItems);
    for (size_t i = recompiled.size() - size_t(listed); i < recompiled.size(); ++i) {
        auto it = byCompile.find(recompiled[i]->compileId);
        lines << recompileLine(*recompiled[i], it == byCompile.end() ? none : it->second);
    }
    if (QString more = moreLine(qsizetype(recompiled.size()), listed, "earlier recompiles",
                                "Guards & recompiles");
        !more.isEmpty())
        lines << more;
    return LineMarker{MarkerKind::Recompile, lines.join('\n'), 0};
}

LineMarker breakMarker(const trace::GraphBreakRow& b) {
    QString tip = QString("Graph break #%1 [%2]: %3 — %4")
                      .arg(b.order)
                      .arg(qs(b.compileId), qs(b.reasonKind), qs(b.reason));
    return {MarkerKind::Break, tip, b.order};
}

} // namespace

LineMarkers sourceMarkers(const RunSnapshot& snapshot) {
    LineMarkers markers;
    // Linear in the rows: compiles and recompile rows are grouped once, not searched per frame
    // (a function at cache_size_limit 300 has 45,000 recompile rows).
    std::unordered_map<int64_t, std::vector<const trace::CompileRow*>> compilesByFrame;
    for (const trace::CompileRow& c : snapshot.compiles)
        compilesByFrame[c.frameId].push_back(&c);
    const RecompilesByCompile byCompile = recompilesByCompile(snapshot);
    const auto eagerByFrame = eagerCallsByFrame(snapshot);
    for (const trace::FrameRow& f : snapshot.frames) {
        if (!inWorkload(snapshot, f.file) || frameStartLine(f) <= 0) continue;
        auto& line = markers[frameStartLine(f)];
        const auto& compiles = compilesByFrame[f.frameId];
        line.push_back(frameMarker(snapshot, f, compiles));
        auto eager = eagerByFrame.find(f.frameId);
        if (auto recompiled = recompileMarker(
                f, compiles, byCompile, eager == eagerByFrame.end() ? nullptr : &eager->second))
            line.push_back(*recompiled);
    }
    for (const trace::GraphBreakRow& b : snapshot.graphBreaks) {
        if (inWorkload(snapshot, b.file) && b.line > 0) markers[b.line].push_back(breakMarker(b));
    }
    if (RunEndNotice end = runEndNotice(snapshot);
        end.kind == RunEndNotice::Kind::Error && end.line > 0)
        markers[end.line].push_back({MarkerKind::Error, end.toolTip, 0});
    for (auto& [line, list] : markers) {
        std::stable_sort(list.begin(), list.end(),
                         [](const LineMarker& a, const LineMarker& b) { return a.kind < b.kind; });
    }
    return markers;
}

SourcePanel::SourcePanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel("source", "Source", session, selection, parent)
    , m_editor(new CodeEditor)
    , m_highlighter(new PythonHighlighter(m_editor))
    , m_details(new BreakDetails)
    , m_splitter(new QSplitter(Qt::Vertical))
    , m_banner(new QLabel)
    , m_endBanner(new QLabel)
    , m_summary(new QLabel)
    , m_next(new QAction("Next graph break", this))
    , m_previous(new QAction("Previous graph break", this))
    , m_locate(new QAction("Locate Source File…", this)) {
    m_next->setShortcut(QKeySequence(Qt::Key_F8));
    m_previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    addAction(m_next);
    addAction(m_previous);
    connect(m_next, &QAction::triggered, this, [this] { stepBreak(+1); });
    connect(m_previous, &QAction::triggered, this, [this] { stepBreak(-1); });
    m_locate->setToolTip("Open your copy of the file this imported PyTorch run compiled");
    m_locate->setVisible(false);
    connect(m_locate, &QAction::triggered, this, [this] {
        if (!m_shown) return;
        QString path = QFileDialog::getOpenFileName(
            this, "Locate " + QFileInfo(qs(m_shown->sourceFile)).fileName(),
            QFileInfo(m_shown->sourceReadFrom).absolutePath(), "Python (*.py);;All files (*)");
        if (!path.isEmpty()) locateSource(path);
    });

    m_banner->setText("⚠ The file changed since this run; markers may be off.");
    m_banner->setStyleSheet("background: #fff3cd; color: #664d03; padding: 4px 8px;");
    m_banner->hide();
    m_endBanner->setWordWrap(true);
    m_endBanner->setTextFormat(Qt::PlainText);
    m_endBanner->installEventFilter(this);
    m_endBanner->hide();
    m_details->hide();
    m_splitter->addWidget(m_editor);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(makeToolbar());
    layout->addWidget(m_endBanner);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);

    connect(m_editor, &CodeEditor::gutterClicked, this, &SourcePanel::selectAtGutter);
    connect(m_editor, &CodeEditor::lineClicked, this,
            [this](int line) { this->selection().selectSourceLine(line); });
    connect(m_details, &BreakDetails::graphClicked, this,
            [this](qint64 graphId) { this->selection().selectGraph(graphId); });
    catchUp();
}

QWidget* SourcePanel::makeToolbar() {
    auto* bar = new QWidget;
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(6, 2, 6, 2);
    for (QAction* action : {m_previous, m_next, m_locate}) {
        auto* button = new QToolButton;
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        layout->addWidget(button);
        // A button does not follow its action's visibility: only imported runs show Locate.
        if (action == m_locate) {
            button->setVisible(false);
            connect(action, &QAction::changed, button,
                    [button, action] { button->setVisible(action->isVisible()); });
        }
    }
    layout->addSpacing(8);
    layout->addWidget(m_summary, 1);
    return bar;
}

void SourcePanel::showSnapshot(const SnapshotPtr& snapshot) {
    m_shown = snapshot;
    updateActionTips();
    m_banner->setVisible(snapshot && snapshot->sourceChanged);
    m_end = snapshot ? runEndNotice(*snapshot) : RunEndNotice{};
    if (!snapshot) {
        showRunEnd();
        m_locate->setVisible(false);
        m_editor->setSourceText(m_unrunText);
        m_editor->setMarkers({});
        m_editor->setPlaceholderText("No run is selected.");
        m_details->hide();
        updateSummary();
        return;
    }
    bool imported = snapshot->run.mode == "imported";
    m_locate->setVisible(imported);
    m_editor->setPlaceholderText(
        imported ? missingImportedSourceText(*snapshot)
                 : QString("The workload %1 could not be read.").arg(qs(snapshot->sourceFile)));
    // A live run's refresh keeps the text (the editor compares it): setting it again would lose
    // the scroll position; the markers repaint the gutter only.
    m_editor->setSourceText(snapshot->source);
    m_editor->setMarkers(sourceMarkers(*snapshot));
    updateSummary();
    showSelection(selection().state());
    showRunEnd();
}

void SourcePanel::showRunEnd() {
    using Kind = RunEndNotice::Kind;
    m_endBanner->setVisible(m_end.kind != Kind::None);
    m_endBanner->setText(m_end.text);
    // Fixed-width, so that the traceback's carets point at their columns; escaped, since
    // `<module>` must not be taken for a tag.
    m_endBanner->setToolTip(
        m_end.toolTip.isEmpty() ? QString() : "<pre>" + m_end.toolTip.toHtmlEscaped() + "</pre>");
    m_endBanner->setCursor(m_end.line > 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    m_endBanner->setStyleSheet(m_end.kind == Kind::Error
                                   ? "background: #f8d7da; color: #842029; padding: 4px 8px;"
                                   : "background: #e2e3e5; color: #2b2f32; padding: 4px 8px;");
    int errorLine = m_end.kind == Kind::Error ? m_end.line : 0;
    const SelectionState& state = selection().state();
    // A debugger shows where the program stopped, unless the user already chose what to see.
    if (m_editor->setErrorLine(errorLine) && state.sourceLine == 0 && state.breakOrder == 0)
        m_editor->revealLine(errorLine);
}

bool SourcePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_endBanner && event->type() == QEvent::MouseButtonRelease &&
        static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton && m_end.line > 0) {
        selection().selectSourceLine(m_end.line);
        // The line may already be the selected one, scrolled out of view since.
        m_editor->revealLine(m_end.line);
        return true;
    }
    return Panel::eventFilter(watched, event);
}

QString SourcePanel::summaryText() const {
    return m_summary->text();
}

void SourcePanel::locateSource(const QString& path) {
    if (!m_shown || m_shown->sourceFile.empty()) return;
    setLocatedSource(m_shown->sourceFile, path);
    session().requestSnapshot(m_shown->run.id);
}

void SourcePanel::setUnrunWorkload(const QString& path, const QString& text) {
    m_unrunPath = path;
    m_unrunText = path.isEmpty() ? QString() : text;
    if (!m_shown) showSnapshot(nullptr);
}

void SourcePanel::updateSummary() {
    if (!m_shown) {
        if (m_unrunPath.isEmpty())
            m_summary->clear();
        else
            m_summary->setText(QString("%1 · not run yet: Run (F5) records its first run")
                                   .arg(QFileInfo(m_unrunPath).fileName()));
        return;
    }
    const RunSnapshot& s = *m_shown;
    int recompiles =
        static_cast<int>(std::count_if(s.compiles.begin(), s.compiles.end(),
                                       [](const auto& c) { return c.reason == "recompile"; }));
    m_summary->setText(QString("%1 · %2 graph break%3 · %4 compiled frame%5 · %6 recompile%7")
                           .arg(QFileInfo(qs(s.sourceFile)).fileName())
                           .arg(s.graphBreaks.size())
                           .arg(s.graphBreaks.size() == 1 ? "" : "s")
                           .arg(s.frames.size())
                           .arg(s.frames.size() == 1 ? "" : "s")
                           .arg(recompiles)
                           .arg(recompiles == 1 ? "" : "s"));
}

QString SourcePanel::whyNoStep() const {
    if (!m_shown) {
        return selection().state().runId > 0
                   ? QString("Run %1 is still being read; its graph breaks show once it is loaded.")
                         .arg(selection().state().runId)
                   : QStringLiteral("No run is selected: select a run to step through its graph "
                                    "breaks.");
    }
    if (!m_shown->graphBreaks.empty()) return {};
    return m_shown->running()
               ? QString("Run %1 has no graph breaks so far (it is still running).")
                     .arg(m_shown->run.id)
               : QString("Run %1 has no graph breaks: there is nothing to step through.")
                     .arg(m_shown->run.id);
}

void SourcePanel::updateActionTips() {
    // The Go menu shows the text and the shortcut; tooltips and status tips repeat the key.
    auto tip = [](QAction* action, const QString& name, const QString& what) {
        QString withKey =
            QString("%1 (%2)").arg(name, action->shortcut().toString(QKeySequence::NativeText));
        action->setText(name);
        action->setToolTip(withKey);
        action->setStatusTip(withKey + what);
    };
    QString why = whyNoStep();
    size_t count = m_shown ? m_shown->graphBreaks.size() : 0;
    QString order = QString(" one, in execution order (%1 in this run)").arg(count);
    tip(m_next, "Next graph break",
        why.isEmpty() ? ": selects the break after the selected" + order : ". " + why);
    tip(m_previous, "Previous graph break",
        why.isEmpty() ? ": selects the break before the selected" + order : ". " + why);
}

void SourcePanel::showSelection(const SelectionState& state) {
    // Another run was selected and is still being read: the old run's code and breaks would
    // mislead, and stepping would select its break numbers in the new run.
    if (m_shown && m_shown->run.id != state.runId) showSnapshot(nullptr);
    if (!m_shown) return;
    const trace::GraphBreakRow* brk =
        state.breakOrder > 0 ? m_shown->graphBreak(state.breakOrder) : nullptr;
    m_editor->highlightLines(state.sourceLine, brk ? brk->line : 0);
    showBreakOf(state);
}

void SourcePanel::showBreakOf(const SelectionState& state) {
    const trace::GraphBreakRow* brk =
        state.breakOrder > 0 ? m_shown->graphBreak(state.breakOrder) : nullptr;
    if (brk) {
        m_details->showBreak(*m_shown, *brk);
        m_details->markSelectedGraph(state.graphId);
        if (m_details->isHidden()) {
            // The graphs need a little more room than the code (the break's header sits above
            // them): at 1600x1000 the code keeps some 15 lines and each graph 5.
            int height = m_splitter->height();
            m_splitter->setSizes({height * 9 / 20, height * 11 / 20});
            m_details->show();
        }
        return;
    }
    // Selecting one of the shown break's graphs keeps the break in view.
    if (!m_details->isHidden() && state.graphId > 0 && m_details->showsGraph(state.graphId)) {
        m_details->markSelectedGraph(state.graphId);
        return;
    }
    m_details->setNote({}); // said of a walk that the user has left
    m_details->hide();
}

void SourcePanel::stepBreak(int direction) {
    if (QString why = whyNoStep(); !why.isEmpty()) {
        Q_EMIT statusMessage(why);
        return;
    }
    std::vector<int> orders;
    for (const trace::GraphBreakRow& b : m_shown->graphBreaks)
        orders.push_back(b.order);
    std::sort(orders.begin(), orders.end());
    int current = m_details->isHidden() ? 0 : m_details->shownBreak();
    int target = 0;
    if (current == 0) {
        target = direction > 0 ? orders.front() : orders.back();
    } else if (direction > 0) {
        auto it = std::upper_bound(orders.begin(), orders.end(), current);
        if (it != orders.end()) target = *it;
    } else {
        auto it = std::lower_bound(orders.begin(), orders.end(), current);
        if (it != orders.begin()) target = *(it - 1);
    }
    if (target == 0) {
        // No wrap-around: stepping past the end would hide that the walk is over.
        if (selection().state().breakOrder != current) selection().selectBreak(current);
        m_details->setNote(direction > 0 ? "the last break: no more breaks after it"
                                         : "the first break: no breaks before it");
        Q_EMIT statusMessage(
            QString("Graph break %1 of %2 is the %3: no more breaks %4 it.")
                .arg(current)
                .arg(orders.size())
                .arg(direction > 0 ? "last" : "first", direction > 0 ? "after" : "before"));
        return;
    }
    selection().selectBreak(target);
}

void SourcePanel::selectAtGutter(int line) {
    std::vector<int> orders;
    for (const LineMarker& m : m_editor->markersAt(line))
        if (m.kind == MarkerKind::Break) orders.push_back(m.breakOrder);
    if (orders.empty()) {
        selection().selectSourceLine(line);
        return;
    }
    // Several breaks on one line (a loop): each click moves to the next of them.
    auto selected = std::find(orders.begin(), orders.end(), selection().state().breakOrder);
    bool cycle = selected != orders.end() && selected + 1 != orders.end();
    selection().selectBreak(cycle ? *(selected + 1) : orders.front());
}

} // namespace kiln::views
