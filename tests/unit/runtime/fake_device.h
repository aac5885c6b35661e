// SPDX-License-Identifier: MIT
/// \file
/// A pretend device for the caching allocator's tests: addresses handed out from a counter,
/// a capacity that makes alloc fail as cuMemAlloc does when it is used up, and events whose
/// completion the test decides.
#pragma once

#include "runtime/caching_allocator.h"

#include <map>
#include <set>

namespace kiln::testing {

struct FakeDevice {
    size_t capacity = size_t(1) << 30;
    size_t used = 0;
    uint64_t nextAddress = 0x100000000ull;
    std::map<runtime::DevicePtr, size_t> live; ///< segments obtained, by address
    std::vector<size_t> allocCalls;            ///< sizes asked of the device, in order
    int frees = 0;
    int syncs = 0;
    uint64_t nextEvent = 1;
    std::set<uint64_t> pendingEvents; ///< recorded, not yet complete
    std::set<uint64_t> destroyedEvents;

    runtime::AllocatorBackend backend() {
        runtime::AllocatorBackend b;
        b.alloc = [this](size_t bytes) -> Expected<runtime::DevicePtr> {
            allocCalls.push_back(bytes);
            if (used + bytes > capacity) return makeDiagnostic("CudaOutOfMemory", "full");
            runtime::DevicePtr p = nextAddress;
            nextAddress += bytes + 0x1000;
            used += bytes;
            live.emplace(p, bytes);
            return p;
        };
        b.free = [this](runtime::DevicePtr p) {
            auto it = live.find(p);
            KILN_ASSERT(it != live.end(), "fake device: free of an unknown segment");
            used -= it->second;
            live.erase(it);
            ++frees;
        };
        b.memoryInfo = [this] { return std::pair<size_t, size_t>{capacity - used, capacity}; };
        b.recordEvent = [this](runtime::StreamId) {
            pendingEvents.insert(nextEvent);
            return nextEvent++;
        };
        b.eventDone = [this](uint64_t e) { return pendingEvents.count(e) == 0; };
        b.eventDestroy = [this](uint64_t e) { destroyedEvents.insert(e); };
        b.synchronize = [this] {
            ++syncs;
            pendingEvents.clear();
        };
        return b;
    }
};

} // namespace kiln::testing
