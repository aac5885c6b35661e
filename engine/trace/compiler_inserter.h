// SPDX-License-Identifier: MIT
/// \file
/// The writer thread's side of the compiler tables (schema version 3): one prepared statement per
/// table and the rules that turn a compiler event into a row. A kernel and a diagram find their
/// `graphs` row from compile id and graph index when capture already reported the graph (else the
/// schema's trigger links them when it does); a kernel reported again and a diagram of the same
/// graph and kind reported again replace the earlier row (last write wins). TraceWriter queues
/// the events and calls insert() inside its batch transactions; nothing here locks or owns the
/// connection.
#pragma once

#include "support/compiler_events.h"
#include "support/expected.h"
#include "trace/sqlite_handle.h"

#include <cstdint>
#include <variant>

namespace kiln::trace {

/// The compiler events TraceWriter queues in call order. Kernel launches, which come at far
/// higher rates, travel in their own queue (TraceWriter::PendingLaunch) and never wait behind
/// these; their timestamps are already run-relative when insertLaunch() sees them.
using CompilerEvent = std::variant<KernelEvent, AutotuneChoiceEvent, DiagramEvent>;

class CompilerInserter {
public:
    CompilerInserter() = default;
    /// Prepares every statement against \p connection, which is at \p schemaVersion (3 or
    /// later): from version 4 autotune choices are written with how they were measured, from
    /// version 8 kernels with the AOT graph they belong to; older files get what they stored.
    static Expected<CompilerInserter> prepare(const Connection& connection, int schemaVersion);

    /// Writes \p event's row for run \p runId; the caller holds the transaction.
    Status insert(int64_t runId, const CompilerEvent& event);
    /// Writes one `kernel_launches` row; \p event's times are run-relative.
    Status insertLaunch(int64_t runId, const KernelLaunchEvent& event);

private:
    Status insertRow(int64_t runId, const KernelEvent& event);
    Status insertRow(int64_t runId, const AutotuneChoiceEvent& event);
    Status insertRow(int64_t runId, const DiagramEvent& event);

    bool m_prepared = false;
    bool m_withMeasurement = false;
    bool m_graphKinds = false;
    Statement m_kernel;
    Statement m_autotune;
    Statement m_launch;
    Statement m_diagram;
};

} // namespace kiln::trace
