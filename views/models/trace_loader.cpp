// SPDX-License-Identifier: MIT
#include "trace_loader.h"

#include "trace/trace_reader.h"

#include <map>

namespace kiln::views {

void registerTraceTypes() {
    qRegisterMetaType<RunRows>();
    qRegisterMetaType<KernelRecords>();
    qRegisterMetaType<GraphBreakRows>();
    qRegisterMetaType<CompileRows>();
    qRegisterMetaType<GuardRows>();
    qRegisterMetaType<RecompileRows>();
    qRegisterMetaType<ConfigRows>();
    qRegisterMetaType<OutputRows>();
}

TraceLoader::TraceLoader(QString path, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path)) {}

namespace {

/// Opens the trace, or reports why not through `fail`.
template <typename Fail>
std::unique_ptr<trace::TraceReader> openReader(const QString& path, Fail&& fail) {
    auto reader = trace::TraceReader::open(path.toStdString());
    if (!reader) {
        fail(QString::fromStdString(reader.error().message));
        return nullptr;
    }
    return std::move(reader).value();
}

} // namespace

void TraceLoader::loadRuns() {
    auto reader = openReader(m_path, [this](const QString& m) { Q_EMIT failed(m); });
    if (!reader) return;
    auto runs = reader->listRuns();
    if (!runs) return Q_EMIT failed(QString::fromStdString(runs.error().message));
    Q_EMIT runsLoaded(std::make_shared<const std::vector<trace::RunRow>>(std::move(runs).value()));
}

void TraceLoader::loadKernels(qint64 runId) {
    auto reader = openReader(m_path, [this](const QString& m) { Q_EMIT failed(m); });
    if (!reader) return;
    auto kernels = reader->kernels(runId);
    auto stats = reader->kernelLaunchStats(runId);
    if (!kernels) return Q_EMIT failed(QString::fromStdString(kernels.error().message));
    if (!stats) return Q_EMIT failed(QString::fromStdString(stats.error().message));
    std::map<int64_t, trace::KernelLaunchStats> byKernel;
    for (const trace::KernelLaunchStats& s : stats.value())
        byKernel[s.kernelId] = s;
    auto rows = std::make_shared<std::vector<KernelRecord>>();
    for (trace::KernelRow& k : kernels.value()) {
        trace::KernelLaunchStats launches;
        launches.kernelId = k.kernelId;
        if (auto it = byKernel.find(k.kernelId); it != byKernel.end()) launches = it->second;
        rows->push_back({std::move(k), launches});
    }
    Q_EMIT kernelsLoaded(runId, std::move(rows));
}

template <typename Row, typename Read, typename Signal>
void TraceLoader::loadTable(qint64 runId, Read read, Signal signal) {
    auto reader = openReader(m_path, [this](const QString& m) { Q_EMIT failed(m); });
    if (!reader) return;
    auto rows = read(*reader);
    if (!rows) return Q_EMIT failed(QString::fromStdString(rows.error().message));
    Q_EMIT(this->*signal)(runId, std::make_shared<const std::vector<Row>>(std::move(rows).value()));
}

void TraceLoader::loadGraphBreaks(qint64 runId) {
    loadTable<trace::GraphBreakRow>(
        runId, [runId](const trace::TraceReader& r) { return r.graphBreaks(runId); },
        &TraceLoader::graphBreaksLoaded);
}

void TraceLoader::loadCompiles(qint64 runId) {
    loadTable<trace::CompileRow>(
        runId, [runId](const trace::TraceReader& r) { return r.compiles(runId); },
        &TraceLoader::compilesLoaded);
}

void TraceLoader::loadGuards(qint64 runId) {
    loadTable<trace::GuardRow>(
        runId, [runId](const trace::TraceReader& r) { return r.guards(runId); },
        &TraceLoader::guardsLoaded);
}

void TraceLoader::loadRecompiles(qint64 runId) {
    loadTable<trace::RecompileRow>(
        runId, [runId](const trace::TraceReader& r) { return r.recompiles(runId); },
        &TraceLoader::recompilesLoaded);
}

void TraceLoader::loadConfig(qint64 runId) {
    loadTable<trace::ConfigRow>(
        runId, [runId](const trace::TraceReader& r) { return r.config(runId); },
        &TraceLoader::configLoaded);
}

void TraceLoader::loadOutput(qint64 runId) {
    loadTable<trace::OutputLine>(
        runId, [runId](const trace::TraceReader& r) { return r.outputLines(runId); },
        &TraceLoader::outputLoaded);
}

} // namespace kiln::views
