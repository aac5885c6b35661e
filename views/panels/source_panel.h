// SPDX-License-Identifier: MIT
/// \file
/// The Source panel: the selected run's workload with Python highlighting, line numbers and
/// gutter markers for graph breaks, compiled frame starts, recompile sites and the line where a
/// run stopped with an error (with a banner that says how the run ended). Next/Previous
/// graph break (F8 / Shift+F8) walk the breaks in execution order; the selected break's reason,
/// user stack and the graphs before and after it show below the code.
#pragma once

#include "code_editor.h"
#include "panel.h"
#include "run_error.h"

class QAction;
class QLabel;
class QSplitter;

namespace kiln::views {

class BreakDetails;
class PythonHighlighter;

/// The gutter markers of \p snapshot's workload: its graph breaks, the lines where compiled
/// frames start (resume frames at the line they resume), the frames that were recompiled and,
/// when the run ended with an error, the innermost traceback line in the workload.
LineMarkers sourceMarkers(const RunSnapshot& snapshot);

class SourcePanel final : public Panel {
    Q_OBJECT

public:
    SourcePanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    /// Selects the next graph break in execution order (F8). It stays enabled without breaks
    /// (or without a run) so that F8 can say why it does nothing (statusMessage).
    QAction* nextBreakAction() const { return m_next; }
    /// Selects the previous graph break (Shift+F8).
    QAction* previousBreakAction() const { return m_previous; }

    /// The workload opened before it has any run: its text is shown, read-only, until a run is
    /// selected, with a summary saying it has not run yet. An empty path forgets it.
    void setUnrunWorkload(const QString& path, const QString& text);

    /// For a run imported from PyTorch: opens a file dialog for the user's copy of the source
    /// the log names (shown when that path is not readable here).
    QAction* locateSourceAction() const { return m_locate; }
    /// Reads the shown imported run's source from \p path from now on (remembered across
    /// sessions for that recorded path); what the file dialog of locateSourceAction calls.
    void locateSource(const QString& path);

    CodeEditor* editor() const { return m_editor; }
    /// The line under the toolbar: the workload, its breaks, frames and recompiles.
    QString summaryText() const;
    BreakDetails* details() const { return m_details; }
    /// The "file changed since this run" banner.
    QLabel* changedBanner() const { return m_banner; }
    /// How the run ended, when not well: "The run ended with ZeroDivisionError: division by zero
    /// at line 7" (red), or a crash or cancellation (neutral). Clicking it shows that line.
    QLabel* endBanner() const { return m_endBanner; }

Q_SIGNALS:
    /// A short message for the window's status bar, e.g. why F8 did not move (no run, no breaks,
    /// the last break). The main window shows it for a few seconds.
    void statusMessage(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    QWidget* makeToolbar();
    /// Moves to the next (+1) or previous (-1) break from the shown one; at either end it stays
    /// and says so.
    void stepBreak(int direction);
    void selectAtGutter(int line);
    void showBreakOf(const SelectionState& state);
    void updateSummary();
    /// The end banner and the error line for the shown run.
    void showRunEnd();
    /// The actions' tooltips and status tips for the shown run (how many breaks, or none).
    void updateActionTips();
    /// Why stepping cannot move at all; empty when the shown run has breaks.
    QString whyNoStep() const;

    CodeEditor* m_editor;
    PythonHighlighter* m_highlighter;
    BreakDetails* m_details;
    QSplitter* m_splitter;
    QLabel* m_banner;
    QLabel* m_endBanner;
    RunEndNotice m_end; ///< how the shown run ended
    QLabel* m_summary;
    QAction* m_next;
    QAction* m_previous;
    QAction* m_locate;
    SnapshotPtr m_shown; ///< the snapshot the editor shows
    QString m_unrunPath; ///< a workload without runs yet, shown while no run is
    QString m_unrunText;
};

} // namespace kiln::views
