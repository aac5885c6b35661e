// SPDX-License-Identifier: MIT
/// \file
/// Kernel timings on the GPU. Every launch of a compiled graph's kernel is tagged with a
/// CUPTI external correlation id; the activity records are read back later, outside the timed
/// kernels and without stalling each call (when 4096 launches are pending, and when the run
/// ends), and reported as KernelLaunchEvents of Kiln's kernel ids, with the grid, block,
/// registers and shared memory CUPTI saw (cupti_launches.h: one launch per tag, spanning its
/// kernels and memory copies). Records CUPTI dropped are counted in the run's log.
///
/// Where CUPTI cannot start (no libcupti, another profiler attached), launches are bracketed by
/// CUDA timing events instead: the duration is the device's, the start is the host time of the
/// launch. method() says which is in use; the run's log and meta record it.
#pragma once

#include "inductor/cupti_launches.h"
#include "support/event_sink.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln::runtime {
class CudaStream;
class CudaEvent;
} // namespace kiln::runtime

namespace kiln::inductor {

class GpuProfiler {
public:
    /// The process's profiler (started on first use: CUPTI when it starts, else CUDA events).
    static GpuProfiler& instance();
    ~GpuProfiler();

    /// Brackets one launch (or a library call that launches kernels) on `stream`.
    void beginLaunch(const GpuLaunchInfo& info, const runtime::CudaStream& stream);
    void endLaunch(const runtime::CudaStream& stream);

    /// After a call's launches: their records go to `sink` at the next flush, which happens
    /// here once enough launches are pending.
    void callDone(EventSink& sink);
    /// Waits for the device and reports every pending launch (the end of a run).
    void flush();
    /// flush() on the process's profiler if it was ever started (no CUPTI start otherwise).
    static void flushIfStarted();

    bool usesCupti() const { return m_cupti != nullptr; }
    /// "CUPTI 130001 activity records" or "CUDA events (CUPTI unavailable: ...)".
    const std::string& method() const { return m_method; }

private:
    GpuProfiler();
    void flushLocked();
    void reportCupti(EventSink& sink);
    void reportEvents(EventSink& sink);
    size_t pending() const { return m_tagged.size() + m_events.size(); }

    struct EventLaunch {
        GpuLaunchInfo info;
        int64_t hostStartNs = 0;
        std::unique_ptr<runtime::CudaEvent> start, end;
    };
    struct CuptiState;

    std::mutex m_mutex;
    EventSink* m_sink = nullptr; ///< where pending launches are reported
    std::unique_ptr<CuptiState> m_cupti;
    std::string m_method;
    uint64_t m_nextExternalId = 1;
    std::map<uint64_t, GpuLaunchInfo> m_tagged; ///< CUPTI: launches not reported yet
    std::vector<EventLaunch> m_events;          ///< events: launches not reported yet
};

} // namespace kiln::inductor
