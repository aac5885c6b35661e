// SPDX-License-Identifier: MIT
#include "runtime/caching_allocator.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace kiln::runtime {

/// One piece of a segment. Blocks of a segment form a list by address (prev/next), so a freed
/// block can merge with free neighbours; a segment is whole again when its only block is free.
struct CachingAllocator::Block {
    DevicePtr ptr = 0;
    size_t size = 0;
    size_t requested = 0;
    StreamId stream = 0;
    Pool* pool = nullptr;
    bool allocated = false;
    Block* prev = nullptr;
    Block* next = nullptr;
    std::vector<StreamId> uses; ///< other streams the block was used on while allocated

    bool wholeSegment() const { return !prev && !next; }
};

bool CachingAllocator::BlockOrder::operator()(const Block* a, const Block* b) const {
    return std::tie(a->stream, a->size, a->ptr) < std::tie(b->stream, b->size, b->ptr);
}

void StatPair::add(int64_t bytes) {
    current += bytes;
    peak = std::max(peak, current);
}

size_t CachingAllocator::roundSize(size_t bytes) {
    if (bytes < kMinBlockSize) return kMinBlockSize;
    return kMinBlockSize * ((bytes + kMinBlockSize - 1) / kMinBlockSize);
}

size_t CachingAllocator::segmentSize(size_t rounded) {
    if (rounded <= kSmallSize) return kSmallBuffer;
    if (rounded < kMinLargeAlloc) return kLargeBuffer;
    return kRoundLarge * ((rounded + kRoundLarge - 1) / kRoundLarge);
}

CachingAllocator::CachingAllocator(AllocatorBackend backend, int deviceIndex)
    : m_backend(std::move(backend))
    , m_device(deviceIndex) {}

CachingAllocator::~CachingAllocator() {
    // The process is ending or a test's fake device goes away: blocks still handed out belong
    // to tensors that outlive us only at exit, so their memory is left to the driver.
    for (auto& [block, events] : m_pending) {
        for (uint64_t e : events)
            m_backend.eventDestroy(e);
        delete block;
    }
    for (Pool* pool : {&m_small, &m_large})
        for (Block* b : *pool)
            delete b;
    for (auto& [ptr, b] : m_live)
        delete b;
}

CachingAllocator::Block* CachingAllocator::findFree(Pool& pool, size_t size, StreamId stream) {
    Block key;
    key.stream = stream;
    key.size = size;
    auto it = pool.lower_bound(&key);
    if (it == pool.end() || (*it)->stream != stream) return nullptr;
    Block* b = *it;
    pool.erase(it);
    return b;
}

Expected<CachingAllocator::Block*> CachingAllocator::newSegment(Pool& pool, size_t size,
                                                                StreamId stream) {
    size_t segment = segmentSize(size);
    Expected<DevicePtr> ptr = m_backend.alloc(segment);
    if (!ptr && ptr.error().kind == "CudaOutOfMemory") {
        // As PyTorch: give every cached segment back to the device and try once more.
        releaseCachedSegments();
        ++m_stats.cacheFlushes;
        ptr = m_backend.alloc(segment);
    }
    if (!ptr) {
        if (ptr.error().kind != "CudaOutOfMemory") return std::move(ptr).takeError();
        ++m_stats.ooms;
        return outOfMemory(segment);
    }
    auto* b = new Block;
    b->ptr = *ptr;
    b->size = segment;
    b->stream = stream;
    b->pool = &pool;
    m_stats.reserved.add(static_cast<int64_t>(segment));
    ++m_stats.segments;
    ++m_stats.deviceAllocs;
    return b;
}

CachingAllocator::Block* CachingAllocator::split(Block* block, size_t size) {
    size_t rest = block->size - size;
    bool worth = block->pool == &m_small ? rest >= kMinBlockSize : rest > kSmallSize;
    if (!worth) return block;
    auto* tail = new Block;
    tail->ptr = block->ptr + size;
    tail->size = rest;
    tail->stream = block->stream;
    tail->pool = block->pool;
    tail->prev = block;
    tail->next = block->next;
    if (tail->next) tail->next->prev = tail;
    block->next = tail;
    block->size = size;
    block->pool->insert(tail);
    return block;
}

Expected<DevicePtr> CachingAllocator::allocate(size_t bytes, StreamId stream) {
    if (bytes == 0) return DevicePtr{0};
    std::lock_guard lock(m_mutex);
    processEvents(false);
    size_t size = roundSize(bytes);
    Pool& pool = poolFor(size);
    Block* block = findFree(pool, size, stream);
    if (!block) {
        Expected<Block*> fresh = newSegment(pool, size, stream);
        if (!fresh) return std::move(fresh).takeError();
        block = *fresh;
    }
    block = split(block, size);
    block->allocated = true;
    block->requested = bytes;
    m_live.emplace(block->ptr, block);
    m_stats.allocated.add(static_cast<int64_t>(block->size));
    m_stats.requested.add(static_cast<int64_t>(bytes));
    return block->ptr;
}

void CachingAllocator::deallocate(DevicePtr ptr) {
    if (ptr == 0) return;
    std::lock_guard lock(m_mutex);
    auto it = m_live.find(ptr);
    KILN_ASSERT(it != m_live.end(), "deallocate of a pointer the caching allocator did not give");
    Block* b = it->second;
    m_live.erase(it);
    b->allocated = false;
    m_stats.allocated.add(-static_cast<int64_t>(b->size));
    m_stats.requested.add(-static_cast<int64_t>(b->requested));
    if (b->uses.empty()) {
        release(b);
        return;
    }
    // Kernels queued on the other streams may still read it: reuse waits for them.
    std::vector<uint64_t> events;
    for (StreamId s : b->uses)
        events.push_back(m_backend.recordEvent(s));
    b->uses.clear();
    m_pending.emplace_back(b, std::move(events));
}

void CachingAllocator::recordStream(DevicePtr ptr, StreamId stream) {
    std::lock_guard lock(m_mutex);
    auto it = m_live.find(ptr);
    KILN_ASSERT(it != m_live.end(), "recordStream of a pointer that is not allocated");
    Block* b = it->second;
    if (stream == b->stream || std::find(b->uses.begin(), b->uses.end(), stream) != b->uses.end())
        return;
    b->uses.push_back(stream);
}

void CachingAllocator::mergeInto(Block* block, Block* neighbour) {
    block->pool->erase(neighbour);
    if (neighbour == block->prev) {
        block->ptr = neighbour->ptr;
        block->prev = neighbour->prev;
        if (block->prev) block->prev->next = block;
    } else {
        block->next = neighbour->next;
        if (block->next) block->next->prev = block;
    }
    block->size += neighbour->size;
    delete neighbour;
}

void CachingAllocator::release(Block* block) {
    // A neighbour is mergeable when it is free and in the pool (not allocated, not pending).
    auto mergeable = [&](Block* n) { return n && !n->allocated && block->pool->count(n); };
    if (mergeable(block->prev)) mergeInto(block, block->prev);
    if (mergeable(block->next)) mergeInto(block, block->next);
    block->pool->insert(block);
}

void CachingAllocator::processEvents(bool wait) {
    if (wait && !m_pending.empty()) m_backend.synchronize();
    auto done = [&](std::pair<Block*, std::vector<uint64_t>>& entry) {
        for (uint64_t e : entry.second)
            if (!wait && !m_backend.eventDone(e)) return false;
        for (uint64_t e : entry.second)
            m_backend.eventDestroy(e);
        release(entry.first);
        return true;
    };
    std::erase_if(m_pending, done);
}

void CachingAllocator::releaseCachedSegments() {
    processEvents(true);
    bool any = false;
    for (Pool* pool : {&m_small, &m_large})
        for (Block* b : *pool)
            any = any || b->wholeSegment();
    if (!any) return;
    // Kernels may still use memory freed on their stream; the driver frees at once.
    m_backend.synchronize();
    for (Pool* pool : {&m_small, &m_large}) {
        for (auto it = pool->begin(); it != pool->end();) {
            Block* b = *it;
            if (!b->wholeSegment()) {
                ++it;
                continue;
            }
            it = pool->erase(it);
            m_backend.free(b->ptr);
            m_stats.reserved.add(-static_cast<int64_t>(b->size));
            --m_stats.segments;
            ++m_stats.deviceFrees;
            delete b;
        }
    }
}

void CachingAllocator::emptyCache() {
    std::lock_guard lock(m_mutex);
    releaseCachedSegments();
}

size_t CachingAllocator::blockSize(DevicePtr ptr) const {
    std::lock_guard lock(m_mutex);
    auto it = m_live.find(ptr);
    return it == m_live.end() ? 0 : it->second->size;
}

AllocatorStats CachingAllocator::stats() const {
    std::lock_guard lock(m_mutex);
    return m_stats;
}

void CachingAllocator::resetPeakStats() {
    std::lock_guard lock(m_mutex);
    m_stats.allocated.resetPeak();
    m_stats.reserved.resetPeak();
    m_stats.requested.resetPeak();
}

Diagnostic CachingAllocator::outOfMemory(size_t segment) {
    auto [freeBytes, totalBytes] = m_backend.memoryInfo();
    const int64_t allocated = m_stats.allocated.current;
    const int64_t unallocated = m_stats.reserved.current - allocated;
    // PyTorch's wording (CUDACachingAllocator.cpp); it names the rounded size it tried to get.
    std::string message =
        "CUDA out of memory. Tried to allocate " + formatMemorySize(segment) + ". GPU " +
        std::to_string(m_device) + " has a total capacity of " + formatMemorySize(totalBytes) +
        " of which " + formatMemorySize(freeBytes) + " is free. Of the allocated memory " +
        formatMemorySize(static_cast<uint64_t>(allocated)) + " is allocated by PyTorch, and " +
        formatMemorySize(static_cast<uint64_t>(unallocated)) +
        " is reserved by PyTorch but unallocated. If reserved but unallocated memory is large "
        "try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
        "See documentation for Memory Management  "
        "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";
    return makeDiagnostic("OutOfMemoryError", message);
}

std::string formatMemorySize(uint64_t bytes) {
    char text[64];
    if (bytes <= 1024)
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    else if (bytes <= (uint64_t(1) << 20))
        std::snprintf(text, sizeof text, "%.2f KiB", static_cast<double>(bytes) / 1024.0);
    else if (bytes <= (uint64_t(1) << 30))
        std::snprintf(text, sizeof text, "%.2f MiB", static_cast<double>(bytes) / 1048576.0);
    else
        std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / 1073741824.0);
    return text;
}

} // namespace kiln::runtime
