// SPDX-License-Identifier: MIT
/// \file
/// The writer thread's side of the capture tables (schema version 2): one prepared statement per
/// table, and the rules that turn a capture event into rows. A compile's two reports meet in one
/// `compiles` row (the finish completes what the start inserted), frames and config are
/// "last write wins" per key, and a graph brings its nodes. TraceWriter queues the events and
/// calls insert() inside its batch transactions; nothing here locks or owns the connection.
#pragma once

#include "support/capture_events.h"
#include "support/expected.h"
#include "trace/sqlite_handle.h"

#include <cstdint>
#include <variant>

namespace kiln::trace {

/// Any capture event, as queued by TraceWriter. Timestamps (CompileEvent::startNs,
/// TimelineEvent::startNs) are already run-relative here.
using CaptureEvent = std::variant<FrameEvent, CompileEvent, GuardEvent, RecompileEvent,
                                  GraphBreakEvent, GraphEvent, ConfigEvent, TimelineEvent>;

/// How many rows \p event becomes (a graph: itself and its nodes); the writer's batch sizing
/// and back-pressure count these.
size_t captureRowCount(const CaptureEvent& event);

class CaptureInserter {
public:
    CaptureInserter() = default;
    /// Prepares every statement against \p connection, whose schema version (2 or later) is
    /// \p schemaVersion: an older history's tables lack later columns (graph_nodes' module
    /// columns, version 6; guards.installed, version 7), which are then left out.
    static Expected<CaptureInserter> prepare(const Connection& connection, int schemaVersion);

    /// Writes \p event's rows for run \p runId; the caller holds the transaction.
    Status insert(int64_t runId, const CaptureEvent& event);

private:
    Status insertRows(int64_t runId, const FrameEvent& event);
    Status insertRows(int64_t runId, const CompileEvent& event);
    Status insertRows(int64_t runId, const GuardEvent& event);
    Status insertRows(int64_t runId, const RecompileEvent& event);
    Status insertRows(int64_t runId, const GraphBreakEvent& event);
    Status insertRows(int64_t runId, const GraphEvent& event);
    Status insertRows(int64_t runId, const ConfigEvent& event);
    Status insertRows(int64_t runId, const TimelineEvent& event);

    const Connection* m_db = nullptr;
    Statement m_frame;
    Statement m_compile;
    Statement m_guard;
    Statement m_recompile;
    Statement m_graphBreak;
    Statement m_graph;
    Statement m_graphNode;
    bool m_moduleColumns = true;
    bool m_graphKinds = true;      ///< schema version 8: AOT graphs and their links
    bool m_installedColumn = true; ///< guards.installed exists (schema version 7)
    Statement m_config;
    Statement m_event;
};

} // namespace kiln::trace
