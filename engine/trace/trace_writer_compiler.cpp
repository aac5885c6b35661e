// SPDX-License-Identifier: MIT
// TraceWriter's compiler and runtime events: the calling thread's half. It checks what only the
// compiler can get wrong, copies the event and queues it; the writer thread stores it through
// CompilerInserter in the next batch. kernelLaunch() is the hot one (every execution of a
// compiled kernel), so it takes the queue lock once and does nothing under it but a few integer
// updates and a move.
#include "support/clock.h"
#include "trace/trace_writer.h"

#include <initializer_list>
#include <string_view>

namespace kiln::trace {

namespace {

bool isOneOf(std::string_view value, std::initializer_list<std::string_view> allowed) {
    for (std::string_view name : allowed)
        if (value == name) return true;
    return false;
}

} // namespace

void TraceWriter::kernel(const KernelEvent& event) {
    KILN_ASSERT(!event.compileId.empty(), "kernel event without a compile id");
    KILN_ASSERT(isOneOf(event.kind, {"pointwise", "reduction", "template", "extern", "fallback"}),
                "kernel kind must be pointwise, reduction, template, extern or fallback");
    enqueueCompiler(event);
}

void TraceWriter::autotuneChoice(const AutotuneChoiceEvent& event) {
    enqueueCompiler(event);
}

void TraceWriter::diagram(const DiagramEvent& event) {
    KILN_ASSERT(!event.compileId.empty(), "diagram event without a compile id");
    KILN_ASSERT(isOneOf(event.kind, {"pre_fusion", "post_fusion"}),
                "diagram kind must be pre_fusion or post_fusion");
    enqueueCompiler(event);
}

void TraceWriter::enqueueCompiler(CompilerEvent event) {
    // Copied (the by-value parameter) before taking the lock, like enqueueCapture.
    int64_t nowNs = monotonicNs();
    std::unique_lock lock(m_mutex);
    waitForRoomLocked(lock);
    KILN_ASSERT(m_runId != 0, "compiler event outside a run");
    KILN_ASSERT(m_hasCompilerTables, "compiler event for a trace schema without compiler tables");
    noteQueuedLocked(1, nowNs);
    m_queue.compiler.push_back({m_runId, std::move(event)});
}

void TraceWriter::kernelLaunch(const KernelLaunchEvent& event) {
    PendingLaunch pending{0, event}; // the copy, outside the lock
    std::unique_lock lock(m_mutex);
    waitForRoomLocked(lock);
    KILN_ASSERT(m_runId != 0, "kernel launch outside a run");
    KILN_ASSERT(m_hasCompilerTables, "kernel launch for a trace schema without compiler tables");
    pending.runId = m_runId;
    pending.event.startNs -= m_runStartNs;
    pending.event.endNs -= m_runStartNs;
    // The clock is read only when the queue was empty: that is the only time it is used (the
    // start of the batch window).
    noteQueuedLocked(1, m_queue.empty() ? monotonicNs() : 0);
    m_queue.launches.push_back(std::move(pending));
}

} // namespace kiln::trace
