// SPDX-License-Identifier: MIT
#include "tensor/storage.h"

#include "tensor/error.h"

#include <cstdlib>
#include <unistd.h>

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

class CpuAllocator final : public Allocator {
public:
    void* allocate(int64_t bytes) override {
        static const int64_t limit = physicalMemoryBytes();
        if (bytes < 0 || bytes > limit) failOutOfMemory(bytes);
        if (bytes == 0) return nullptr;
        size_t rounded = (static_cast<size_t>(bytes) + 63) & ~size_t(63);
        void* ptr = std::aligned_alloc(64, rounded);
        if (!ptr) failOutOfMemory(bytes);
        return ptr;
    }
    void deallocate(void* ptr, int64_t) override { std::free(ptr); }
    Device device() const override { return Device{}; }
};

} // namespace

Allocator& cpuAllocator() {
    static CpuAllocator allocator;
    return allocator;
}

Storage::Storage(int64_t bytes, Allocator& allocator)
    : m_data(allocator.allocate(bytes))
    , m_bytes(bytes)
    , m_allocator(&allocator) {}

Storage::~Storage() {
    m_allocator->deallocate(m_data, m_bytes);
}

} // namespace kiln::tensor
