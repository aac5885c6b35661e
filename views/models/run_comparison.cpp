// SPDX-License-Identifier: MIT
#include "run_comparison.h"

#include "graph_name.h"
#include "node_name.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace kiln::views {

namespace {

/// A kernel of either run, placed in its graph, with the nodes it computes.
struct Placed {
    const RunSnapshot* run = nullptr;
    const KernelRecord* record = nullptr;
    bool inB = false;
    std::vector<std::string> nodes;
};

std::vector<std::string> splitNodes(const std::string& fusedNodes) {
    std::vector<std::string> nodes;
    for (const QString& part : QString::fromStdString(fusedNodes).split(',', Qt::SkipEmptyParts))
        if (QString name = part.trimmed(); !name.isEmpty()) nodes.push_back(name.toStdString());
    return nodes;
}

/// Each frame's (function, ordinal among the run's frames of that name by definition line).
std::map<int64_t, std::pair<std::string, int32_t>> frameIdentities(const RunSnapshot& s) {
    std::map<std::string, std::vector<const trace::FrameRow*>> byName;
    for (const trace::FrameRow& f : s.frames)
        byName[f.function].push_back(&f);
    std::map<int64_t, std::pair<std::string, int32_t>> out;
    for (auto& [name, frames] : byName) {
        std::sort(frames.begin(), frames.end(), [](const auto* x, const auto* y) {
            return std::pair(x->line, x->frameId) < std::pair(y->line, y->frameId);
        });
        for (size_t i = 0; i < frames.size(); ++i)
            out[frames[i]->frameId] = {name, static_cast<int32_t>(i)};
    }
    return out;
}

/// The graph indices of each compile, sorted (from the graphs and from the kernels, since a
/// live run reports kernels before their graph).
std::map<std::string, std::vector<int32_t>> graphIndicesByCompile(const RunSnapshot& s) {
    std::map<std::string, std::set<int32_t>> sets;
    for (const trace::GraphRow& g : s.graphs)
        sets[g.compileId].insert(g.graphIndex);
    for (const KernelRecord& k : s.kernels)
        sets[k.kernel.compileId].insert(k.kernel.graphIndex);
    std::map<std::string, std::vector<int32_t>> out;
    for (auto& [compileId, indices] : sets)
        out[compileId] = {indices.begin(), indices.end()};
    return out;
}

/// Why these fields: compile ids ("f/c") number frames in the order they were first compiled
/// and graph indices count graphs across the whole run, so one extra break or recompile early
/// in one mode shifts every id after it. What the user wrote does not shift: the function's
/// name (same-named functions told apart by where they are defined, not the line itself, which
/// an edit between runs moves), which cache entry of it, and which graph of that compile.
/// Graph row ids are database ids and differ between any two runs.
class GraphKeys {
public:
    explicit GraphKeys(const RunSnapshot& s)
        : m_snapshot(s)
        , m_frames(frameIdentities(s))
        , m_graphIndices(graphIndicesByCompile(s)) {}

    GraphKey of(const trace::KernelRow& k) const {
        GraphKey key{"compile " + k.compileId, 0, 0, graphInCompile(k), {}};
        if (k.graphKind == "aot_forward" || k.graphKind == "aot_backward") key.pass = k.graphKind;
        const trace::CompileRow* c = m_snapshot.compile(k.compileId);
        if (!c) return key; // a live run: the compile row is not committed yet
        key.compileIndex = c->compileIndex;
        if (auto f = m_frames.find(c->frameId); f != m_frames.end())
            std::tie(key.function, key.functionOrdinal) = f->second;
        return key;
    }

private:
    int32_t graphInCompile(const trace::KernelRow& k) const {
        auto it = m_graphIndices.find(k.compileId);
        if (it == m_graphIndices.end()) return 0;
        auto at = std::lower_bound(it->second.begin(), it->second.end(), k.graphIndex);
        return static_cast<int32_t>(at - it->second.begin());
    }

    const RunSnapshot& m_snapshot;
    std::map<int64_t, std::pair<std::string, int32_t>> m_frames;
    std::map<std::string, std::vector<int32_t>> m_graphIndices;
};

void placeKernels(const RunSnapshot& s, bool inB, std::map<GraphKey, std::vector<Placed>>& out) {
    GraphKeys keys(s);
    for (const KernelRecord& k : s.kernels) {
        std::vector<std::string> nodes = splitNodes(k.kernel.fusedNodes);
        // A kernel that names no nodes can only match a kernel of the same name.
        if (nodes.empty()) nodes.push_back("[" + k.kernel.name + "]");
        out[keys.of(k.kernel)].push_back({&s, &k, inB, std::move(nodes)});
    }
}

/// Union-find over the kernels of one graph: two kernels that compute a common node (in either
/// run) end up in the same component.
class Components {
public:
    explicit Components(const std::vector<Placed>& items)
        : m_parent(items.size()) {
        std::iota(m_parent.begin(), m_parent.end(), size_t(0));
        std::map<std::string, size_t> owner;
        for (size_t i = 0; i < items.size(); ++i)
            for (const std::string& node : items[i].nodes)
                if (auto [it, fresh] = owner.emplace(node, i); !fresh) unite(it->second, i);
    }
    size_t root(size_t i) {
        while (m_parent[i] != i)
            i = m_parent[i] = m_parent[m_parent[i]];
        return i;
    }

private:
    void unite(size_t x, size_t y) { m_parent[root(x)] = root(y); }
    std::vector<size_t> m_parent;
};

/// A graph's nodes by name: their position in the graph and how people read them.
struct NodeIndex {
    std::map<std::string, int32_t> order;
    std::map<std::string, std::string> label;
};

NodeIndex nodeIndex(const RunSnapshot& s, int64_t graphId) {
    NodeIndex index;
    for (const trace::GraphNodeRow& n : s.nodesOf(graphId)) {
        index.order[n.name] = n.order;
        index.label[n.name] = nodeLabel(n);
    }
    return index;
}

/// Each kernel's launch durations, in launch order.
using Durations = std::map<int64_t, std::vector<int64_t>>;

Durations durationsByKernel(const RunSnapshot& s) {
    Durations out;
    for (const trace::KernelLaunchRow& l : s.launches)
        out[l.kernelId].push_back(l.durationNs());
    return out;
}

/// What makes a kernel the same kernel in two runs of one configuration: its graph, name and
/// nodes (ids differ between runs; names repeat within a graph).
using KernelIdentity = std::tuple<GraphKey, std::string, std::string>;

/// \p run's launch durations by kernel, followed for each of \p replicates' matching kernels
/// by that run's warm launches (its own first, cold, launch dropped): one sample of the
/// configuration over several runs, whose first launch is still \p run's cold one.
Durations pooledDurations(const RunSnapshot& run,
                          const std::vector<const RunSnapshot*>& replicates) {
    Durations out = durationsByKernel(run);
    if (replicates.empty()) return out;
    std::map<KernelIdentity, int64_t> idOf;
    GraphKeys keys(run);
    for (const KernelRecord& k : run.kernels)
        idOf.emplace(KernelIdentity{keys.of(k.kernel), k.kernel.name, k.kernel.fusedNodes},
                     k.kernel.kernelId);
    for (const RunSnapshot* replicate : replicates) {
        GraphKeys replicaKeys(*replicate);
        Durations own = durationsByKernel(*replicate);
        for (const KernelRecord& k : replicate->kernels) {
            auto id = idOf.find({replicaKeys.of(k.kernel), k.kernel.name, k.kernel.fusedNodes});
            auto launches = own.find(k.kernel.kernelId);
            if (id == idOf.end() || launches == own.end() || launches->second.size() < 2) continue;
            std::vector<int64_t>& pooled = out[id->second];
            pooled.insert(pooled.end(), launches->second.begin() + 1, launches->second.end());
        }
    }
    return out;
}

WarmTimes warmTimes(const std::vector<int64_t>* durations) {
    WarmTimes w;
    if (!durations || durations->empty()) return w;
    w.coldNs = durations->front();
    std::vector<int64_t> warm(durations->begin() + 1, durations->end());
    w.count = static_cast<int64_t>(warm.size());
    if (warm.empty()) return w;
    std::sort(warm.begin(), warm.end());
    auto at = [&](double q) { return warm[static_cast<size_t>(q * double(warm.size() - 1))]; };
    w.minNs = warm.front();
    w.medianNs = at(0.5);
    w.p90Ns = at(0.9);
    return w;
}

void addKernel(ComparisonSide& side, const Placed& p, const Durations& durations) {
    const KernelRecord& k = *p.record;
    std::vector<trace::AutotuneChoiceRow> choices;
    for (const trace::AutotuneChoiceRow* c : p.run->choicesOf(k.kernel.kernelId))
        choices.push_back(*c);
    auto found = durations.find(k.kernel.kernelId);
    WarmTimes warm = warmTimes(found == durations.end() ? nullptr : &found->second);
    side.kernels.push_back({k.kernel.kernelId, k.kernel.name, k.kernel.kind, k.launches.count,
                            k.launches.totalNs, k.launches.medianNs, std::move(choices), warm});
    side.totalNs += k.launches.totalNs;
    side.medianNs += k.launches.medianNs;
    side.warmMedianNs += warm.medianNs;
    side.warmLowNs += warm.minNs;
    side.warmHighNs += warm.p90Ns;
}

/// A node's position in its graph; nodes the graph does not list (e.g. "[kernel]") go last.
int32_t positionIn(const std::map<std::string, int32_t>& order, const std::string& node) {
    auto it = order.find(node);
    return it == order.end() ? std::numeric_limits<int32_t>::max() : it->second;
}

std::vector<std::string> orderedNodes(const std::set<std::string>& nodes,
                                      const std::map<std::string, int32_t>& order) {
    std::vector<std::string> out(nodes.begin(), nodes.end());
    std::stable_sort(out.begin(), out.end(), [&](const std::string& x, const std::string& y) {
        return positionIn(order, x) < positionIn(order, y);
    });
    return out;
}

ComparisonRow makeRow(const GraphKey& key, const std::vector<const Placed*>& members,
                      const NodeIndex& index, const Durations& a, const Durations& b) {
    ComparisonRow row;
    row.graph = key;
    std::set<std::string> nodes;
    for (const Placed* p : members) {
        addKernel(p->inB ? row.b : row.a, *p, p->inB ? b : a);
        (p->inB ? row.graphIdB : row.graphIdA) = p->record->kernel.graphId;
        nodes.insert(p->nodes.begin(), p->nodes.end());
    }
    row.nodes = orderedNodes(nodes, index.order);
    for (const std::string& node : row.nodes) {
        auto label = index.label.find(node);
        row.nodeLabels.push_back(label == index.label.end() ? node : label->second);
    }
    for (ComparisonSide* side : {&row.a, &row.b})
        std::stable_sort(side->kernels.begin(), side->kernels.end(),
                         [](const auto& x, const auto& y) { return x.totalNs > y.totalNs; });
    row.status = !row.b.present()   ? MatchStatus::OnlyInA
                 : !row.a.present() ? MatchStatus::OnlyInB
                                    : MatchStatus::Matched;
    return row;
}

std::vector<ComparisonRow> matchGraph(const GraphKey& key, const std::vector<Placed>& items,
                                      const RunSnapshot& a, const RunSnapshot& b,
                                      const Durations& durationsA, const Durations& durationsB) {
    Components components(items);
    std::map<size_t, std::vector<const Placed*>> byRoot;
    std::vector<size_t> roots; // in the order components first appear (ties in graph order)
    for (size_t i = 0; i < items.size(); ++i) {
        size_t r = components.root(i);
        if (byRoot[r].empty()) roots.push_back(r);
        byRoot[r].push_back(&items[i]);
    }
    const Placed& first = items.front();
    const NodeIndex index = nodeIndex(first.inB ? b : a, first.record->kernel.graphId);
    std::vector<ComparisonRow> rows;
    for (size_t r : roots)
        rows.push_back(makeRow(key, byRoot[r], index, durationsA, durationsB));
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& x, const auto& y) {
        return positionIn(index.order, x.nodes.front()) < positionIn(index.order, y.nodes.front());
    });
    return rows;
}

} // namespace

QString ComparisonRow::label() const {
    QString name = QString::fromStdString(graph.function);
    if (graph.functionOrdinal > 0) name += QString("#%1").arg(graph.functionOrdinal + 1);
    QStringList graphs;
    for (int64_t id : {graphIdA, graphIdB})
        if (id > 0 && !graphs.contains(graphName(id))) graphs << graphName(id);
    if (!graphs.isEmpty()) name += QStringLiteral(" · ") + graphs.join(QStringLiteral(" / "));
    if (graph.pass == "aot_backward") name += QStringLiteral(" · backward");
    if (graph.pass == "aot_forward") name += QStringLiteral(" · forward");
    return name;
}

QString ComparisonSide::names() const {
    QStringList list;
    for (const ComparedKernel& k : kernels)
        list << QString::fromStdString(k.name);
    return list.join(" + ");
}

QString matchStatusName(MatchStatus status) {
    switch (status) {
    case MatchStatus::Matched:
        return QStringLiteral("matched");
    case MatchStatus::OnlyInA:
        return QStringLiteral("only in A");
    case MatchStatus::OnlyInB:
        return QStringLiteral("only in B");
    }
    return {};
}

bool ComparisonSide::measured() const {
    return present() && std::all_of(kernels.begin(), kernels.end(), [](const ComparedKernel& k) {
               return k.warm.count >= kMinWarmLaunches;
           });
}

int64_t ComparisonRow::perCallNs(const ComparisonSide& side) const {
    if (!side.present()) return 0;
    return a.measured() && b.measured() ? side.warmMedianNs : side.medianNs;
}

std::optional<double> ComparisonRow::ratio() const {
    if (status != MatchStatus::Matched || perCallNs(a) <= 0) return std::nullopt;
    return static_cast<double>(perCallNs(b)) / static_cast<double>(perCallNs(a));
}

bool ComparisonRow::significant() const {
    if (sameConfiguration || status != MatchStatus::Matched || !a.measured() || !b.measured())
        return false;
    return b.warmLowNs > a.warmHighNs || b.warmHighNs < a.warmLowNs;
}

QString ComparisonRow::nodesText() const {
    QStringList list;
    for (const std::string& n : nodeLabels.size() == nodes.size() ? nodeLabels : nodes)
        list << QString::fromStdString(n);
    return list.join(", ");
}

namespace {

/// Each measured function's call times over \p runs (a run and its replicates), in the order
/// of its first timed call.
std::vector<MeasuredCalls> measuredCalls(const std::vector<const RunSnapshot*>& runs) {
    std::vector<std::pair<std::string, std::vector<int64_t>>> times;
    for (const RunSnapshot* run : runs)
        for (const trace::EventRow& e : run->events) {
            if (e.category != "measure") continue;
            auto it = std::find_if(times.begin(), times.end(),
                                   [&](const auto& f) { return f.first == e.name; });
            if (it == times.end()) it = times.insert(times.end(), {e.name, {}});
            it->second.push_back(e.durationNs);
        }
    std::vector<MeasuredCalls> out;
    for (auto& [function, ns] : times) {
        std::sort(ns.begin(), ns.end());
        auto at = [&ns](double q) {
            size_t rank = static_cast<size_t>(q * static_cast<double>(ns.size() - 1) + 0.5);
            return ns[std::min(rank, ns.size() - 1)];
        };
        out.push_back({function, static_cast<int64_t>(ns.size()), ns.front(), at(0.5), at(0.9)});
    }
    return out;
}

} // namespace

std::optional<MeasuredRatio> measuredRatio(const MeasuredCalls& a, const MeasuredCalls& b) {
    if (a.count == 0 || b.count == 0 || a.medianNs <= 0) return std::nullopt;
    MeasuredRatio r;
    r.ratio = static_cast<double>(b.medianNs) / static_cast<double>(a.medianNs);
    r.significant = a.count >= kMinWarmLaunches && b.count >= kMinWarmLaunches &&
                    (b.minNs > a.p90Ns || b.p90Ns < a.minNs);
    return r;
}

bool sameConfiguration(const RunSnapshot& a, const RunSnapshot& b) {
    auto options = [](const RunSnapshot& s) {
        std::map<std::string, std::string> out;
        for (const trace::ConfigRow& c : s.config)
            out[c.key] = c.value;
        return out;
    };
    const trace::RunRow &x = a.run, &y = b.run;
    return !x.workloadHash.empty() && x.workloadHash == y.workloadHash && x.device == y.device &&
           x.backend == y.backend && x.mode == y.mode && x.optionsJson == y.optionsJson &&
           options(a) == options(b);
}

RunTotals runTotals(const RunSnapshot& run, const std::vector<const RunSnapshot*>& replicates) {
    RunTotals t;
    std::vector<const RunSnapshot*> runs{&run};
    runs.insert(runs.end(), replicates.begin(), replicates.end());
    t.measured = measuredCalls(runs);
    t.runs = static_cast<int>(runs.size());
    for (const trace::EventRow& e : run.events) {
        if (e.category != "compile" || e.name != "kernel_cache") continue;
        QJsonObject detail =
            QJsonDocument::fromJson(QByteArray::fromStdString(e.detailJson)).object();
        t.compiledKernels += detail.value("kernels").toInteger();
        t.cachedKernels +=
            detail.value("memory_hits").toInteger() + detail.value("disk_hits").toInteger();
    }
    for (const trace::AutotuneChoiceRow& c : run.autotuneChoices) {
        ++t.tuningCandidates;
        if (c.fromCache.value_or(false)) ++t.tunedFromCache;
    }
    if (run.run.endedAtNs) t.wallNs = *run.run.endedAtNs - run.run.startedAtNs;
    t.kernelNs = run.totalKernelNs();
    for (const trace::CompileRow& c : run.compiles)
        t.compileNs += c.durationNs.value_or(0);
    t.kernelCount = static_cast<int64_t>(run.kernels.size());
    t.launchCount = static_cast<int64_t>(run.launches.size());
    return t;
}

RunComparison compareRuns(const RunSnapshot& a, const RunSnapshot& b) {
    return compareRuns(ComparedRuns{&a, {}}, ComparedRuns{&b, {}});
}

RunComparison compareRuns(const ComparedRuns& givenA, const ComparedRuns& givenB) {
    // A replicate that ran something else (another mode, other options) is not a sample of
    // the same configuration: it is left out.
    auto samples = [](const ComparedRuns& side) {
        ComparedRuns out{side.run, {}};
        for (const RunSnapshot* r : side.replicates)
            if (r && sameConfiguration(*side.run, *r)) out.replicates.push_back(r);
        return out;
    };
    const ComparedRuns sideA = samples(givenA), sideB = samples(givenB);
    const RunSnapshot& a = *sideA.run;
    const RunSnapshot& b = *sideB.run;
    std::map<GraphKey, std::vector<Placed>> byGraph;
    placeKernels(a, false, byGraph);
    placeKernels(b, true, byGraph);
    RunComparison out{runTotals(a, sideA.replicates),
                      runTotals(b, sideB.replicates),
                      sameConfiguration(a, b),
                      {}};
    Durations durationsA = pooledDurations(a, sideA.replicates);
    Durations durationsB = pooledDurations(b, sideB.replicates);
    for (const auto& [key, items] : byGraph)
        for (ComparisonRow& row : matchGraph(key, items, a, b, durationsA, durationsB)) {
            row.sameConfiguration = out.sameConfiguration;
            out.rows.push_back(std::move(row));
        }
    return out;
}

QString cacheText(int64_t cached, int64_t of) {
    if (of <= 0) return {};
    const char* state = cached == of ? "warm" : cached == 0 ? "cold" : "partly warm";
    return QString("%1 of %2 from the cache (%3)").arg(cached).arg(of).arg(state);
}

QString runLabel(const trace::RunRow& run, const RunSnapshot* snapshot) {
    std::string backend = run.backend;
    if (backend.empty() && snapshot)
        for (const trace::CompileRow& c : snapshot->compiles)
            if (!c.backend.empty()) {
                backend = c.backend;
                break;
            }
    QStringList parts{QString("#%1 %2").arg(run.id).arg(
        QString::fromStdString(run.mode.empty() ? "default" : run.mode))};
    if (!backend.empty()) parts << QString::fromStdString(backend);
    parts << trace::runStatusName(run.status);
    return parts.join(" · ");
}

} // namespace kiln::views
