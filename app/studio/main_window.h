// SPDX-License-Identifier: MIT
/// \file
/// Kiln Studio's main window: a workload or a trace, its runs, and dockable panels that all
/// follow one Selection. Runs are started as `kiln run` children (RunController) and read back
/// through the TraceSession while they grow; the window never runs SQL itself.
#pragma once

#include "import_job.h"
#include "run_controller.h"
#include "selection.h"
#include "trace_session.h"

#include <QMainWindow>
#include <QMap>
#include <QTimer>

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolBar;
class QToolButton;

namespace kiln::views {
class Panel;
class ComparePanel;
class GraphPanel;
class KernelsPanel;
class SourcePanel;
class TimelinePanel;
} // namespace kiln::views

namespace kiln::studio {

class RunToolBar;

class MainWindow final : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a workload (.py: its trace is the .kiln next to it, read if it exists) or a trace
    /// (.kiln: its workload is the one its last run ran). False, with a message, otherwise.
    bool openFile(const QString& path);
    /// Runs the workload with the toolbar's settings (F5).
    void runWorkload();
    /// Runs the workload in default mode, then max-autotune, and compares the two.
    void compareModes();
    void stopRun();
    /// File > Import PyTorch Trace…: the import dialog, its fields filled with \p source (a .log
    /// or TORCH_TRACE directory) and \p profile (a .json); the import starts when accepted.
    void importWithDialog(const QString& source = {}, const QString& profile = {});
    /// Starts \p request off the GUI thread, with a progress bar and Cancel in the status bar;
    /// the trace opens (at the imported run) when it is done. False while an import runs.
    bool startImport(const ImportRequest& request);
    /// Files dropped on the window that are no workload or trace: logs and directories open the
    /// import dialog; a profile alone goes into the shown run when it is an imported one
    /// (`kiln import --into`), else into the dialog. False when none of them can be imported.
    bool importFiles(const QStringList& paths);
    ImportJob& importJob() { return m_import; }
    /// The import progress bar's text while an import runs; empty otherwise.
    QString importProgressText() const;

    /// Shows the default dock arrangement instead of the saved one (screenshots, tests).
    void useDefaultLayout();

    /// Arranges the docks for journey \p id ("breaks", "compare" or "kernels"; another id is
    /// "breaks") and remembers it: Reset layout and the next start use it.
    void useJourney(const QString& id);
    const QString& journey() const { return m_journey; }
    static QStringList journeys();

    /// The toolbar's mode for the next run ("" = the script's).
    void setRunMode(const QString& mode);

    /// Raises panel \p id ("source", "graph", ...); false when there is no such panel.
    bool showPanel(const QString& id);
    /// Selects `run:N`, `compile:F/C`, `graph:ID`, `kernel:ID`, `break:N` or `line:N` once the
    /// selected run's snapshot is there; false when the text is not one of those.
    bool selectItem(const QString& spec);
    QStringList panelIds() const;
    /// What the Graph panel shows: "post-fusion", "pre-fusion", "forward", "backward" or
    /// "joint" (AOT autograd's graphs as code); false for another name.
    bool setGraphView(const QString& view);
    views::Panel* panel(const QString& id) const;

    /// Where runs of \p script are recorded: next to it (as `kiln run` does) when its directory
    /// is writable, else in Studio's data directory (traces/NAME.kiln).
    static QString tracePathFor(const QString& script, bool directoryWritable);
    /// A workload script (.py) or a trace (.kiln), by name.
    static bool isWorkload(const QString& path);
    static bool isTrace(const QString& path);

    views::TraceSession& session() { return m_session; }
    views::Selection& selection() { return m_selection; }
    RunController& controller() { return m_controller; }
    const QString& workload() const { return m_workload; }
    const QString& tracePath() const { return m_tracePath; }
    /// The problem bar's message while it is shown (under the toolbar); empty when hidden.
    QString problemText() const;

Q_SIGNALS:
    /// The selected run's snapshot is shown and no child is running: a screenshot shows it all.
    void ready();
    /// Something the user should read (a trace that cannot be read, a run that cannot start).
    void problem(const QString& message);
    /// An import ended (its trace, when it wrote one, is being opened).
    void importFinished(const kiln::studio::ImportResult& result);

protected:
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createPanels();
    void addPanel(views::Panel* panel);
    /// The arrangement of the docks for the current journey (also View > Reset layout).
    void arrangeDocks();
    /// View > Layout: one checkable item per journey.
    void createLayoutMenu(QMenu* view);
    void createMenus();
    void createProblemBar();
    void createHelpMenu();
    /// Help > Keyboard shortcuts: "F5<tab>Run" per line.
    QString shortcutsText() const;
    void restoreSettings();
    void saveSettings() const;
    void addRecent(const QString& path);
    void updateRecentMenu();
    void updateStatus();
    void updatePolling();
    void openTrace(const QString& tracePath);
    void onRunsChanged();
    /// Compare modes' last run ended and the session lists it: compares the newest default and
    /// max-autotune runs it recorded, the earlier ones of each mode pooled in.
    void finishComparison();
    void onSnapshotReady(qint64 runId, const views::SnapshotPtr& snapshot);
    void onRunStarted(qint64 pid, const RunRequest& request);
    void onRunFinished(const RunOutcome& outcome);
    /// A child with \p pid started: its run is the one to show, once it is recorded.
    void followNewRun(qint64 pid);
    /// The run the child being followed recorded, once the run list has it; else null.
    const trace::RunRow* followedRun() const;
    /// The run of a graph --select asked for that the shown run does not have.
    void onGraphRunFound(qint64 graphId, qint64 runId);
    void applyPendingSelection();
    void selectFirstCompileIfNothingIs();
    void showProblem(const QString& message);
    void createImportStatus();
    void onImportFinished(const ImportResult& result);

    views::TraceSession m_session;
    views::Selection m_selection;
    RunController m_controller;
    ImportJob m_import;
    QProgressBar* m_importBar = nullptr;
    QToolButton* m_importCancel = nullptr;
    RunToolBar* m_toolbar = nullptr;
    views::SourcePanel* m_source = nullptr;
    views::GraphPanel* m_graph = nullptr;
    views::KernelsPanel* m_kernels = nullptr;
    views::TimelinePanel* m_timeline = nullptr;
    QMap<QString, QDockWidget*> m_docks;
    QMap<QString, views::Panel*> m_panels;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    class QActionGroup* m_layoutGroup = nullptr;
    QString m_journey = QStringLiteral("breaks"); ///< the layout Reset layout restores
    QToolBar* m_problemBar = nullptr;
    QLabel* m_problemText = nullptr;
    QLabel* m_statusTrace = nullptr;
    QLabel* m_statusRun = nullptr;
    QString m_workload;
    QString m_tracePath;
    QString m_pendingSelect;
    qint64 m_pendingRun = 0;
    /// The run a child of ours is recording, until it is selected.
    struct Follow {
        qint64 pid = 0;         ///< the child's pid; 0 when nothing is followed
        qint64 afterId = 0;     ///< the newest run id known when it started
        qint64 previousRun = 0; ///< shown before, shown again if the child records nothing
    } m_follow;
    QString m_raisedPanel;
    QString m_recentOnceRead; ///< a trace to add to the recent files once it proved readable ///<
                              ///< the panel the user (or --panel) raised last
    QTimer m_traceWatch;      ///< waits for a new trace file a child is creating
    bool m_comparing = false; ///< "Compare modes" runs: compare them when all are in
    bool m_compareSequenceDone = false; ///< the controller ran (or gave up on) all of them
    size_t m_compareStarted = 0;        ///< the children it started (each records one run)
    size_t m_runsBeforeCompare = 0;     ///< how many runs the trace had before
    views::ComparePanel* m_compare = nullptr;
    class DockTitleStyle* m_dockTitleStyle = nullptr; ///< shared by every dock (addPanel)
    bool m_awaitingTrace = false;
    bool m_childStarted = false;  ///< a child recorded (or is recording) into the open trace
    bool m_arrangeOnShow = false; ///< no saved layout (or asked for the default one) ///< a child
                                  ///< is creating the trace the session opens
};

} // namespace kiln::studio
