// SPDX-License-Identifier: MIT
/// \file
/// The Kernels panel's table: every kernel of a run with launch statistics computed from the
/// snapshot's launches, over the whole run or over a time range the user picked on the
/// timeline (a range counts the launches that start inside it). Display text is formatted for
/// reading; SortRole carries the raw number so a proxy sorts numbers as numbers. Launch
/// geometry (grid, block, registers) is only known for GPU launches: CPU kernels leave those
/// cells empty rather than showing a made-up 0.
#pragma once

#include "run_snapshot.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace kiln::views {

/// One kernel's launches inside the current range.
struct KernelRangeStats {
    qint64 count = 0;
    qint64 totalNs = 0;
    qint64 medianNs = 0; ///< the middle duration; for an even count the mean of the two middle
    QString grid, block; ///< of the kernel's last launch; empty on the CPU
    int registers = 0;   ///< 0 when unknown
};

class KernelTableModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        Name,
        Kind,
        Graph,
        Launches,
        TotalMs,
        MeanUs,
        MedianUs,
        Share,
        Grid,
        Block,
        Registers,
        FusedNodes,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< the raw value (numbers as numbers)
        KernelIdRole,                ///< the run-unique kernelId
        GraphIdRole,
        FilterTextRole ///< name, kind and fused nodes, for the text filter
    };

    explicit KernelTableModel(QObject* parent = nullptr);

    /// Adopts a new snapshot (keeps the time range).
    void setSnapshot(SnapshotPtr snapshot);
    /// Restricts the statistics to launches starting in [startNs, endNs); (0, 0) clears.
    void setTimeRange(qint64 startNs, qint64 endNs);
    bool hasTimeRange() const { return m_endNs > m_startNs; }
    qint64 rangeStartNs() const { return m_startNs; }
    qint64 rangeEndNs() const { return m_endNs; }
    /// Launches counted in the current range (all of them without one).
    qint64 launchesInRange() const { return m_launchesInRange; }

    /// Whether any row has a value in \p column (a CPU run has no block or registers).
    bool columnHasValues(int column) const;
    const KernelRecord* kernelAt(int row) const;
    const KernelRangeStats* statsAt(int row) const;
    /// The row of kernel \p kernelId; -1 when the run has no such kernel.
    int rowOfKernel(qint64 kernelId) const;
    const SnapshotPtr& snapshot() const { return m_snapshot; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void recompute();
    /// \p k's fused nodes as people read them (\p k is one of the snapshot's kernels).
    const QString& fusedLabelOf(const KernelRecord& k) const;
    QVariant rawValue(const KernelRecord& k, const KernelRangeStats& s, int column) const;
    QVariant displayValue(const KernelRecord& k, const KernelRangeStats& s, int column) const;

    SnapshotPtr m_snapshot;
    std::vector<KernelRangeStats> m_stats; ///< parallel to m_snapshot->kernels
    std::vector<QString> m_fusedLabels;    ///< the same, as fusedNodesLabel reads them
    qint64 m_startNs = 0, m_endNs = 0;
    qint64 m_rangeTotalNs = 0;
    qint64 m_launchesInRange = 0;
};

/// Filters a KernelTableModel by text (name, kind, fused nodes), kind and graph, and sorts by
/// SortRole.
class KernelFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit KernelFilterModel(QObject* parent = nullptr);

    void setText(const QString& text);
    /// Only kernels of this kind; empty for every kind.
    void setKind(const QString& kind);
    /// Only kernels of graph \p graphId; 0 for every graph.
    void setGraph(qint64 graphId);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text, m_kind;
    qint64 m_graphId = 0;
};

/// "1.20 s", "3.45 ms", "12.3 µs", "850 ns": a duration in the unit that reads best.
QString formatDuration(qint64 ns);

} // namespace kiln::views
