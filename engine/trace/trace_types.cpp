// SPDX-License-Identifier: MIT
#include "trace/trace_types.h"

#include "support/assert.h"

#include <nlohmann/json.hpp>

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

std::vector<SavedTensor> savedTensorsOf(const GraphRow& graph) {
    std::vector<SavedTensor> saved;
    nlohmann::json list = nlohmann::json::parse(graph.savedTensors, nullptr, false);
    if (!list.is_array()) return saved;
    for (const nlohmann::json& item : list) {
        if (!item.is_object()) continue;
        SavedTensor t;
        try { // a damaged file's wrongly typed field: the entry is skipped
            t.name = item.value("name", "");
            t.shape = item.value("shape", "");
            t.dtype = item.value("dtype", "");
            t.bytes = item.value("bytes", int64_t(0));
        } catch (const nlohmann::json::exception&) {
            continue;
        }
        saved.push_back(std::move(t));
    }
    return saved;
}

} // namespace kiln::trace
