// SPDX-License-Identifier: MIT
#include "trace/machine_info.h"

#include <algorithm>
#include <nlohmann/json.hpp>

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

std::string importedOrigin(const std::string& machineJson) {
    nlohmann::json facts = nlohmann::json::parse(machineJson, nullptr, false);
    std::vector<std::string> parts;
    auto textOf = [&](const char* key) {
        auto it = facts.is_object() ? facts.find(key) : facts.end();
        return it != facts.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (std::string v = textOf("pytorch"); !v.empty()) parts.push_back("PyTorch " + v);
    if (std::string v = textOf("cuda"); !v.empty()) parts.push_back("CUDA " + v);
    if (facts.is_object() && facts.contains("rank") && facts["rank"].is_number_integer())
        parts.push_back("rank " + std::to_string(facts["rank"].get<int64_t>()));
    std::string text;
    for (const std::string& p : parts)
        text += (text.empty() ? "" : " · ") + p;
    return text.empty() ? "PyTorch version not logged" : text;
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
