// SPDX-License-Identifier: MIT
/// \file
/// Internal: the device helpers every generated kernel starts with (storage conversions for
/// bf16/fp16 without CUDA's headers, NaN-propagating max/min, vector loads and stores, Philox,
/// warp and block reductions, Welford and online-softmax merges). Kernels are compiled by NVRTC,
/// which has no CUDA headers built in; keeping the helpers self-contained means no include path
/// is needed on the machine that compiles.
#pragma once

#include <string>

namespace kiln::codegen::cuda {

/// The helper text for a kernel whose code is `body`: the sections it refers to;
/// `int64Index` selects the index type (`kiln_idx` is int or long long).
std::string kernelPrelude(bool int64Index, const std::string& body);

} // namespace kiln::codegen::cuda
