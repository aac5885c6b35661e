// SPDX-License-Identifier: MIT
#include "import/profile_import.h"

#include "import/payload_text.h"
#include "trace/sqlite_handle.h"
#include "trace/trace_writer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sqlite3.h>
#include <unordered_map>

namespace kiln::importer {
namespace {

using nlohmann::json;

Diagnostic importError(std::string message) {
    return makeDiagnostic("ImportError", std::move(message));
}

std::string lower(std::string text) {
    for (char& c : text)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string idText(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_integer()) return std::to_string(value.get<int64_t>());
    if (value.is_number()) return std::to_string(int64_t(value.get<double>()));
    return "";
}

int64_t intArg(const json& args, const char* key, int64_t fallback) {
    auto it = args.find(key);
    if (it == args.end()) return fallback;
    if (it->is_number_integer()) return it->get<int64_t>();
    if (it->is_number_float()) return int64_t(it->get<double>());
    return fallback;
}

/// "[x, y, z]" as "(x, y, z)", the form kernel_launches keeps; empty when not three numbers.
std::string dims(const json& args, const char* key) {
    auto it = args.find(key);
    if (it == args.end() || !it->is_array() || it->size() != 3) return "";
    std::string text = "(";
    for (size_t i = 0; i < 3; ++i) {
        if (!(*it)[i].is_number()) return "";
        text += (i ? ", " : "") + std::to_string(int64_t((*it)[i].get<double>()));
    }
    return text + ")";
}

/// One traceEvents entry into \p profile, when it is a usable complete event.
void takeEvent(const json& entry, Profile& profile) {
    ++profile.records;
    if (!entry.is_object()) {
        ++profile.skipped;
        return;
    }
    auto ph = entry.find("ph");
    if (ph == entry.end() || !ph->is_string()) {
        ++profile.skipped;
        return;
    }
    if (ph->get<std::string>() != "X") {
        ++profile.otherPhases;
        return;
    }
    auto name = entry.find("name");
    auto ts = entry.find("ts");
    auto dur = entry.find("dur");
    if (name == entry.end() || !name->is_string() || ts == entry.end() || !ts->is_number() ||
        dur == entry.end() || !dur->is_number() || !std::isfinite(ts->get<double>()) ||
        !std::isfinite(dur->get<double>()) || dur->get<double>() < 0) {
        ++profile.skipped;
        return;
    }
    ProfileEvent event;
    event.index = profile.records;
    event.name = name->get<std::string>();
    if (auto cat = entry.find("cat"); cat != entry.end() && cat->is_string())
        event.cat = lower(cat->get<std::string>());
    if (auto pid = entry.find("pid"); pid != entry.end()) event.pid = idText(*pid);
    if (auto tid = entry.find("tid"); tid != entry.end()) event.tid = idText(*tid);
    event.tsUs = ts->get<double>();
    event.durUs = dur->get<double>();
    if (auto args = entry.find("args"); args != entry.end() && args->is_object()) {
        event.correlation = intArg(*args, "correlation", -1);
        event.device = intArg(*args, "device", -1);
        event.grid = dims(*args, "grid");
        event.block = dims(*args, "block");
        event.registers = int32_t(intArg(*args, "registers per thread", 0));
        event.sharedMemory = int32_t(intArg(*args, "shared memory", 0));
    }
    profile.events.push_back(std::move(event));
}

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

// ---------------------------------------------------------------------------------------------

/// A kernels row the import adds.
struct NewKernel {
    int64_t kernelId = 0;
    std::string compileId;
    int32_t graphIndex = 0;
    int64_t graphId = 0;
    std::string name, kind, nodes, source, graphKind;
};

/// What a compiled graph's calls are matched against.
struct Target {
    std::string key;
    std::string compileId;
    int32_t graphIndex = 0;
    int64_t graphId = 0; ///< 0: none
    std::string graphKind;
    bool linked = false;                ///< from the run's output code (else made from the profile)
    std::vector<ExternCall> externs;    ///< its extern calls, in call order
    std::vector<int64_t> externKernels; ///< their kernel ids (once planned)
    std::map<std::string, int64_t> kernelsByName;  ///< its Inductor kernels
    std::map<std::string, int64_t> profileSites;   ///< profile-only: "op#n" -> kernel
    std::map<std::string, int64_t> profileKernels; ///< profile-only: GPU kernel name -> kernel
    int64_t calls = 0, totalNs = 0, externNs = 0;
};

struct Launch {
    int64_t kernelId;
    int64_t startNs, endNs; // run-relative
    std::string device, grid, block;
    int32_t registers = 0, sharedMemory = 0;
};

struct EventRow {
    std::string category, name, compileId;
    int64_t startNs, durationNs;
    std::string detail;
};

struct Unmatched {
    int64_t count = 0;
    double totalUs = 0;
    int64_t firstIndex = 0;
    std::string compileId;
};

/// The run the profile goes into, as the trace has it.
struct RunState {
    int64_t startedAtNs = 0;
    int64_t latestNs = 0; ///< the latest run-relative time anything was recorded at
    int64_t nextKernelId = 1;
    std::vector<std::unique_ptr<Target>> logGraphs; ///< one per output code, log order
    std::map<std::string, Target*> byKey;           ///< fx graph cache key -> output code
    std::map<std::string, std::vector<int64_t>> kernelsByName; ///< every kernel of the run
};

Status readRun(const trace::Connection& db, int64_t runId, RunState& run) {
    auto started = trace::Statement::prepare(db, "SELECT started_at_ns FROM runs WHERE id = ?1");
    if (!started) return started.error();
    started->bindInt(1, runId);
    auto row = started->step("cannot read");
    if (!row) return row.error();
    if (!row.value())
        return importError("trace '" + db.path() + "' has no run " + std::to_string(runId) +
                           " (`kiln runs` lists them)");
    run.startedAtNs = started->columnInt(0);
    auto launches =
        trace::Statement::prepare(db, "SELECT count(*) FROM kernel_launches WHERE run_id = ?1");
    if (!launches) return launches.error();
    launches->bindInt(1, runId);
    if (auto r = launches->step("cannot read"); !r) return r.error();
    if (int64_t n = launches->columnInt(0); n > 0)
        return importError("run " + std::to_string(runId) + " of '" + db.path() + "' already has " +
                           std::to_string(n) +
                           " kernel launches (a Kiln run, or a profile imported before); import "
                           "the profile into a run imported from a TORCH_TRACE log, or into a "
                           "new trace with -o");
    auto latest = trace::Statement::prepare(
        db, "SELECT max(coalesce((SELECT max(start_ns + duration_ns) FROM events WHERE run_id = "
            "?1), 0), coalesce((SELECT max(start_ns + coalesce(duration_ns, 0)) FROM compiles "
            "WHERE run_id = ?1), 0))");
    if (!latest) return latest.error();
    latest->bindInt(1, runId);
    if (auto r = latest->step("cannot read"); !r) return r.error();
    run.latestNs = latest->columnInt(0);

    // The run's kernels in kernel id order: the log import numbered them output code by output
    // code, so walking the output codes (import_extras, log order) regroups them.
    struct Row {
        int64_t kernelId, graphId;
        std::string compileId, name, graphKind;
        int32_t graphIndex;
    };
    std::vector<Row> rows;
    auto kernels = trace::Statement::prepare(
        db, "SELECT kernel_id, coalesce(graph_id, 0), compile_id, graph_index, name, "
            "coalesce(graph_kind, '') FROM kernels WHERE run_id = ?1 ORDER BY kernel_id");
    if (!kernels) return kernels.error();
    kernels->bindInt(1, runId);
    for (;;) {
        auto r = kernels->step("cannot read");
        if (!r) return r.error();
        if (!r.value()) break;
        rows.push_back({kernels->columnInt(0), kernels->columnInt(1), kernels->columnText(2),
                        kernels->columnText(4), kernels->columnText(5),
                        int32_t(kernels->columnInt(3))});
        run.kernelsByName[rows.back().name].push_back(rows.back().kernelId);
        run.nextKernelId = std::max(run.nextKernelId, rows.back().kernelId + 1);
    }
    std::map<std::string, std::set<std::string>> aotKinds; // compile id -> graph kinds
    auto graphs = trace::Statement::prepare(
        db, "SELECT compile_id, coalesce(kind, 'dynamo') FROM graphs WHERE run_id = ?1");
    if (!graphs) return graphs.error();
    graphs->bindInt(1, runId);
    for (;;) {
        auto r = graphs->step("cannot read");
        if (!r) return r.error();
        if (!r.value()) break;
        aotKinds[graphs->columnText(0)].insert(graphs->columnText(1));
    }
    auto extras = trace::Statement::prepare(
        db, "SELECT kind, coalesce(compile_id, ''), coalesce(payload, '') FROM import_extras "
            "WHERE run_id = ?1 AND kind IN ('inductor_output_code', "
            "'artifact:fx_graph_cache_miss', 'artifact:fx_graph_cache_hit') ORDER BY line, id");
    if (!extras) return extras.error();
    extras->bindInt(1, runId);
    size_t cursor = 0;
    std::map<std::string, Target*> lastOfCompile;
    std::map<std::string, int> codesOfCompile;
    for (;;) {
        auto r = extras->step("cannot read");
        if (!r) return r.error();
        if (!r.value()) break;
        std::string kind = extras->columnText(0), compileId = extras->columnText(1);
        std::string payload = extras->columnText(2);
        if (kind != "inductor_output_code") {
            // The cache artifact follows the output code it keys (logged after compiling, or
            // after loading a hit), within the same compile.
            json artifact = json::parse(payload, nullptr, false);
            auto last = lastOfCompile.find(compileId);
            if (artifact.is_object() && artifact.contains("key") && artifact["key"].is_string() &&
                last != lastOfCompile.end() && last->second->key.empty()) {
                last->second->key = artifact["key"].get<std::string>();
                run.byKey[last->second->key] = last->second;
            }
            continue;
        }
        std::vector<KernelEvent> defined = parseOutputCode(payload);
        bool ours = cursor + defined.size() <= rows.size();
        for (size_t i = 0; ours && i < defined.size(); ++i)
            ours =
                rows[cursor + i].compileId == compileId && rows[cursor + i].name == defined[i].name;
        if (!ours) continue; // an output code the log import kept without kernels rows
        auto target = std::make_unique<Target>();
        target->compileId = compileId;
        target->linked = true;
        if (!defined.empty()) {
            target->graphIndex = rows[cursor].graphIndex;
            target->graphId = rows[cursor].graphId;
            target->graphKind = rows[cursor].graphKind;
        }
        for (size_t i = 0; i < defined.size(); ++i)
            target->kernelsByName[defined[i].name] = rows[cursor + i].kernelId;
        cursor += defined.size();
        // Which AOT graph: the log import's graph_kind, else the compile's AOT graphs (an
        // inference graph, or a forward's output code first and its backward's second).
        int nth = codesOfCompile[compileId]++;
        const std::set<std::string>& kinds = aotKinds[compileId];
        if (target->graphKind.empty()) {
            if (kinds.count("aot_inference"))
                target->graphKind = "aot_inference";
            else if (kinds.count("aot_forward"))
                target->graphKind = nth == 0 ? "aot_forward" : "aot_backward";
        }
        if (defined.empty() && !rows.empty()) {
            // No generated kernels: the graph is still the compile's Dynamo graph.
            for (const Row& row : rows)
                if (row.compileId == compileId) {
                    target->graphIndex = row.graphIndex;
                    target->graphId = row.graphId;
                    break;
                }
        }
        target->externs = parseExternCalls(payload);
        lastOfCompile[compileId] = target.get();
        run.logGraphs.push_back(std::move(target));
    }
    return Status();
}

/// The profile's events matched against a run: what to write.
class Matcher {
public:
    Matcher(const Profile& profile, RunState& run, ProfileSummary& summary)
        : m_profile(profile)
        , m_run(run)
        , m_summary(summary) {}

    void match();

    std::vector<NewKernel> newKernels;
    std::vector<Launch> launches;
    std::vector<EventRow> events;
    std::map<std::string, Unmatched> unmatched; ///< "where\tname" -> what

private:
    void nest();
    int64_t startNs(const ProfileEvent& e) const;
    int64_t durationNs(const ProfileEvent& e) const { return std::llround(e.durUs * 1000.0); }
    Target& targetFor(size_t call);
    int64_t addKernel(Target& target, std::string name, std::string kind, std::string nodes,
                      std::string source);
    void matchCall(size_t call);
    /// The GPU activities launched from inside event \p i (by correlation), in time order.
    std::vector<size_t> gpuUnder(size_t i) const;
    void launchOf(int64_t kernelId, const std::vector<size_t>& gpu, size_t cpuEvent);
    void forget(const std::string& where, size_t i, const std::string& compileId);

    const Profile& m_profile;
    RunState& m_run;
    ProfileSummary& m_summary;
    int64_t m_offsetNs = 0;        ///< added to ts (ns) to make it run-relative
    std::vector<int64_t> m_parent; ///< per event, -1 for none (same pid and tid)
    std::vector<std::vector<size_t>> m_children;
    std::unordered_map<int64_t, std::vector<size_t>> m_gpuByCorrelation;
    std::vector<bool> m_gpuTaken;
    std::map<std::string, std::unique_ptr<Target>> m_profileTargets; ///< by key
    int32_t m_nextProfileGraph = 0;
};

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

Status write(const trace::Connection& db, int64_t runId, const Matcher& m,
             ProfileSummary& summary) {
    auto kernel = trace::Statement::prepare(
        db, "INSERT INTO kernels(run_id, graph_id, compile_id, graph_index, kernel_id, name, kind, "
            "fused_nodes, source_code, launch_config, graph_kind) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
            "?7, ?8, ?9, NULL, ?10)");
    if (!kernel) return kernel.error();
    auto launch = trace::Statement::prepare(
        db, "INSERT INTO kernel_launches(run_id, kernel_id, start_ns, end_ns, device, grid, block, "
            "registers, shared_memory) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    if (!launch) return launch.error();
    auto event = trace::Statement::prepare(
        db, "INSERT INTO events(run_id, category, name, compile_id, start_ns, duration_ns, "
            "detail_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!event) return event.error();
    auto extra = trace::Statement::prepare(
        db, "INSERT INTO import_extras(run_id, line, kind, compile_id, envelope, payload) "
            "VALUES (?1, ?2, ?3, ?4, ?5, NULL)");
    if (!extra) return extra.error();
    if (Status s = db.exec("BEGIN IMMEDIATE", "cannot lock"); !s) return s;
    auto fail = [&](Status s) {
        (void)db.exec("ROLLBACK", "cannot roll back");
        return s;
    };
    for (const NewKernel& k : m.newKernels) {
        kernel->bindInt(1, runId);
        if (k.graphId)
            kernel->bindInt(2, k.graphId);
        else
            kernel->bindNull(2);
        kernel->bindText(3, k.compileId);
        kernel->bindInt(4, k.graphIndex);
        kernel->bindInt(5, k.kernelId);
        kernel->bindText(6, k.name);
        kernel->bindText(7, k.kind);
        kernel->bindTextOrNull(8, k.nodes);
        kernel->bindTextOrNull(9, k.source);
        kernel->bindTextOrNull(10, k.graphKind);
        if (Status s = kernel->run("cannot write to"); !s) return fail(s);
    }
    for (const Launch& l : m.launches) {
        launch->bindInt(1, runId);
        launch->bindInt(2, l.kernelId);
        launch->bindInt(3, l.startNs);
        launch->bindInt(4, l.endNs);
        launch->bindText(5, l.device);
        launch->bindTextOrNull(6, l.grid);
        launch->bindTextOrNull(7, l.block);
        launch->bindInt(8, l.registers);
        launch->bindInt(9, l.sharedMemory);
        if (Status s = launch->run("cannot write to"); !s) return fail(s);
    }
    for (const EventRow& e : m.events) {
        event->bindInt(1, runId);
        event->bindText(2, e.category);
        event->bindText(3, e.name);
        event->bindTextOrNull(4, e.compileId);
        event->bindInt(5, e.startNs);
        event->bindInt(6, e.durationNs);
        event->bindText(7, e.detail);
        if (Status s = event->run("cannot write to"); !s) return fail(s);
    }
    for (const auto& [key, u] : m.unmatched) {
        // bindText does not copy: the texts must live until run().
        size_t tab = key.find('\t');
        std::string kind = "profile:" + key.substr(0, tab);
        std::string compileId = u.compileId == "profile" ? "" : u.compileId;
        std::string envelope = json{
            {"name", key.substr(tab + 1)},
            {"where", key.substr(0, tab)},
            {"count", u.count},
            {"total_us", u.totalUs},
            {"profile",
             summary.profilePath}}.dump();
        extra->bindInt(1, runId);
        extra->bindInt(2, u.firstIndex);
        extra->bindText(3, kind);
        extra->bindTextOrNull(4, compileId);
        extra->bindText(5, envelope);
        if (Status s = extra->run("cannot write to"); !s) return fail(s);
        ++summary.extras;
    }
    return db.exec("COMMIT", "cannot commit to");
}

} // namespace

Expected<Profile> readProfile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return importError("cannot read '" + path + "': " + std::string(std::strerror(errno)));
    Profile profile;
    bool topIsObject = false, topIsArray = false, sawEvents = false;
    std::string topKey;
    // Each traceEvents entry is taken as soon as it is parsed and then dropped from the DOM
    // (the callback returns false), so memory holds the matched fields, not the JSON.
    json::parser_callback_t callback = [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth == 0 && event == json::parse_event_t::object_start) topIsObject = true;
        if (depth == 0 && event == json::parse_event_t::array_start) topIsArray = true;
        if (topIsObject && depth == 1 && event == json::parse_event_t::key) {
            topKey = parsed.is_string() ? parsed.get<std::string>() : "";
            sawEvents |= topKey == "traceEvents";
        }
        bool entryEnd = event == json::parse_event_t::object_end ||
                        event == json::parse_event_t::array_end ||
                        event == json::parse_event_t::value;
        bool inEvents =
            (topIsObject && depth == 2 && topKey == "traceEvents") || (topIsArray && depth == 1);
        if (inEvents && entryEnd) {
            takeEvent(parsed, profile);
            return false;
        }
        if (topIsObject && depth == 1 && event == json::parse_event_t::value &&
            topKey == "baseTimeNanoseconds" && parsed.is_number())
            profile.baseTimeNs = int64_t(parsed.get<double>());
        if (topIsObject && depth == 1 && event == json::parse_event_t::value &&
            topKey == "baseTimeNanoseconds" && parsed.is_number_integer())
            profile.baseTimeNs = parsed.get<int64_t>();
        return true;
    };
    try {
        json document = json::parse(in, callback);
        if (!document.is_object() && !document.is_array())
            return importError("'" + path +
                               "' is not a Chrome trace (a JSON object with traceEvents)");
    } catch (const json::parse_error& e) {
        return importError("'" + path + "' is not a complete Chrome trace: JSON " +
                           std::string(e.what()).substr(std::string(e.what()).find("parse error")) +
                           " (byte " + std::to_string(e.byte) + ")");
    } catch (const json::exception& e) {
        return importError("'" + path + "' is not a Chrome trace: " + e.what());
    }
    if (topIsObject && !sawEvents)
        return importError("'" + path + "' has no traceEvents: not a torch.profiler Chrome trace");
    return profile;
}

Expected<ProfileSummary> importProfile(const std::string& profilePath, const std::string& tracePath,
                                       int64_t runId) {
    auto profile = readProfile(profilePath);
    if (!profile) return profile.error();
    ProfileSummary summary;
    summary.profilePath = profilePath;
    summary.records = profile->records;
    summary.events = int64_t(profile->events.size());
    summary.skipped = profile->skipped;
    {
        // Opening a writer checks the file is a Kiln trace and upgrades an older schema.
        auto writer = trace::TraceWriter::open(tracePath);
        if (!writer) return writer.error();
        if (runId == 0) {
            trace::RunInfo info;
            info.workloadPath = profilePath;
            info.mode = "imported";
            info.argv = {"kiln", "import", profilePath};
            info.pid = -1;
            double firstUs = 0;
            for (size_t i = 0; i < profile->events.size(); ++i)
                if (i == 0 || profile->events[i].tsUs < firstUs) firstUs = profile->events[i].tsUs;
            if (profile->baseTimeNs > 0)
                info.startedAtNs = profile->baseTimeNs + std::llround(firstUs * 1000.0);
            auto id = writer.value()->beginRun(info);
            if (!id) return id.error();
            runId = id.value();
            summary.newRun = true;
            if (Status s = writer.value()->finishRun(trace::RunStatus::Ok, 0); !s) return s.error();
        }
    }
    summary.runId = runId;
    auto db = trace::Connection::open(tracePath, SQLITE_OPEN_READWRITE);
    if (!db) return db.error();
    db->setBusyTimeout(30000);
    RunState run;
    if (Status s = readRun(db.value(), runId, run); !s) return s.error();
    if (summary.newRun) run.latestNs = 0;
    Matcher matcher(profile.value(), run, summary);
    matcher.match();
    if (Status s = write(db.value(), runId, matcher, summary); !s) {
        if (summary.newRun)
            (void)db->exec("UPDATE runs SET status = 'error', error_type = 'ImportError', "
                           "error_message = 'the profile could not be written' WHERE id = " +
                               std::to_string(runId),
                           "cannot mark");
        return s.error();
    }
    return summary;
}

} // namespace kiln::importer
