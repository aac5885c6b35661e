// SPDX-License-Identifier: MIT
#include "trace/trace_types.h"

#include "support/assert.h"

namespace kiln::trace {

const char* runStatusName(RunStatus status) {
    switch (status) {
    case RunStatus::Running:
        return "running";
    case RunStatus::Ok:
        return "ok";
    case RunStatus::Error:
        return "error";
    case RunStatus::Crashed:
        return "crashed";
    case RunStatus::Cancelled:
        return "cancelled";
    }
    KILN_UNREACHABLE("bad RunStatus");
}

std::optional<RunStatus> parseRunStatus(std::string_view name) {
    for (RunStatus status : {RunStatus::Running, RunStatus::Ok, RunStatus::Error,
                             RunStatus::Crashed, RunStatus::Cancelled})
        if (name == runStatusName(status)) return status;
    return std::nullopt;
}

std::optional<OutputStream> parseOutputStream(std::string_view name) {
    for (OutputStream stream : {OutputStream::Stdout, OutputStream::Stderr, OutputStream::Log})
        if (name == outputStreamName(stream)) return stream;
    return std::nullopt;
}

} // namespace kiln::trace
