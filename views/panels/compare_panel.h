// SPDX-License-Identifier: MIT
/// \file
/// "Compare runs": two runs of a trace (A, the baseline, and B) side by side. Their kernels are
/// matched by graph and fusion group (RunComparison), shown as a sortable table with deltas and
/// ratios, a bar chart of the groups that take the most time, and each run's end-to-end, kernel
/// and compile time. It defaults to the two newest runs of the same workload (a default vs
/// max-autotune pair); selecting a row selects that group's kernel when the selected run is A
/// or B. Above the table a warning says when the runs ran on different machines (CPU, ISA,
/// threads, matmul libraries) or took autotuning times from the tuning cache, because then
/// their times do not compare one to one.
#pragma once

#include "compare_model.h"
#include "panel.h"

#include <map>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QChart;
class QChartView;

namespace kiln::views {

class ComparePanel final : public Panel {
    Q_OBJECT

public:
    /// The chart shows this many groups at most (the ones with the largest time in A or B).
    static constexpr int kChartGroups = 12;

    ComparePanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    /// Compares \p runA (the baseline) with \p runB: picks them and reads both snapshots.
    /// \p replicatesA and \p replicatesB are runs of the same configurations recorded in turn
    /// with them (Compare modes' A, B, A, B, ...): their launches are pooled with the picked
    /// runs' (see ComparedRuns). Picking another run drops them.
    void compareRuns(qint64 runA, qint64 runB, const QList<qint64>& replicatesA = {},
                     const QList<qint64>& replicatesB = {});
    qint64 runA() const { return m_runA; }
    qint64 runB() const { return m_runB; }
    const QList<qint64>& replicatesA() const { return m_replicatesA; }
    const QList<qint64>& replicatesB() const { return m_replicatesB; }
    const CompareModel& model() const { return *m_model; }
    /// The chart's category labels, top to bottom.
    QStringList chartCategories() const;
    QTableView* table() const { return m_table; }
    /// The machine warning and tuning-cache note shown above the table; empty when hidden.
    QString notesText() const;

public Q_SLOTS:
    /// B becomes the baseline.
    void swapRuns();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;
    void showEvent(QShowEvent* event) override;

private:
    QWidget* makeTable();
    QWidget* makePickers();
    QWidget* makeNotes();
    QWidget* makeChartView();
    void fillPickers();
    void syncPickers();
    void fitTableHeight();
    void pickDefaultRuns();
    void onPicked();
    void readRuns();
    void adopt(qint64 runId, const SnapshotPtr& snapshot);
    void recompare();
    void applyComparison(RunComparison comparison, const SnapshotPtr& a, const SnapshotPtr& b);
    void showTotals();
    void showNotes();
    void fillChart();
    void selectKernelOfRow(const QModelIndex& proxyIndex);

    QComboBox* m_pickA = nullptr;
    QComboBox* m_pickB = nullptr;
    QPushButton* m_swap = nullptr;
    QLabel* m_totals = nullptr;
    QLabel* m_notes = nullptr; ///< different machines, cached autotuning times
    CompareModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_chartView = nullptr;
    QSplitter* m_split = nullptr;

    QString m_tracePath; ///< the trace the runs belong to
    qint64 m_runA = 0;
    qint64 m_runB = 0;
    SnapshotPtr m_a;
    SnapshotPtr m_b;
    QList<qint64> m_replicatesA, m_replicatesB;
    std::map<qint64, SnapshotPtr> m_replicas; ///< the replicates' snapshots read so far
    bool m_userPicked = false;       ///< the user (or compareRuns) chose: new runs do not re-pick
    bool m_following = false;        ///< the table follows the selection: do not select back
    bool m_comparing = false;        ///< a comparison is being computed on the pool
    bool m_recomparePending = false; ///< the runs changed meanwhile: compare again after it
    struct Deferred {
        RunComparison comparison;
        SnapshotPtr a, b;
    };
    std::optional<Deferred> m_deferred; ///< computed while hidden behind a tab
    bool m_userSized = false; ///< the user moved the table/chart splitter: keep their sizes
};

} // namespace kiln::views
