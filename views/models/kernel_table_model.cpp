// SPDX-License-Identifier: MIT
#include "kernel_table_model.h"

#include "graph_name.h"
#include "node_name.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace kiln::views {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

const char* const kHeaders[KernelTableModel::ColumnCount] = {
    "kernel",    "kind",    "graph", "launches", "total ms",  "mean µs",
    "median µs", "share %", "grid",  "block",    "registers", "fused nodes"};

/// "f/c #i" as one number that sorts in compile order (frame, then cache entry, then graph).
qint64 graphOrderKey(const trace::KernelRow& k) {
    const QStringList parts = text(k.compileId).split(u'/');
    qint64 frame = parts.value(0).toLongLong(), entry = parts.value(1).toLongLong();
    return (frame * 100000 + entry) * 1000 + k.graphIndex;
}

qint64 medianOf(std::vector<qint64>& durations) {
    if (durations.empty()) return 0;
    std::sort(durations.begin(), durations.end());
    size_t mid = durations.size() / 2;
    if (durations.size() % 2) return durations[mid];
    return (durations[mid - 1] + durations[mid]) / 2;
}

bool isNumeric(int column) {
    return (column >= KernelTableModel::Launches && column <= KernelTableModel::Share) ||
           column == KernelTableModel::Registers;
}

} // namespace

QString formatDuration(qint64 ns) {
    const double v = static_cast<double>(ns);
    if (ns >= 1'000'000'000) return QString::number(v * 1e-9, 'f', 2) + QStringLiteral(" s");
    if (ns >= 1'000'000) return QString::number(v * 1e-6, 'f', 2) + QStringLiteral(" ms");
    if (ns >= 1'000) return QString::number(v * 1e-3, 'f', 1) + QStringLiteral(" µs");
    return QString::number(ns) + QStringLiteral(" ns");
}

KernelTableModel::KernelTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void KernelTableModel::setSnapshot(SnapshotPtr snapshot) {
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_fusedLabels.clear();
    if (m_snapshot) {
        std::unordered_map<int64_t, NodeLabels> byGraph; // each graph's labels, read once
        for (const KernelRecord& k : m_snapshot->kernels) {
            auto [labels, fresh] = byGraph.try_emplace(k.kernel.graphId);
            if (fresh) labels->second = moduleNodeLabels(m_snapshot->nodesOf(k.kernel.graphId));
            m_fusedLabels.push_back(
                QString::fromStdString(fusedNodesLabel(k.kernel.fusedNodes, labels->second)));
        }
    }
    recompute();
    endResetModel();
}

void KernelTableModel::setTimeRange(qint64 startNs, qint64 endNs) {
    if (endNs <= startNs) startNs = endNs = 0;
    if (startNs == m_startNs && endNs == m_endNs) return;
    m_startNs = startNs;
    m_endNs = endNs;
    recompute();
    // The rows stay; only the statistics columns change.
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void KernelTableModel::recompute() {
    // EXPERIMENT: the loader's per-kernel statistics without a range; strings once per kernel
    m_stats.clear();
    m_rangeTotalNs = 0;
    m_launchesInRange = 0;
    if (!m_snapshot) return;
    const auto& kernels = m_snapshot->kernels;
    std::unordered_map<qint64, size_t> rowOf;
    rowOf.reserve(kernels.size());
    for (size_t i = 0; i < kernels.size(); ++i)
        rowOf[kernels[i].kernel.kernelId] = i;
    m_stats.resize(kernels.size());
    std::vector<const trace::KernelLaunchRow*> last(kernels.size(), nullptr);
    std::vector<std::vector<qint64>> durations(hasTimeRange() ? m_stats.size() : 0);
    for (const trace::KernelLaunchRow& l : m_snapshot->launches) {
        if (hasTimeRange() && (l.startNs < m_startNs || l.startNs >= m_endNs)) continue;
        auto it = rowOf.find(l.kernelId);
        if (it == rowOf.end()) continue;
        last[it->second] = &l;
        if (!hasTimeRange()) continue;
        KernelRangeStats& s = m_stats[it->second];
        ++s.count;
        s.totalNs += l.durationNs();
        durations[it->second].push_back(l.durationNs());
    }
    for (size_t i = 0; i < m_stats.size(); ++i) {
        KernelRangeStats& s = m_stats[i];
        if (hasTimeRange()) {
            s.medianNs = medianOf(durations[i]);
        } else {
            s.count = kernels[i].launches.count;
            s.totalNs = kernels[i].launches.totalNs;
            s.medianNs = kernels[i].launches.medianNs;
        }
        m_rangeTotalNs += s.totalNs;
        m_launchesInRange += s.count;
        if (const trace::KernelLaunchRow* l = last[i]) {
            s.grid = text(l->grid);
            s.block = text(l->block);
            s.registers = l->registers;
        }
    }
}

bool KernelTableModel::columnHasValues(int column) const {
    for (int row = 0; row < rowCount(); ++row)
        if (rawValue(*kernelAt(row), m_stats[static_cast<size_t>(row)], column).isValid())
            return true;
    return false;
}

const QString& KernelTableModel::fusedLabelOf(const KernelRecord& k) const {
    return m_fusedLabels[static_cast<size_t>(&k - m_snapshot->kernels.data())];
}

const KernelRecord* KernelTableModel::kernelAt(int row) const {
    if (!m_snapshot || row < 0 || row >= rowCount()) return nullptr;
    return &m_snapshot->kernels[static_cast<size_t>(row)];
}

const KernelRangeStats* KernelTableModel::statsAt(int row) const {
    if (row < 0 || row >= static_cast<int>(m_stats.size())) return nullptr;
    return &m_stats[static_cast<size_t>(row)];
}

int KernelTableModel::rowOfKernel(qint64 kernelId) const {
    for (int row = 0; row < rowCount(); ++row)
        if (kernelAt(row)->kernel.kernelId == kernelId) return row;
    return -1;
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_snapshot ? 0 : static_cast<int>(m_snapshot->kernels.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelTableModel::rawValue(const KernelRecord& k, const KernelRangeStats& s,
                                    int column) const {
    switch (column) {
    case Name:
        return text(k.kernel.name);
    case Kind:
        return text(k.kernel.kind);
    case Graph:
        return graphOrderKey(k.kernel);
    case Launches:
        return s.count;
    case TotalMs:
        return static_cast<double>(s.totalNs) * 1e-6;
    case MeanUs:
        return s.count ? QVariant(static_cast<double>(s.totalNs) / s.count * 1e-3) : QVariant();
    case MedianUs:
        return s.count ? QVariant(static_cast<double>(s.medianNs) * 1e-3) : QVariant();
    case Share:
        return m_rangeTotalNs > 0 ? 100.0 * static_cast<double>(s.totalNs) / m_rangeTotalNs : 0.0;
    case Grid:
        return s.grid.isEmpty() ? QVariant() : QVariant(s.grid);
    case Block:
        return s.block.isEmpty() ? QVariant() : QVariant(s.block);
    case Registers:
        return s.registers > 0 ? QVariant(s.registers) : QVariant();
    case FusedNodes:
        return fusedLabelOf(k);
    }
    return {};
}

QVariant KernelTableModel::displayValue(const KernelRecord& k, const KernelRangeStats& s,
                                        int column) const {
    QVariant raw = rawValue(k, s, column);
    if (!raw.isValid()) return {};
    switch (column) {
    case Graph: { // a kernel reported before its graph has no graph id yet: its compile then
        QString graph = k.kernel.graphId ? graphNameIn(k.kernel.graphId, k.kernel.compileId)
                                         : text(k.kernel.compileId);
        // A training graph's kernels say which of its AOT graphs they compute.
        if (k.kernel.graphKind == "aot_forward") graph += QStringLiteral(" · forward");
        if (k.kernel.graphKind == "aot_backward") graph += QStringLiteral(" · backward");
        return graph;
    }
    case TotalMs:
        return QString::number(raw.toDouble(), 'f', 3);
    case MeanUs:
    case MedianUs:
        return QString::number(raw.toDouble(), 'f', 1);
    case Share:
        return QString::number(raw.toDouble(), 'f', 1);
    default:
        return raw;
    }
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelRecord& k = *kernelAt(index.row());
    const KernelRangeStats& s = m_stats[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(k, s, index.column());
    case SortRole:
        return rawValue(k, s, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == FusedNodes) return text(k.kernel.fusedNodes); // the node names
        return index.column() == Name ? QVariant(text(k.kernel.launchConfig)) : QVariant();
    case KernelIdRole:
        return QVariant::fromValue<qint64>(k.kernel.kernelId);
    case GraphIdRole:
        return QVariant::fromValue<qint64>(k.kernel.graphId);
    case FilterTextRole:
        return text(k.kernel.name) + u'\n' + text(k.kernel.kind) + u'\n' +
               text(k.kernel.fusedNodes) + u'\n' + fusedLabelOf(k);
    default:
        return {};
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    return QString::fromUtf8(kHeaders[section]);
}

KernelFilterModel::KernelFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(KernelTableModel::SortRole);
}

void KernelFilterModel::setText(const QString& text) {
    m_text = text.trimmed();
    invalidateFilter();
}

void KernelFilterModel::setKind(const QString& kind) {
    m_kind = kind;
    invalidateFilter();
}

void KernelFilterModel::setGraph(qint64 graphId) {
    m_graphId = graphId;
    invalidateFilter();
}

bool KernelFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_graphId > 0 && index.data(KernelTableModel::GraphIdRole).toLongLong() != m_graphId)
        return false;
    if (!m_kind.isEmpty() &&
        sourceModel()->index(sourceRow, KernelTableModel::Kind, sourceParent).data() != m_kind)
        return false;
    return m_text.isEmpty() || index.data(KernelTableModel::FilterTextRole)
                                   .toString()
                                   .contains(m_text, Qt::CaseInsensitive);
}

} // namespace kiln::views
