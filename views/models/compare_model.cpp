// SPDX-License-Identifier: MIT
#include "compare_model.h"

#include "autotune_choice_model.h"
#include "counted.h"

#include <QColor>
#include <QStringList>

namespace kiln::views {

namespace {

double ms(int64_t ns) {
    return static_cast<double>(ns) * 1e-6;
}

double us(int64_t ns) {
    return static_cast<double>(ns) * 1e-3;
}

/// "✓ template tile=64x64x32: 30.0 µs (median of 9 runs, 27.0–33.0 µs; tuning cache)".
QString choiceLine(const trace::AutotuneChoiceRow& c) {
    QStringList how;
    if (c.stoppedEarly.value_or(false))
        how << "stopped early, could not win";
    else if (c.hasSpread())
        how << QString("median of %1 runs, %2")
                   .arg(c.runs)
                   .arg(formatDurationRange(c.minNs, c.maxNs));
    if (c.fromCache.value_or(false)) how << "tuning cache";
    QString line = QString("    %1 %2: %3 µs")
                       .arg(c.chosen ? "✓" : "  ", QString::fromStdString(c.candidate))
                       .arg(us(c.timeNs), 0, 'f', 1);
    return how.isEmpty() ? line : line + " (" + how.join("; ") + ")";
}

/// "warm: 19 launches, median 6.0 µs (5.8–6.4 µs, min to p90); first launch 48.9 µs".
QString warmLine(const WarmTimes& w) {
    if (w.count == 0)
        return QString("one launch (%1 µs): no warm launch to measure")
            .arg(us(w.coldNs), 0, 'f', 1);
    return QString("warm: %1 launches, median %2 µs (%3–%4 µs, min to p90); first launch %5 µs")
        .arg(w.count)
        .arg(us(w.medianNs), 0, 'f', 1)
        .arg(us(w.minNs), 0, 'f', 1)
        .arg(us(w.p90Ns), 0, 'f', 1)
        .arg(us(w.coldNs), 0, 'f', 1);
}

/// Why a matched row's ratio is or is not a result (the ratio cell's tooltip).
QString ratioLine(const ComparisonRow& row) {
    double r = *row.ratio();
    if (!row.a.measured() || !row.b.measured())
        return QString("B/A of one call's median: %1. Not a measurement: every kernel needs %2 "
                       "launches after its first (the first pays for cold caches), so run more "
                       "calls")
            .arg(r, 0, 'f', 3)
            .arg(kMinWarmLaunches);
    QString ranges = QString("A %1 µs (%2–%3), B %4 µs (%5–%6) per warm call")
                         .arg(us(row.a.warmMedianNs), 0, 'f', 1)
                         .arg(us(row.a.warmLowNs), 0, 'f', 1)
                         .arg(us(row.a.warmHighNs), 0, 'f', 1)
                         .arg(us(row.b.warmMedianNs), 0, 'f', 1)
                         .arg(us(row.b.warmLowNs), 0, 'f', 1)
                         .arg(us(row.b.warmHighNs), 0, 'f', 1);
    if (row.sameConfiguration)
        return QString("B takes %1 of A's time: A and B ran the same configuration, so the "
                       "difference is the machine's noise (%2)")
            .arg(r, 0, 'f', 3)
            .arg(ranges);
    if (!row.significant())
        return QString("B takes %1 of A's time: within the noise (%2: the ranges, min to p90, "
                       "overlap)")
            .arg(r, 0, 'f', 3)
            .arg(ranges);
    return QString("B takes %1 of A's time (%2)").arg(r, 0, 'f', 3).arg(ranges);
}

/// Each kernel on its own line with its launches and time, then the candidates autotuning
/// measured for it, the kept one marked, with how each was measured (the names cell's tooltip).
QString kernelLines(const ComparisonSide& side) {
    QStringList lines;
    for (const ComparedKernel& k : side.kernels) {
        lines << QString("%1 (%2): %3, %4 ms, %5 µs per call")
                     .arg(QString::fromStdString(k.name), QString::fromStdString(k.kind))
                     .arg(counted(k.launches, "launch"))
                     .arg(ms(k.totalNs), 0, 'f', 3)
                     .arg(us(k.medianNs), 0, 'f', 1);
        if (k.launches > 0) lines << "    " + warmLine(k.warm);
        for (const trace::AutotuneChoiceRow& c : k.choices)
            lines << choiceLine(c);
    }
    return lines.join('\n');
}

bool isNumeric(int column) {
    return column != CompareModel::GraphColumn && column != CompareModel::NodesColumn &&
           column != CompareModel::KernelsAColumn && column != CompareModel::KernelsBColumn &&
           column != CompareModel::StatusColumn;
}

} // namespace

int CompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_comparison.rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ComparisonRow& row = m_comparison.rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        return toolTip(row, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ForegroundRole:
        // Only a difference larger than the noise is a result.
        if (index.column() == RatioColumn && row.ratio() && row.significant())
            return *row.ratio() < 1.0 ? QColor(0x1b, 0x80, 0x3c) : QColor(0xc6, 0x28, 0x28);
        return {};
    default:
        return {};
    }
}

QVariant CompareModel::display(const ComparisonRow& row, int column) const {
    auto ifPresent = [](const ComparisonSide& side, double value) {
        return side.present() ? QVariant(value) : QVariant();
    };
    switch (column) {
    case GraphColumn:
        return row.label();
    case NodesColumn:
        return row.nodesText();
    case KernelsAColumn:
        return row.a.names();
    case TotalAColumn:
        return ifPresent(row.a, ms(row.a.totalNs));
    case PerCallAColumn:
        return ifPresent(row.a, us(row.perCallNs(row.a)));
    case KernelsBColumn:
        return row.b.names();
    case TotalBColumn:
        return ifPresent(row.b, ms(row.b.totalNs));
    case PerCallBColumn:
        return ifPresent(row.b, us(row.perCallNs(row.b)));
    case DeltaColumn:
        return us(row.deltaNs());
    case RatioColumn:
        return row.ratio() ? QVariant(*row.ratio()) : QVariant();
    case StatusColumn:
        return matchStatusName(row.status);
    default:
        return {};
    }
}

QVariant CompareModel::toolTip(const ComparisonRow& row, int column) const {
    switch (column) {
    case NodesColumn:
        return row.nodesText();
    case KernelsAColumn:
        return kernelLines(row.a);
    case KernelsBColumn:
        return kernelLines(row.b);
    case RatioColumn:
        return row.ratio() ? QVariant(ratioLine(row)) : QVariant();
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const headers[ColumnCount] = {
        "graph",    "nodes",    "A µs/call", "B µs/call", "Δ µs/call", "B/A",
        "A ms all", "B ms all", "A kernels", "B kernels", "status"};
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return QString::fromUtf8(headers[section]);
    if (role != Qt::ToolTipRole) return {};
    QString tip;
    bool ofA = section == TotalAColumn || section == PerCallAColumn || section == KernelsAColumn;
    bool ofB = section == TotalBColumn || section == PerCallBColumn || section == KernelsBColumn;
    if (ofA) tip = "A: " + m_labelA;
    if (ofB) tip = "B: " + m_labelB;
    static const char* const perCall =
        "one call of the group: the sum of its kernels' median launch times (of the launches "
        "after each kernel's first when every kernel of both sides has at least 3 of them, "
        "else of all launches)";
    if (section == PerCallAColumn || section == PerCallBColumn) tip += QString("\n") + perCall;
    if (section == TotalAColumn || section == TotalBColumn)
        tip += "\nevery launch of the group's kernels, ms (depends on how many calls the run "
               "made)";
    if (section == DeltaColumn) tip = QString("B − A of ") + perCall + ", µs";
    if (section == RatioColumn)
        tip = QString("B / A of ") + perCall +
              ": below 1, B is faster; coloured only when the two sides' warm ranges (min to "
              "p90) are apart";
    return tip.isEmpty() ? QVariant() : QVariant(tip);
}

void CompareModel::setComparison(RunComparison comparison, const QString& labelA,
                                 const QString& labelB) {
    beginResetModel();
    m_comparison = std::move(comparison);
    m_labelA = labelA;
    m_labelB = labelB;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

const ComparisonRow* CompareModel::rowAt(int row) const {
    if (row < 0 || row >= rowCount()) return nullptr;
    return &m_comparison.rows[static_cast<size_t>(row)];
}

int CompareModel::rowOfKernel(int64_t kernelId, bool inB) const {
    for (int r = 0; r < rowCount(); ++r) {
        const ComparisonSide& side =
            inB ? m_comparison.rows[size_t(r)].b : m_comparison.rows[size_t(r)].a;
        for (const ComparedKernel& k : side.kernels)
            if (k.kernelId == kernelId) return r;
    }
    return -1;
}

} // namespace kiln::views
