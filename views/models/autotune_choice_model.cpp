// SPDX-License-Identifier: MIT
#include "autotune_choice_model.h"

#include "kernel_table_model.h"
#include "run_provenance.h"

#include <QColor>
#include <QFont>
#include <algorithm>

namespace kiln::views {

namespace {

const char* const kHeaders[AutotuneChoiceModel::ColumnCount] = {"candidate", "median",   "runs",
                                                                "spread",    "measured", "outcome"};

const char* const kHeaderTips[AutotuneChoiceModel::ColumnCount] = {
    "what the compiler tried for this kernel",
    "the median time of one call over the timed runs (after a warm-up run)",
    "how many timed runs the median summarises",
    "the fastest to the slowest timed run",
    "this run: measured while this run compiled the kernel; tuning cache: measured by an "
    "earlier run on the same CPU for the same kernel and sizes, and reused without measuring "
    "again",
    "chosen: the candidate the compiler kept; stopped early: timing stopped after one run "
    "because it was already far slower than the best, so it could not win"};

const QString kCacheExplanation =
    QStringLiteral("Measured by an earlier run on the same CPU for the same kernel and sizes, "
                   "and read from the tuning cache: not measured again in this run.");

bool isNumeric(int column) {
    return column == AutotuneChoiceModel::Median || column == AutotuneChoiceModel::Runs ||
           column == AutotuneChoiceModel::Spread;
}

/// ns per unit and the unit's name, by the largest value shown.
std::pair<double, const char*> unitFor(qint64 ns) {
    if (ns >= 1'000'000'000) return {1e9, "s"};
    if (ns >= 1'000'000) return {1e6, "ms"};
    if (ns >= 1'000) return {1e3, "µs"};
    return {1.0, "ns"};
}

} // namespace

QString formatDurationRange(qint64 lowNs, qint64 highNs) {
    auto [scale, unit] = unitFor(highNs);
    const int decimals = scale == 1.0 ? 0 : scale == 1e3 ? 1 : 2;
    return QStringLiteral("%1–%2 %3")
        .arg(static_cast<double>(lowNs) / scale, 0, 'f', decimals)
        .arg(static_cast<double>(highNs) / scale, 0, 'f', decimals)
        .arg(QString::fromUtf8(unit));
}

void AutotuneChoiceModel::setChoices(std::vector<trace::AutotuneChoiceRow> choices) {
    beginResetModel();
    m_choices = std::move(choices);
    std::stable_sort(m_choices.begin(), m_choices.end(),
                     [](const auto& a, const auto& b) { return a.timeNs < b.timeNs; });
    endResetModel();
}

const trace::AutotuneChoiceRow* AutotuneChoiceModel::choiceAt(int row) const {
    if (row < 0 || row >= rowCount()) return nullptr;
    return &m_choices[static_cast<size_t>(row)];
}

bool AutotuneChoiceModel::columnHasValues(int column) const {
    for (const trace::AutotuneChoiceRow& c : m_choices)
        if (display(c, column).isValid()) return true;
    return false;
}

QString AutotuneChoiceModel::originSummary() const {
    const TuningOrigin origin = tuningOrigin(m_choices);
    const int all = origin.total();
    const QString candidates =
        all == 1 ? QStringLiteral("1 candidate") : QStringLiteral("%1 candidates").arg(all);
    if (origin.cached == 0 && origin.measured == 0) return candidates;
    if (origin.cached == all)
        return candidates + QStringLiteral(", timed by an earlier run (tuning cache)");
    if (origin.measured == all) return candidates + QStringLiteral(", measured in this run");
    QString text = QStringLiteral("%1 measured in this run, %2 from the tuning cache")
                       .arg(origin.measured)
                       .arg(origin.cached);
    if (origin.unknown > 0) text += QStringLiteral(", %1 not recorded").arg(origin.unknown);
    return text;
}

int AutotuneChoiceModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_choices.size());
}

int AutotuneChoiceModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AutotuneChoiceModel::raw(const trace::AutotuneChoiceRow& c, int column) const {
    switch (column) {
    case Candidate:
        return QString::fromStdString(c.candidate);
    case Median:
        return QVariant::fromValue<qint64>(c.timeNs);
    case Runs:
        return c.runs > 0 ? QVariant(c.runs) : QVariant();
    case Spread:
        return c.hasSpread() ? QVariant::fromValue<qint64>(c.maxNs - c.minNs) : QVariant();
    case Measured:
        return c.fromCache ? QVariant(*c.fromCache) : QVariant();
    case Outcome:
        // Chosen first, then the candidates that lost in full, then those cut short.
        return c.chosen ? 0 : c.stoppedEarly.value_or(false) ? 2 : 1;
    }
    return {};
}

QVariant AutotuneChoiceModel::display(const trace::AutotuneChoiceRow& c, int column) const {
    switch (column) {
    case Candidate:
        return QString::fromStdString(c.candidate);
    case Median:
        return formatDuration(c.timeNs);
    case Runs:
        return raw(c, Runs);
    case Spread:
        return c.hasSpread() ? QVariant(formatDurationRange(c.minNs, c.maxNs)) : QVariant();
    case Measured:
        if (!c.fromCache) return {}; // an older trace: not recorded
        return *c.fromCache ? QStringLiteral("tuning cache") : QStringLiteral("this run");
    case Outcome:
        if (c.chosen) return QStringLiteral("✓ chosen");
        if (c.stoppedEarly.value_or(false)) return QStringLiteral("stopped early (could not win)");
        return {};
    }
    return {};
}

QVariant AutotuneChoiceModel::toolTip(const trace::AutotuneChoiceRow& c, int column) const {
    switch (column) {
    case Candidate:
        return QString::fromStdString(c.candidate);
    case Median:
        if (c.stoppedEarly.value_or(false))
            return QStringLiteral("One timed run: timing stopped there, the candidate was "
                                  "already far slower than the best.");
        if (c.runs > 0)
            return QStringLiteral("The median of %1 timed runs (after a warm-up run).").arg(c.runs);
        return QStringLiteral("How this time was measured is not recorded.");
    case Runs:
    case Spread:
        if (!c.hasSpread()) return {};
        return QStringLiteral("%1 timed runs: fastest %2, median %3, slowest %4")
            .arg(c.runs)
            .arg(formatDuration(c.minNs), formatDuration(c.timeNs), formatDuration(c.maxNs));
    case Measured:
        if (!c.fromCache)
            return QStringLiteral("Not recorded: the trace was written before Kiln recorded "
                                  "where autotuning times come from.");
        return *c.fromCache ? kCacheExplanation
                            : QStringLiteral("Measured while this run compiled the kernel.");
    case Outcome:
        if (c.chosen) return QStringLiteral("The compiler kept this candidate.");
        if (c.stoppedEarly.value_or(false))
            return QStringLiteral("Timing stopped after the first run: it was already far slower "
                                  "than the best candidate so far, so it could not win. Its time "
                                  "is that one run.");
        return {};
    }
    return {};
}

QVariant AutotuneChoiceModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const trace::AutotuneChoiceRow& c = m_choices[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(c, index.column());
    case SortRole:
        return raw(c, index.column());
    case Qt::ToolTipRole:
        return toolTip(c, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::FontRole: {
        if (!c.chosen) return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::ForegroundRole:
        // A candidate cut short is no contender: its one time is shown, but muted.
        return c.stoppedEarly.value_or(false) && !c.chosen ? QVariant(QColor(0x75, 0x75, 0x75))
                                                           : QVariant();
    default:
        return {};
    }
}

QVariant AutotuneChoiceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return QString::fromUtf8(kHeaders[section]);
    if (role == Qt::ToolTipRole) return QString::fromUtf8(kHeaderTips[section]);
    return {};
}

} // namespace kiln::views
