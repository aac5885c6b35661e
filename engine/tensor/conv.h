// SPDX-License-Identifier: MIT
/// \file
/// Convolution and pooling over 2-d images (N, C, H, W), or one image (C, H, W): what
/// torch.nn.functional's conv1d/conv2d, max_pool2d, avg_pool2d and adaptive_avg_pool2d compute,
/// with PyTorch's output sizes and error messages. Floating dtypes; bfloat16 and float16 compute
/// in float32.
#pragma once

#include "tensor/tensor.h"

#include <array>
#include <optional>

namespace kiln::tensor {

using Pair = std::array<int64_t, 2>; ///< (height, width)

struct ConvParams {
    Pair stride{1, 1};
    Pair padding{0, 0};
    Pair dilation{1, 1};
    int64_t groups = 1;
};

/// How conv2d computes: `Auto` picks per call from the dtype, the CPU and the shapes
/// (docs/compiler.md has the measurements); the others force one way, for tests and
/// benchmarks (`KILN_CONV_ALGORITHM=im2col|onednn` sets the start-up choice).
enum class ConvAlgorithm : uint8_t { Auto, ImageToColumns, OneDnn };
void setConvAlgorithm(ConvAlgorithm algorithm);
ConvAlgorithm convAlgorithm();

/// Cross-correlation of `input` with `weight` (out_channels, in_channels / groups, kH, kW), plus
/// `bias` (out_channels) per output channel.
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              const ConvParams& params);

/// conv2d's gradients from its output's gradient `grad` (batched): of an input of
/// `inputSizes` (a transposed convolution of `grad` with `weight`), and of a weight of
/// `weightSizes` (the correlation of `input` with `grad`, per group).
Tensor conv2dInputGrad(const Tensor& grad, const Tensor& weight, IntList inputSizes,
                       const ConvParams& params);
Tensor conv2dWeightGrad(const Tensor& grad, const Tensor& input, IntList weightSizes,
                        const ConvParams& params);

struct ConvTransposeParams {
    Pair stride{1, 1};
    Pair padding{0, 0};
    Pair outputPadding{0, 0};
    Pair dilation{1, 1};
    int64_t groups = 1;
};

/// The transposed convolution of `input` (N, C_in, H, W) or (C_in, H, W) with `weight`
/// (C_in, C_out / groups, kH, kW), plus `bias` (C_out): F.conv_transpose2d.
Tensor convTranspose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                       const ConvTransposeParams& params);

struct PoolParams {
    Pair kernel{1, 1};
    Pair stride{1, 1};
    Pair padding{0, 0};
    Pair dilation{1, 1};
    bool ceilMode = false;
};

/// The largest value in each window (padding never wins: it is -inf).
Tensor maxPool2d(const Tensor& input, const PoolParams& params);
/// The mean of each window; `countIncludePad` counts padding in the divisor, as
/// `divisorOverride` replaces it when given.
Tensor avgPool2d(const Tensor& input, const PoolParams& params, bool countIncludePad,
                 std::optional<int64_t> divisorOverride);
/// The mean over windows that split each input dimension into `outputSize` near-equal parts.
Tensor adaptiveAvgPool2d(const Tensor& input, Pair outputSize);

enum class ResampleMode : uint8_t { Nearest, NearestExact, Bilinear };

/// Resizes the last two dimensions of an (N, C, H, W) input to `outputSize`, as
/// F.interpolate does. `scales` are the source steps per output element (input / output, or
/// 1 / scale_factor when the caller gave one); `alignCorners` applies to bilinear only.
Tensor resample2d(const Tensor& input, Pair outputSize, ResampleMode mode, bool alignCorners,
                  std::array<double, 2> scales);
/// The source coordinate of output element `i` along one dimension (PyTorch's
/// area_pixel_compute_source_index for bilinear, the floor of a scaled index for nearest).
double resampleSourceIndex(int64_t i, double scale, ResampleMode mode, bool alignCorners);

} // namespace kiln::tensor
