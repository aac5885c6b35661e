// SPDX-License-Identifier: MIT
/// \file
/// A pretend CUDA device for tests on machines without a GPU: host memory behind an Allocator
/// that says cuda:0, so tensors "on the device" go through the same dispatch as real CUDA
/// tensors, and a script module `pretend` whose `cuda(t)` copies a CPU tensor there.
#pragma once

#include "snippet_runner.h"
#include "tensor/storage.h"

namespace kiln::testing {

class PretendCudaAllocator final : public tensor::Allocator {
public:
    void* allocate(int64_t bytes) override;
    void deallocate(void* p, int64_t) override;
    tensor::Device device() const override { return {tensor::DeviceType::CUDA, 0}; }
    void copyToHost(void* dst, const void* src, int64_t bytes) const override;
    void copyFromHost(void* dst, const void* src, int64_t bytes) const override;
    /// How many copies to the host were made (tests that no CPU kernel read device memory
    /// without a copy).
    mutable int copiesToHost = 0;
};

/// The process's pretend device.
PretendCudaAllocator& pretendCuda();

/// Registers the `pretend` module (`pretend.cuda(t)`) in `s`'s interpreter.
void installPretendDevice(TorchSnippets& s);

} // namespace kiln::testing
