// SPDX-License-Identifier: MIT
// Matching a profile's events to a run's graphs and kernels (profile_match.h): graph calls by
// FX graph cache key, extern calls by op in the wrapper's order, GPU kernels by correlation and
// name; what matches nothing is counted and kept.
#include "import/profile_match.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

namespace kiln::importer::profile_detail {
namespace {

using nlohmann::json;

bool isGpuActivity(const ProfileEvent& e) {
    return e.cat == "kernel" || e.cat == "gpu_memcpy" || e.cat == "gpu_memset" ||
           e.cat == "memcpy" || e.cat == "memset";
}

constexpr std::string_view kGraphCall = "## Call CompiledFxGraph ";
constexpr std::string_view kRegion = "Torch-Compiled Region: ";

/// KEY of "## Call CompiledFxGraph KEY ##", else empty.
std::string graphKeyOf(const std::string& name) {
    if (!name.starts_with(kGraphCall)) return "";
    std::string key = name.substr(kGraphCall.size());
    if (key.ends_with(" ##")) key.resize(key.size() - 3);
    return key;
}

/// Inductor's naming, for kernels the profile alone names (as the log import does).
std::string kindOfName(std::string_view name) {
    for (std::string_view prefix : {"triton_", "cpp_"}) {
        if (!name.starts_with(prefix)) continue;
        std::string_view rest = name.substr(prefix.size());
        if (rest.starts_with("poi_") || rest.starts_with("fused_")) return "pointwise";
        if (rest.starts_with("red_") || rest.starts_with("per_")) return "reduction";
        if (rest.starts_with("tem_")) return "template";
    }
    return "extern";
}

/// Library calls (matrix products, attention, convolution) are extern kernels; any other ATen
/// op a compiled graph calls directly is an eager fallback.
std::string kindOfOp(std::string_view op) {
    for (std::string_view lib : {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "convolution",
                                 "_convolution", "_scaled_dot_product", "cudnn", "mkldnn"})
        if (op.substr(op.find("::") == std::string_view::npos ? 0 : op.find("::") + 2)
                .starts_with(lib))
            return "extern";
    return "fallback";
}

std::string passOfKind(const std::string& graphKind) {
    return graphKind.starts_with("aot_") ? graphKind.substr(4) : graphKind;
}

} // namespace

void Matcher::nest() {
    const std::vector<ProfileEvent>& ev = m_profile.events;
    m_parent.assign(ev.size(), -1);
    m_children.assign(ev.size(), {});
    std::vector<size_t> order(ev.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (ev[a].pid != ev[b].pid) return ev[a].pid < ev[b].pid;
        if (ev[a].tid != ev[b].tid) return ev[a].tid < ev[b].tid;
        if (ev[a].tsUs != ev[b].tsUs) return ev[a].tsUs < ev[b].tsUs;
        return ev[a].durUs > ev[b].durUs;
    });
    std::vector<size_t> stack;
    for (size_t k = 0; k < order.size(); ++k) {
        size_t i = order[k];
        if (k > 0 && (ev[order[k - 1]].pid != ev[i].pid || ev[order[k - 1]].tid != ev[i].tid))
            stack.clear();
        while (!stack.empty() && ev[stack.back()].tsUs + ev[stack.back()].durUs <= ev[i].tsUs)
            stack.pop_back();
        if (!stack.empty()) {
            m_parent[i] = int64_t(stack.back());
            m_children[stack.back()].push_back(i);
        }
        stack.push_back(i);
    }
    m_gpuTaken.assign(ev.size(), false);
    for (size_t i = 0; i < ev.size(); ++i)
        if (isGpuActivity(ev[i]) && ev[i].correlation >= 0)
            m_gpuByCorrelation[ev[i].correlation].push_back(i);
}

int64_t Matcher::startNs(const ProfileEvent& e) const {
    return std::llround(e.tsUs * 1000.0) + m_offsetNs;
}

std::vector<size_t> Matcher::gpuUnder(size_t i) const {
    std::vector<size_t> found;
    std::vector<size_t> todo = {i};
    while (!todo.empty()) {
        size_t at = todo.back();
        todo.pop_back();
        const ProfileEvent& e = m_profile.events[at];
        if (!isGpuActivity(e) && e.correlation >= 0)
            if (auto it = m_gpuByCorrelation.find(e.correlation); it != m_gpuByCorrelation.end())
                found.insert(found.end(), it->second.begin(), it->second.end());
        todo.insert(todo.end(), m_children[at].begin(), m_children[at].end());
    }
    std::sort(found.begin(), found.end(), [&](size_t a, size_t b) {
        return m_profile.events[a].tsUs < m_profile.events[b].tsUs;
    });
    return found;
}

int64_t Matcher::addKernel(Target& target, std::string name, std::string kind, std::string nodes,
                           std::string source) {
    NewKernel k;
    k.kernelId = m_run.nextKernelId++;
    k.compileId = target.compileId;
    k.graphIndex = target.graphIndex;
    k.graphId = target.graphId;
    k.name = std::move(name);
    k.kind = std::move(kind);
    k.nodes = std::move(nodes);
    k.source = std::move(source);
    k.graphKind = target.graphKind;
    newKernels.push_back(std::move(k));
    ++m_summary.kernelsAdded;
    return newKernels.back().kernelId;
}

Target& Matcher::targetFor(size_t call) {
    std::string key = graphKeyOf(m_profile.events[call].name);
    if (auto it = m_run.byKey.find(key); it != m_run.byKey.end()) {
        Target& target = *it->second;
        if (target.externKernels.size() != target.externs.size())
            for (const ExternCall& e : target.externs)
                target.externKernels.push_back(
                    addKernel(target, e.name, kindOfOp(e.op), e.nodes, e.line));
        return target;
    }
    auto& made = m_profileTargets[key];
    if (!made) {
        // A graph the run does not know (a profile alone, or a key no cache artifact names):
        // its compile id from the enclosing "Torch-Compiled Region: F/C", its pass from the
        // autograd node around it.
        made = std::make_unique<Target>();
        made->key = key;
        made->compileId = "profile";
        made->graphIndex = m_nextProfileGraph++;
        bool forward = false, backward = false;
        for (int64_t at = m_parent[call]; at >= 0; at = m_parent[size_t(at)]) {
            const std::string& name = m_profile.events[size_t(at)].name;
            if (name.starts_with(kRegion) && made->compileId == "profile")
                made->compileId = name.substr(kRegion.size());
            backward |= name == "CompiledFunctionBackward";
            forward |= name == "CompiledFunction";
        }
        made->graphKind = backward  ? "aot_backward"
                          : forward ? "aot_forward"
                                    : (made->compileId != "profile" ? "aot_inference" : "");
    }
    return *made;
}

void Matcher::launchOf(int64_t kernelId, const std::vector<size_t>& gpu, size_t cpuEvent) {
    Launch launch;
    launch.kernelId = kernelId;
    if (gpu.empty()) {
        const ProfileEvent& e = m_profile.events[cpuEvent];
        launch.startNs = startNs(e);
        launch.endNs = launch.startNs + durationNs(e);
        launch.device = "cpu";
    } else {
        // As Kiln's own GPU launches: one row spans every kernel and copy under the call, with
        // the first kernel's geometry.
        const ProfileEvent& first = m_profile.events[gpu.front()];
        launch.startNs = startNs(first);
        launch.endNs = launch.startNs;
        bool geometry = false;
        for (size_t g : gpu) {
            const ProfileEvent& e = m_profile.events[g];
            launch.startNs = std::min(launch.startNs, startNs(e));
            launch.endNs = std::max(launch.endNs, startNs(e) + durationNs(e));
            if (!geometry && e.cat == "kernel") {
                launch.grid = e.grid;
                launch.block = e.block;
                launch.registers = e.registers;
                launch.sharedMemory = e.sharedMemory;
                geometry = true;
            }
            m_gpuTaken[g] = true;
        }
        int64_t device = first.device >= 0 ? first.device : std::atoll(first.pid.c_str());
        launch.device = "cuda:" + std::to_string(device);
    }
    launches.push_back(std::move(launch));
    ++m_summary.launches;
}

void Matcher::forget(const std::string& where, size_t i, const std::string& compileId) {
    const ProfileEvent& e = m_profile.events[i];
    Unmatched& u = unmatched[where + "\t" + e.name];
    if (u.count++ == 0) {
        u.firstIndex = e.index;
        u.compileId = compileId;
    }
    u.totalUs += e.durUs;
}

/// The graph's kernel a profiled op is when Inductor profiles its C++ kernels
/// (cpp.enable_kernel_profile): the op is named "graph_N_" and the kernel's name; 0 otherwise.
int64_t Matcher::cppKernelOf(const Target& target, const std::string& op) {
    constexpr std::string_view kGraph = "graph_";
    if (!op.starts_with(kGraph)) return 0;
    size_t digits = kGraph.size();
    while (digits < op.size() && std::isdigit(static_cast<unsigned char>(op[digits])))
        ++digits;
    if (digits == kGraph.size() || digits >= op.size() || op[digits] != '_') return 0;
    auto it = target.kernelsByName.find(op.substr(digits + 1));
    return it == target.kernelsByName.end() ? 0 : it->second;
}

void Matcher::matchCall(size_t call) {
    const ProfileEvent& callEvent = m_profile.events[call];
    Target& target = targetFor(call);
    ++m_summary.graphCalls;
    m_summary.linkedCalls += target.linked;
    ++target.calls;
    target.totalNs += durationNs(callEvent);
    // Extern calls: the wrapper's, in order; each direct child of the call takes the next site
    // of its op (ops the wrapper does not call by name, such as bias_addmm's aten::select, are
    // left over).
    size_t next = 0;
    std::map<std::string, int> seen; // profile-only: op -> occurrences in this call
    int64_t externNs = 0;
    for (size_t child : m_children[call]) {
        const ProfileEvent& e = m_profile.events[child];
        if (e.cat != "cpu_op") continue; // runtime calls, annotations: not ops
        int64_t kernelId = 0;
        if (target.linked) {
            for (size_t s = next; s < target.externs.size(); ++s)
                if (target.externs[s].op == e.name) {
                    kernelId = target.externKernels[s];
                    next = s + 1;
                    break;
                }
        } else if (e.name.starts_with("aten::") && !e.name.starts_with("aten::empty")) {
            std::string site = e.name + "#" + std::to_string(seen[e.name]++);
            int64_t& id = target.profileSites[site];
            if (id == 0) {
                std::string op = e.name.substr(6);
                std::string kind = kindOfOp(e.name);
                id = addKernel(target, (kind == "extern" ? "extern_" : "fallback_") + op, kind, "",
                               "");
            }
            kernelId = id;
        }
        if (kernelId == 0) {
            // Inductor's C++ kernels under cpp.enable_kernel_profile: "graph_N_<kernel>".
            if (int64_t id = cppKernelOf(target, e.name)) {
                launchOf(id, {}, child);
                ++m_summary.cpuKernelLaunches;
                continue;
            }
            // A GPU kernel launched straight from the wrapper is matched below, by name.
            if (gpuUnder(child).empty()) forget("in graph", child, target.compileId);
            continue;
        }
        launchOf(kernelId, gpuUnder(child), child);
        ++m_summary.externLaunches;
        externNs += launches.back().endNs - launches.back().startNs;
    }
    target.externNs += externNs;
    // Inductor's GPU kernels: by name among the graph's own kernels.
    for (size_t g : gpuUnder(call)) {
        if (m_gpuTaken[g]) continue;
        const ProfileEvent& e = m_profile.events[g];
        int64_t kernelId = 0;
        if (auto it = target.kernelsByName.find(e.name); it != target.kernelsByName.end())
            kernelId = it->second;
        else if (!target.linked && e.cat == "kernel") {
            int64_t& id = target.profileKernels[e.name];
            if (id == 0) id = addKernel(target, e.name, kindOfName(e.name), "", "");
            kernelId = id;
        }
        if (kernelId == 0) continue;
        launchOf(kernelId, {g}, g);
        ++m_summary.gpuLaunches;
    }
    EventRow row;
    row.category = "call";
    row.name = "compiled graph " + target.compileId +
               (target.graphKind.empty() ? "" : " " + passOfKind(target.graphKind));
    row.compileId = target.compileId == "profile" ? "" : target.compileId;
    row.startNs = startNs(callEvent);
    row.durationNs = durationNs(callEvent);
    row.detail = json{{"source", "torch.profiler"},
                      {"key", target.key.empty() ? graphKeyOf(callEvent.name) : target.key},
                      {"extern_ns", externNs},
                      {"linked", target.linked}}
                     .dump();
    events.push_back(std::move(row));
}

void Matcher::match() {
    nest();
    const std::vector<ProfileEvent>& ev = m_profile.events;
    // Times: the profile's clock is Unix epoch (baseTimeNanoseconds + ts); placed where it
    // happened relative to the run's start when that is after the start and within a day,
    // else right after the last thing the run recorded.
    double firstUs = 0;
    bool any = false;
    for (const ProfileEvent& e : ev)
        if (!any || e.tsUs < firstUs) {
            firstUs = e.tsUs;
            any = true;
        }
    int64_t firstAbs = m_profile.baseTimeNs + std::llround(firstUs * 1000.0);
    constexpr int64_t kDayNs = 86400LL * 1000 * 1000 * 1000;
    if (m_run.startedAtNs > 0 && firstAbs >= m_run.startedAtNs &&
        firstAbs - m_run.startedAtNs < kDayNs)
        m_offsetNs = m_profile.baseTimeNs - m_run.startedAtNs;
    else
        m_offsetNs = m_run.latestNs - std::llround(firstUs * 1000.0);

    std::vector<size_t> calls;
    for (size_t i = 0; i < ev.size(); ++i)
        if (!graphKeyOf(ev[i].name).empty()) calls.push_back(i);
    std::sort(calls.begin(), calls.end(),
              [&](size_t a, size_t b) { return ev[a].tsUs < ev[b].tsUs; });
    for (size_t call : calls)
        matchCall(call);

    // GPU work outside any graph call: a kernel whose name is one kernel of the run.
    for (size_t i = 0; i < ev.size(); ++i) {
        if (!isGpuActivity(ev[i]) || m_gpuTaken[i]) continue;
        auto byName = m_run.kernelsByName.find(ev[i].name);
        if (byName != m_run.kernelsByName.end() && byName->second.size() == 1) {
            launchOf(byName->second.front(), {i}, i);
            ++m_summary.gpuLaunches;
            continue;
        }
        forget("gpu", i, "");
        ++m_summary.unmatchedGpu;
    }
    // CPU ops outside compiled graphs: the top-level ones (eager code, the optimizer), not the
    // calls' ancestors (the compiled region, autograd's node for the backward).
    std::vector<bool> inCall(ev.size(), false), aroundCall(ev.size(), false);
    for (size_t call : calls) {
        for (int64_t at = m_parent[call]; at >= 0; at = m_parent[size_t(at)])
            aroundCall[size_t(at)] = true;
        std::vector<size_t> todo = {call};
        while (!todo.empty()) {
            size_t at = todo.back();
            todo.pop_back();
            inCall[at] = true;
            todo.insert(todo.end(), m_children[at].begin(), m_children[at].end());
        }
    }
    for (size_t i = 0; i < ev.size(); ++i) {
        if (ev[i].cat != "cpu_op" || inCall[i] || aroundCall[i]) continue;
        bool topLevel = true;
        for (int64_t at = m_parent[i]; at >= 0 && topLevel; at = m_parent[size_t(at)])
            topLevel = ev[size_t(at)].cat != "cpu_op" || aroundCall[size_t(at)];
        if (!topLevel) continue;
        forget("outside graphs", i, "");
        ++m_summary.outsideGraphs;
    }
    for (const auto& [key, u] : unmatched)
        if (key.starts_with("in graph\t")) m_summary.unmatchedInGraph += u.count;

    std::vector<const Target*> targets;
    for (const auto& t : m_run.logGraphs)
        if (t->calls) targets.push_back(t.get());
    for (const auto& [key, t] : m_profileTargets)
        targets.push_back(t.get());
    for (const Target* t : targets)
        m_summary.graphs.push_back({t->compileId, passOfKind(t->graphKind),
                                    t->key.empty() ? "" : t->key, t->linked, t->calls, t->totalNs,
                                    t->externNs});
    std::vector<std::pair<std::string, int64_t>> top;
    for (const auto& [key, u] : unmatched) {
        std::string text = key;
        text.replace(text.find('\t'), 1, ": ");
        top.emplace_back(text, u.count);
    }
    std::stable_sort(top.begin(), top.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (top.size() > 8) top.resize(8);
    m_summary.topUnmatched = std::move(top);
}

} // namespace kiln::importer::profile_detail
