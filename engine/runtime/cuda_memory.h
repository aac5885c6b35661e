// SPDX-License-Identifier: MIT
/// \file
/// Device memory for the process: one CachingAllocator per device over cuMemAlloc/cuMemFree,
/// the tensor::Allocator that gives CUDA tensors their storage from it, and host<->device
/// copies. Allocations are ordered on the calling thread's current stream (cuda_stream.h).
#pragma once

#include "runtime/caching_allocator.h"
#include "runtime/cuda_stream.h"
#include "tensor/storage.h"

namespace kiln::runtime {

/// The caching allocator of `device`, created on first use (fails as cudaContext does).
Expected<CachingAllocator*> cudaCachingAllocator(int device = 0);

/// The backend cudaCachingAllocator uses, over the driver calls of `context`.
AllocatorBackend cudaAllocatorBackend(const CudaContext& context);

/// Storage for CUDA tensors on `device`. Its allocate() throws TensorError of kind
/// OutOfMemoryError (torch.OutOfMemoryError, PyTorch's message) when the device is full after
/// the cache was released, RuntimeError for other driver failures.
Expected<tensor::Allocator*> cudaTensorAllocator(int device = 0);

/// Synchronous copies on the current stream (they return when the bytes have arrived).
Status copyHostToDevice(const CudaContext& context, DevicePtr dst, const void* src, size_t bytes);
Status copyDeviceToHost(const CudaContext& context, void* dst, DevicePtr src, size_t bytes);
/// Sets `bytes` bytes at `dst` to `value` on the current stream (poisoned buffers: 0xff).
Status fillDeviceBytes(const CudaContext& context, DevicePtr dst, unsigned char value,
                       size_t bytes);
/// Sets `count` elements of `width` bytes (1, 2 or 4) at `dst` to the low bytes of `pattern`
/// on the current stream (fill_ of a dense tensor).
Status fillDevicePattern(const CudaContext& context, DevicePtr dst, uint32_t pattern, int width,
                         size_t count);
Status copyDeviceToDevice(const CudaContext& context, DevicePtr dst, DevicePtr src, size_t bytes);
/// The same copy queued on the current stream without waiting for it (for a compiled graph's
/// launches, which the stream orders).
Status enqueueDeviceToDevice(const CudaContext& context, DevicePtr dst, DevicePtr src,
                             size_t bytes);

} // namespace kiln::runtime
