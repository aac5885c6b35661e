// SPDX-License-Identifier: MIT
/// \file
/// Builds the compile tree of one snapshot. Every lookup a row needs is indexed once here (by
/// frame, compile id and graph), so a run with thousands of graphs builds in one pass.
#include "compile_tree_build.h"

#include "counted.h"
#include "eager_calls.h"
#include "graph_name.h"

#include <QFileInfo>
#include <QStringList>
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace kiln::views {

using Node = CompileTreeModel::Node;

Node* Node::adopt(std::unique_ptr<Node> child) {
    child->parent = this;
    child->row = static_cast<int>(children.size());
    children.push_back(std::move(child));
    return children.back().get();
}

QString frameKey(qint64 frameId) {
    return QStringLiteral("f:%1").arg(frameId);
}
QString compileKey(const QString& compileId) {
    return QStringLiteral("c:") + compileId;
}
QString graphKey(qint64 graphId) {
    return QStringLiteral("g:%1").arg(graphId);
}
QString kernelKey(qint64 kernelId) {
    return QStringLiteral("k:%1").arg(kernelId);
}

bool growsInto(Node& shown, Node& fresh, std::vector<ChangedNode>& changed) {
    if (fresh.children.size() < shown.children.size()) return false;
    for (size_t i = 0; i < shown.children.size(); ++i) {
        Node& s = *shown.children[i];
        Node& f = *fresh.children[i];
        if (s.key != f.key) return false;
        if (!(s.data == f.data)) changed.push_back({&s, &f});
        if (!growsInto(s, f, changed)) return false;
    }
    return true;
}

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

QString ms(int64_t ns) {
    return QString::number(static_cast<double>(ns) * 1e-6, 'f', 3) + " ms";
}

/// The snapshot's rows indexed by what the tree hangs them under.
struct TreeIndex {
    std::unordered_map<int64_t, std::vector<const trace::CompileRow*>> compilesByFrame;
    std::map<std::string, std::vector<const trace::GraphRow*>> graphsByCompile;
    std::unordered_map<int64_t, std::vector<const KernelRecord*>> kernelsByGraph;
    /// The forward and backward graphs of each training graph (not joint or inference ones).
    std::unordered_map<int64_t, std::vector<const trace::GraphRow*>> aotByGraph;
    std::unordered_map<int64_t, const trace::FrameRow*> frames;
    /// For each new compile, the guard that failed in each older entry.
    std::map<std::string, std::vector<const trace::RecompileRow*>> failuresOf;
    /// For each entry whose guards later failed, the first compile that replaced it.
    std::map<std::string, const trace::RecompileRow*> replacedBy;
    std::map<std::string, const trace::GraphBreakRow*> breakOf;
    /// Calls past cache_size_limit that ran eagerly ("cache_limit" events), by frame.
    std::unordered_map<int64_t, EagerCalls> eagerByFrame;

    explicit TreeIndex(const RunSnapshot& s);
    int64_t graphIdOf(const trace::KernelRow& k) const;
};

TreeIndex::TreeIndex(const RunSnapshot& s) {
    for (const trace::FrameRow& f : s.frames)
        frames.emplace(f.frameId, &f);
    for (const trace::CompileRow& c : s.compiles)
        compilesByFrame[c.frameId].push_back(&c);
    for (const trace::GraphRow& g : s.graphs)
        graphsByCompile[g.compileId].push_back(&g);
    for (auto& [id, graphs] : graphsByCompile)
        std::stable_sort(graphs.begin(), graphs.end(),
                         [](auto* a, auto* b) { return a->graphIndex < b->graphIndex; });
    for (const trace::GraphRow& g : s.aotGraphs)
        if (g.kind == "aot_forward" || g.kind == "aot_backward")
            aotByGraph[g.dynamoGraphId].push_back(&g);
    for (const KernelRecord& k : s.kernels)
        if (int64_t graphId = graphIdOf(k.kernel)) kernelsByGraph[graphId].push_back(&k);
    for (auto& [id, kernels] : kernelsByGraph)
        std::stable_sort(kernels.begin(), kernels.end(),
                         [](auto* a, auto* b) { return a->kernel.kernelId < b->kernel.kernelId; });
    for (const trace::RecompileRow& r : s.recompiles) {
        failuresOf[r.compileId].push_back(&r);
        replacedBy.emplace(r.failedCompileId, &r); // the first (oldest) replacement wins
    }
    for (const trace::GraphBreakRow& b : s.graphBreaks)
        breakOf.emplace(b.compileId, &b);
    eagerByFrame = eagerCallsByFrame(s);
}

/// A kernel written before capture reported its graph has no graph id yet: find the graph by
/// compile id and index instead.
int64_t TreeIndex::graphIdOf(const trace::KernelRow& k) const {
    if (k.graphId) return k.graphId;
    auto it = graphsByCompile.find(k.compileId);
    if (it == graphsByCompile.end()) return 0;
    for (const trace::GraphRow* g : it->second)
        if (g->graphIndex == k.graphIndex) return g->id;
    return 0;
}

CompileTreeStatus statusOf(const trace::CompileRow& c, bool replaced) {
    if (!c.finished()) return CompileTreeStatus::Compiling;
    if (c.status == "failed") return CompileTreeStatus::Failed;
    if (c.status == "skipped" || c.status == "no_ops") return CompileTreeStatus::Skipped;
    if (replaced) return CompileTreeStatus::Recompiled;
    if (c.status == "break") return CompileTreeStatus::Break;
    return CompileTreeStatus::Ok;
}

QString failureLine(const trace::RecompileRow& r) {
    if (r.guardSource.empty()) return text(r.reason); // an imported reason, as PyTorch wrote it
    return QString("%1: %2 expected %3, actual %4")
        .arg(text(r.failedCompileId), text(r.guardSource), text(r.expected), text(r.actual));
}

// --- kernels and graphs -----------------------------------------------------------------------

std::unique_ptr<Node> kernelNode(const KernelRecord& k, const Node& graph) {
    auto n = std::make_unique<Node>();
    n->kind = CompileTreeKind::Kernel;
    n->frameId = graph.frameId;
    n->compileId = graph.compileId;
    n->graphId = graph.graphId;
    n->kernelId = k.kernel.kernelId;
    n->key = kernelKey(n->kernelId);
    const trace::KernelLaunchStats& l = k.launches;
    NodeData& d = n->data;
    d.name = text(k.kernel.name);
    d.status = l.count > 0 ? CompileTreeStatus::Ok : CompileTreeStatus::Skipped;
    d.statusText = l.count > 0 ? QStringLiteral("launched") : QStringLiteral("never launched");
    d.kernelMs = static_cast<double>(l.totalNs) * 1e-6;
    d.launches = l.count;
    QString fused = text(k.kernel.fusedNodes).replace(',', QStringLiteral(", "));
    d.detail = fused.isEmpty() ? text(k.kernel.kind) : text(k.kernel.kind) + " · " + fused;
    d.toolTip = QString("%1 kernel %2").arg(text(k.kernel.kind), d.name);
    if (!fused.isEmpty()) d.toolTip += "\nfuses " + fused;
    if (l.count > 0)
        d.toolTip += QString("\n%1: total %2, median %3, min %4, max %5")
                         .arg(counted(l.count, "launch"))
                         .arg(ms(l.totalNs), ms(l.medianNs), ms(l.minNs), ms(l.maxNs));
    else
        d.toolTip += "\nnever launched";
    return n;
}

/// Adds up the kernel time and launches of \p n's children into \p n.
void sumChildren(Node& n) {
    double kernelMs = 0;
    qint64 launches = 0;
    for (const auto& c : n.children) {
        kernelMs += c->data.kernelMs.value_or(0);
        launches += c->data.launches.value_or(0);
    }
    n.data.kernelMs = kernelMs;
    n.data.launches = launches;
}

QString bytesText(int64_t bytes) {
    if (bytes < 1024) return QString("%1 B").arg(bytes);
    if (bytes < 1024 * 1024) return QString("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
    return QString("%1 MiB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

/// A training graph's forward or backward graph, holding the kernels that compute it. Selecting
/// it selects its graph (the Graph panel's Forward and Backward views show its code).
std::unique_ptr<Node> aotGraphNode(const trace::GraphRow& a, const Node& graph,
                                   const std::vector<const KernelRecord*>& kernels) {
    auto n = std::make_unique<Node>();
    n->kind = CompileTreeKind::AotGraph;
    n->frameId = graph.frameId;
    n->compileId = graph.compileId;
    n->graphId = graph.graphId;
    n->key = QStringLiteral("a:%1").arg(a.id);
    for (const KernelRecord* k : kernels)
        if (k->kernel.graphKind == a.kind) n->adopt(kernelNode(*k, *n));
    const bool forward = a.kind == "aot_forward";
    NodeData& d = n->data;
    d.name = (forward ? QStringLiteral("forward · ") : QStringLiteral("backward · ")) +
             counted(a.opCount, "op");
    d.status = graph.data.status;
    d.statusText = graph.data.statusText;
    sumChildren(*n);
    d.detail = counted(qsizetype(n->children.size()), "kernel");
    d.toolTip = QString("AOT autograd's %1 graph (graph %2)")
                    .arg(forward ? "forward" : "backward")
                    .arg(a.id);
    if (forward && !a.savedTensors.empty()) { // an imported PyTorch run's graphs do not say
        d.detail += QString(" · saves %1, %2")
                        .arg(counted(a.savedCount, "tensor"), bytesText(a.savedBytes));
        d.toolTip += QString("\nsaved for the backward (%1):").arg(bytesText(a.savedBytes));
        for (const trace::SavedTensor& t : trace::savedTensorsOf(a))
            d.toolTip += QString("\n  %1  %2%3  %4")
                             .arg(text(t.name), text(t.dtype).section('.', -1), text(t.shape),
                                  bytesText(t.bytes));
    }
    return n;
}

/// A graph is named by its graph id, as everywhere (graph_name.h). A training graph's kernels
/// hang under its forward and backward graphs.
std::unique_ptr<Node> graphNode(const trace::GraphRow& g, const Node& compile,
                                const TreeIndex& index) {
    auto n = std::make_unique<Node>();
    n->kind = CompileTreeKind::Graph;
    n->frameId = compile.frameId;
    n->compileId = compile.compileId;
    n->graphId = g.id;
    n->key = graphKey(g.id);
    std::vector<const KernelRecord*> kernels;
    if (auto it = index.kernelsByGraph.find(g.id); it != index.kernelsByGraph.end())
        kernels = it->second;
    n->data.status = compile.data.status;
    n->data.statusText = compile.data.statusText;
    auto aot = index.aotByGraph.find(g.id);
    if (aot != index.aotByGraph.end())
        for (const trace::GraphRow* a : aot->second)
            n->adopt(aotGraphNode(*a, *n, kernels));
    for (const KernelRecord* k : kernels)
        if (aot == index.aotByGraph.end() ||
            (k->kernel.graphKind != "aot_forward" && k->kernel.graphKind != "aot_backward"))
            n->adopt(kernelNode(*k, *n));
    NodeData& d = n->data;
    d.name = graphName(g.id) + QStringLiteral(" · ") + counted(g.opCount, "op");
    sumChildren(*n);
    d.detail = QString("%1 · %2").arg(counted(g.nodeCount, "node"),
                                      counted(qsizetype(kernels.size()), "kernel"));
    QStringList code = text(g.readableCode).split('\n');
    const qsizetype shown = std::min<qsizetype>(code.size(), 24);
    d.toolTip = QString("%1 of compile %2\n\n").arg(graphName(g.id), compile.compileId) +
                code.mid(0, shown).join('\n') + (code.size() > shown ? "\n…" : "");
    return n;
}

// --- compiles and frames ----------------------------------------------------------------------

QString compileDetail(const trace::CompileRow& c, const TreeIndex& index) {
    if (!c.failure.empty()) return text(c.failure).section('\n', 0, 0);
    QStringList parts;
    // One line per row: the entry tried first (the newest) and a count of the others, which
    // at cache_size_limit are hundreds (each painted row would lay out all of them).
    if (auto it = index.failuresOf.find(c.compileId); it != index.failuresOf.end()) {
        QString first = failureLine(*it->second.front());
        if (it->second.size() > 1)
            first += QString(" (and %1 other entries)").arg(it->second.size() - 1);
        parts << first;
    }
    if (auto it = index.breakOf.find(c.compileId); it != index.breakOf.end())
        parts << QString("graph break at line %1 (%2)")
                     .arg(it->second->line)
                     .arg(text(it->second->reasonKind));
    return parts.join(QStringLiteral("; "));
}

/// A compile's tooltip lists this many failed entries and counts the rest.
constexpr size_t kListedFailures = 8;

QString compileToolTip(const trace::CompileRow& c, const NodeData& d, const TreeIndex& index) {
    QStringList lines{QString("%1 · %2 · %3").arg(text(c.compileId), text(c.reason), d.statusText)};
    if (c.durationNs) {
        QStringList phases;
        for (const auto& [name, ns] : c.phases)
            phases << QString("%1 %2").arg(text(name), ms(ns));
        lines << "compiled in " + ms(*c.durationNs) +
                     (phases.isEmpty() ? QString() : ": " + phases.join(", "));
    }
    if (auto it = index.failuresOf.find(c.compileId); it != index.failuresOf.end()) {
        lines << "recompiled because the guards of every older entry failed:";
        const size_t listed = std::min(it->second.size(), kListedFailures);
        for (size_t i = 0; i < listed; ++i)
            lines << "  " + failureLine(*it->second[i]);
        if (it->second.size() > listed)
            lines << QString("  … and %1 more entries (see Guards & recompiles)")
                         .arg(it->second.size() - listed);
    }
    if (auto it = index.replacedBy.find(c.compileId); it != index.replacedBy.end())
        lines << QString("its guards failed for %1 (%2 expected %3, actual %4)")
                     .arg(text(it->second->compileId), text(it->second->guardSource),
                          text(it->second->expected), text(it->second->actual));
    if (auto it = index.breakOf.find(c.compileId); it != index.breakOf.end())
        lines << QString("graph break at line %1: %2")
                     .arg(it->second->line)
                     .arg(text(it->second->reason));
    if (!c.failure.empty()) lines << "failure: " + text(c.failure);
    return lines.join('\n');
}

std::unique_ptr<Node> compileNode(const trace::CompileRow& c, const TreeIndex& index) {
    auto n = std::make_unique<Node>();
    n->kind = CompileTreeKind::Compile;
    n->frameId = c.frameId;
    n->compileId = text(c.compileId);
    n->key = compileKey(n->compileId);
    NodeData& d = n->data;
    d.name = QString("%1 · %2").arg(n->compileId, text(c.reason));
    d.status = statusOf(c, index.replacedBy.count(c.compileId) > 0);
    d.statusText = compileTreeStatusName(d.status);
    if (d.status == CompileTreeStatus::Skipped) d.statusText = text(c.status).replace('_', ' ');
    if (c.durationNs) d.compileMs = static_cast<double>(*c.durationNs) * 1e-6;
    d.detail = compileDetail(c, index);
    d.toolTip = compileToolTip(c, d, index);
    if (auto it = index.graphsByCompile.find(c.compileId); it != index.graphsByCompile.end())
        for (const trace::GraphRow* g : it->second)
            n->adopt(graphNode(*g, *n, index));
    sumChildren(*n);
    return n;
}

/// A frame is as bad as its worst entry; more than one entry means it was recompiled.
CompileTreeStatus frameStatus(const Node& frame) {
    auto any = [&](CompileTreeStatus s) {
        return std::any_of(frame.children.begin(), frame.children.end(),
                           [&](const auto& c) { return c->data.status == s; });
    };
    if (any(CompileTreeStatus::Failed)) return CompileTreeStatus::Failed;
    if (any(CompileTreeStatus::Compiling)) return CompileTreeStatus::Compiling;
    if (frame.children.size() > 1) return CompileTreeStatus::Recompiled;
    if (any(CompileTreeStatus::Break)) return CompileTreeStatus::Break;
    if (any(CompileTreeStatus::Skipped)) return CompileTreeStatus::Skipped;
    return CompileTreeStatus::Ok;
}

/// The last child of a frame whose cache was full: how many calls ran eagerly, and why.
std::unique_ptr<Node> eagerNode(qint64 frameId, const EagerCalls& calls, qint64 entries) {
    auto n = std::make_unique<Node>();
    n->kind = CompileTreeKind::EagerCalls;
    n->frameId = frameId;
    n->key = QStringLiteral("e:%1").arg(frameId);
    NodeData& d = n->data;
    d.name = QString("%1 %2 ran eagerly").arg(calls.count).arg(calls.count == 1 ? "call" : "calls");
    d.status = CompileTreeStatus::CacheLimit;
    d.statusText = QStringLiteral("not compiled");
    d.detail = QString("cache_size_limit (%1) reached").arg(calls.limit) +
               (calls.why.isEmpty() ? QString() : ": " + calls.why);
    d.toolTip =
        QString("The frame has %1 cache entries, torch._dynamo.config.cache_size_limit is %2: "
                "a call whose guards fail for every entry is not compiled again but runs "
                "eagerly (the warning is printed once).\n%3 %4 ran eagerly; the first because %5.\n"
                "Mark the changing size dynamic (torch._dynamo.mark_dynamic, dynamic=True) or "
                "raise cache_size_limit.")
            .arg(entries)
            .arg(calls.limit)
            .arg(calls.count)
            .arg(calls.count == 1 ? "call" : "calls")
            .arg(calls.why.isEmpty() ? QStringLiteral("no entry's guards passed") : calls.why);
    return n;
}

std::unique_ptr<Node> frameNode(const trace::FrameRow& f, const TreeIndex& index) {
    auto n = std::make_unique<Node>();
    n->kind = CompileTreeKind::Frame;
    n->frameId = f.frameId;
    n->key = frameKey(f.frameId);
    if (auto it = index.compilesByFrame.find(f.frameId); it != index.compilesByFrame.end())
        for (const trace::CompileRow* c : it->second)
            n->adopt(compileNode(*c, index));
    const bool resume = f.kind == "resume";
    const int line = resume && f.resumeLine > 0 ? f.resumeLine : f.line;
    const QString where = QString("%1:%2").arg(QFileInfo(text(f.file)).fileName()).arg(line);
    // A resume function is named after the function it continues, as the user wrote it.
    QString parentName;
    if (auto it = index.frames.find(f.parentFrameId); resume && it != index.frames.end())
        parentName = text(it->second->function);
    NodeData& d = n->data;
    d.name = resume && !parentName.isEmpty()
                 ? QString("%1 (%2) · resume").arg(parentName, where)
                 : QString("%1 (%2)").arg(text(f.function), where) + (resume ? " · resume" : "");
    d.status = frameStatus(*n);
    const int entries = static_cast<int>(n->children.size());
    d.statusText = d.status == CompileTreeStatus::Recompiled
                       ? QString("recompiled %1×").arg(entries - 1)
                       : compileTreeStatusName(d.status);
    double compileMs = 0;
    for (const auto& c : n->children)
        compileMs += c->data.compileMs.value_or(0);
    d.compileMs = compileMs;
    sumChildren(*n);
    d.detail = QString("%1 cache %2").arg(entries).arg(entries == 1 ? "entry" : "entries");
    if (auto it = index.eagerByFrame.find(f.frameId); it != index.eagerByFrame.end()) {
        n->adopt(eagerNode(f.frameId, it->second, entries));
        d.detail +=
            QString(" (cache_size_limit reached: %1 more calls ran eagerly)").arg(it->second.count);
        // Worse news than "recompiled": from here on the frame runs uncompiled.
        if (d.status != CompileTreeStatus::Compiling) {
            d.status = CompileTreeStatus::CacheLimit;
            d.statusText = compileTreeStatusName(d.status);
        }
    }
    if (resume)
        d.detail +=
            QString(" · %1, after the graph break at line %2").arg(text(f.function)).arg(line);
    d.toolTip = QString("frame %1: %2 in %3\n%4")
                    .arg(f.frameId)
                    .arg(text(f.function), text(f.file), d.detail);
    return n;
}

} // namespace

std::unique_ptr<Node> buildCompileTree(const RunSnapshot& snapshot) {
    TreeIndex index(snapshot);
    auto root = std::make_unique<Node>();
    for (const trace::FrameRow& f : snapshot.frames)
        root->adopt(frameNode(f, index));
    return root;
}

} // namespace kiln::views
