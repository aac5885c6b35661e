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

/// An immutable snapshot of one table's rows, shared between the loader and the models.
template <typename Row>
using Rows = std::shared_ptr<const std::vector<Row>>;
using RunRows = Rows<trace::RunRow>;
using GraphBreakRows = Rows<trace::GraphBreakRow>;
using CompileRows = Rows<trace::CompileRow>;
using GuardRows = Rows<trace::GuardRow>;
using RecompileRows = Rows<trace::RecompileRow>;
using ConfigRows = Rows<trace::ConfigRow>;
using OutputRows = Rows<trace::OutputLine>;

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
    void loadCompiles(qint64 runId);
    void loadGuards(qint64 runId);
    void loadRecompiles(qint64 runId);
    void loadConfig(qint64 runId);
    void loadOutput(qint64 runId);

Q_SIGNALS:
    void runsLoaded(kiln::views::RunRows rows);
    void kernelsLoaded(qint64 runId, kiln::views::KernelRecords rows);
    void graphBreaksLoaded(qint64 runId, kiln::views::GraphBreakRows rows);
    void compilesLoaded(qint64 runId, kiln::views::CompileRows rows);
    void guardsLoaded(qint64 runId, kiln::views::GuardRows rows);
    void recompilesLoaded(qint64 runId, kiln::views::RecompileRows rows);
    void configLoaded(qint64 runId, kiln::views::ConfigRows rows);
    void outputLoaded(qint64 runId, kiln::views::OutputRows rows);
    /// The trace could not be read (a missing file, a newer schema, ...): the reader's words.
    void failed(QString message);

private:
    /// Opens the trace, reads `read(reader)` and emits the rows with `signal`, or `failed`.
    template <typename Row, typename Read, typename Signal>
    void loadTable(qint64 runId, Read read, Signal signal);

    QString m_path;
};

} // namespace kiln::views

Q_DECLARE_METATYPE(kiln::views::RunRows)
Q_DECLARE_METATYPE(kiln::views::KernelRecords)
Q_DECLARE_METATYPE(kiln::views::GraphBreakRows)
Q_DECLARE_METATYPE(kiln::views::CompileRows)
Q_DECLARE_METATYPE(kiln::views::GuardRows)
Q_DECLARE_METATYPE(kiln::views::RecompileRows)
Q_DECLARE_METATYPE(kiln::views::ConfigRows)
Q_DECLARE_METATYPE(kiln::views::OutputRows)
