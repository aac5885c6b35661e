// SPDX-License-Identifier: MIT
/// \file
/// The detail of one graph break, below the Source panel's code: where it is among the run's
/// breaks, its reason and user stack, and the two graphs around it side by side: the graph that
/// ended before the break (its compile's graphs) and the graph that resumed after it (the
/// compile of the resume frame that continues at the break's line).
#pragma once

#include "run_snapshot.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace kiln::views {

class GraphSide;

/// Where execution continued in compiled code after a break; null members when it did not
/// (no resume frame, or one that was never compiled).
struct ResumeTarget {
    const trace::FrameRow* frame = nullptr;
    const trace::CompileRow* compile = nullptr;
};

/// The resume frame of \p brk: a frame of kind "resume" under the same root function as the
/// break's compile that resumes at the break's line, and its compile that ran after the break.
ResumeTarget resumeAfter(const RunSnapshot& snapshot, const trace::GraphBreakRow& brk);

class BreakDetails final : public QWidget {
    Q_OBJECT

public:
    explicit BreakDetails(QWidget* parent = nullptr);

    /// Shows \p brk of \p snapshot (which must outlive the call only: the texts are copied).
    void showBreak(const RunSnapshot& snapshot, const trace::GraphBreakRow& brk);
    /// A remark after the header, e.g. that stepping reached the last break; empty clears it.
    void setNote(const QString& note);
    /// Marks the side showing \p graphId as the selected one (0: neither).
    void markSelectedGraph(qint64 graphId);

    int shownBreak() const { return m_order; }
    /// Whether either side shows \p graphId.
    bool showsGraph(qint64 graphId) const;

    QString headerText() const;
    QString reasonText() const;
    QString userStackText() const;
    /// The readable code of the graph(s) on each side; empty when that side has no graph.
    QString endedCode() const;
    QString resumedCode() const;
    /// What each side says about its compile (its graphs' headers, or why it has none).
    QString endedSummary() const;
    QString resumedSummary() const;

Q_SIGNALS:
    /// The user clicked a graph's header.
    void graphClicked(qint64 graphId);

private:
    void updateHeader();
    void fitStackHeight();

    QLabel* m_header;
    QLabel* m_reason;
    QPlainTextEdit* m_stack;
    GraphSide* m_ended;
    GraphSide* m_resumed;
    QString m_headerText;
    QString m_note;
    int m_order = 0;
};

} // namespace kiln::views
