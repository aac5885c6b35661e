// SPDX-License-Identifier: MIT
/// \file
/// Reads a trace database off the GUI thread. A TraceLoader lives on a worker QThread (SQL never
/// runs on the GUI thread); each load slot reads one table through trace::TraceReader and emits
/// the rows as an immutable snapshot that the models on the GUI thread adopt through a queued
/// connection. The reader reopens on each load, so a growing (live) trace shows its newest rows.
#pragma once

#include "trace/trace_types.h"

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace kiln::views {

using RunRows = std::shared_ptr<const std::vector<trace::RunRow>>;
using GraphBreakRows = std::shared_ptr<const std::vector<trace::GraphBreakRow>>;

/// A kernel with its launch statistics (count 0 when it never ran).
struct KernelRecord {
    trace::KernelRow kernel;
    trace::KernelLaunchStats launches;
};
using KernelRecords = std::shared_ptr<const std::vector<KernelRecord>>;

/// Registers the snapshot types with Qt's meta-type system (for queued connections).
void registerTraceTypes();

class TraceLoader final : public QObject {
    Q_OBJECT

public:
    explicit TraceLoader(QString path, QObject* parent = nullptr);

public Q_SLOTS:
    void loadRuns();
    void loadKernels(qint64 runId);
    void loadGraphBreaks(qint64 runId);

Q_SIGNALS:
    void runsLoaded(kiln::views::RunRows rows);
    void kernelsLoaded(qint64 runId, kiln::views::KernelRecords rows);
    void graphBreaksLoaded(qint64 runId, kiln::views::GraphBreakRows rows);
    /// The trace could not be read (a missing file, a newer schema, ...): the reader's words.
    void failed(QString message);

private:
    QString m_path;
};

} // namespace kiln::views

Q_DECLARE_METATYPE(kiln::views::RunRows)
Q_DECLARE_METATYPE(kiln::views::KernelRecords)
Q_DECLARE_METATYPE(kiln::views::GraphBreakRows)
