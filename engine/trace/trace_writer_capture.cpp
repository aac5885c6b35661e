// SPDX-License-Identifier: MIT
// TraceWriter's capture events (torch.compile): the calling thread's half. It checks what only
// the capture layer can get wrong, copies the event and queues it; the writer thread stores it
// through CaptureInserter in the next batch.
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

void TraceWriter::frame(const FrameEvent& event) {
    KILN_ASSERT(isOneOf(event.kind, {"function", "resume"}), "frame kind must be function/resume");
    enqueueCapture(event);
}

void TraceWriter::compile(const CompileEvent& event) {
    KILN_ASSERT(!event.compileId.empty(), "compile event without a compile id");
    KILN_ASSERT(isOneOf(event.reason, {"first", "recompile"}),
                "compile reason must be first/recompile");
    KILN_ASSERT(isOneOf(event.status, {"", "ok", "break", "skipped", "no_ops", "failed"}),
                "compile status must be empty, ok, break, skipped, no_ops or failed");
    enqueueCapture(event);
}

void TraceWriter::guard(const GuardEvent& event) {
    KILN_ASSERT(!event.compileId.empty(), "guard event without a compile id");
    enqueueCapture(event);
}

void TraceWriter::recompile(const RecompileEvent& event) {
    KILN_ASSERT(!event.compileId.empty(), "recompile event without a compile id");
    enqueueCapture(event);
}

void TraceWriter::graphBreak(const GraphBreakEvent& event) {
    KILN_ASSERT(!event.compileId.empty(), "graph break event without a compile id");
    enqueueCapture(event);
}

void TraceWriter::graph(const GraphEvent& event) {
    KILN_ASSERT(!event.compileId.empty(), "graph event without a compile id");
    KILN_ASSERT(
        isOneOf(event.kind, {"dynamo", "aot_joint", "aot_forward", "aot_backward", "aot_inference",
                             "post_grad_forward", "post_grad_backward", "post_grad_inference"}),
        "graph kind must be dynamo, aot_joint, aot_forward, aot_backward, "
        "aot_inference, post_grad_forward, post_grad_backward or post_grad_inference");
    enqueueCapture(event);
}

void TraceWriter::config(const ConfigEvent& event) {
    KILN_ASSERT(isOneOf(event.source, {"default", "mode", "user", "env"}),
                "config source must be default, mode, user or env");
    enqueueCapture(event);
}

void TraceWriter::timeline(const TimelineEvent& event) {
    enqueueCapture(event);
}

void TraceWriter::enqueueCapture(CaptureEvent event) {
    // The copy (the by-value parameter) is made before taking the lock, so a large graph does
    // not hold up other emitting threads or the writer thread's swap.
    size_t rows = captureRowCount(event);
    int64_t nowNs = monotonicNs();
    std::unique_lock lock(m_mutex);
    waitForRoomLocked(lock);
    KILN_ASSERT(m_runId != 0, "capture event outside a run");
    KILN_ASSERT(m_hasCaptureTables, "capture event for a trace schema without capture tables");
    if (auto* compile = std::get_if<CompileEvent>(&event)) compile->startNs -= m_runStartNs;
    if (auto* span = std::get_if<TimelineEvent>(&event)) span->startNs -= m_runStartNs;
    noteQueuedLocked(rows, nowNs);
    m_queue.capture.push_back({m_runId, std::move(event)});
}

} // namespace kiln::trace
