// SPDX-License-Identifier: MIT
/// \file
/// Attention kernels compiled when Kiln was built. The flash attention kernels are fixed code
/// (one per dtype, head size and masking, attention_kernel.h), so where the build found the
/// CUDA toolkit's nvcc, the specs of precompiledAttentionSpecs() are compiled for sm_90
/// (H100, H200) and embedded in the binary, as PyTorch ships its flash attention kernels.
/// A graph that uses one loads it without running NVRTC (about half a second of a cold first
/// call); other specs and other devices compile at run time.
#pragma once

#include <string_view>

namespace kiln::codegen::cuda {

/// The cubin of kernel `entry` (an attention kernel or its summary, by name) for a device of
/// compute capability `computeCapability` (90 for sm_90), or empty when none was built.
std::string_view precompiledAttentionCubin(std::string_view entry, int computeCapability);

/// How many cubins this build embeds (0 where the build had no nvcc).
int precompiledAttentionCount();

} // namespace kiln::codegen::cuda
