// SPDX-License-Identifier: MIT
#include "break_details.h"

#include "graph_name.h"
#include "python_highlighter.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>
#include <optional>

namespace kiln::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString compileCaption(const RunSnapshot& snapshot, const trace::CompileRow& c) {
    const trace::FrameRow* f = snapshot.frame(c.frameId);
    QString text = (f ? qs(f->function) + " · " : QString()) + "compile " + qs(c.compileId);
    text += " · " + (c.finished() ? qs(c.status) : QStringLiteral("compiling"));
    if (c.durationNs) text += QString(" · %1 ms").arg(double(*c.durationNs) * 1e-6, 0, 'f', 2);
    return text;
}

/// "graph 6 · 0/0 · 2 ops": named by graph id, as everywhere (graph_name.h).
QString graphTitle(const trace::GraphRow& g) {
    return graphNameIn(g.id, g.compileId) +
           QString(" · %1 op%2").arg(g.opCount).arg(g.opCount == 1 ? "" : "s");
}

QPlainTextEdit* codeView(const QString& text) {
    auto* view = new QPlainTextEdit(text);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new PythonHighlighter(view);
    return view;
}

/// The frame that has no parent above \p frameId: the user function a resume frame belongs to.
int64_t rootFrame(const RunSnapshot& snapshot, int64_t frameId) {
    for (int depth = 0; depth < 64; ++depth) {
        const trace::FrameRow* f = snapshot.frame(frameId);
        if (!f || f->parentFrameId < 0) break;
        frameId = f->parentFrameId;
    }
    return frameId;
}

} // namespace

namespace {

QString endedWhy(const trace::GraphBreakRow& brk, const trace::CompileRow* broken) {
    if (!broken)
        return QString("no graph: compile %1 is not in the trace (yet)").arg(qs(brk.compileId));
    return QString("no graph: compile %1 captured no ops before the break (status %2)")
        .arg(qs(brk.compileId), qs(broken->status));
}

QString resumedWhy(const ResumeTarget& resume, bool running) {
    // A live run may still compile the resume frame: "ran eagerly" is only known at its end.
    if (running && !resume.compile)
        return "no graph yet: the run is still going and no compiled code has resumed after "
               "this break so far";
    if (!resume.frame)
        return "no graph: no resume frame continues at this line; the rest of the function ran "
               "eagerly";
    if (!resume.compile)
        return QString("no graph: the resume frame %1 was not compiled; it ran eagerly")
            .arg(qs(resume.frame->function));
    return QString("no graph: compile %1 captured no ops (status %2); the frame ran eagerly")
        .arg(qs(resume.compile->compileId), qs(resume.compile->status));
}

} // namespace

ResumeTarget resumeAfter(const RunSnapshot& snapshot, const trace::GraphBreakRow& brk) {
    ResumeTarget target;
    const trace::CompileRow* broken = snapshot.compile(brk.compileId);
    if (!broken) return target;
    int64_t root = rootFrame(snapshot, broken->frameId);
    for (const trace::FrameRow& f : snapshot.frames) {
        if (f.kind == "resume" && f.resumeLine == brk.line && f.parentFrameId >= 0 &&
            rootFrame(snapshot, f.parentFrameId) == root) {
            target.frame = &f;
            break;
        }
    }
    if (!target.frame) return target;
    // A resume frame can have several cache entries; the one that ran after this break is the
    // first compiled after the break's own compile.
    auto compiles = snapshot.compilesOf(target.frame->frameId);
    for (const trace::CompileRow* c : compiles) {
        if (c->startNs >= broken->startNs) {
            target.compile = c;
            break;
        }
    }
    if (!target.compile && !compiles.empty()) target.compile = compiles.front();
    return target;
}

namespace {

/// What one side shows, as plain values: a refresh with equal content keeps the side's widgets
/// and with them the scroll positions of its code views.
struct SideContent {
    struct Graph {
        qint64 id = 0;
        QString compileId;
        QString title;
        QString code;
        bool operator==(const Graph&) const = default;
    };
    QString caption; ///< the compile: frame, id, status, time; empty without a compile
    std::vector<Graph> graphs;
    QString why; ///< why there is no graph; shown when graphs is empty
    bool operator==(const SideContent&) const = default;
};

SideContent sideContent(const RunSnapshot& snapshot, const trace::CompileRow* compile,
                        const QString& why) {
    SideContent content;
    content.why = why;
    if (!compile) return content;
    content.caption = compileCaption(snapshot, *compile);
    auto graphs = snapshot.graphsOf(compile->compileId);
    for (const trace::GraphRow* g : graphs)
        content.graphs.push_back(
            {g->id, qs(g->compileId), graphTitle(*g), qs(g->readableCode).trimmed()});
    return content;
}

} // namespace

/// One side of the break: a title, what compile it is, and each of its graphs with a header
/// that selects the graph.
class GraphSide final : public QFrame {
public:
    GraphSide(const QString& title, std::function<void(qint64)> onGraphClicked)
        : m_onGraphClicked(std::move(onGraphClicked)) {
        setFrameShape(QFrame::StyledPanel);
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(6, 6, 6, 6);
        auto* heading = new QLabel("<b>" + title + "</b>");
        m_caption = new QLabel;
        m_caption->setWordWrap(true);
        m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_graphs = new QVBoxLayout;
        m_graphs->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(heading);
        layout->addWidget(m_caption);
        layout->addLayout(m_graphs, 1);
    }

    /// Shows \p content; the graphs' widgets are rebuilt only when the graphs (or why there
    /// is none) changed: a compile that finished changes the caption only.
    void show(const SideContent& content) {
        m_caption->setText(content.caption);
        m_caption->setVisible(!content.caption.isEmpty());
        bool same = m_content && m_content->graphs == content.graphs &&
                    (!content.graphs.empty() || m_content->why == content.why);
        m_content = content;
        if (same) return;
        clear();
        if (content.graphs.empty()) {
            auto* none = new QLabel("<i>" + content.why.toHtmlEscaped() + "</i>");
            none->setWordWrap(true);
            none->setAlignment(Qt::AlignTop | Qt::AlignLeft);
            m_graphs->addWidget(none, 1);
            return;
        }
        for (const SideContent::Graph& g : content.graphs)
            addGraph(g);
    }

    void markSelected(qint64 graphId) {
        for (QPushButton* header : m_headers)
            header->setChecked(header->property("graphId").toLongLong() == graphId);
    }
    bool shows(qint64 graphId) const {
        return m_content && std::any_of(m_content->graphs.begin(), m_content->graphs.end(),
                                        [&](const auto& g) { return g.id == graphId; });
    }
    QString code() const {
        QStringList codes;
        for (const SideContent::Graph& g : graphs())
            codes << g.code;
        return codes.join("\n\n");
    }
    QString summary() const {
        if (m_content && m_content->graphs.empty()) return m_content->why;
        QStringList titles;
        for (const SideContent::Graph& g : graphs())
            titles << g.title;
        return titles.join('\n');
    }

private:
    const std::vector<SideContent::Graph>& graphs() const {
        static const std::vector<SideContent::Graph> none;
        return m_content ? m_content->graphs : none;
    }

    void clear() {
        while (QLayoutItem* item = m_graphs->takeAt(0)) {
            delete item->widget();
            delete item;
        }
        m_headers.clear();
    }

    void addGraph(const SideContent::Graph& g) {
        auto* header = new QPushButton(g.title);
        header->setObjectName("graphHeader");
        header->setProperty("graphId", g.id);
        header->setCheckable(true);
        header->setFlat(true);
        header->setCursor(Qt::PointingHandCursor);
        // The selected graph in the theme's selection colours (a plain checked button is a light
        // grey slab with dark text under a dark theme).
        header->setStyleSheet("QPushButton { text-align: left; font-weight: bold; padding: 2px 4px;"
                              " border: none; }"
                              "QPushButton:checked { background: palette(highlight);"
                              " color: palette(highlighted-text); }");
        header->setToolTip(QString("Select graph %1 (compile %2)").arg(g.id).arg(g.compileId));
        qint64 id = g.id;
        connect(header, &QPushButton::clicked, this, [this, id] { m_onGraphClicked(id); });
        m_graphs->addWidget(header);
        m_graphs->addWidget(codeView(g.code), 1);
        m_headers.push_back(header);
    }

    std::function<void(qint64)> m_onGraphClicked;
    QLabel* m_caption;
    QVBoxLayout* m_graphs;
    std::vector<QPushButton*> m_headers;
    std::optional<SideContent> m_content;
};

BreakDetails::BreakDetails(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel)
    , m_reason(new QLabel)
    , m_stack(new QPlainTextEdit) {
    auto clicked = [this](qint64 graphId) { Q_EMIT graphClicked(graphId); };
    m_ended = new GraphSide("The graph that ended before the break", clicked);
    m_resumed = new GraphSide("The graph that resumed after it", clicked);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->setReadOnly(true);
    m_stack->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_stack->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* sides = new QSplitter(Qt::Horizontal);
    sides->addWidget(m_ended);
    sides->addWidget(m_resumed);
    sides->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_reason);
    layout->addWidget(m_stack);
    layout->addWidget(sides, 1);
}

void BreakDetails::showBreak(const RunSnapshot& snapshot, const trace::GraphBreakRow& brk) {
    QString header = QString("Graph break %1 of %2 · %3 · %4:%5:%6")
                         .arg(brk.order)
                         .arg(snapshot.graphBreaks.size())
                         .arg(qs(brk.reasonKind), QFileInfo(qs(brk.file)).fileName())
                         .arg(brk.line)
                         .arg(brk.column);
    // A live run's refresh of the same break keeps the note; another break, or more breaks in
    // the run, can make "the last break" untrue.
    if (header != m_headerText) {
        m_order = brk.order;
        m_headerText = header;
        m_note.clear();
        updateHeader();
    }
    if (m_reason->text() != qs(brk.reason)) m_reason->setText(qs(brk.reason));
    // Setting the same text again would scroll the stack back to its top.
    if (QString stack = qs(brk.userStack).trimmed(); stack != m_stack->toPlainText()) {
        m_stack->setPlainText(stack);
        fitStackHeight();
    }
    const trace::CompileRow* broken = snapshot.compile(brk.compileId);
    m_ended->show(sideContent(snapshot, broken, endedWhy(brk, broken)));
    ResumeTarget resume = resumeAfter(snapshot, brk);
    m_resumed->show(sideContent(snapshot, resume.compile, resumedWhy(resume, snapshot.running())));
}

void BreakDetails::fitStackHeight() {
    // As tall as the stack (up to 6 lines): the graphs below need the room more.
    int lines = std::clamp(m_stack->document()->blockCount(), 1, 6);
    int margins = 2 * (m_stack->frameWidth() + int(m_stack->document()->documentMargin()));
    m_stack->setFixedHeight(lines * m_stack->fontMetrics().lineSpacing() + margins + 2);
}

void BreakDetails::setNote(const QString& note) {
    m_note = note;
    updateHeader();
}

void BreakDetails::updateHeader() {
    QString html = "<b>" + m_headerText.toHtmlEscaped() + "</b>";
    if (!m_note.isEmpty()) html += " &nbsp;<i>(" + m_note.toHtmlEscaped() + ")</i>";
    m_header->setText(html);
}

void BreakDetails::markSelectedGraph(qint64 graphId) {
    m_ended->markSelected(graphId);
    m_resumed->markSelected(graphId);
}

bool BreakDetails::showsGraph(qint64 graphId) const {
    return m_ended->shows(graphId) || m_resumed->shows(graphId);
}

QString BreakDetails::headerText() const {
    return m_note.isEmpty() ? m_headerText : m_headerText + " (" + m_note + ")";
}

QString BreakDetails::reasonText() const {
    return m_reason->text();
}

QString BreakDetails::userStackText() const {
    return m_stack->toPlainText();
}

QString BreakDetails::endedCode() const {
    return m_ended->code();
}

QString BreakDetails::resumedCode() const {
    return m_resumed->code();
}

QString BreakDetails::endedSummary() const {
    return m_ended->summary();
}

QString BreakDetails::resumedSummary() const {
    return m_resumed->summary();
}

} // namespace kiln::views
