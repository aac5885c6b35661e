// SPDX-License-Identifier: MIT
#include "tensor/storage.h"

#include "support/assert.h"
#include "tensor/error.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace kiln::tensor {

namespace {

int64_t physicalMemoryBytes() {
    long pages = sysconf(_SC_PHYS_PAGES);
    long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return INT64_MAX;
    return static_cast<int64_t>(pages) * pageSize;
}

[[noreturn]] void failOutOfMemory(int64_t bytes) {
    failRuntime("DefaultCPUAllocator: can't allocate memory: you tried to allocate " +
                std::to_string(bytes) + " bytes.");
}

/// Large blocks are the ones worth keeping: a fresh one costs a page fault per 4 KiB on first
/// touch (about 20 ms for 64 MiB), far more than a small kernel that fills it.
constexpr size_t kLargeBlock = size_t(1) << 20;
constexpr size_t kHugePage = size_t(2) << 20;

class CpuAllocator final : public Allocator {
public:
    void* allocate(int64_t bytes) override {
        static const int64_t limit = physicalMemoryBytes();
        if (bytes < 0 || bytes > limit) failOutOfMemory(bytes);
        if (bytes == 0) return nullptr;
        size_t size = blockSize(bytes);
        if (size >= kLargeBlock) {
            std::lock_guard lock(m_mutex);
            auto it = m_free.find(size);
            if (it != m_free.end() && !it->second.empty()) {
                void* ptr = it->second.back();
                it->second.pop_back();
                m_cachedBytes -= size;
                return ptr;
            }
        }
        void* ptr = std::aligned_alloc(size >= kLargeBlock ? kHugePage : 64, size);
        if (!ptr && size >= kLargeBlock) {
            releaseCache(); // memory held for reuse goes back before a request fails
            ptr = std::aligned_alloc(kHugePage, size);
        }
        if (!ptr) failOutOfMemory(bytes);
        // Transparent huge pages where the system allows them on request: 512x fewer faults.
        if (size >= kLargeBlock) ::madvise(ptr, size, MADV_HUGEPAGE);
        return ptr;
    }

    void deallocate(void* ptr, int64_t bytes) override {
        if (!ptr) return;
        size_t size = blockSize(bytes);
        if (size >= kLargeBlock) {
            std::lock_guard lock(m_mutex);
            static const size_t cap =
                static_cast<size_t>(std::min<int64_t>(physicalMemoryBytes() / 4, int64_t(4) << 30));
            if (m_cachedBytes + size <= cap) {
                m_free[size].push_back(ptr);
                m_cachedBytes += size;
                return;
            }
        }
        std::free(ptr);
    }

    Device device() const override { return Device{}; }

private:
    static size_t blockSize(int64_t bytes) {
        size_t b = static_cast<size_t>(bytes);
        if (b >= kLargeBlock) return (b + kHugePage - 1) & ~(kHugePage - 1);
        return (b + 63) & ~size_t(63);
    }

    void releaseCache() {
        std::lock_guard lock(m_mutex);
        for (auto& [size, blocks] : m_free)
            for (void* p : blocks)
                std::free(p);
        m_free.clear();
        m_cachedBytes = 0;
    }

    std::mutex m_mutex;
    std::map<size_t, std::vector<void*>> m_free; ///< freed large blocks by size, for reuse
    size_t m_cachedBytes = 0;
};

} // namespace

Allocator& cpuAllocator() {
    static CpuAllocator allocator;
    return allocator;
}

Storage::Storage(int64_t bytes, Allocator& allocator)
    : m_data(allocator.allocate(bytes))
    , m_bytes(bytes)
    , m_allocator(&allocator)
    , m_device(allocator.device()) {}

void Allocator::copyToHost(void* hostDst, const void* src, int64_t bytes) const {
    KILN_ASSERT(device().isCpu(), "a device allocator must implement copyToHost");
    if (bytes > 0) std::memcpy(hostDst, src, static_cast<size_t>(bytes));
}

void Allocator::copyFromHost(void* dst, const void* hostSrc, int64_t bytes) const {
    KILN_ASSERT(device().isCpu(), "a device allocator must implement copyFromHost");
    if (bytes > 0) std::memcpy(dst, hostSrc, static_cast<size_t>(bytes));
}

namespace {

/// The storages with a pending fill, in the order the fills were set (the interpreter's thread
/// sets and runs them; the mutex keeps a destructor on another thread safe).
struct PendingFills {
    std::mutex mutex;
    std::vector<Storage*> storages;
    std::atomic<size_t> count{0};

    void add(Storage* s) {
        std::lock_guard lock(mutex);
        storages.push_back(s);
        count = storages.size();
    }
    void remove(const Storage* s) {
        std::lock_guard lock(mutex);
        auto it = std::find(storages.begin(), storages.end(), s);
        if (it != storages.end()) storages.erase(it);
        count = storages.size();
    }
};

PendingFills& pendingFills() {
    static PendingFills p;
    return p;
}

} // namespace

void runAllPendingFills() {
    PendingFills& p = pendingFills();
    while (p.count.load(std::memory_order_relaxed) > 0) {
        Ref<Storage> next;
        {
            std::lock_guard lock(p.mutex);
            if (p.storages.empty()) break;
            next = Ref<Storage>(p.storages.front()); // alive while the fill runs
        }
        next->data(); // runs the fill, which removes it from the list
    }
}

void Storage::setPendingFill(Fill fill) {
    bool wasPending = static_cast<bool>(m_pendingFill);
    m_pendingFill = std::move(fill);
    if (!wasPending && m_pendingFill) pendingFills().add(this);
}

void Storage::discardPendingFill() {
    if (!m_pendingFill) return;
    m_pendingFill = nullptr;
    pendingFills().remove(this);
}

void Storage::runPendingFill() const {
    Fill fill = std::move(m_pendingFill);
    m_pendingFill = nullptr; // the fill itself asks for the address
    pendingFills().remove(this);
    fill(const_cast<Storage&>(*this));
}

void Storage::swapContents(Storage& other) {
    KILN_ASSERT(m_bytes == other.m_bytes && m_allocator == other.m_allocator,
                "swapContents needs storages of one allocator and size");
    std::swap(m_data, other.m_data);
}

Storage::~Storage() {
    if (m_pendingFill) pendingFills().remove(this);
    m_allocator->deallocate(m_data, m_bytes);
}

} // namespace kiln::tensor
