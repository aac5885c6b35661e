// SPDX-License-Identifier: MIT
#include "kernels_panel.h"

#include "kernel_table_model.h"
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
#include <QTableWidget>
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

QString kernelHeader(const KernelRecord& k) {
    const trace::KernelRow& r = k.kernel;
    QString html = QStringLiteral("<b>%1</b> &nbsp;·&nbsp; %2 &nbsp;·&nbsp; graph %3 #%4")
                       .arg(text(r.name).toHtmlEscaped(), text(r.kind).toHtmlEscaped(),
                            text(r.compileId).toHtmlEscaped())
                       .arg(r.graphIndex);
    if (!r.fusedNodes.empty())
        html += QStringLiteral("<br>fused nodes: %1")
                    .arg(text(r.fusedNodes).replace(u',', QStringLiteral(", ")).toHtmlEscaped());
    html +=
        QStringLiteral("<br>launch: %1")
            .arg(r.launchConfig.empty() ? QStringLiteral("not compiled (runs as a library call)")
                                        : text(r.launchConfig).toHtmlEscaped());
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
    m_banner->setAutoFillBackground(true);
    QPalette palette = m_banner->palette();
    palette.setColor(QPalette::Window, QColor(255, 243, 205));
    palette.setColor(QPalette::WindowText, QColor(102, 77, 3));
    m_banner->setPalette(palette);
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

    auto* tuneBox = new QWidget(details);
    auto* tuneLayout = new QVBoxLayout(tuneBox);
    tuneLayout->setContentsMargins(0, 0, 0, 0);
    m_candidatesLabel = sectionLabel(tuneBox);
    m_candidates = new QTableWidget(0, 3, tuneBox);
    m_candidates->setHorizontalHeaderLabels({tr("candidate"), tr("time"), tr("chosen")});
    m_candidates->verticalHeader()->hide();
    m_candidates->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_candidates->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_candidates->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_candidates->setWordWrap(false);
    m_candidates->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    addTableExportMenu(m_candidates);
    tuneLayout->addWidget(m_candidatesLabel);
    tuneLayout->addWidget(m_candidates, 1);

    auto* split = new QSplitter(Qt::Horizontal, details);
    split->addWidget(m_code);
    split->addWidget(tuneBox);
    split->setSizes({600, 400});
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
        m_codeHeader->setText(kernelHeader(*k));
        // Re-setting the same code would scroll the view back to its first line.
        const QString code = text(k->kernel.sourceCode);
        if (!sameKernel || m_code->toPlainText() != code) m_code->setPlainText(code);
    }
    showCandidates(k); // a live run may have added candidates to the kernel shown
}

void KernelsPanel::showCandidates(const KernelRecord* kernel) {
    const SnapshotPtr& snap = m_model->snapshot();
    std::vector<const trace::AutotuneChoiceRow*> choices;
    if (kernel) choices = snap->choicesOf(kernel->kernel.kernelId);
    std::sort(choices.begin(), choices.end(),
              [](auto* a, auto* b) { return a->timeNs < b->timeNs; });
    m_candidates->setRowCount(static_cast<int>(choices.size()));
    m_candidates->setVisible(!choices.empty());
    if (!kernel)
        m_candidatesLabel->setText(tr("<b>Autotuning</b>"));
    else if (choices.empty())
        m_candidatesLabel->setText(
            snap->run.mode == "default" || snap->run.mode.empty()
                ? tr("<b>Autotuning</b><br>No autotuning (default mode).")
                : tr("<b>Autotuning</b><br>No candidates: max-autotune measured none<br>for "
                     "this %1 kernel.")
                      .arg(text(kernel->kernel.kind).toHtmlEscaped()));
    else
        m_candidatesLabel->setText(
            tr("<b>Autotuning</b>: %1 candidates measured").arg(choices.size()));
    for (int row = 0; row < static_cast<int>(choices.size()); ++row) {
        const trace::AutotuneChoiceRow& c = *choices[static_cast<size_t>(row)];
        auto* time = new QTableWidgetItem(formatDuration(c.timeNs));
        time->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        QTableWidgetItem* items[] = {new QTableWidgetItem(text(c.candidate)), time,
                                     new QTableWidgetItem(c.chosen ? tr("✓ chosen") : QString())};
        for (int col = 0; col < 3; ++col) {
            QFont font = items[col]->font();
            font.setBold(c.chosen);
            items[col]->setFont(font);
            m_candidates->setItem(row, col, items[col]);
        }
    }
    m_candidates->resizeColumnToContents(1);
    m_candidates->resizeColumnToContents(2);
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
    for (int row = 0; row < m_candidates->rowCount(); ++row)
        lines << QStringLiteral("%1 | %2 | %3")
                     .arg(m_candidates->item(row, 0)->text(), m_candidates->item(row, 1)->text(),
                          m_candidates->item(row, 2)->text());
    return lines.join(u'\n');
}

QString KernelsPanel::bannerText() const {
    return m_model->hasTimeRange() ? m_bannerLabel->text() : QString();
}

} // namespace kiln::views
