// SPDX-License-Identifier: MIT
/// \file
/// The instrumentation interface. Lower layers (the interpreter today; capture, the compiler and
/// the runtime later) emit events into an EventSink without knowing where they go. The trace
/// layer implements it with the SQLite database; tests implement it in memory.
#pragma once

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
};

/// A sink that drops everything, for callers that do not record.
class NullEventSink final : public EventSink {
public:
    void output(OutputStream, std::string_view) override {}
};

} // namespace kiln
