// SPDX-License-Identifier: MIT
/// \file
/// Storage: one allocation of device memory shared by a tensor and all its views. Memory comes
/// from an Allocator so the runtime can provide device memory later; the CPU allocator is here.
#pragma once

#include "support/ref_counted.h"
#include "tensor/device.h"

#include <cstdint>

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

class Storage final : public AtomicRefCounted {
public:
    Storage(int64_t bytes, Allocator& allocator);
    ~Storage() override;

    /// The allocation's address on its device: host memory only when device() is the CPU.
    void* data() const { return m_data; }
    int64_t bytes() const { return m_bytes; }
    /// Kept here rather than asked of the allocator: Tensor::rawData checks it on every access.
    Device device() const { return m_device; }
    Allocator& allocator() const { return *m_allocator; }

private:
    void* m_data = nullptr;
    int64_t m_bytes = 0;
    Allocator* m_allocator = nullptr;
    Device m_device;
};

} // namespace kiln::tensor
