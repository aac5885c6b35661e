// SPDX-License-Identifier: MIT
#include "run_snapshot.h"

#include "support/sha256.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <algorithm>
#include <map>

namespace kiln::views {

namespace {

template <typename Row>
int64_t lastId(const std::vector<Row>& rows) {
    return rows.empty() ? 0 : rows.back().id;
}

/// `previous` followed by what `tail` read after its last id.
template <typename Row, typename Tail>
Expected<std::vector<Row>> tailed(const std::vector<Row>* previous, Tail tail) {
    int64_t after = previous ? lastId(*previous) : 0;
    auto fresh = tail(after);
    if (!fresh) return fresh.error();
    if (!previous || previous->empty()) return std::move(fresh).value();
    std::vector<Row> rows;
    rows.reserve(previous->size() + fresh.value().size());
    rows.insert(rows.end(), previous->begin(), previous->end());
    rows.insert(rows.end(), std::make_move_iterator(fresh.value().begin()),
                std::make_move_iterator(fresh.value().end()));
    return rows;
}

Expected<std::vector<KernelRecord>> readKernels(const trace::TraceReader& reader, int64_t runId) {
    auto kernels = reader.kernels(runId);
    if (!kernels) return kernels.error();
    auto stats = reader.kernelLaunchStats(runId);
    if (!stats) return stats.error();
    std::map<int64_t, trace::KernelLaunchStats> byKernel;
    for (const trace::KernelLaunchStats& s : stats.value())
        byKernel[s.kernelId] = s;
    std::vector<KernelRecord> rows;
    rows.reserve(kernels.value().size());
    for (trace::KernelRow& k : kernels.value()) {
        trace::KernelLaunchStats launches;
        launches.kernelId = k.kernelId;
        if (auto it = byKernel.find(k.kernelId); it != byKernel.end()) launches = it->second;
        rows.push_back({std::move(k), launches});
    }
    return rows;
}

/// An imported run's user file: the one most of its frames are in (the first frame's on a tie).
std::string importedUserFile(const RunSnapshot& s) {
    std::map<std::string, int> frames;
    std::string best;
    for (const trace::FrameRow& f : s.frames)
        if (!f.file.empty() && ++frames[f.file] > (best.empty() ? 0 : frames[best])) best = f.file;
    return best;
}

/// Which file Source shows and where it is read from (sourceFile, sourceReadFrom).
void placeSource(RunSnapshot& s) {
    if (s.run.mode != "imported") {
        s.sourceFile = s.run.workloadPath;
        s.sourceReadFrom = QString::fromStdString(s.sourceFile);
        return;
    }
    s.sourceFile = importedUserFile(s);
    QString recorded = QString::fromStdString(s.sourceFile);
    QString located = s.sourceFile.empty() ? QString() : locatedSource(s.sourceFile);
    s.sourceReadFrom = !located.isEmpty() && !QFileInfo(recorded).isReadable() ? located : recorded;
}

void readSource(RunSnapshot& snapshot) {
    QFile file(snapshot.sourceReadFrom);
    if (snapshot.sourceReadFrom.isEmpty() || !file.open(QIODevice::ReadOnly)) return;
    QByteArray bytes = file.readAll();
    snapshot.source = QString::fromUtf8(bytes);
    // An imported run has no hash of its file: PyTorch's log does not record one.
    snapshot.sourceChanged =
        snapshot.run.mode != "imported" && !snapshot.run.workloadHash.empty() &&
        sha256Hex(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size()))) !=
            snapshot.run.workloadHash;
}

QString settingsKey(const std::string& recordedPath) {
    // Paths hold slashes, which QSettings reads as groups.
    return "importedSources/" + QString::fromLatin1(QByteArray::fromStdString(recordedPath)
                                                        .toBase64(QByteArray::Base64UrlEncoding |
                                                                  QByteArray::OmitTrailingEquals));
}

/// Assigns `*target` from `result`, or returns its error from the enclosing function.
#define KILN_TAKE(target, result)                                                                  \
    do {                                                                                           \
        auto taken = (result);                                                                     \
        if (!taken) return taken.error();                                                          \
        (target) = std::move(taken).value();                                                       \
    } while (false)

} // namespace

Expected<RunSnapshot> readRunSnapshot(const trace::TraceReader& reader, int64_t runId,
                                      const RunSnapshot* previous) {
    RunSnapshot s;
    KILN_TAKE(s.run, reader.run(runId));
    s.looksCrashed = trace::TraceReader::runLooksCrashed(s.run);
    // Tail only from an older read of this very run (ids restart at 1 in every trace file).
    const bool sameRun = previous && previous->run.id == runId &&
                         previous->run.startedAtNs == s.run.startedAtNs &&
                         previous->run.workloadPath == s.run.workloadPath;
    const RunSnapshot* p = sameRun ? previous : nullptr;
    KILN_TAKE(s.frames, tailed<trace::FrameRow>(p ? &p->frames : nullptr, [&](int64_t after) {
                  return reader.frames(runId, after);
              }));
    KILN_TAKE(s.compiles, reader.compiles(runId));
    KILN_TAKE(s.guards, tailed<trace::GuardRow>(p ? &p->guards : nullptr, [&](int64_t after) {
                  return reader.guards(runId, {}, after);
              }));
    KILN_TAKE(s.recompiles,
              tailed<trace::RecompileRow>(p ? &p->recompiles : nullptr, [&](int64_t after) {
                  return reader.recompiles(runId, after);
              }));
    KILN_TAKE(s.graphBreaks,
              tailed<trace::GraphBreakRow>(p ? &p->graphBreaks : nullptr, [&](int64_t after) {
                  return reader.graphBreaks(runId, after);
              }));
    int64_t lastGraph = p ? lastId(p->graphs) : 0;
    KILN_TAKE(s.graphs, tailed<trace::GraphRow>(p ? &p->graphs : nullptr, [&](int64_t after) {
                  return reader.graphs(runId, after);
              }));
    KILN_TAKE(s.aotGraphs, tailed<trace::GraphRow>(p ? &p->aotGraphs : nullptr, [&](int64_t after) {
                  return reader.aotGraphsOfRun(runId, after);
              }));
    KILN_TAKE(s.graphNodes, tailed<trace::GraphNodeRow>(p ? &p->graphNodes : nullptr, [&](int64_t) {
                  return reader.graphNodesOfRun(runId, lastGraph);
              }));
    KILN_TAKE(s.kernels, readKernels(reader, runId));
    KILN_TAKE(s.autotuneChoices, tailed<trace::AutotuneChoiceRow>(
                                     p ? &p->autotuneChoices : nullptr, [&](int64_t after) {
                                         return reader.autotuneChoicesOfRun(runId, after);
                                     }));
    KILN_TAKE(s.launches,
              tailed<trace::KernelLaunchRow>(p ? &p->launches : nullptr, [&](int64_t after) {
                  return reader.kernelLaunches(runId, after, -1);
              }));
    KILN_TAKE(s.events, tailed<trace::EventRow>(p ? &p->events : nullptr, [&](int64_t after) {
                  return reader.events(runId, after);
              }));
    KILN_TAKE(s.config, reader.config(runId));
    KILN_TAKE(s.output, tailed<trace::OutputLine>(p ? &p->output : nullptr, [&](int64_t after) {
                  return reader.outputLines(runId, after, -1);
              }));
    placeSource(s);
    if (p && p->run.workloadHash == s.run.workloadHash && p->sourceReadFrom == s.sourceReadFrom) {
        s.source = p->source;
        s.sourceChanged = p->sourceChanged;
    } else {
        readSource(s);
    }
    return s;
}

#undef KILN_TAKE

QString locatedSource(const std::string& recordedPath) {
    return QSettings().value(settingsKey(recordedPath)).toString();
}

void setLocatedSource(const std::string& recordedPath, const QString& path) {
    QSettings().setValue(settingsKey(recordedPath), path);
}

const trace::FrameRow* RunSnapshot::frame(int64_t frameId) const {
    for (const trace::FrameRow& f : frames)
        if (f.frameId == frameId) return &f;
    return nullptr;
}

const trace::CompileRow* RunSnapshot::compile(std::string_view compileId) const {
    for (const trace::CompileRow& c : compiles)
        if (c.compileId == compileId) return &c;
    return nullptr;
}

const trace::GraphRow* RunSnapshot::graph(int64_t graphId) const {
    auto it = std::lower_bound(graphs.begin(), graphs.end(), graphId,
                               [](const trace::GraphRow& g, int64_t id) { return g.id < id; });
    return it != graphs.end() && it->id == graphId ? &*it : nullptr;
}

const KernelRecord* RunSnapshot::kernel(int64_t kernelId) const {
    for (const KernelRecord& k : kernels)
        if (k.kernel.kernelId == kernelId) return &k;
    return nullptr;
}

const trace::GraphBreakRow* RunSnapshot::graphBreak(int order) const {
    for (const trace::GraphBreakRow& b : graphBreaks)
        if (b.order == order) return &b;
    return nullptr;
}

const trace::GraphRow* RunSnapshot::aotGraph(int64_t graphId, std::string_view kind) const {
    for (const trace::GraphRow& g : aotGraphs)
        if (g.dynamoGraphId == graphId && g.kind == kind) return &g;
    return nullptr;
}

std::vector<const trace::GraphRow*> RunSnapshot::graphsOf(std::string_view compileId) const {
    std::vector<const trace::GraphRow*> out;
    for (const trace::GraphRow& g : graphs)
        if (g.compileId == compileId) out.push_back(&g);
    std::stable_sort(out.begin(), out.end(),
                     [](auto* a, auto* b) { return a->graphIndex < b->graphIndex; });
    return out;
}

std::vector<const trace::CompileRow*> RunSnapshot::compilesOf(int64_t frameId) const {
    std::vector<const trace::CompileRow*> out;
    for (const trace::CompileRow& c : compiles)
        if (c.frameId == frameId) out.push_back(&c);
    return out;
}

std::vector<const KernelRecord*> RunSnapshot::kernelsOf(int64_t graphId) const {
    std::vector<const KernelRecord*> out;
    for (const KernelRecord& k : kernels)
        if (k.kernel.graphId == graphId) out.push_back(&k);
    return out;
}

std::span<const trace::GraphNodeRow> RunSnapshot::nodesOf(int64_t graphId) const {
    auto lo =
        std::lower_bound(graphNodes.begin(), graphNodes.end(), graphId,
                         [](const trace::GraphNodeRow& n, int64_t id) { return n.graphId < id; });
    auto hi =
        std::upper_bound(lo, graphNodes.end(), graphId,
                         [](int64_t id, const trace::GraphNodeRow& n) { return id < n.graphId; });
    return {graphNodes.data() + (lo - graphNodes.begin()), static_cast<size_t>(hi - lo)};
}

std::vector<const trace::GuardRow*> RunSnapshot::guardsOf(std::string_view compileId) const {
    std::vector<const trace::GuardRow*> out;
    for (const trace::GuardRow& g : guards)
        if (g.compileId == compileId) out.push_back(&g);
    return out;
}

std::vector<const trace::AutotuneChoiceRow*> RunSnapshot::choicesOf(int64_t kernelId) const {
    std::vector<const trace::AutotuneChoiceRow*> out;
    for (const trace::AutotuneChoiceRow& c : autotuneChoices)
        if (c.kernelId == kernelId) out.push_back(&c);
    return out;
}

int64_t RunSnapshot::totalKernelNs() const {
    int64_t total = 0;
    for (const KernelRecord& k : kernels)
        total += k.launches.totalNs;
    return total;
}

} // namespace kiln::views
