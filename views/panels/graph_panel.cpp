// SPDX-License-Identifier: MIT
#include "graph_panel.h"

#include "api/catalog.h"
#include "counted.h"
#include "diagram_view.h"
#include "graph_name.h"
#include "post_grad_text.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace kiln::views {

namespace {

/// Graphviz's answer for one DOT text: SVG bytes, or its error.
struct Rendered {
    QByteArray svg;
    QString error;
};

Rendered renderSvg(const QString& dot) {
    auto svg = api::renderDiagram(dot.toStdString(), "svg");
    if (!svg) return {{}, QString::fromStdString(svg.error().message)};
    return {QByteArray::fromStdString(svg.value()), {}};
}

QToolButton* toolButton(const QString& text, const QString& toolTip, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAutoRaise(true);
    return button;
}

/// Why Kiln's inductor ran graph \p g's compile through the eager kernels (the compile's
/// `eager_fallback` event); empty when it did not.
QString eagerFallbackReason(const RunSnapshot& snapshot, const trace::GraphRow* g) {
    if (!g) return {};
    for (const trace::EventRow& e : snapshot.events) {
        if (e.name != "eager_fallback" || e.compileId != g->compileId) continue;
        QJsonObject detail =
            QJsonDocument::fromJson(QByteArray::fromStdString(e.detailJson)).object();
        return detail.value(QStringLiteral("reason")).toString();
    }
    return {};
}

QString graphTitle(const trace::GraphRow& g) {
    return graphNameIn(g.id, g.compileId);
}

bool writeFile(const QString& path, const QByteArray& bytes, QString* error) {
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size())
        return true;
    if (error) *error = file.errorString();
    return false;
}

} // namespace

GraphPanel::GraphPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel(QStringLiteral("graph"), tr("Graph"), session, selection, parent) {
    m_renderPool.setMaxThreadCount(1);
    m_view = new DiagramView(this);
    m_message = new QLabel(this);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMargin(24);
    m_stack = new QStackedWidget(this);
    m_code = new QPlainTextEdit(this);
    m_code->setReadOnly(true);
    m_code->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_stack->addWidget(m_message);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_code);
    m_status = new QLabel(this);
    m_status->setContentsMargins(6, 2, 6, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(makeToolBar());
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_status);

    connect(&session, &TraceSession::diagramReady, this, &GraphPanel::onDiagram);
    connect(&session, &TraceSession::failed, this, [this](const QString& error) {
        if (m_state != State::LoadingDot) return;
        m_state = State::Failed;
        showMessage(tr("The diagram could not be read from the trace: %1").arg(error));
    });
    connect(m_view, &DiagramView::nodeClicked, this, &GraphPanel::onNodeClicked);
    connect(m_view, &DiagramView::zoomChanged, this, &GraphPanel::updateStatus);
    catchUp();
}

GraphPanel::~GraphPanel() = default;

QWidget* GraphPanel::makeToolBar() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 2, 4, 2);
    m_postButton = toolButton(tr("Post-fusion"), tr("The kernels after fusion"), bar);
    m_preButton = toolButton(tr("Pre-fusion"), tr("The captured graph before fusion"), bar);
    for (QToolButton* b : {m_postButton, m_preButton}) {
        b->setCheckable(true);
        row->addWidget(b);
    }
    m_forwardButton =
        toolButton(tr("Forward"), tr("AOT autograd's forward graph (or inference graph)"), bar);
    m_backwardButton = toolButton(tr("Backward"), tr("AOT autograd's backward graph"), bar);
    for (QToolButton* b : {m_forwardButton, m_backwardButton}) {
        b->setCheckable(true);
        row->addWidget(b);
    }
    m_postButton->setChecked(true);
    connect(m_postButton, &QToolButton::clicked, this, [this] { setPreFusion(false); });
    connect(m_preButton, &QToolButton::clicked, this, [this] { setPreFusion(true); });
    connect(m_forwardButton, &QToolButton::clicked, this,
            [this] { setAotView(QStringLiteral("aot_forward")); });
    connect(m_backwardButton, &QToolButton::clicked, this,
            [this] { setAotView(QStringLiteral("aot_backward")); });
    row->addSpacing(12);

    auto* out = toolButton(tr("−"), tr("Zoom out (-)"), bar);
    auto* in = toolButton(tr("+"), tr("Zoom in (+)"), bar);
    auto* fit = toolButton(tr("Fit"), tr("Fit the diagram in the view (F)"), bar);
    auto* one = toolButton(tr("1:1"), tr("Actual size (0)"), bar);
    connect(out, &QToolButton::clicked, m_view, &DiagramView::zoomOut);
    connect(in, &QToolButton::clicked, m_view, &DiagramView::zoomIn);
    connect(fit, &QToolButton::clicked, m_view, &DiagramView::fitToView);
    connect(one, &QToolButton::clicked, m_view, &DiagramView::actualSize);
    for (QToolButton* b : {out, in, fit, one}) {
        row->addWidget(b);
        m_diagramControls << b;
    }
    row->addSpacing(12);

    m_search = new QLineEdit(bar);
    m_search->setPlaceholderText(tr("Find node (Enter: next)"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(260);
    m_matchLabel = new QLabel(bar);
    m_matchLabel->setMinimumWidth(70);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& t) { search(t); });
    connect(m_search, &QLineEdit::returnPressed, this, &GraphPanel::nextMatch);
    row->addWidget(m_search, 1);
    row->addWidget(m_matchLabel);
    row->addStretch();

    auto* exportButton = toolButton(tr("Export…"), tr("Save the diagram as SVG, PNG or DOT"), bar);
    connect(exportButton, &QToolButton::clicked, this, &GraphPanel::exportWithDialog);
    row->addWidget(exportButton);
    m_diagramControls << exportButton << m_search;
    return bar;
}

QString GraphPanel::kind() const {
    return m_preFusion ? QStringLiteral("pre_fusion") : QStringLiteral("post_fusion");
}

void GraphPanel::setPreFusion(bool preFusion) {
    const bool wasCode = !m_aotKind.isEmpty();
    const bool changed = preFusion != m_preFusion;
    m_aotKind.clear();
    m_preFusion = preFusion;
    checkViewButtons();
    if (changed || wasCode) requestDiagram();
}

void GraphPanel::setAotView(const QString& kind) {
    if (kind.isEmpty()) {
        setPreFusion(m_preFusion);
        return;
    }
    m_aotKind = kind;
    checkViewButtons();
    ++m_generation; // a diagram still on its way is not wanted now
    m_state = State::Idle;
    showAotGraph();
}

void GraphPanel::checkViewButtons() {
    m_postButton->setChecked(m_aotKind.isEmpty() && !m_preFusion);
    m_preButton->setChecked(m_aotKind.isEmpty() && m_preFusion);
    m_forwardButton->setChecked(m_aotKind == QStringLiteral("aot_forward"));
    m_backwardButton->setChecked(m_aotKind == QStringLiteral("aot_backward"));
}

QString GraphPanel::aotCode() const {
    return m_stack->currentWidget() == m_code ? m_code->toPlainText() : QString();
}

/// The AOT graph's code, headed by what it is and, for a forward graph, what it saves.
void GraphPanel::showAotGraph() {
    const SnapshotPtr& snap = snapshot();
    const trace::GraphRow* g = snap && m_graphId > 0 ? snap->graph(m_graphId) : nullptr;
    if (!g) {
        showMessage(m_runId > 0 ? tr("Select a graph to see what AOT autograd made of it.")
                                : tr("No run selected."));
        return;
    }
    const std::string kind = m_aotKind.toStdString();
    const trace::GraphRow* a = snap->aotGraph(g->id, kind);
    bool inference = false;
    if (!a && kind == "aot_forward") {
        a = snap->aotGraph(g->id, "aot_inference");
        inference = a != nullptr;
    }
    if (!a) {
        QString what = graphTitle(*g);
        what[0] = what[0].toUpper();
        QString why = snap->aotGraph(g->id, "aot_inference")
                          ? tr("it needed no gradients, so it was compiled for inference (its "
                               "graph is the Forward view)")
                          : tr("only graphs compiled by Kiln's inductor have them");
        showMessage(tr("%1 has no AOT %2 graph: %3.")
                        .arg(what, kind == "aot_backward" ? tr("backward") : tr("forward"), why));
        return;
    }
    QString header = QString("# %1 graph %2 of %3 · %4\n")
                         .arg(inference                ? tr("inference")
                              : kind == "aot_backward" ? tr("backward")
                              : kind == "aot_joint"    ? tr("joint")
                                                       : tr("forward"))
                         .arg(a->id)
                         .arg(graphTitle(*g), counted(a->opCount, tr("op"), tr("ops")));
    if (a->kind == "aot_forward" && !a->savedTensors.empty()) {
        header += tr("# saves %1 for the backward, %2 bytes:\n")
                      .arg(counted(a->savedCount, tr("tensor"), tr("tensors")))
                      .arg(a->savedBytes);
        for (const trace::SavedTensor& t : trace::savedTensorsOf(*a))
            header += QString("#   %1: %2%3, %4 bytes\n")
                          .arg(QString::fromStdString(t.name),
                               QString::fromStdString(t.dtype).section('.', -1),
                               QString::fromStdString(t.shape))
                          .arg(t.bytes);
    }
    const QString code = header + QString::fromStdString(a->readableCode);
    if (m_code->toPlainText() != code) m_code->setPlainText(code);
    m_view->clearDiagram();
    m_stack->setCurrentWidget(m_code);
    enableDiagramControls(false);
    updateStatus();
}

void GraphPanel::showSnapshot(const SnapshotPtr& snapshot) {
    if (!m_aotKind.isEmpty()) {
        showAotGraph(); // a live run's graph may only now have its AOT graphs
        return;
    }
    // A live run: the selected graph's diagram may only now be in the trace.
    if (snapshot && snapshot->running() && m_state == State::Missing) requestDiagram(false);
    updateStatus();
    markSelectedKernel();
}

void GraphPanel::showSelection(const SelectionState& state) {
    if (!m_keepGraph && (state.runId != m_runId || state.graphId != m_graphId)) {
        m_runId = state.runId;
        m_graphId = state.graphId;
        if (m_aotKind.isEmpty())
            requestDiagram();
        else
            showAotGraph();
    }
    markSelectedKernel();
}

void GraphPanel::requestDiagram(bool sayLoading) {
    ++m_generation;
    m_state = State::Idle;
    m_dot.clear();
    m_svg.clear();
    if (m_graphId <= 0) {
        showMessage(m_runId > 0 ? tr("Select a graph (a compile, a kernel or a graph break) to "
                                     "see its diagram.")
                                : tr("No run selected."));
        return;
    }
    m_state = State::LoadingDot;
    if (sayLoading) showMessage(tr("Loading the diagram…"));
    session().requestDiagram(m_graphId, kind());
}

void GraphPanel::onDiagram(qint64 graphId, const QString& diagramKind, const QString& dot) {
    if (m_state != State::LoadingDot || graphId != m_graphId || diagramKind != kind()) return;
    if (dot.trimmed().isEmpty()) {
        m_state = State::Missing;
        if (QString code = snapshot() ? postGradGraphsText(*snapshot(), graphId) : QString();
            !code.isEmpty()) { // an imported run: Inductor's graphs instead of a diagram
            if (m_code->toPlainText() != code) m_code->setPlainText(code);
            m_view->clearDiagram();
            m_stack->setCurrentWidget(m_code);
            return;
        }
        const trace::GraphRow* g = snapshot() ? snapshot()->graph(graphId) : nullptr;
        const trace::CompileRow* c = g ? snapshot()->compile(g->compileId) : nullptr;
        QString what = g ? graphTitle(*g) : tr("this graph");
        what[0] = what[0].toUpper();
        QString text = tr("%1 has no %2 diagram.")
                           .arg(what, m_preFusion ? tr("pre-fusion") : tr("post-fusion"));
        if (c && !c->backend.empty() && c->backend != "inductor")
            text += u' ' + tr("It was compiled by the \"%1\" backend, which runs the graph "
                              "eagerly: there is nothing lowered or fused to draw.")
                               .arg(QString::fromStdString(c->backend));
        else if (QString why = eagerFallbackReason(*snapshot(), g); !why.isEmpty())
            text += u' ' + tr("Kiln's compiler did not lower it (%1): it runs through the eager "
                              "kernels, so it has no kernels to draw.")
                               .arg(why);
        showMessage(text);
        return;
    }
    m_state = State::Rendering;
    m_dot = dot;
    render(dot);
}

void GraphPanel::render(const QString& dot) {
    const quint64 generation = m_generation;
    auto* watcher = new QFutureWatcher<Rendered>(this);
    connect(watcher, &QFutureWatcher<Rendered>::finished, this, [this, watcher, generation, dot] {
        Rendered r = watcher->result();
        watcher->deleteLater();
        onRendered(generation, dot, r.svg, r.error);
    });
    // One render at a time on the panel's own thread, newest first: Graphviz renders are
    // serialised anyway, and a stale one still queued is dropped (clear()) rather than run.
    m_renderPool.clear();
    watcher->setFuture(QtConcurrent::run(&m_renderPool, renderSvg, dot));
}

void GraphPanel::onRendered(quint64 generation, const QString& dot, const QByteArray& svg,
                            const QString& error) {
    if (generation != m_generation) return; // the user moved on while Graphviz worked
    m_state = State::Failed;
    if (!error.isEmpty()) {
        showMessage(tr("Graphviz could not draw this diagram:\n%1").arg(error));
        return;
    }
    SvgNodeIndex index = SvgNodeIndex::parse(svg);
    if (!index.error().isEmpty() || !m_view->setDiagram(svg, index)) {
        showMessage(tr("Graphviz's SVG could not be read: %1").arg(index.error()));
        return;
    }
    m_state = State::Shown;
    m_dot = dot;
    m_svg = svg;
    m_stack->setCurrentWidget(m_view);
    enableDiagramControls(true);
    markSelectedKernel();
    updateMatches();
    updateStatus();
    Q_EMIT diagramShown();
}

void GraphPanel::showMessage(const QString& text) {
    m_view->clearDiagram();
    m_message->setText(text);
    m_stack->setCurrentWidget(m_message);
    enableDiagramControls(false);
    updateMatches();
    updateStatus();
    Q_EMIT messageShown(text);
}

void GraphPanel::enableDiagramControls(bool enabled) {
    for (QWidget* w : std::as_const(m_diagramControls))
        w->setEnabled(enabled);
}

QString GraphPanel::message() const {
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

void GraphPanel::markSelectedKernel() {
    QStringList nodes;
    const SnapshotPtr& snap = snapshot();
    const qint64 kernelId = selection().state().kernelId;
    if (snap && kernelId >= 0 && m_view->hasDiagram())
        nodes = m_preFusion ? preFusionNodesOfKernel(*snap, m_view->index(), kernelId)
                            : QStringList(diagramNodeOfKernel(*snap, m_view->index(), kernelId));
    nodes.removeAll(QString());
    if (nodes == m_view->selectedNodes()) return;
    m_view->setSelectedNodes(nodes);
    if (!nodes.isEmpty()) m_view->ensureVisible(m_view->nodesSceneRect(nodes), 40, 40);
}

QString GraphPanel::statusText() const {
    return m_status->text();
}

void GraphPanel::updateStatus() {
    const trace::GraphRow* g = snapshot() && m_graphId > 0 ? snapshot()->graph(m_graphId) : nullptr;
    if (!g) {
        m_status->clear();
        return;
    }
    // The FX graph's nodes and the diagram's boxes are different counts (post-fusion boxes are
    // kernels and buffers): each says what it counts.
    QString view = m_preFusion ? tr("pre-fusion") : tr("post-fusion");
    if (!m_aotKind.isEmpty()) view = tr("AOT %1").arg(m_aotKind.mid(4));
    QStringList parts{graphTitle(*g), view, counted(g->nodeCount, tr("FX node"), tr("FX nodes")),
                      counted(static_cast<qsizetype>(snapshot()->kernelsOf(g->id).size()),
                              tr("kernel"), tr("kernels"))};
    if (m_view->hasDiagram())
        parts << counted(static_cast<qsizetype>(m_view->index().nodes().size()), tr("box"),
                         tr("boxes"));
    if (m_view->hasDiagram()) parts << tr("zoom %1 %").arg(qRound(m_view->zoom() * 100));
    m_status->setText(parts.join(QStringLiteral("  ·  ")));
}

int GraphPanel::search(const QString& text) {
    if (m_search->text() != text) {
        const QSignalBlocker block(m_search);
        m_search->setText(text);
    }
    m_matches = m_view->hasDiagram() ? m_view->index().search(text) : QStringList();
    m_currentMatch = m_matches.isEmpty() ? -1 : 0;
    updateMatches();
    if (m_currentMatch >= 0) m_view->centerOnNode(m_matches[m_currentMatch]);
    return static_cast<int>(m_matches.size());
}

void GraphPanel::nextMatch() {
    if (m_matches.isEmpty()) return;
    m_currentMatch = (m_currentMatch + 1) % static_cast<int>(m_matches.size());
    updateMatches();
    m_view->centerOnNode(m_matches[m_currentMatch]);
}

void GraphPanel::updateMatches() {
    if (!m_view->hasDiagram()) {
        m_matches.clear();
        m_currentMatch = -1;
    } else if (!m_search->text().trimmed().isEmpty() && m_currentMatch < 0) {
        // A new diagram under an existing search: search it too.
        m_matches = m_view->index().search(m_search->text());
        m_currentMatch = m_matches.isEmpty() ? -1 : 0;
    }
    const QString current = m_currentMatch >= 0 ? m_matches[m_currentMatch] : QString();
    if (m_view->hasDiagram()) m_view->setMatches(m_matches, current);
    m_matchLabel->setText(matchText());
}

QString GraphPanel::matchText() const {
    if (m_search->text().trimmed().isEmpty()) return {};
    if (m_matches.isEmpty()) return tr("no match");
    return tr("%1 of %2").arg(m_currentMatch + 1).arg(m_matches.size());
}

bool GraphPanel::clickNode(const QString& name) {
    if (!m_view->hasDiagram() || !m_view->index().find(name)) return false;
    onNodeClicked(name);
    return true;
}

void GraphPanel::onNodeClicked(const QString& name) {
    const SnapshotPtr& snap = snapshot();
    const SvgNode* node = m_view->index().find(name);
    if (!snap || !node) return;
    if (!m_preFusion) {
        const qint64 kernelId = kernelOfDiagramNode(*snap, m_graphId, *node);
        if (kernelId >= 0) selection().selectKernel(kernelId);
        return;
    }
    const trace::GraphNodeRow* graphNode = graphNodeOfDiagramNode(*snap, m_graphId, *node);
    if (!graphNode || graphNode->sourceLine <= 0) return;
    // Selecting a line selects the newest compile of its frame; the user is reading this
    // graph (maybe an older cache entry), so this panel stays on it.
    m_keepGraph = true;
    selection().selectSourceLine(graphNode->sourceLine);
    m_keepGraph = false;
}

bool GraphPanel::exportDiagram(const QString& path, QString* error) const {
    if (m_dot.isEmpty() || m_svg.isEmpty()) {
        if (error) *error = tr("there is no diagram to export");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"svg") return writeFile(path, m_svg, error);
    if (suffix == u"dot" || suffix == u"gv") return writeFile(path, m_dot.toUtf8(), error);
    if (suffix == u"png") {
        auto png = api::renderDiagram(m_dot.toStdString(), "png");
        if (!png) {
            if (error) *error = QString::fromStdString(png.error().message);
            return false;
        }
        return writeFile(path, QByteArray::fromStdString(png.value()), error);
    }
    if (error) *error = tr("unknown format \"%1\": use .svg, .png or .dot").arg(suffix);
    return false;
}

void GraphPanel::exportWithDialog() {
    QString name = QStringLiteral("graph");
    if (const trace::GraphRow* g = snapshot() ? snapshot()->graph(m_graphId) : nullptr)
        name = QStringLiteral("graph_%1").arg(g->id); // the id `kiln export-diagram` takes
    name += m_preFusion ? QStringLiteral("_pre_fusion.svg") : QStringLiteral("_post_fusion.svg");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export diagram"), name, tr("SVG (*.svg);;PNG (*.png);;Graphviz DOT (*.dot)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportDiagram(path, &error))
        QMessageBox::warning(this, tr("Export diagram"),
                             tr("Cannot export to %1: %2").arg(path, error));
}

} // namespace kiln::views
