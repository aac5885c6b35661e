// SPDX-License-Identifier: MIT
#include "selection.h"

namespace kiln::views {

Selection::Selection(QObject* parent)
    : QObject(parent) {}

void Selection::setSnapshot(SnapshotPtr snapshot) {
    // The same snapshot again changes nothing; re-adopting it costs every panel a redraw.
    if (!snapshot || snapshot->run.id != m_state.runId || snapshot == m_snapshot) return;
    m_snapshot = std::move(snapshot);
    SelectionState resolved = m_state;
    resolveParents(resolved);
    Q_EMIT snapshotChanged(m_snapshot);
    if (resolved != m_state) apply(resolved);
}

void Selection::selectRun(qint64 runId) {
    if (runId == m_state.runId) return;
    // The panels drop the previous run's data first; the new run's snapshot follows when read
    // (or at once, from the selectionChanged handlers, when it is already held).
    if (m_snapshot) {
        m_snapshot.reset();
        Q_EMIT snapshotChanged(m_snapshot);
    }
    SelectionState next;
    next.runId = runId;
    apply(next);
}

void Selection::selectFrame(qint64 frameId) {
    SelectionState next;
    next.runId = m_state.runId;
    next.frameId = frameId;
    if (m_snapshot) {
        if (const trace::FrameRow* f = m_snapshot->frame(frameId)) next.sourceLine = f->line;
    }
    apply(next);
}

void Selection::selectCompile(const QString& compileId) {
    selectWithParents([&](SelectionState& s) { s.compileId = compileId; });
}

void Selection::selectGraph(qint64 graphId) {
    selectWithParents([&](SelectionState& s) { s.graphId = graphId; });
}

void Selection::selectKernel(qint64 kernelId) {
    selectWithParents([&](SelectionState& s) { s.kernelId = kernelId; });
}

void Selection::selectBreak(int order) {
    selectWithParents([&](SelectionState& s) { s.breakOrder = order; });
}

void Selection::selectWithParents(const std::function<void(SelectionState&)>& pick) {
    SelectionState next;
    next.runId = m_state.runId;
    pick(next);
    resolveParents(next);
    apply(next);
}

namespace {

/// Whether a source line has only whitespace (or a comment) on it.
bool isBlank(const QString& text) {
    const QString trimmed = text.trimmed();
    return trimmed.isEmpty() || trimmed.startsWith(u'#');
}

int indentOf(const QString& text) {
    int n = 0;
    while (n < text.size() && (text[n] == u' ' || text[n] == u'\t'))
        ++n;
    return n;
}

/// Whether 1-based \p line lies in the body of the function whose `def` is on \p defLine: the
/// lines after it that are blank or indented deeper, up to the first that is not. Without the
/// source (or a module frame, line 0) every line counts.
bool inFunction(const QStringList& lines, int defLine, int line) {
    if (lines.isEmpty() || defLine <= 0 || defLine > lines.size()) return true;
    // Decorators sit above the def: the body is measured from the def itself.
    int def = defLine;
    while (def <= lines.size() && lines[def - 1].trimmed().startsWith(u'@'))
        ++def;
    if (line < defLine) return false;
    const int indent = indentOf(lines[def - 1]);
    for (int l = def + 1; l <= line && l <= lines.size(); ++l)
        if (!isBlank(lines[l - 1]) && indentOf(lines[l - 1]) <= indent) return false;
    return true;
}

} // namespace

void Selection::selectSourceLine(int line) {
    SelectionState next = m_state;
    next.sourceLine = line;
    next.breakOrder = 0;
    const QStringList lines = m_snapshot ? m_snapshot->source.split(u'\n') : QStringList();
    // A blank line or a comment belongs to no code: it selects nothing but itself.
    const bool blank = line > 0 && line <= lines.size() && isBlank(lines[line - 1]);
    if (m_snapshot && !blank) {
        // The innermost frame whose code starts at or above the line and whose function holds
        // it; its latest compile.
        const trace::FrameRow* best = nullptr;
        for (const trace::FrameRow& f : m_snapshot->frames) {
            int start = f.kind == "resume" && f.resumeLine > 0 ? f.resumeLine : f.line;
            if (start <= line && inFunction(lines, f.line, line) &&
                (!best || start > (best->kind == "resume" && best->resumeLine > 0 ? best->resumeLine
                                                                                  : best->line)))
                best = &f;
        }
        if (best) {
            auto compiles = m_snapshot->compilesOf(best->frameId);
            // Stay on the selected cache entry when the line is in its frame (a guard's line
            // clicked in the guards of an older entry); otherwise the frame's latest entry.
            const bool keepEntry = best->frameId == m_state.frameId && !m_state.compileId.isEmpty();
            next.frameId = best->frameId;
            if (!keepEntry)
                next.compileId = compiles.empty()
                                     ? QString()
                                     : QString::fromStdString(compiles.back()->compileId);
            next.graphId = 0;
            next.kernelId = -1;
            for (const trace::GraphNodeRow& n : m_snapshot->graphNodes) {
                const trace::GraphRow* g = m_snapshot->graph(n.graphId);
                if (n.sourceLine == line && g &&
                    QString::fromStdString(g->compileId) == next.compileId) {
                    next.graphId = g->id;
                    break;
                }
            }
        }
    }
    apply(next);
}

void Selection::resolveParents(SelectionState& s) const {
    if (!m_snapshot) return;
    const RunSnapshot& snap = *m_snapshot;
    if (s.breakOrder > 0) {
        if (const trace::GraphBreakRow* b = snap.graphBreak(s.breakOrder)) {
            s.compileId = QString::fromStdString(b->compileId);
            s.sourceLine = b->line;
        }
    }
    if (s.kernelId >= 0) {
        if (const KernelRecord* k = snap.kernel(s.kernelId)) {
            if (k->kernel.graphId) s.graphId = k->kernel.graphId;
            s.compileId = QString::fromStdString(k->kernel.compileId);
        }
    }
    if (s.graphId > 0) {
        if (const trace::GraphRow* g = snap.graph(s.graphId))
            s.compileId = QString::fromStdString(g->compileId);
    } else if (!s.compileId.isEmpty()) {
        auto graphs = snap.graphsOf(s.compileId.toStdString());
        if (!graphs.empty()) s.graphId = graphs.front()->id;
    }
    if (!s.compileId.isEmpty()) {
        if (const trace::CompileRow* c = snap.compile(s.compileId.toStdString())) {
            s.frameId = c->frameId;
            if (s.sourceLine == 0)
                if (const trace::FrameRow* f = snap.frame(c->frameId))
                    // A resume frame's code object starts at its function's def line; where it
                    // resumes is what the user wants to see.
                    s.sourceLine =
                        f->kind == "resume" && f->resumeLine > 0 ? f->resumeLine : f->line;
        }
    }
}

void Selection::apply(SelectionState next) {
    if (next == m_state) return;
    m_state = std::move(next);
    Q_EMIT selectionChanged(m_state);
}

} // namespace kiln::views
