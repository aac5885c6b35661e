// SPDX-License-Identifier: MIT
/// \file
/// The caching device allocator: PyTorch's CUDACachingAllocator policy (its size classes, pools,
/// splitting, merging, stream-ordered reuse and statistics) over raw alloc/free functions that
/// are injected, so the policy is tested without a GPU (tests give it a fake device) and the
/// CUDA backend (cuda_memory.h) supplies cuMemAlloc/cuMemFree and events.
///
/// Sizes, as in PyTorch: requests round up to 512 bytes; requests up to 1 MiB come from the
/// small pool, whose segments are 2 MiB; larger ones from the large pool, whose segments are
/// 20 MiB for requests under 10 MiB and the request rounded up to 2 MiB otherwise. A free block
/// is found best-fit among blocks of the same stream and pool and split when the rest is worth
/// keeping (512 bytes in the small pool, more than 1 MiB in the large); freed neighbours merge.
/// A block used on another stream (recordStream) is reused only after an event recorded on
/// that stream at free time has completed.
#pragma once

#include "support/expected.h"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace kiln::runtime {

using DevicePtr = uint64_t;
/// A stream as the backend knows it (a CUstream cast to an integer; 0 is the default stream).
using StreamId = uint64_t;

/// What the allocator needs from a device. `alloc` fails with Diagnostic kind
/// "CudaOutOfMemory" when the device is out of memory (then the cache is released and the
/// request retried) and any other kind for other errors.
struct AllocatorBackend {
    std::function<Expected<DevicePtr>(size_t bytes)> alloc;
    std::function<void(DevicePtr)> free;
    /// (free bytes, total bytes) of the device, for the out-of-memory message.
    std::function<std::pair<size_t, size_t>()> memoryInfo;
    /// Records an event on a stream and returns it; `eventDone` polls it; `eventDestroy` frees.
    std::function<uint64_t(StreamId)> recordEvent;
    std::function<bool(uint64_t)> eventDone;
    std::function<void(uint64_t)> eventDestroy;
    /// Waits for all work on the device (before segments go back to the driver).
    std::function<void()> synchronize;
};

/// Current and peak values of one statistic, in bytes.
struct StatPair {
    int64_t current = 0;
    int64_t peak = 0;
    void add(int64_t bytes);
    void resetPeak() { peak = current; }
};

struct AllocatorStats {
    StatPair allocated;       ///< bytes in blocks handed out (torch.cuda.memory_allocated)
    StatPair reserved;        ///< bytes in segments obtained from the device (memory_reserved)
    StatPair requested;       ///< bytes asked for, before rounding
    int64_t segments = 0;     ///< live segments
    int64_t deviceAllocs = 0; ///< calls of backend.alloc that succeeded
    int64_t deviceFrees = 0;  ///< calls of backend.free
    int64_t cacheFlushes = 0; ///< times the cache was released to satisfy a request
    int64_t ooms = 0;         ///< requests that failed with out of memory
};

class CachingAllocator {
public:
    static constexpr size_t kMinBlockSize = 512;
    static constexpr size_t kSmallSize = size_t(1) << 20;
    static constexpr size_t kSmallBuffer = size_t(2) << 20;
    static constexpr size_t kLargeBuffer = size_t(20) << 20;
    static constexpr size_t kMinLargeAlloc = size_t(10) << 20;
    static constexpr size_t kRoundLarge = size_t(2) << 20;

    /// The rounded block size for a request (PyTorch's round_size).
    static size_t roundSize(size_t bytes);
    /// The segment size obtained from the device for a rounded request (get_allocation_size).
    static size_t segmentSize(size_t rounded);

    CachingAllocator(AllocatorBackend backend, int deviceIndex);
    ~CachingAllocator();
    CachingAllocator(const CachingAllocator&) = delete;
    CachingAllocator& operator=(const CachingAllocator&) = delete;

    /// A block of at least `bytes` for use on `stream`. Zero bytes give pointer 0. Out of
    /// memory is a Diagnostic of kind "OutOfMemoryError" with PyTorch's message.
    Expected<DevicePtr> allocate(size_t bytes, StreamId stream);
    /// Returns a block from allocate(); its memory is reused in the stream order of its uses.
    void deallocate(DevicePtr ptr);
    /// Marks a block as used on another stream too (Tensor.record_stream).
    void recordStream(DevicePtr ptr, StreamId stream);
    /// Returns every unused cached segment to the device (torch.cuda.empty_cache).
    void emptyCache();
    /// Size of the block holding `ptr` (0 when it is not a live allocation).
    size_t blockSize(DevicePtr ptr) const;

    AllocatorStats stats() const;
    void resetPeakStats();
    int deviceIndex() const { return m_device; }

private:
    struct Block;
    struct BlockOrder {
        bool operator()(const Block* a, const Block* b) const;
    };
    using Pool = std::set<Block*, BlockOrder>;

    Block* findFree(Pool& pool, size_t size, StreamId stream);
    Expected<Block*> newSegment(Pool& pool, size_t size, StreamId stream);
    Block* split(Block* block, size_t size);
    void release(Block* block);
    void mergeInto(Block* block, Block* neighbour);
    void processEvents(bool wait);
    void releaseCachedSegments();
    Diagnostic outOfMemory(size_t segment);
    Pool& poolFor(size_t size) { return size <= kSmallSize ? m_small : m_large; }

    AllocatorBackend m_backend;
    int m_device;
    mutable std::mutex m_mutex;
    Pool m_small, m_large;
    std::map<DevicePtr, Block*> m_live; ///< blocks handed out, by address
    /// Freed blocks waiting for events on the streams that used them.
    std::vector<std::pair<Block*, std::vector<uint64_t>>> m_pending;
    AllocatorStats m_stats;
};

/// PyTorch's format_size: "512 bytes", "1.50 KiB", "20.00 MiB", "139.72 GiB".
std::string formatMemorySize(uint64_t bytes);

} // namespace kiln::runtime
