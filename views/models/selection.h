// SPDX-License-Identifier: MIT
/// \file
/// The one selection every Studio panel follows: a run, and within it a frame, a compile, a
/// graph, a kernel and a graph break. Selecting something deep selects its parents too (a kernel
/// selects its graph, compile and frame), so a panel that shows compiles can follow a click in
/// the timeline. The selection also carries the selected run's newest snapshot: panels redraw
/// from snapshotChanged and follow the user from selectionChanged.
#pragma once

#include "run_snapshot.h"

#include <QObject>
#include <QString>
#include <functional>

namespace kiln::views {

struct SelectionState {
    qint64 runId = 0;
    qint64 frameId = -1;
    QString compileId; ///< "f/c"; empty when none
    qint64 graphId = 0;
    qint64 kernelId = -1;
    int breakOrder = 0; ///< graph break order (1-based); 0 when none
    int sourceLine = 0; ///< the line the user asked to see; 0 when none

    bool operator==(const SelectionState&) const = default;
};

class Selection final : public QObject {
    Q_OBJECT

public:
    explicit Selection(QObject* parent = nullptr);

    const SelectionState& state() const { return m_state; }
    /// The selected run's newest snapshot; null before it has been read.
    const SnapshotPtr& snapshot() const { return m_snapshot; }

    /// Adopts a newer snapshot of the selected run (a snapshot of another run is ignored).
    /// Selected items the snapshot does not have yet stay selected: a live run will catch up.
    void setSnapshot(SnapshotPtr snapshot);

    /// Another run (0: none): the deeper selection and the snapshot are dropped.
    void selectRun(qint64 runId);
    void selectFrame(qint64 frameId);
    void selectCompile(const QString& compileId);
    void selectGraph(qint64 graphId);
    void selectKernel(qint64 kernelId);
    /// A graph break by execution order: its compile (the graph that ended at the break), frame
    /// and source line.
    void selectBreak(int order);
    /// A line of the workload, and the innermost compile that covers it when there is one.
    void selectSourceLine(int line);

Q_SIGNALS:
    void selectionChanged(const kiln::views::SelectionState& now);
    /// The selected run has a new snapshot (or another run was selected and its snapshot came).
    void snapshotChanged(const kiln::views::SnapshotPtr& snapshot);

private:
    /// A fresh selection in the same run with what \p pick sets, and that item's parents.
    void selectWithParents(const std::function<void(SelectionState&)>& pick);
    void apply(SelectionState next);
    /// Fills the parents of the deepest item set in `s` from the snapshot.
    void resolveParents(SelectionState& s) const;

    SelectionState m_state;
    SnapshotPtr m_snapshot;
};

} // namespace kiln::views

Q_DECLARE_METATYPE(kiln::views::SelectionState)
Q_DECLARE_METATYPE(kiln::views::SnapshotPtr)
