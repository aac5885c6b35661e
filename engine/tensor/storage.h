// SPDX-License-Identifier: MIT
/// \file
/// Storage: one allocation of device memory shared by a tensor and all its views. Memory comes
/// from an Allocator so the runtime can provide device memory later; the CPU allocator is here.
#pragma once

#include "support/ref_counted.h"
#include "tensor/device.h"

#include <cstdint>
#include <functional>

namespace kiln::tensor {

class Allocator {
public:
    virtual ~Allocator() = default;
    /// Returns memory for `bytes` bytes or throws TensorError (RuntimeError naming the size).
    virtual void* allocate(int64_t bytes) = 0;
    virtual void deallocate(void* ptr, int64_t bytes) = 0;
    virtual Device device() const = 0;
    /// Copy `bytes` between memory of this allocator and host memory, completing before they
    /// return. A device allocator moves them over the bus; the CPU allocator uses memcpy.
    virtual void copyToHost(void* hostDst, const void* src, int64_t bytes) const;
    virtual void copyFromHost(void* dst, const void* hostSrc, int64_t bytes) const;
};

/// 64-byte aligned host memory. Refuses requests larger than the machine's physical memory
/// with PyTorch's message instead of letting the kernel's OOM killer end the run. Blocks of 1 MiB
/// and more are 2 MiB aligned, advised as huge pages, and kept for reuse when freed (up to a
/// quarter of physical memory, 4 GiB at most), so a loop that allocates the same large tensors
/// every iteration does not pay the page faults again.
Allocator& cpuAllocator();

/// Runs every pending fill (Storage::setPendingFill). A write into device memory calls it
/// first: a fill reads its inputs when it runs, so none may change before. Cheap when none.
void runAllPendingFills();

class Storage final : public AtomicRefCounted {
public:
    Storage(int64_t bytes, Allocator& allocator);
    ~Storage() override;

    /// The allocation's address on its device: host memory only when device() is the CPU.
    /// A pending fill runs first: whoever asks for the address may read the contents.
    void* data() const {
        if (m_pendingFill) [[unlikely]]
            runPendingFill();
        return m_data;
    }

    /// Contents computed later (capture's shadow execution defers GPU ops whose results only
    /// their metadata may be needed of): `fill` writes them when the address is first asked
    /// for. It runs on the thread that asks, once; until then the bytes are undefined.
    using Fill = std::function<void(Storage&)>;
    void setPendingFill(Fill fill);
    bool hasPendingFill() const { return static_cast<bool>(m_pendingFill); }
    /// The contents are about to be overwritten whole: the pending fill is dropped unrun.
    void discardPendingFill();
    /// Exchanges the allocations of two storages of one allocator and size (a result adopted
    /// without a copy); pending fills stay where they were.
    void swapContents(Storage& other);
    int64_t bytes() const { return m_bytes; }
    /// Kept here rather than asked of the allocator: Tensor::rawData checks it on every access.
    Device device() const { return m_device; }
    Allocator& allocator() const { return *m_allocator; }
    /// In-place writes so far (autograd's version counter, shared by every view).
    uint32_t version() const { return m_version; }
    void bumpVersion() { ++m_version; }
    /// Sets the counter back: only for writes undone as if they never happened (a trace's
    /// writes to the frame's inputs, put back before the compiled graph makes them for real).
    void restoreVersion(uint32_t version) { m_version = version; }

private:
    void runPendingFill() const;

    mutable Fill m_pendingFill;
    void* m_data = nullptr;
    int64_t m_bytes = 0;
    Allocator* m_allocator = nullptr;
    Device m_device;
    uint32_t m_version = 0;
};

} // namespace kiln::tensor
