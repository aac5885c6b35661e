// SPDX-License-Identifier: MIT
#include "compare_panel.h"

#include "run_provenance.h"
#include "table_export.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <utility>

namespace kiln::views {

namespace {

/// A numeric column at one fixed precision, so that its digits line up and a column reads in
/// one unit (the model keeps every digit, for sorting and CSV): ms totals to the microsecond,
/// per-call µs to 10 ns, ratios to three decimals; the delta carries its sign. Never exponent
/// form ("-1e-05" in a ms column reads as a typo).
class NumberDelegate final : public QStyledItemDelegate {
public:
    NumberDelegate(int decimals, bool withSign, QObject* parent)
        : QStyledItemDelegate(parent)
        , m_decimals(decimals)
        , m_withSign(withSign) {}
    QString displayText(const QVariant& value, const QLocale& locale) const override {
        if (value.typeId() != QMetaType::Double)
            return QStyledItemDelegate::displayText(value, locale);
        const double v = value.toDouble();
        const QString zero = locale.toString(0.0, 'f', m_decimals);
        QString text = locale.toString(v, 'f', m_decimals);
        if (text == zero || text == locale.negativeSign() + zero) return zero; // no "-0.000"
        if (m_withSign && v > 0) text.prepend(locale.positiveSign());
        return text;
    }

private:
    int m_decimals;
    bool m_withSign;
};

QString seconds(std::optional<int64_t> ns) {
    return ns ? QString("%1 s").arg(static_cast<double>(*ns) * 1e-9, 0, 'f', 3)
              : QString("running");
}

QString millis(int64_t ns) {
    return QString("%1 ms").arg(static_cast<double>(ns) * 1e-6, 0, 'f', 3);
}

/// "1.23×", uncoloured: a run's totals are one sample each, with no spread to tell a difference
/// from noise (the per-kernel rows, measured over warm launches, are coloured when they can).
QString ratioCell(std::optional<int64_t> a, std::optional<int64_t> b) {
    if (!a || !b || *a <= 0) return {};
    double r = static_cast<double>(*b) / static_cast<double>(*a);
    return QString("%1×").arg(r, 0, 'f', 2);
}

QString totalsRow(const QString& what, const QString& a, const QString& b, const QString& ratio) {
    return QString("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td>"
                   "<td align=right>%4</td></tr>")
        .arg(what, a, b, ratio);
}

/// "1.234 ms (1.200–1.300, 20 calls)": a measured function's median call, min to p90.
QString measuredText(const MeasuredCalls* m) {
    if (!m) return QStringLiteral("–");
    auto ms = [](int64_t ns) { return QString::number(static_cast<double>(ns) * 1e-6, 'f', 3); };
    return QString("%1 ms (%2–%3, %4 calls)")
        .arg(ms(m->medianNs), ms(m->minNs), ms(m->p90Ns))
        .arg(m->count);
}

/// A measured function's B/A, coloured as the kernel rows are: only beyond the noise.
QString measuredRatioCell(const MeasuredCalls* a, const MeasuredCalls* b, bool noiseOnly) {
    std::optional<MeasuredRatio> r = a && b ? measuredRatio(*a, *b) : std::nullopt;
    if (!r) return {};
    QString text = QString("%1×").arg(r->ratio, 0, 'f', 2);
    if (!r->significant || noiseOnly) return text;
    return QString("<font color=%1>%2</font>").arg(r->ratio < 1.0 ? "#1b803c" : "#c62828", text);
}

const MeasuredCalls* measuredOf(const RunTotals& t, const std::string& function) {
    for (const MeasuredCalls& m : t.measured)
        if (m.function == function) return &m;
    return nullptr;
}

/// One row per function either run measured (A's order, then B's own).
QString measuredRows(const RunTotals& a, const RunTotals& b, bool noiseOnly) {
    std::vector<std::string> functions;
    for (const RunTotals* t : {&a, &b})
        for (const MeasuredCalls& m : t->measured)
            if (std::find(functions.begin(), functions.end(), m.function) == functions.end())
                functions.push_back(m.function);
    QString html;
    for (const std::string& f : functions) {
        const MeasuredCalls* ma = measuredOf(a, f);
        const MeasuredCalls* mb = measuredOf(b, f);
        html += totalsRow(QObject::tr("%1(), one call").arg(QString::fromStdString(f)),
                          measuredText(ma), measuredText(mb), measuredRatioCell(ma, mb, noiseOnly));
    }
    return html;
}

/// Chart categories must be unique: the same nodes can form a group in two graphs.
QStringList uniqueLabels(const std::vector<const ComparisonRow*>& rows) {
    QStringList labels;
    for (const ComparisonRow* row : rows) {
        QString label = row->nodesText();
        if (label.size() > 32) label = label.left(31) + "…";
        if (labels.contains(label)) label += " (" + row->label() + ")";
        labels << label;
    }
    return labels;
}

/// The matched groups with the most time per call in either run, largest first.
std::vector<const ComparisonRow*> topMatched(const RunComparison& c, int count) {
    std::vector<const ComparisonRow*> rows;
    for (const ComparisonRow& row : c.rows)
        if (row.status == MatchStatus::Matched) rows.push_back(&row);
    auto largest = [](const ComparisonRow* r) {
        return std::max(r->perCallNs(r->a), r->perCallNs(r->b));
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const auto* x, const auto* y) { return largest(x) > largest(y); });
    if (rows.size() > static_cast<size_t>(count)) rows.resize(static_cast<size_t>(count));
    return rows;
}

} // namespace

ComparePanel::ComparePanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel("compare", tr("Compare runs"), session, selection, parent)
    , m_tracePath(session.path()) {
    m_totals = new QLabel;
    m_totals->setObjectName("compareTotals");
    m_totals->setTextFormat(Qt::RichText);
    m_totals->setWordWrap(true); // the note of runs that compiled nothing is a paragraph
    m_totals->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bottom = new QWidget;
    auto* bottomLayout = new QHBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_totals);
    bottomLayout->addWidget(makeChartView(), 1);

    m_split = new QSplitter(Qt::Vertical);
    m_split->addWidget(makeTable());
    m_split->addWidget(bottom);
    m_split->installEventFilter(this);
    connect(m_split, &QSplitter::splitterMoved, this, [this] { m_userSized = true; });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makePickers());
    layout->addWidget(makeNotes());
    layout->addWidget(m_split, 1);

    connect(&session, &TraceSession::runsChanged, this, [this] { fillPickers(); });
    connect(&session, &TraceSession::snapshotReady, this,
            [this](qint64 runId, const SnapshotPtr& s) {
                adopt(runId, s);
                syncPickers();
            });
    fillPickers();
    catchUp();
}

QWidget* ComparePanel::makeTable() {
    m_model = new CompareModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(CompareModel::TotalAColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    // Fitting columns measures rows: the first hundred show what the widths need.
    m_table->horizontalHeader()->setResizeContentsPrecision(100);
    for (int column : {CompareModel::TotalAColumn, CompareModel::TotalBColumn})
        m_table->setItemDelegateForColumn(column, new NumberDelegate(3, false, m_table));
    m_table->setItemDelegateForColumn(CompareModel::DeltaColumn,
                                      new NumberDelegate(2, true, m_table));
    m_table->setItemDelegateForColumn(CompareModel::RatioColumn,
                                      new NumberDelegate(3, false, m_table));
    for (int column : {CompareModel::PerCallAColumn, CompareModel::PerCallBColumn})
        m_table->setItemDelegateForColumn(column, new NumberDelegate(2, false, m_table));
    addTableExportMenu(m_table);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { selectKernelOfRow(current); });
    return m_table;
}

QWidget* ComparePanel::makePickers() {
    m_pickA = new QComboBox;
    m_pickB = new QComboBox;
    for (QComboBox* pick : {m_pickA, m_pickB}) {
        pick->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        connect(pick, &QComboBox::activated, this, [this] { onPicked(); });
    }
    m_swap = new QPushButton(tr("Swap"));
    m_swap->setToolTip(tr("Make B the baseline"));
    connect(m_swap, &QPushButton::clicked, this, &ComparePanel::swapRuns);
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("A (baseline):")));
    layout->addWidget(m_pickA);
    layout->addWidget(m_swap);
    layout->addWidget(new QLabel(tr("B:")));
    layout->addWidget(m_pickB);
    layout->addStretch(1);
    return row;
}

QWidget* ComparePanel::makeNotes() {
    m_notes = new QLabel;
    m_notes->setObjectName("compareNotes");
    m_notes->setTextFormat(Qt::PlainText); // CPU and library names are not markup
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setContentsMargins(8, 4, 8, 4);
    paintAsBanner(m_notes);
    m_notes->hide();
    return m_notes;
}

QWidget* ComparePanel::makeChartView() {
    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chartView = new QChartView(m_chart);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(220);
    return m_chartView;
}

void ComparePanel::compareRuns(qint64 runA, qint64 runB, const QList<qint64>& replicatesA,
                               const QList<qint64>& replicatesB) {
    m_tracePath = session().path();
    m_userPicked = true;
    m_runA = runA;
    m_runB = runB;
    m_replicatesA = replicatesA;
    m_replicatesB = replicatesB;
    m_replicas.clear();
    syncPickers();
    readRuns();
}

void ComparePanel::swapRuns() {
    std::swap(m_runA, m_runB);
    std::swap(m_a, m_b);
    std::swap(m_replicatesA, m_replicatesB);
    m_userPicked = true;
    syncPickers();
    recompare();
}

void ComparePanel::fillPickers() {
    if (session().path() != m_tracePath) { // another trace: what was picked means nothing there
        m_tracePath = session().path();
        m_userPicked = false;
        m_runA = m_runB = 0;
        m_a = m_b = nullptr;
        m_replicatesA.clear();
        m_replicatesB.clear();
        m_replicas.clear();
        recompare();
    }
    if (!m_userPicked) pickDefaultRuns();
    syncPickers();
    // A trace opened again has dropped every snapshot: read the compared runs anew.
    bool lost = (m_a && !session().snapshot(m_runA)) || (m_b && !session().snapshot(m_runB));
    if (lost) readRuns();
}

/// The pickers list every run with its label (a run read since may name its backend now, a
/// live run its end). They are rebuilt only when the runs differ, so that a live run's many
/// refreshes leave an open drop-down alone.
void ComparePanel::syncPickers() {
    QList<std::pair<QString, qint64>> items;
    if (const RunRows& runs = session().runs())
        for (const trace::RunRow& r : *runs)
            items.append({runLabel(r, session().snapshot(r.id).get()), r.id});
    for (auto [pick, runId] : {std::pair(m_pickA, m_runA), std::pair(m_pickB, m_runB)}) {
        bool sameRuns = pick->count() == items.size();
        for (int i = 0; sameRuns && i < pick->count(); ++i)
            sameRuns = pick->itemData(i).toLongLong() == items[i].second;
        if (!sameRuns) pick->clear();
        for (int i = 0; i < items.size(); ++i)
            if (!sameRuns)
                pick->addItem(items[i].first, QVariant::fromValue<qint64>(items[i].second));
            else if (pick->itemText(i) != items[i].first)
                pick->setItemText(i, items[i].first);
        pick->setCurrentIndex(pick->findData(QVariant::fromValue<qint64>(runId)));
    }
    m_swap->setEnabled(m_runA > 0 && m_runB > 0);
}

/// The newest run and the newest older run of the same workload (the same script's bytes);
/// without such a pair, the two newest runs; the only run as A when there is one.
void ComparePanel::pickDefaultRuns() {
    const RunRows& runs = session().runs();
    if (!runs || runs->empty()) return;
    const trace::RunRow& newest = runs->back();
    if (runs->size() == 1) { // shown as A, with a word on how to get a B
        if (m_runA == newest.id && m_runB == 0) return;
        m_runA = newest.id;
        m_runB = 0;
        readRuns();
        return;
    }
    qint64 baseline = (*runs)[runs->size() - 2].id;
    for (auto it = runs->rbegin() + 1; it != runs->rend(); ++it)
        if (it->workloadHash == newest.workloadHash) {
            baseline = it->id;
            break;
        }
    if (baseline == m_runA && newest.id == m_runB) return;
    m_runA = baseline;
    m_runB = newest.id;
    m_replicatesA.clear();
    m_replicatesB.clear();
    readRuns();
}

void ComparePanel::onPicked() {
    m_userPicked = true;
    m_runA = m_pickA->currentData().toLongLong();
    m_runB = m_pickB->currentData().toLongLong();
    m_replicatesA.clear();
    m_replicatesB.clear();
    m_swap->setEnabled(m_runA > 0 && m_runB > 0);
    readRuns();
}

void ComparePanel::readRuns() {
    m_a = m_runA > 0 ? session().snapshot(m_runA) : nullptr;
    m_b = m_runB > 0 ? session().snapshot(m_runB) : nullptr;
    m_replicas.clear();
    for (qint64 id : m_replicatesA + m_replicatesB)
        if (SnapshotPtr held = session().snapshot(id)) m_replicas[id] = held;
    recompare();
    // A run the session holds was asked for before, and the session keeps those fresh.
    for (auto [id, held] : {std::pair(m_runA, m_a), std::pair(m_runB, m_b)})
        if (id > 0 && !held) session().requestSnapshot(id);
    for (qint64 id : m_replicatesA + m_replicatesB)
        if (!m_replicas.count(id)) session().requestSnapshot(id);
}

void ComparePanel::adopt(qint64 runId, const SnapshotPtr& snapshot) {
    if (!snapshot) return;
    bool changed = false;
    for (auto [id, held] : {std::pair(m_runA, &m_a), std::pair(m_runB, &m_b)})
        if (id == runId && *held != snapshot) {
            *held = snapshot;
            changed = true;
        }
    if ((m_replicatesA.contains(runId) || m_replicatesB.contains(runId)) &&
        m_replicas[runId] != snapshot) {
        m_replicas[runId] = snapshot;
        changed = true;
    }
    if (changed) recompare();
}

void ComparePanel::showSnapshot(const SnapshotPtr& snapshot) {
    // The selected run's snapshot may come through the selection before the session signals.
    if (snapshot) adopt(snapshot->run.id, snapshot);
}

void ComparePanel::showSelection(const SelectionState& state) {
    if (state.kernelId < 0 || (state.runId != m_runA && state.runId != m_runB)) return;
    int row = m_model->rowOfKernel(state.kernelId, state.runId == m_runB);
    if (row < 0) return;
    QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (index.row() == m_table->currentIndex().row()) return;
    m_following = true;
    m_table->selectRow(index.row());
    m_following = false;
}

void ComparePanel::selectKernelOfRow(const QModelIndex& proxyIndex) {
    const ComparisonRow* row = m_model->rowAt(m_proxy->mapToSource(proxyIndex).row());
    qint64 run = selection().state().runId;
    if (m_following || !row || (run != m_runA && run != m_runB)) return;
    const ComparisonSide& side = run == m_runA ? row->a : row->b;
    // The group's largest kernel stands for it (kernels are sorted by time).
    if (side.present()) selection().selectKernel(side.kernels.front().kernelId);
}

void ComparePanel::recompare() {
    m_deferred.reset(); // whatever was computed while hidden is older than this
    // Matching two runs of thousands of kernels takes long enough to stall the window while a
    // run streams: it runs on a pool thread over the immutable snapshots, one at a time.
    if (m_comparing) {
        m_recomparePending = true;
        return;
    }
    if (!m_a || !m_b) return applyComparison({}, nullptr, nullptr);
    m_comparing = true;
    SnapshotPtr a = m_a, b = m_b;
    // The replicates read so far (a missing one is compared without until it comes).
    auto held = [this](const QList<qint64>& ids) {
        std::vector<SnapshotPtr> out;
        for (qint64 id : ids)
            if (auto it = m_replicas.find(id); it != m_replicas.end() && it->second)
                out.push_back(it->second);
        return out;
    };
    std::vector<SnapshotPtr> moreA = held(m_replicatesA), moreB = held(m_replicatesB);
    auto* watcher = new QFutureWatcher<RunComparison>(this);
    connect(watcher, &QFutureWatcher<RunComparison>::finished, this, [this, watcher, a, b] {
        watcher->deleteLater();
        m_comparing = false;
        if (std::exchange(m_recomparePending, false)) return recompare();
        // Behind another tab of a shown window nobody sees the table: fill it when shown.
        if (window()->isVisible() && !isVisible()) {
            m_deferred = Deferred{watcher->result(), a, b};
            return;
        }
        applyComparison(watcher->result(), a, b);
    });
    watcher->setFuture(QtConcurrent::run([a, b, moreA, moreB] {
        auto side = [](const SnapshotPtr& run, const std::vector<SnapshotPtr>& more) {
            ComparedRuns out{run.get(), {}};
            for (const SnapshotPtr& s : more)
                out.replicates.push_back(s.get());
            return out;
        };
        return views::compareRuns(side(a, moreA), side(b, moreB));
    }));
}

void ComparePanel::applyComparison(RunComparison comparison, const SnapshotPtr& a,
                                   const SnapshotPtr& b) {
    if (a && b)
        m_model->setComparison(std::move(comparison), runLabel(a->run, a.get()),
                               runLabel(b->run, b.get()));
    else
        m_model->setComparison({}, {}, {});
    m_table->resizeColumnsToContents();
    for (int c :
         {CompareModel::NodesColumn, CompareModel::KernelsAColumn, CompareModel::KernelsBColumn})
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 240));
    showTotals();
    showNotes();
    fillChart();
    fitTableHeight();
    showSelection(selection().state()); // a live run's refresh keeps the selected kernel's row
}

void ComparePanel::showEvent(QShowEvent* event) {
    Panel::showEvent(event);
    if (m_deferred) {
        Deferred d = std::move(*m_deferred);
        m_deferred.reset();
        applyComparison(std::move(d.comparison), d.a, d.b);
    }
}

bool ComparePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_split && event->type() == QEvent::Resize) fitTableHeight();
    return Panel::eventFilter(watched, event);
}

/// A few groups do not need half the panel: the table takes what its rows need (within a
/// quarter and three fifths of the height) and the chart the rest, until the user drags.
void ComparePanel::fitTableHeight() {
    int total = m_split->height() - m_split->handleWidth();
    if (m_userSized || total <= 0) return;
    int wanted = m_table->verticalHeader()->length() +
                 m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth() +
                 m_table->horizontalScrollBar()->sizeHint().height();
    int table = std::clamp(wanted, total / 4, total * 3 / 5);
    m_split->setSizes({table, total - table});
}

void ComparePanel::showTotals() {
    const RunRows& runs = session().runs();
    if (!m_a || !m_b) {
        m_totals->setText(runs && runs->size() < 2
                              ? tr("This trace has one run: run the workload again in another "
                                   "mode to compare.")
                              : tr("Reading the runs…"));
        return;
    }
    const RunTotals& a = m_model->comparison().a;
    const RunTotals& b = m_model->comparison().b;
    // Without compiled code on both sides a ratio would only measure noise: say so instead.
    const QString nothing = nothingCompiledNote(*m_a, *m_b);
    auto ratio = [&](std::optional<int64_t> x, std::optional<int64_t> y) {
        return nothing.isEmpty() ? ratioCell(x, y) : QString();
    };
    QString html = nothing.isEmpty() ? QString() : "<p><b>" + nothing.toHtmlEscaped() + "</b></p>";
    const bool same = m_model->comparison().sameConfiguration;
    if (same)
        html += "<p><b>" +
                tr("A and B ran the same script with the same options on the same device: "
                   "their differences are the machine's noise, not results (no ratio is "
                   "coloured).")
                    .toHtmlEscaped() +
                "</b></p>";
    html += "<table cellspacing=0 cellpadding=3>";
    html += QString("<tr><th></th><th align=right>A #%1</th><th align=right>B #%2</th>"
                    "<th align=right>B/A</th></tr>")
                .arg(m_a->run.id)
                .arg(m_b->run.id);
    if (nothing.isEmpty()) html += measuredRows(a, b, same);
    html += totalsRow(tr("end to end"), seconds(a.wallNs), seconds(b.wallNs),
                      ratio(a.wallNs, b.wallNs));
    html += totalsRow(tr("kernel time"), millis(a.kernelNs), millis(b.kernelNs),
                      ratio(a.kernelNs, b.kernelNs));
    html += totalsRow(tr("compile time"), millis(a.compileNs), millis(b.compileNs),
                      ratio(a.compileNs, b.compileNs));
    html += totalsRow(tr("kernel cache"), cacheText(a.cachedKernels, a.compiledKernels),
                      cacheText(b.cachedKernels, b.compiledKernels), {});
    if (a.tuningCandidates > 0 || b.tuningCandidates > 0)
        html += totalsRow(tr("tuning cache"), cacheText(a.tunedFromCache, a.tuningCandidates),
                          cacheText(b.tunedFromCache, b.tuningCandidates), {});
    html += totalsRow(tr("kernels"), QString::number(a.kernelCount), QString::number(b.kernelCount),
                      {});
    html += totalsRow(tr("launches"), QString::number(a.launchCount),
                      QString::number(b.launchCount), {});
    const QString pooled =
        a.runs > 1 || b.runs > 1
            ? tr("Calls and warm launches are pooled over %1 runs of A and %2 of B, recorded in "
                 "turn (A, B, A, B, …), so the ranges hold what changes between runs too. ")
                  .arg(a.runs)
                  .arg(b.runs)
            : (a.measured.empty() && b.measured.empty()
                   ? QString()
                   : tr("One run each: the ranges hold what varies within a run, not the "
                        "machine's drift between runs (Compare modes records each mode three "
                        "times, in turn). "));
    html += "</table><p>" +
            (a.measured.empty() && b.measured.empty()
                 ? tr("Neither run measured its compiled functions (Measure in the toolbar; "
                      "Compare modes always measures). ")
                 : QString()) +
            pooled.toHtmlEscaped() +
            tr("A measured function's one call is its median, then min–p90. End to end, kernel "
               "time and compile time are one run each (no spread: not coloured). A B/A is "
               "coloured only when the ranges (min to p90) of calls or warm launches are apart.")
                .toHtmlEscaped() +
            "</p>";
    m_totals->setText(html);
}

void ComparePanel::showNotes() {
    const QStringList notes = m_a && m_b ? comparisonNotes(*m_a, *m_b) : QStringList();
    m_notes->setText(notes.join('\n'));
    m_notes->setVisible(!notes.isEmpty());
    m_notes->setToolTip(
        m_a && m_b
            ? tr("A: %1\n\nB: %2").arg(machineDetailsText(m_a->run), machineDetailsText(m_b->run))
            : QString());
}

QString ComparePanel::notesText() const {
    return m_notes->isHidden() ? QString() : m_notes->text();
}

void ComparePanel::fillChart() {
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes())
        m_chart->removeAxis(axis);
    std::vector<const ComparisonRow*> rows;
    if (m_a && m_b) rows = topMatched(m_model->comparison(), kChartGroups);
    m_chartView->setVisible(!rows.empty()); // an empty chart is a white box that says nothing
    if (rows.empty()) return;
    int64_t maxNs = 0;
    for (const ComparisonRow* r : rows)
        maxNs = std::max({maxNs, r->perCallNs(r->a), r->perCallNs(r->b)});
    // Microseconds for small workloads, so the axis does not read 0.000 … 0.002.
    const bool micro = maxNs < 1'000'000;
    const double scale = micro ? 1e-3 : 1e-6;
    auto* setA = new QBarSet("A: " + runLabel(m_a->run, m_a.get()));
    auto* setB = new QBarSet("B: " + runLabel(m_b->run, m_b.get()));
    setA->setColor(QColor(0x5b, 0x8d, 0xd6));
    setB->setColor(QColor(0xf0, 0x9a, 0x3e));
    // A horizontal bar chart draws its first category at the bottom: append smallest first.
    QStringList labels = uniqueLabels(rows);
    QStringList categories;
    for (size_t i = rows.size(); i-- > 0;) {
        *setA << static_cast<double>(rows[i]->perCallNs(rows[i]->a)) * scale;
        *setB << static_cast<double>(rows[i]->perCallNs(rows[i]->b)) * scale;
        categories << labels[static_cast<qsizetype>(i)];
    }
    auto* series = new QHorizontalBarSeries;
    series->append(setA);
    series->append(setB);
    m_chart->addSeries(series);
    auto* groups = new QBarCategoryAxis;
    groups->append(categories);
    m_chart->addAxis(groups, Qt::AlignLeft);
    series->attachAxis(groups);
    auto* time = new QValueAxis;
    time->setTitleText(micro ? tr("kernel time of one call, µs")
                             : tr("kernel time of one call, ms"));
    m_chart->addAxis(time, Qt::AlignBottom);
    series->attachAxis(time);
    time->setRange(0, std::max(static_cast<double>(maxNs) * scale, 1e-3));
    time->applyNiceNumbers();
    m_chart->setTitle(tr("Matched groups by kernel time per call (top %1)").arg(rows.size()));
}

QStringList ComparePanel::chartCategories() const {
    for (QAbstractAxis* axis : m_chart->axes(Qt::Vertical))
        if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
            QStringList list = categories->categories();
            std::reverse(list.begin(), list.end());
            return list;
        }
    return {};
}

} // namespace kiln::views
