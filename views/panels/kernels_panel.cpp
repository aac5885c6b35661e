// SPDX-License-Identifier: MIT
#include "kernels_panel.h"

#include "autotune_choice_model.h"
#include "graph_name.h"
#include "kernel_table_model.h"
#include "run_provenance.h"
#include "table_export.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace kiln::views {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

QLabel* sectionLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setContentsMargins(4, 4, 4, 4);
    return label;
}

/// What the autotuning table's numbers and words mean (its caption's and the table's tooltip).
QString candidatesExplanation() {
    return KernelsPanel::tr(
        "Each time is the median of the timed runs after a warm-up run; the spread is the "
        "fastest to the slowest of them. A candidate that was already far slower than the best "
        "after one run stopped early: it could not win. \"tuning cache\": the times were "
        "measured by an earlier run on the same CPU for the same kernel and sizes and reused, "
        "not measured again in this run.");
}

QString kernelHeader(const KernelRecord& k, bool imported) {
    const trace::KernelRow& r = k.kernel;
    // Named as everywhere (graph_name.h); a kernel reported before its graph has only its
    // compile.
    const QString graph = r.graphId > 0 ? graphNameIn(r.graphId, r.compileId)
                                        : QStringLiteral("compile ") + text(r.compileId);
    QString html =
        QStringLiteral("<b>%1</b> &nbsp;·&nbsp; %2 &nbsp;·&nbsp; %3")
            .arg(text(r.name).toHtmlEscaped(), text(r.kind).toHtmlEscaped(), graph.toHtmlEscaped());
    if (!r.fusedNodes.empty())
        html += QStringLiteral("<br>fused nodes: %1")
                    .arg(text(r.fusedNodes).replace(u',', QStringLiteral(", ")).toHtmlEscaped());
    // An imported run's log has no launch configuration; its C++ kernels have no profiler
    // events of their own (their time is the graph call's, less its extern calls).
    const QString noConfig =
        !imported ? QStringLiteral("not compiled (runs as a library call)")
        : k.launches.count > 0 || r.kind == "extern" || r.kind == "fallback"
            ? QStringLiteral("not in PyTorch's log (imported run)")
            : QStringLiteral("not measured: PyTorch's profiler records no event per C++ kernel");
    html += QStringLiteral("<br>launch: %1")
                .arg(r.launchConfig.empty() ? noConfig : text(r.launchConfig).toHtmlEscaped());
    return html;
}

} // namespace

KernelsPanel::KernelsPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel(QStringLiteral("kernels"), tr("Kernels"), session, selection, parent) {
    m_model = new KernelTableModel(this);
    m_filter = new KernelFilterModel(this);
    m_filter->setSourceModel(m_model);

    m_table = new QTableView(this);
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(KernelTableModel::TotalMs, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setResizeContentsPrecision(100); // 4,000 kernels: measure a page
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    addTableExportMenu(m_table);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onRowActivated(current); });

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    QWidget* details = makeDetails();
    // The details (code, candidates) may shrink to a few lines: the table is what a short dock
    // should keep showing.
    details->setMinimumHeight(80);
    splitter->addWidget(details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({330, 270});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(makeFilterBar());
    layout->addWidget(makeBanner());
    layout->addWidget(splitter, 1);
    catchUp();
}

QWidget* KernelsPanel::makeFilterBar() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 4, 4, 0);
    m_filterEdit = new QLineEdit(bar);
    m_filterEdit->setPlaceholderText(tr("Filter by name, kind or fused node"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filter, &KernelFilterModel::setText);
    m_kindCombo = new QComboBox(bar);
    m_kindCombo->addItem(tr("All kinds"), QString());
    connect(m_kindCombo, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setKind(m_kindCombo->currentData().toString()); });
    m_onlyGraph = new QCheckBox(tr("Only the selected graph"), bar);
    connect(m_onlyGraph, &QCheckBox::toggled, this, [this](bool only) {
        m_filter->setGraph(only ? selection().state().graphId : 0);
        selectRowOf(selection().state().kernelId);
    });
    row->addWidget(m_filterEdit, 1);
    row->addWidget(m_kindCombo);
    row->addWidget(m_onlyGraph);
    return bar;
}

QWidget* KernelsPanel::makeBanner() {
    m_banner = new QWidget(this);
    paintAsBanner(m_banner);
    auto* row = new QHBoxLayout(m_banner);
    row->setContentsMargins(8, 3, 4, 3);
    m_bannerLabel = new QLabel(m_banner);
    auto* clear = new QToolButton(m_banner);
    clear->setText(tr("Show all launches"));
    connect(clear, &QToolButton::clicked, this, [this] { setTimeRange(0, 0); });
    row->addWidget(m_bannerLabel, 1);
    row->addWidget(clear);
    m_banner->hide();
    return m_banner;
}

QWidget* KernelsPanel::makeDetails() {
    auto* details = new QWidget(this);
    auto* layout = new QVBoxLayout(details);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_codeHeader = sectionLabel(details);
    m_code = new QPlainTextEdit(details);
    m_code->setReadOnly(true);
    m_code->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_cudaHighlighter = new CudaHighlighter(m_code);
    m_cudaHighlighter->setDocument(nullptr);

    auto* tuneBox = new QWidget(details);
    auto* tuneLayout = new QVBoxLayout(tuneBox);
    tuneLayout->setContentsMargins(0, 0, 0, 0);
    m_candidatesLabel = sectionLabel(tuneBox);
    m_candidatesLabel->setWordWrap(true); // the cache's explanation must not widen the box
    m_candidatesLabel->setToolTip(candidatesExplanation());
    m_choices = new AutotuneChoiceModel(this);
    m_candidates = new QTableView(tuneBox);
    m_candidates->setModel(m_choices);
    m_candidates->setToolTip(candidatesExplanation());
    m_candidates->verticalHeader()->hide();
    m_candidates->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_candidates->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_candidates->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_candidates->setWordWrap(false);
    m_candidates->viewport()->installEventFilter(this);
    addTableExportMenu(m_candidates);
    tuneLayout->addWidget(m_candidatesLabel);
    tuneLayout->addWidget(m_candidates, 1);

    auto* split = new QSplitter(Qt::Horizontal, details);
    split->addWidget(m_code);
    split->addWidget(tuneBox);
    split->setSizes({420, 580});
    layout->addWidget(m_codeHeader);
    layout->addWidget(split, 1);
    return details;
}

void KernelsPanel::showSnapshot(const SnapshotPtr& snapshot) {
    const bool first = m_model->rowCount() == 0;
    m_model->setSnapshot(snapshot);
    refillKinds();
    // Launch geometry is only recorded on the GPU: a CPU run's empty columns would only take
    // the room the fused nodes need.
    for (int column :
         {KernelTableModel::Grid, KernelTableModel::Block, KernelTableModel::Registers})
        m_table->setColumnHidden(column, !m_model->columnHasValues(column));
    if (first && m_model->rowCount() > 0) {
        m_table->resizeColumnsToContents();
        // The fused-nodes column stretches; the kernel names should not push it off screen.
        m_table->setColumnWidth(KernelTableModel::Name,
                                std::min(m_table->columnWidth(KernelTableModel::Name), 320));
    }
    updateBanner();
    // A refresh keeps where the user scrolled: the row is selected again, not scrolled to.
    selectRowOf(selection().state().kernelId, false);
    showKernel(selection().state().kernelId, true);
}

void KernelsPanel::showSelection(const SelectionState& state) {
    if (m_onlyGraph->isChecked()) m_filter->setGraph(state.graphId);
    selectRowOf(state.kernelId);
    showKernel(state.kernelId);
}

void KernelsPanel::refillKinds() {
    QStringList kinds;
    if (const SnapshotPtr& s = m_model->snapshot())
        for (const KernelRecord& k : s->kernels)
            if (!kinds.contains(text(k.kernel.kind))) kinds << text(k.kernel.kind);
    kinds.sort();
    const QString current = m_kindCombo->currentData().toString();
    const QSignalBlocker block(m_kindCombo);
    m_kindCombo->clear();
    m_kindCombo->addItem(tr("All kinds"), QString());
    for (const QString& kind : kinds)
        m_kindCombo->addItem(kind, kind);
    m_kindCombo->setCurrentIndex(std::max(0, m_kindCombo->findData(current)));
}

void KernelsPanel::onRowActivated(const QModelIndex& proxyIndex) {
    if (m_followingSelection || !proxyIndex.isValid()) return;
    const qint64 kernelId = proxyIndex.data(KernelTableModel::KernelIdRole).toLongLong();
    if (kernelId != selection().state().kernelId) selection().selectKernel(kernelId);
}

void KernelsPanel::selectRowOf(qint64 kernelId, bool scroll) {
    const int sourceRow = m_model->rowOfKernel(kernelId);
    const QModelIndex proxy =
        sourceRow >= 0 ? m_filter->mapFromSource(m_model->index(sourceRow, 0)) : QModelIndex();
    m_followingSelection = true;
    if (proxy.isValid()) {
        m_table->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
        if (scroll) m_table->scrollTo(proxy);
    } else {
        m_table->selectionModel()->clearSelection();
    }
    m_followingSelection = false;
}

void KernelsPanel::showKernel(qint64 kernelId, bool refresh) {
    const SnapshotPtr& snap = m_model->snapshot();
    const KernelRecord* k = snap && kernelId >= 0 ? snap->kernel(kernelId) : nullptr;
    const bool sameKernel = k && k->kernel.kernelId == m_shownKernel;
    if (sameKernel && !refresh) return;
    m_shownKernel = k ? k->kernel.kernelId : -1;
    if (!k) {
        m_codeHeader->setText(snap && !snap->kernels.empty()
                                  ? tr("Select a kernel to see its generated code.")
                                  : tr("This run has no kernels."));
        m_code->clear();
    } else {
        m_codeHeader->setText(kernelHeader(*k, snap && isImportedRun(snap->run)));
        // Re-setting the same code would scroll the view back to its first line.
        const QString code = text(k->kernel.sourceCode);
        if (!sameKernel || m_code->toPlainText() != code) {
            // GPU kernels' code is CUDA C++ (after the kernel IR): highlighted as such.
            bool cuda = code.contains(QStringLiteral("__global__"));
            m_cudaHighlighter->setDocument(cuda ? m_code->document() : nullptr);
            m_code->setPlainText(code);
        }
    }
    showCandidates(k); // a live run may have added candidates to the kernel shown
}

void KernelsPanel::showCandidates(const KernelRecord* kernel) {
    const SnapshotPtr& snap = m_model->snapshot();
    std::vector<trace::AutotuneChoiceRow> choices;
    if (kernel)
        for (const trace::AutotuneChoiceRow* c : snap->choicesOf(kernel->kernel.kernelId))
            choices.push_back(*c);
    const bool any = !choices.empty();
    m_choices->setChoices(std::move(choices));
    m_candidates->setVisible(any);
    if (!kernel)
        m_candidatesLabel->setText(tr("<b>Autotuning</b>"));
    else if (!any)
        m_candidatesLabel->setText(
            snap->run.mode == "default" || snap->run.mode.empty()
                ? tr("<b>Autotuning</b><br>No autotuning (default mode).")
                : tr("<b>Autotuning</b><br>No candidates: max-autotune measured none<br>for "
                     "this %1 kernel.")
                      .arg(text(kernel->kernel.kind).toHtmlEscaped()));
    else
        m_candidatesLabel->setText(
            tr("<b>Autotuning</b>: %1").arg(m_choices->originSummary().toHtmlEscaped()));
    if (!any) return;
    // An older trace records neither runs nor origin: no empty columns for them.
    for (int column : {AutotuneChoiceModel::Runs, AutotuneChoiceModel::Spread,
                       AutotuneChoiceModel::Measured, AutotuneChoiceModel::Outcome})
        m_candidates->setColumnHidden(column, !m_choices->columnHasValues(column));
    m_candidates->resizeColumnsToContents();
    fitCandidateColumn();
}

/// The candidates' names take the width the numbers and words leave them (the other columns fit
/// their contents), but not less than a readable minimum: a dock too narrow for that scrolls
/// rather than squeezing the names to nothing.
void KernelsPanel::fitCandidateColumn() {
    if (m_choices->rowCount() == 0) return;
    QHeaderView* header = m_candidates->horizontalHeader();
    // QTableView narrows sizeHintForColumn to protected; QAbstractItemView's is public.
    const QAbstractItemView* view = m_candidates;
    auto natural = [&](int column) {
        return std::max(view->sizeHintForColumn(column), header->sectionSizeHint(column));
    };
    int others = 0;
    for (int column = AutotuneChoiceModel::Candidate + 1; column < AutotuneChoiceModel::ColumnCount;
         ++column)
        if (!m_candidates->isColumnHidden(column)) others += natural(column);
    const int full = natural(AutotuneChoiceModel::Candidate);
    const int room = m_candidates->viewport()->width() - others;
    m_candidates->setColumnWidth(AutotuneChoiceModel::Candidate,
                                 std::max(room, std::min(full, 160)));
}

bool KernelsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_candidates->viewport() && event->type() == QEvent::Resize)
        fitCandidateColumn();
    return Panel::eventFilter(watched, event);
}

void KernelsPanel::setTimeRange(qint64 startNs, qint64 endNs) {
    m_model->setTimeRange(startNs, endNs);
    updateBanner();
}

void KernelsPanel::updateBanner() {
    m_banner->setVisible(m_model->hasTimeRange());
    if (!m_model->hasTimeRange()) return;
    const SnapshotPtr& snap = m_model->snapshot();
    const qint64 all = snap ? static_cast<qint64>(snap->launches.size()) : 0;
    m_bannerLabel->setText(
        tr("Launches between %1 and %2: %3 of %4")
            .arg(formatDuration(m_model->rangeStartNs()), formatDuration(m_model->rangeEndNs()))
            .arg(m_model->launchesInRange())
            .arg(all));
}

void KernelsPanel::setFilterText(const QString& filter) {
    m_filterEdit->setText(filter);
}

void KernelsPanel::setKindFilter(const QString& kind) {
    m_kindCombo->setCurrentIndex(std::max(0, m_kindCombo->findData(kind)));
}

void KernelsPanel::setOnlySelectedGraph(bool only) {
    m_onlyGraph->setChecked(only);
}

QString KernelsPanel::codeText() const {
    return m_code->toPlainText();
}

QString KernelsPanel::codeHeaderText() const {
    return m_codeHeader->text();
}

QString KernelsPanel::candidatesText() const {
    QStringList lines{m_candidatesLabel->text()};
    for (int row = 0; row < m_choices->rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < AutotuneChoiceModel::ColumnCount; ++column)
            cells << m_choices->index(row, column).data().toString();
        lines << cells.join(QStringLiteral(" | "));
    }
    return lines.join(u'\n');
}

QString KernelsPanel::bannerText() const {
    return m_model->hasTimeRange() ? m_bannerLabel->text() : QString();
}

} // namespace kiln::views
