// SPDX-License-Identifier: MIT
/// \file
/// Moving tensors between host memory and a device's memory through the storage's Allocator
/// (the runtime implements it for CUDA; this layer does not know which device it is). Used by
/// printing, .item()/.tolist(), .cpu() and .to(device).
#pragma once

#include "tensor/tensor.h"

namespace kiln::tensor {

/// Element offsets [begin, end) of the storage a tensor's elements lie in.
struct StorageSpan {
    int64_t begin = 0;
    int64_t end = 0;
    int64_t size() const { return end - begin; }
};
StorageSpan storageSpan(const Tensor& t);

/// True when the elements fill their span exactly once (a permutation of a contiguous
/// layout), so the span's bytes can be copied as they are.
bool isNonOverlappingAndDense(const Tensor& t);

/// A host copy of a tensor on any device, with the same sizes and strides: the bytes of its
/// span come over through its storage's allocator. A CPU tensor is returned as it is.
Tensor copyToHost(const Tensor& t);

/// A copy of the CPU tensor `t` in memory from `allocator`: the same sizes and strides when it
/// is dense and non-overlapping, contiguous otherwise (as PyTorch's preserve_format).
Tensor copyFromHost(const Tensor& t, Allocator& allocator);

/// copyInto where `dst` or `src` is in device memory: the elements of `dst`'s span come to the
/// host, `src` (on any device) is copied into them there, and the span goes back. Correct for
/// any layout and slow; for the rare copies outside kernels (capture's results, undoing a
/// traced in-place op), not for a model's hot path.
void copyIntoThroughHost(const Tensor& dst, const Tensor& src);

/// dst's elements become src's (capture writing a compiled graph's results over the shadow
/// values the trace computed). In device memory, a result of dst's exact layout whose storage
/// and dst's are each held by that tensor alone lends dst its memory instead of a copy; a
/// pending fill of dst's storage (a deferred shadow op) is dropped when dst covers the storage.
void overwriteWith(const Tensor& dst, const Tensor& src);

} // namespace kiln::tensor
