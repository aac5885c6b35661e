// SPDX-License-Identifier: MIT
/// \file
/// The extern kernel flash_attention of GPU graphs (scaled_dot_product_attention without a
/// mask, bf16 or fp16): codegen/cuda/attention_kernel's source, compiled once per (dtype, head
/// size, causal) through the kernel cache and launched on the current stream.
#pragma once

#include "support/expected.h"
#include "tensor/tensor.h"

#include <span>

namespace kiln::inductor {

class GpuProfiler;

/// softmax(q @ k^T * scale) @ v for `in` = q, k, v of shape [batch, heads, t, d] (or
/// [batch, t, d]); a new contiguous CUDA tensor of q's shape. Rows must be contiguous for the
/// kernel's vector loads; other layouts are copied first.
Expected<tensor::Tensor> cudaAttention(std::span<const tensor::Tensor> in, double scale,
                                       bool causal, GpuProfiler* profiler, int64_t kernelId);

} // namespace kiln::inductor
