// SPDX-License-Identifier: MIT
/// \file
/// Fused attention on the GPU: softmax(q @ k^T * scale, causal or not) @ v in one kernel, the
/// way FlashAttention-2 computes it. What PyTorch's eager scaled_dot_product_attention runs on
/// CUDA for half-precision inputs, so graphs and eager ops that reach attention on the GPU get
/// the same algorithm instead of two batched products around a softmax over the whole score
/// matrix (B*H*T*T elements through memory twice).
///
/// Each block takes 64 (or 128) query rows of one (batch, head); each of its 4 warps 16 (or
/// 32) of them. Key and value tiles are staged in shared memory by asynchronous copies, two
/// buffers deep; tensor cores (mma.sync m16n8k16, bf16 or fp16 in, float32 accumulators)
/// compute the scores, an online softmax in registers rescales the running output, and P
/// (rounded to the input type, as flash attention does) multiplies the value tile. A causal
/// mask skips the key tiles after the block's last query row and masks the diagonal tile;
/// heavier (later) query tiles are scheduled first.
#pragma once

#include "tensor/dtype.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::codegen::cuda {

/// The dtypes and head sizes are those of compiler::AtenBuilder::attentionSupports.
struct AttentionKernelSpec {
    tensor::DType dtype = tensor::DType::BFloat16; ///< BFloat16 or Float16
    int headDim = 64;                              ///< a multiple of 16, at most 128
    bool causal = false;                           ///< key j attends to query i only if j <= i
    /// The schedule (measured variants in bench/gpu/codegen_device_check.cpp): m16 tiles of
    /// query rows per warp (1 or 2), key rows per shared-memory tile (64 or 128), and the
    /// blocks per multiprocessor the registers are capped for (1: no cap).
    int warpTiles = 1;
    int keysPerTile = 64;
    int minBlocksPerSM = 1;
    /// A boolean mask input (true: masked out) with its summary kernel (see below): attention
    /// written out with masked_fill(mask, -inf) before the softmax.
    bool masked = false;
    /// A row whose scores are all masked out gives NaN (softmax of a row of -inf, what attention
    /// written out computes) instead of zeros (scaled_dot_product_attention's safe softmax).
    bool emptyRowsNan = false;
};

constexpr int kAttentionThreads = 128; ///< 4 warps

/// The spec Kiln launches for q of `dtype` and head size `headDim`, with the measured schedule:
/// two m16 tiles per warp up to head size 64 (they halve the shared-memory reads of K and V per
/// query row: 106.6 against 121.1 us on an H200), one above (the accumulators would spill).
AttentionKernelSpec attentionSpecFor(tensor::DType dtype, int headDim, bool causal, bool masked,
                                     bool emptyRowsNan);

/// The specs whose kernels are compiled when Kiln is built (nvcc, where the CUDA toolkit has
/// it): bf16 and fp16, head sizes 64 and 128, plain, causal and masked (NaN rows). Others are
/// compiled by NVRTC at their first use.
std::vector<AttentionKernelSpec> precompiledAttentionSpecs();

/// Query rows per block: the grid is (ceil(tq / rows), batch * heads).
int attentionRowsPerBlock(const AttentionKernelSpec& spec);

/// Dynamic shared memory per block: two buffers of a key and a value tile (over 48 KiB for
/// head size 128, which the launcher must allow first).
int attentionSharedBytes(const AttentionKernelSpec& spec);

/// The kernel's entry name for `spec` ("kiln_flash_attention_bf16_d64_causal").
std::string attentionKernelName(const AttentionKernelSpec& spec);

/// The masked kernel's helper: for each mask batch and head, query tile
/// (attentionRowsPerBlock rows) and key tile (keysPerTile keys), whether the mask keeps none (0),
/// some (1) or all (2) of the tile's scores. Parameters: mask (contiguous rows), its batch, head
/// and row strides, tq, tk, the mask's head count, then the output (bytes, [mask batches * heads,
/// query tiles, key tiles]). Grid: (query tiles * key tiles, mask batches * heads), 128 threads.
std::string attentionSummaryKernelName(const AttentionKernelSpec& spec);
/// The summary kernel's own source (NVRTC compiles it beside the attention kernel's).
std::string attentionSummaryKernelSource(const AttentionKernelSpec& spec);

/// Self-contained CUDA C++ (no headers). The kernel's parameters, in order: q, k, v (pointers
/// to the first element of (batch 0, head 0)), out (contiguous [batch, heads, tq, headDim]),
/// then as long long tq, tk, heads, and the batch, head and row strides (in elements) of q, k
/// and v, then the float scale times log2(e). Grid: (ceil(tq / attentionRowsPerBlock), batch *
/// heads); rows of q, k and v are contiguous (last stride 1) and 16-byte aligned; the launch passes
/// attentionSharedBytes() of dynamic shared memory. A masked kernel takes after the scale: the
/// mask (bytes, contiguous rows) and its batch, head and row strides, the summary and its batch and
/// head strides (0 where the mask broadcasts).
std::string attentionKernelSource(const AttentionKernelSpec& spec);

} // namespace kiln::codegen::cuda
