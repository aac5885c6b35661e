// SPDX-License-Identifier: MIT
/// \file
/// The Graph panel: the selected graph drawn by Graphviz, the post-fusion kernels by default or
/// the pre-fusion graph. The DOT text comes from the session's worker (requestDiagram); Graphviz
/// lays it out on a thread pool thread, and a result that arrives after the selection moved on
/// is dropped. Clicking a post-fusion node selects its kernel; clicking a pre-fusion node
/// selects the source line of the graph node it was lowered from. The selected kernel's node is
/// outlined whichever panel selected it. A training graph's Forward and Backward views show the
/// code of the graphs AOT autograd made of it (and what the forward saves for the backward);
/// a graph that needs no gradients shows its inference graph as Forward.
#pragma once

#include "panel.h"

#include <QList>
#include <QThreadPool>

class QLabel;
class QPlainTextEdit;
class QLineEdit;
class QStackedWidget;
class QToolButton;

namespace kiln::views {

class DiagramView;

class GraphPanel final : public Panel {
    Q_OBJECT

public:
    GraphPanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);
    ~GraphPanel() override;

    /// Shows the pre-fusion graph (true) or the post-fusion kernels (false, the default).
    void setPreFusion(bool preFusion);
    bool preFusion() const { return m_preFusion; }
    /// Shows AOT autograd's graph of \p kind ("aot_forward", "aot_backward", "aot_joint") as
    /// code; an empty kind goes back to the diagram.
    void setAotView(const QString& kind);
    QString aotView() const { return m_aotKind; }
    /// The code shown by an AOT view; empty otherwise.
    QString aotCode() const;
    /// Writes the diagram shown now as .svg, .png (rendered by Graphviz) or .dot (the recorded
    /// text), by \p path's extension; false with \p error set otherwise.
    bool exportDiagram(const QString& path, QString* error = nullptr) const;
    /// Asks for a file name and exports (the Export… button).
    void exportWithDialog();

    /// Finds nodes by name or label text; returns how many matched (the first is current).
    int search(const QString& text);
    /// Moves to the next search match and centres on it.
    void nextMatch();
    /// Does what a click on node \p name does; false when the diagram has no such node.
    bool clickNode(const QString& name);

    DiagramView* view() const { return m_view; }
    /// The text the panel shows instead of a diagram; empty while a diagram is shown.
    QString message() const;
    QString statusText() const;
    QString matchText() const;
    const QString& dot() const { return m_dot; }

Q_SIGNALS:
    /// A diagram was laid out and is on screen.
    void diagramShown();
    /// The panel shows a message instead of a diagram (none, no diagram, a Graphviz error).
    void messageShown(const QString& message);

protected:
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    QWidget* makeToolBar();
    QString kind() const;
    /// Asks the session for the DOT text of the selected graph; \p sayLoading replaces what is
    /// shown by a "Loading" line (not when a live run is merely polled again).
    void requestDiagram(bool sayLoading = true);
    void onDiagram(qint64 graphId, const QString& kind, const QString& dot);
    void render(const QString& dot);
    void onRendered(quint64 generation, const QString& dot, const QByteArray& svg,
                    const QString& error);
    void showMessage(const QString& text);
    void enableDiagramControls(bool enabled);
    void markSelectedKernel();
    void updateStatus();
    void updateMatches();
    void onNodeClicked(const QString& name);
    void showAotGraph();
    void checkViewButtons();

    DiagramView* m_view = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_matchLabel = nullptr;
    QLineEdit* m_search = nullptr;
    QToolButton* m_preButton = nullptr;
    QToolButton* m_postButton = nullptr;
    QToolButton* m_forwardButton = nullptr;
    QToolButton* m_backwardButton = nullptr;
    QPlainTextEdit* m_code = nullptr;  ///< an AOT graph's code
    QString m_aotKind;                 ///< the AOT view shown; empty: a diagram
    QList<QWidget*> m_diagramControls; ///< zoom, search and export: off while there is no diagram

    bool m_preFusion = false;
    qint64 m_graphId = 0;
    qint64 m_runId = 0;
    /// Bumped on every request: a render of an older one is dropped when it arrives.
    quint64 m_generation = 0;
    enum class State { Idle, LoadingDot, Rendering, Shown, Missing, Failed };
    State m_state = State::Idle;
    bool m_keepGraph = false; ///< a pre-fusion click is selecting a source line
    QThreadPool m_renderPool; ///< one thread: diagram layouts off the GUI thread
    QString m_dot;            ///< the text of the diagram shown now
    QByteArray m_svg;
    QStringList m_matches;
    int m_currentMatch = -1;
};

} // namespace kiln::views
