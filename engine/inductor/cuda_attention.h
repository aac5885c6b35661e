// SPDX-License-Identifier: MIT
/// \file
/// The extern kernel flash_attention of GPU graphs (scaled_dot_product_attention, and attention
/// written out with a masked softmax; bf16 or fp16): codegen/cuda/attention_kernel's source,
/// compiled once per (dtype, head size, causal) through the kernel cache and launched on the
/// current stream.
#pragma once

#include "support/expected.h"
#include "tensor/tensor.h"

#include <span>

namespace kiln::inductor {

class GpuProfiler;

/// softmax(q @ k^T * scale) @ v for `in` = q, k, v of shape [batch, heads, t, d] (or
/// [batch, t, d]), and optionally a boolean mask (true: masked out, -inf) broadcastable to
/// [batch, heads, tq, tk]; a new contiguous CUDA tensor of q's shape. Rows must be contiguous
/// for the kernel's vector loads; other layouts are copied first. A mask runs a summary kernel
/// first (which key tiles each query tile keeps), so fully masked tiles cost nothing.
/// Compiles and loads the kernel cudaAttention will launch for q of `dtype` and head size
/// `headDim` with these flags and mask, ahead of the first launch: the pipeline runs it beside
/// the graph's other NVRTC compiles instead of after them.
Status prepareCudaAttention(tensor::DType dtype, int64_t headDim, int flags, bool masked);

/// `flags`: compiler::AttentionFlags.
Expected<tensor::Tensor> cudaAttention(std::span<const tensor::Tensor> in, double scale, int flags,
                                       GpuProfiler* profiler, int64_t kernelId);

} // namespace kiln::inductor
