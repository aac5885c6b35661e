// SPDX-License-Identifier: MIT
/// \file
/// The instrumentation interface. Lower layers (the interpreter, capture, the compiler and the
/// runtime) emit events into an EventSink without knowing where they go. The trace layer
/// implements it with the SQLite database; tests implement it in memory.
#pragma once

#include "support/capture_events.h"
#include "support/compiler_events.h"

#include <string_view>

namespace kiln {

enum class OutputStream { Stdout, Stderr, Log };

const char* outputStreamName(OutputStream stream);

class EventSink {
public:
    virtual ~EventSink() = default;

    /// Text written by the script (print, warnings, tracebacks) or a log line. Text may be a
    /// partial line; the sink assembles lines. Called on the interpreter thread.
    virtual void output(OutputStream stream, std::string_view text) = 0;

    // Capture (torch.compile) facts, in the order they happen. Sinks that do not record them
    // keep the default no-ops. A compile is reported twice: when it starts (status empty) and
    // when it finishes (same compile id, status and duration set).
    virtual void frame(const FrameEvent&) {}
    virtual void compile(const CompileEvent&) {}
    virtual void guard(const GuardEvent&) {}
    virtual void recompile(const RecompileEvent&) {}
    virtual void graphBreak(const GraphBreakEvent&) {}
    virtual void graph(const GraphEvent&) {}
    virtual void config(const ConfigEvent&) {}
    virtual void timeline(const TimelineEvent&) {}

    // Compiler and runtime facts (support/compiler_events.h); default no-ops like the capture
    // ones. kernel(), autotuneChoice() and diagram() come while a graph is compiled (possibly
    // before capture reports the graph itself); kernelLaunch() comes on every execution of a
    // kernel, at high rates and from any thread, so a sink must only queue it.
    virtual void kernel(const KernelEvent&) {}
    virtual void autotuneChoice(const AutotuneChoiceEvent&) {}
    virtual void kernelLaunch(const KernelLaunchEvent&) {}
    virtual void diagram(const DiagramEvent&) {}
};

/// A sink that drops everything, for callers that do not record.
class NullEventSink final : public EventSink {
public:
    void output(OutputStream, std::string_view) override {}
};

} // namespace kiln
