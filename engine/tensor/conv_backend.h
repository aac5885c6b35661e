// SPDX-License-Identifier: MIT
/// \file
/// Internal to conv.cpp: oneDNN's convolution, in a translation unit of its own (oneDNN's C++
/// header is large).
#pragma once

#include "tensor/conv.h"

namespace kiln::tensor::detail {

/// Whether oneDNN's convolution is the faster way to compute the (N, O, H, W) result `out`
/// (else image-to-columns and a product).
bool onednnConvolutionFits(const Tensor& out);

/// out = conv2d(x, w) + bias for a contiguous float32 (N, C, H, W) image, (O, C / groups, kH, kW)
/// weights, an optional (O) bias and a contiguous out of PyTorch's output size. False when
/// oneDNN has no implementation for these parameters: the caller computes another way.
bool onednnConv2d(const Tensor& x, const Tensor& w, const Tensor* bias, const ConvParams& p,
                  const Tensor& out);

} // namespace kiln::tensor::detail
