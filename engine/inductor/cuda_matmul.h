// SPDX-License-Identifier: MIT
/// \file
/// The matrix products of GPU graphs (the extern kernels mm, bmm and addmm) through cuBLASLt:
/// float32 (TF32 when torch.set_float32_matmul_precision allows it), bf16 and fp16 with
/// float32 accumulation. A linear layer's bias (addmm with a bias broadcast over rows) is
/// cuBLASLt's bias epilogue. Plans are chosen once per shape and kept for the process.
#pragma once

#include "support/expected.h"
#include "tensor/tensor.h"

#include <span>
#include <string_view>

namespace kiln::inductor {

class GpuProfiler;

/// Loads cuBLASLt and creates its handle (half a gigabyte of library: tens of milliseconds),
/// ahead of a graph's first product; the pipeline runs it beside the graph's NVRTC compiles.
Status prepareCudaMatmul();

/// `op` is "mm" (a, b), "bmm" (a, b) or "addmm" (bias, a, b; out = beta * bias + alpha * a @ b).
/// Returns a new contiguous CUDA tensor. The launch is tagged with `kernelId` for the profiler.
Expected<tensor::Tensor> cudaMatmul(std::string_view op, std::span<const tensor::Tensor> in,
                                    double beta, double alpha, GpuProfiler* profiler,
                                    int64_t kernelId);

} // namespace kiln::inductor
