// SPDX-License-Identifier: MIT
/// \file
/// Everything Kiln Studio shows of one run, read in one go on the loader thread and shared with
/// the GUI thread as an immutable snapshot. A live run is read again as it grows: the tables
/// that only ever gain rows are tailed from the previous snapshot's last ids, the ones that
/// change rows in place (runs, compiles, kernels, config) are read whole, so a refresh queries
/// what is new (the rows already read are copied over, on the reader's thread).
#pragma once

#include "trace/trace_reader.h"
#include "trace_rows.h"

#include <QString>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace kiln::views {

/// Where the user located the source of an imported run recorded at \p recordedPath (kept in
/// the settings across sessions); empty when never located.
QString locatedSource(const std::string& recordedPath);
void setLocatedSource(const std::string& recordedPath, const QString& path);

struct RunSnapshot {
    trace::RunRow run;
    bool looksCrashed = false; ///< 'running' but its process is gone (TraceReader's judgement)
    std::vector<trace::FrameRow> frames;
    std::vector<trace::CompileRow> compiles;
    std::vector<trace::GuardRow> guards;
    std::vector<trace::RecompileRow> recompiles;
    std::vector<trace::GraphBreakRow> graphBreaks;
    std::vector<trace::GraphRow> graphs;
    /// What AOT autograd made of the graphs (joint, forward, backward, inference), in id order.
    std::vector<trace::GraphRow> aotGraphs;
    std::vector<trace::GraphNodeRow> graphNodes; ///< every graph's nodes, by graph then order
    std::vector<KernelRecord> kernels;
    std::vector<trace::AutotuneChoiceRow> autotuneChoices;
    std::vector<trace::KernelLaunchRow> launches; ///< in id (= launch) order
    std::vector<trace::EventRow> events;
    std::vector<trace::ConfigRow> config;
    std::vector<trace::OutputLine> output;
    /// The file Source shows, as the run recorded it: the workload, or for a run imported from
    /// PyTorch the user's file its frames were compiled from (the file most of them are in).
    std::string sourceFile;
    /// Where its text was read: sourceFile, or the file the user located for an imported run
    /// whose recorded path is not on this machine (locatedSource).
    QString sourceReadFrom;
    /// That file's text as it is on disk now; empty when it cannot be read.
    QString source;
    /// The file changed since the run (its hash differs): line markers may be off.
    bool sourceChanged = false;

    bool running() const { return run.status == trace::RunStatus::Running && !looksCrashed; }

    // Lookups; null (or empty) when the snapshot has no such row.
    const trace::FrameRow* frame(int64_t frameId) const;
    const trace::CompileRow* compile(std::string_view compileId) const;
    const trace::GraphRow* graph(int64_t graphId) const;
    const KernelRecord* kernel(int64_t kernelId) const;
    const trace::GraphBreakRow* graphBreak(int order) const;
    /// The graphs a compile produced, by graph index.
    std::vector<const trace::GraphRow*> graphsOf(std::string_view compileId) const;
    /// The compiles of one frame (its cache entries), in compile order.
    std::vector<const trace::CompileRow*> compilesOf(int64_t frameId) const;
    std::vector<const KernelRecord*> kernelsOf(int64_t graphId) const;
    /// The AOT graph of \p kind ("aot_forward", ...) made of Dynamo graph \p graphId.
    const trace::GraphRow* aotGraph(int64_t graphId, std::string_view kind) const;
    std::span<const trace::GraphNodeRow> nodesOf(int64_t graphId) const;
    std::vector<const trace::GuardRow*> guardsOf(std::string_view compileId) const;
    std::vector<const trace::AutotuneChoiceRow*> choicesOf(int64_t kernelId) const;
    /// Sum of the run's kernel launch times (the base of "share of kernel time").
    int64_t totalKernelNs() const;
};

using SnapshotPtr = std::shared_ptr<const RunSnapshot>;

/// Reads run \p runId. With \p previous (an older snapshot of the same run) the append-only
/// tables are tailed from it instead of read again.
Expected<RunSnapshot> readRunSnapshot(const trace::TraceReader& reader, int64_t runId,
                                      const RunSnapshot* previous = nullptr);

} // namespace kiln::views
