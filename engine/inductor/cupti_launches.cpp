// SPDX-License-Identifier: MIT
#include "inductor/cupti_launches.h"

#include <algorithm>
#include <set>

namespace kiln::inductor {

namespace {

std::string dims(int64_t x, int64_t y, int64_t z) {
    return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

/// Collects the events of one flush: one per tag, widened by each further record of the tag.
class LaunchMerger {
public:
    LaunchMerger(const std::map<uint64_t, GpuLaunchInfo>& tagged, int64_t clockOffsetNs)
        : m_tagged(tagged)
        , m_offset(clockOffsetNs) {}

    void add(const codegen::cuda::KernelActivity& k) {
        KernelLaunchEvent* e = eventFor(k.externalId, k.start, k.end);
        if (!e) return;
        if (m_geometryFrom.count(k.externalId)) return; // a further kernel: span only
        m_geometryFrom.insert(k.externalId);
        e->grid = dims(k.grid[0], k.grid[1], k.grid[2]);
        e->block = dims(k.block[0], k.block[1], k.block[2]);
        e->registers = k.registersPerThread;
        e->sharedMemory = k.staticSharedBytes + k.dynamicSharedBytes;
        e->device = "cuda:" + std::to_string(k.deviceId);
    }

    void add(const codegen::cuda::MemcpyActivity& m) { eventFor(m.externalId, m.start, m.end); }

    /// Events in the order of their first record; a tag that only copied has no geometry.
    std::vector<KernelLaunchEvent> take() {
        for (auto& [tag, index] : m_eventOf) {
            if (m_geometryFrom.count(tag)) continue;
            KernelLaunchEvent& e = m_events[index];
            e.grid.clear();
            e.block.clear();
            e.registers = 0;
            e.sharedMemory = 0;
        }
        return std::move(m_events);
    }

private:
    KernelLaunchEvent* eventFor(uint64_t tag, uint64_t start, uint64_t end) {
        auto info = m_tagged.find(tag);
        if (info == m_tagged.end()) return nullptr; // an eager op's or another library's work
        int64_t s = static_cast<int64_t>(start) + m_offset;
        int64_t t = static_cast<int64_t>(end) + m_offset;
        if (auto seen = m_eventOf.find(tag); seen != m_eventOf.end()) {
            KernelLaunchEvent& e = m_events[seen->second];
            e.startNs = std::min(e.startNs, s);
            e.endNs = std::max(e.endNs, t);
            return &e;
        }
        KernelLaunchEvent e = launchEventFor(info->second);
        e.startNs = s;
        e.endNs = t;
        m_eventOf[tag] = m_events.size();
        m_events.push_back(std::move(e));
        return &m_events.back();
    }

    const std::map<uint64_t, GpuLaunchInfo>& m_tagged;
    int64_t m_offset;
    std::vector<KernelLaunchEvent> m_events;
    std::map<uint64_t, size_t> m_eventOf;
    std::set<uint64_t> m_geometryFrom; ///< tags whose event has a kernel's geometry
};

} // namespace

KernelLaunchEvent launchEventFor(const GpuLaunchInfo& info) {
    KernelLaunchEvent e;
    e.kernelId = info.kernelId;
    e.device = "cuda:0";
    e.grid = dims(info.gridX, info.gridY, info.gridZ);
    e.block = dims(info.blockX, info.blockY, info.blockZ);
    e.registers = info.registers;
    e.sharedMemory = info.sharedBytes;
    return e;
}

std::vector<KernelLaunchEvent> launchesFromActivity(const codegen::cuda::ActivityRecords& records,
                                                    const std::map<uint64_t, GpuLaunchInfo>& tagged,
                                                    int64_t clockOffsetNs) {
    // Kernels and copies come in separate lists; merged by start time, the first record of
    // each tag decides its event's place.
    struct Record {
        uint64_t start;
        const codegen::cuda::KernelActivity* kernel;
        const codegen::cuda::MemcpyActivity* copy;
    };
    std::vector<Record> ordered;
    ordered.reserve(records.kernels.size() + records.memcpys.size());
    for (const auto& k : records.kernels)
        ordered.push_back({k.start, &k, nullptr});
    for (const auto& m : records.memcpys)
        ordered.push_back({m.start, nullptr, &m});
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const Record& a, const Record& b) { return a.start < b.start; });
    LaunchMerger merger(tagged, clockOffsetNs);
    for (const Record& r : ordered) {
        if (r.kernel)
            merger.add(*r.kernel);
        else
            merger.add(*r.copy);
    }
    return merger.take();
}

} // namespace kiln::inductor
