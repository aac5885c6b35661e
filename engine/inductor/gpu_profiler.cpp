// SPDX-License-Identifier: MIT
#include "inductor/gpu_profiler.h"

#include "runtime/cuda_stream.h"
#include "support/clock.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <vector>

#if KILN_HAVE_CUDA_CODEGEN
#include "codegen/cuda/cupti.h"
#endif

namespace kiln::inductor {

namespace {

constexpr size_t kFlushAfterLaunches = 4096;
std::atomic<GpuProfiler*> g_started{nullptr};

} // namespace

#if KILN_HAVE_CUDA_CODEGEN
struct GpuProfiler::CuptiState {
    std::unique_ptr<codegen::cuda::CuptiSession> session;
    int64_t clockOffsetNs = 0; ///< monotonicNs() - CUPTI's timestamp
};
#else
struct GpuProfiler::CuptiState {};
#endif

GpuProfiler& GpuProfiler::instance() {
    static GpuProfiler profiler;
    g_started.store(&profiler);
    return profiler;
}

void GpuProfiler::flushIfStarted() {
    if (GpuProfiler* p = g_started.load()) p->flush();
}

GpuProfiler::GpuProfiler() {
#if KILN_HAVE_CUDA_CODEGEN
    auto session = codegen::cuda::CuptiSession::start();
    if (session) {
        m_cupti = std::make_unique<CuptiState>();
        m_cupti->session = std::move(*session);
        m_cupti->clockOffsetNs =
            monotonicNs() - static_cast<int64_t>(codegen::cuda::CuptiSession::timestampNs());
        auto version = codegen::cuda::CuptiSession::version();
        m_method = "CUPTI " + (version ? std::to_string(*version) : std::string("?")) +
                   " activity records";
        return;
    }
    m_method = "CUDA events (" + session.error().message + ")";
#else
    m_method = "CUDA events (CUPTI unavailable: built without the CUDA toolkit's headers)";
#endif
}

GpuProfiler::~GpuProfiler() = default;

void GpuProfiler::beginLaunch(const GpuLaunchInfo& info, const runtime::CudaStream& stream) {
    std::lock_guard lock(m_mutex);
#if KILN_HAVE_CUDA_CODEGEN
    if (m_cupti) {
        uint64_t id = m_nextExternalId++;
        m_tagged[id] = info;
        m_cupti->session->pushExternalId(id);
        return;
    }
#endif
    EventLaunch launch;
    launch.info = info;
    launch.hostStartNs = monotonicNs();
    auto start = runtime::CudaEvent::create(stream.context(), true);
    auto end = runtime::CudaEvent::create(stream.context(), true);
    if (!start || !end) return; // no timing for this launch rather than no launch
    launch.start = std::move(*start);
    launch.end = std::move(*end);
    (void)launch.start->record(stream);
    m_events.push_back(std::move(launch));
}

void GpuProfiler::endLaunch(const runtime::CudaStream& stream) {
    std::lock_guard lock(m_mutex);
#if KILN_HAVE_CUDA_CODEGEN
    if (m_cupti) {
        m_cupti->session->popExternalId();
        return;
    }
#endif
    if (!m_events.empty() && !m_events.back().end->recorded())
        (void)m_events.back().end->record(stream);
}

void GpuProfiler::callDone(EventSink& sink) {
    std::lock_guard lock(m_mutex);
    if (m_sink && m_sink != &sink) flushLocked(); // another run's sink: report to it first
    m_sink = &sink;
    if (pending() >= kFlushAfterLaunches) flushLocked();
}

void GpuProfiler::flush() {
    std::lock_guard lock(m_mutex);
    flushLocked();
}

void GpuProfiler::flushLocked() {
    if (!m_sink) return;
    if (m_cupti)
        reportCupti(*m_sink);
    else
        reportEvents(*m_sink);
    m_sink = nullptr;
}

void GpuProfiler::reportCupti(EventSink& sink) {
#if KILN_HAVE_CUDA_CODEGEN
    if (m_tagged.empty()) return;
    // The records of launches still running would come in a later flush: wait for them.
    if (auto context = runtime::cudaContext(0)) (void)(*context)->synchronize();
    codegen::cuda::ActivityRecords records = m_cupti->session->flush();
    for (const KernelLaunchEvent& e :
         launchesFromActivity(records, m_tagged, m_cupti->clockOffsetNs))
        sink.kernelLaunch(e);
    if (records.droppedRecords > 0) // CUPTI counts the drops since the last flush
        sink.output(OutputStream::Log,
                    "CUPTI dropped " + std::to_string(records.droppedRecords) +
                        " activity records: some kernel launches are missing from the trace\n");
    m_tagged.clear();
#else
    (void)sink;
#endif
}

void GpuProfiler::reportEvents(EventSink& sink) {
    for (EventLaunch& launch : m_events) {
        if (!launch.end->recorded() || !launch.end->synchronize()) continue;
        Expected<float> ms = launch.start->elapsedMs(*launch.end);
        if (!ms) continue;
        KernelLaunchEvent e = launchEventFor(launch.info);
        e.startNs = launch.hostStartNs;
        e.endNs = launch.hostStartNs + static_cast<int64_t>(static_cast<double>(*ms) * 1e6);
        sink.kernelLaunch(e);
    }
    m_events.clear();
}

} // namespace kiln::inductor
