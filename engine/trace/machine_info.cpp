// SPDX-License-Identifier: MIT
#include "trace/machine_info.h"

#include <algorithm>

namespace kiln::trace {

namespace {

std::string orNone(const std::string& value) {
    return value.empty() ? "none" : value;
}

std::string threadsText(int64_t threads) {
    return threads == 1 ? "1 thread" : std::to_string(threads) + " threads";
}

} // namespace

std::string MachineInfo::matmulOf(const std::string& dtype) const {
    for (const auto& [name, library] : matmul)
        if (name == dtype) return library;
    return {};
}

std::string machineSummary(const MachineInfo& machine) {
    std::string details = machine.isa;
    if (machine.threads > 0)
        details += (details.empty() ? "" : ", ") + threadsText(machine.threads);
    if (machine.cpu.empty()) return details;
    return details.empty() ? machine.cpu : machine.cpu + " (" + details + ")";
}

std::string matmulSummary(const MachineInfo& machine) {
    std::string text;
    for (const auto& [dtype, library] : machine.matmul)
        text += (text.empty() ? "" : "; ") + dtype + ": " + library;
    return text;
}

std::vector<MachineDifference> machineDifferences(const MachineInfo& a, const MachineInfo& b) {
    std::vector<MachineDifference> out;
    if (!a.recorded() || !b.recorded()) return out;
    if (a.cpu != b.cpu) out.push_back({"CPU", orNone(a.cpu), orNone(b.cpu)});
    if (a.isa != b.isa) out.push_back({"ISA", orNone(a.isa), orNone(b.isa)});
    if (a.threads != b.threads)
        out.push_back({"threads", a.threads > 0 ? std::to_string(a.threads) : "none",
                       b.threads > 0 ? std::to_string(b.threads) : "none"});
    std::vector<std::string> dtypes;
    for (const MachineInfo* machine : {&a, &b})
        for (const auto& entry : machine->matmul)
            if (std::find(dtypes.begin(), dtypes.end(), entry.first) == dtypes.end())
                dtypes.push_back(entry.first);
    for (const std::string& dtype : dtypes) {
        std::string ofA = a.matmulOf(dtype), ofB = b.matmulOf(dtype);
        if (ofA != ofB) out.push_back({dtype + " matmul", orNone(ofA), orNone(ofB)});
    }
    return out;
}

} // namespace kiln::trace
