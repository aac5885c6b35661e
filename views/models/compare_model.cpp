// SPDX-License-Identifier: MIT
#include "compare_model.h"

#include "autotune_choice_model.h"

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

/// Each kernel on its own line with its launches and time, then the candidates autotuning
/// measured for it, the kept one marked, with how each was measured (the names cell's tooltip).
QString kernelLines(const ComparisonSide& side) {
    QStringList lines;
    for (const ComparedKernel& k : side.kernels) {
        lines << QString("%1 (%2): %3 launches, %4 ms, %5 µs per call")
                     .arg(QString::fromStdString(k.name), QString::fromStdString(k.kind))
                     .arg(k.launches)
                     .arg(ms(k.totalNs), 0, 'f', 3)
                     .arg(us(k.medianNs), 0, 'f', 1);
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
        if (index.column() == RatioColumn && row.ratio() && *row.ratio() != 1.0)
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
        return row.graph.label();
    case NodesColumn:
        return row.nodesText();
    case KernelsAColumn:
        return row.a.names();
    case TotalAColumn:
        return ifPresent(row.a, ms(row.a.totalNs));
    case PerCallAColumn:
        return ifPresent(row.a, us(row.a.medianNs));
    case KernelsBColumn:
        return row.b.names();
    case TotalBColumn:
        return ifPresent(row.b, ms(row.b.totalNs));
    case PerCallBColumn:
        return ifPresent(row.b, us(row.b.medianNs));
    case DeltaColumn:
        return ms(row.deltaNs());
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
        return row.ratio() ? QString("B takes %1 of A's time").arg(*row.ratio(), 0, 'f', 3)
                           : QVariant();
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const headers[ColumnCount] = {
        "graph",     "nodes",     "A ms",      "B ms",      "Δ ms",  "B/A",
        "A µs/call", "B µs/call", "A kernels", "B kernels", "status"};
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return QString::fromUtf8(headers[section]);
    if (role != Qt::ToolTipRole) return {};
    QString tip;
    bool ofA = section == TotalAColumn || section == PerCallAColumn || section == KernelsAColumn;
    bool ofB = section == TotalBColumn || section == PerCallBColumn || section == KernelsBColumn;
    if (ofA) tip = "A: " + m_labelA;
    if (ofB) tip = "B: " + m_labelB;
    if (section == PerCallAColumn || section == PerCallBColumn)
        tip += "\none call of the group: the sum of its kernels' median launch times";
    if (section == DeltaColumn) tip = "B − A of the groups' total kernel time, ms";
    if (section == RatioColumn)
        tip = "B / A of the groups' total kernel time: below 1, B is faster";
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
