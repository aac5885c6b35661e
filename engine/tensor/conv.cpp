// SPDX-License-Identifier: MIT
// Convolution through oneDNN's convolution (conv_onednn.cpp) or as image-to-columns and one
// matrix product per group, chosen by how often each weight is used; pooling as direct loops
// over the (image, channel) planes.
#include "tensor/conv.h"

#include "tensor/autograd.h"
#include "tensor/conv_backend.h"
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/gemm.h"
#include "tensor/iterate.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace kiln::tensor {

namespace {

/// The dtype the kernels run in: float32 for the 16-bit floats, else the input's own.
DType computeDType(const Tensor& input, const char* op) {
    if (!isFloating(input.dtype()))
        failRuntime(std::string("\"") + op + "\" not implemented for '" +
                    std::string(dtypeName(input.dtype())) + "'");
    return input.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
}

/// The input as a contiguous (N, C, H, W) tensor in `dtype` (one image gets N = 1).
Tensor asBatch(const Tensor& input, DType dtype) {
    Tensor x = input.dim() == 3 ? unsqueeze(input, 0) : input;
    return contiguous(toDType(x, dtype));
}

/// The result in the input's dtype and rank.
Tensor fromBatch(const Tensor& out, const Tensor& input) {
    Tensor r = input.dim() == 3 ? squeeze(out, std::array<int64_t, 1>{0}) : out;
    return r.dtype() == input.dtype() ? r : toDType(r, input.dtype());
}

void checkImage(const Tensor& input, const char* op) {
    if (input.dim() != 3 && input.dim() != 4)
        failRuntime(std::string("Expected 3D (unbatched) or 4D (batched) input to ") + op +
                    ", but got input of size: " + shapeString(input.sizes()));
}

std::string pairString(int64_t a, int64_t b) {
    std::string s = "(";
    s += std::to_string(a);
    s += " x ";
    s += std::to_string(b);
    s += ")";
    return s;
}

/// PyTorch's pooling_output_shape: floor or ceil division, and with ceil_mode no window may
/// start in the right padding.
int64_t pooledSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation,
                   bool ceilMode) {
    int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1 + (ceilMode ? stride - 1 : 0);
    int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
    if (ceilMode && (out - 1) * stride >= in + pad) --out;
    return out;
}

/// The output positions [begin, end) whose input column o * stride + offset lies inside
/// [0, extent): the rest read padding.
std::pair<int64_t, int64_t> insideRange(int64_t offset, int64_t stride, int64_t extent,
                                        int64_t outputs) {
    const int64_t begin = offset >= 0 ? 0 : std::min(outputs, (-offset + stride - 1) / stride);
    const int64_t last = extent - 1 - offset; // the largest o * stride that stays inside
    const int64_t end = last < 0 ? begin : std::clamp(last / stride + 1, begin, outputs);
    return {begin, end};
}

template <typename T>
void imageToColumns(const T* x, T* cols, int64_t channels, int64_t height, int64_t width,
                    const Pair& k, const ConvParams& p, int64_t outH, int64_t outW, int64_t columns,
                    int64_t column0) {
    // Row (c, i, j) of the columns holds, for each output position, the input under kernel
    // tap (i, j) of channel c (0 in the padding). Each output row is a run of zeros, a copy
    // (strided by the stride) and zeros again, so the inner loops have no tests.
    // Each row copies one output plane: small images share a thread rather than wake a team.
    const int64_t rowGrain =
        std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, outH * outW));
    parallelFor(channels * k[0] * k[1], rowGrain, [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
            const int64_t c = row / (k[0] * k[1]), i = row / k[1] % k[0], j = row % k[1];
            const int64_t offsetW = j * p.dilation[1] - p.padding[1];
            const auto [w0, w1] = insideRange(offsetW, p.stride[1], width, outW);
            T* dst = cols + row * columns + column0;
            const T* plane = x + c * height * width;
            for (int64_t oh = 0; oh < outH; ++oh) {
                T* out = dst + oh * outW;
                const int64_t h = oh * p.stride[0] - p.padding[0] + i * p.dilation[0];
                if (h < 0 || h >= height) {
                    std::fill_n(out, outW, T(0));
                    continue;
                }
                const T* line = plane + h * width;
                std::fill(out, out + w0, T(0));
                if (p.stride[1] == 1)
                    std::copy_n(line + (w0 + offsetW), w1 - w0, out + w0);
                else
                    for (int64_t ow = w0; ow < w1; ++ow)
                        out[ow] = line[ow * p.stride[1] + offsetW];
                std::fill(out + w1, out + outW, T(0));
            }
        }
    });
}

/// From this many output positions per image, a product per image written straight into the
/// output beats one product over the whole batch followed by a copy into place (on AVX2 and
/// AVX-512 alike: a ResNet-18's 16x16 planes gain, its 4x4 and 2x2 ones lose).
constexpr int64_t kPlaneForBatchedProducts = 64;

/// Scratch memory for the image-to-columns matrix, kept between calls on this thread so a
/// model's convolutions do not fault in fresh pages each time (up to 64 MiB is kept).
Tensor columnsBuffer(int64_t rows, int64_t columns, DType dtype) {
    constexpr int64_t kKeptBytes = int64_t(64) << 20;
    thread_local Tensor kept;
    const int64_t elements = rows * columns;
    const DimVector sizes{rows, columns}, strides{columns, 1};
    if (!kept.defined() || kept.dtype() != dtype || kept.numel() < elements) {
        Tensor fresh = Tensor::empty(std::array<int64_t, 1>{elements}, dtype);
        if (elements * itemSize(dtype) <= kKeptBytes) kept = fresh;
        return Tensor::view(fresh.storage(), 0, sizes, strides, dtype);
    }
    return Tensor::view(kept.storage(), 0, sizes, strides, dtype);
}

void checkConvArgs(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   const ConvParams& p) {
    checkImage(input, "conv2d");
    if (weight.dim() != 4)
        failRuntime("weight should have 4 dimensions for conv2d, but got " +
                    std::to_string(weight.dim()));
    if (p.groups <= 0) failRuntime("non-positive groups is not supported");
    for (int d = 0; d < 2; ++d) {
        if (p.stride[d] <= 0) failRuntime("non-positive stride is not supported");
        if (p.padding[d] < 0) failRuntime("negative padding is not supported");
        if (p.dilation[d] <= 0) failRuntime("dilation should be greater than zero");
    }
    int64_t channels = input.size(-3);
    if (weight.size(0) % p.groups != 0)
        failRuntime("Given groups=" + std::to_string(p.groups) +
                    ", expected weight to be "
                    "divisible by " +
                    std::to_string(p.groups) +
                    " at dimension 0, but got "
                    "weight of size " +
                    shapeString(weight.sizes()) + " instead");
    if (channels != weight.size(1) * p.groups)
        failRuntime("Given groups=" + std::to_string(p.groups) + ", weight of size " +
                    shapeString(weight.sizes()) + ", expected input" + shapeString(input.sizes()) +
                    " to have " + std::to_string(weight.size(1) * p.groups) +
                    " channels, but got " + std::to_string(channels) + " channels instead");
    if (bias && (bias->dim() != 1 || bias->size(0) != weight.size(0)))
        failRuntime("Given weight of size " + shapeString(weight.sizes()) +
                    ", expected bias to be 1-dimensional with " + std::to_string(weight.size(0)) +
                    " elements, but got bias of size " + shapeString(bias->sizes()) + " instead");
    if (weight.dtype() != input.dtype() || (bias && bias->dtype() != input.dtype()))
        failRuntime("Input type (" + std::string(dtypeName(input.dtype())) + ") and weight type (" +
                    std::string(dtypeName(weight.dtype())) + ") should be the same");
}

std::atomic<ConvAlgorithm>& algorithmSetting() {
    static std::atomic<ConvAlgorithm> setting = [] {
        const char* env = std::getenv("KILN_CONV_ALGORITHM");
        std::string_view name = env ? env : "";
        if (name == "im2col") return ConvAlgorithm::ImageToColumns;
        if (name == "onednn") return ConvAlgorithm::OneDnn;
        return ConvAlgorithm::Auto;
    }();
    return setting;
}

bool useOnednn(const Tensor& out) {
    switch (convAlgorithm()) {
    case ConvAlgorithm::ImageToColumns:
        return false;
    case ConvAlgorithm::OneDnn:
        return out.dtype() == DType::Float32;
    case ConvAlgorithm::Auto:
        break;
    }
    return detail::onednnConvolutionFits(out);
}

} // namespace

void setConvAlgorithm(ConvAlgorithm algorithm) {
    algorithmSetting() = algorithm;
}

ConvAlgorithm convAlgorithm() {
    return algorithmSetting();
}

namespace {

Tensor conv2dForward(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                     const ConvParams& p) {
    DType dtype = computeDType(input, "conv2d");
    Tensor x = asBatch(input, dtype);
    const int64_t n = x.size(0), channels = x.size(1), height = x.size(2), width = x.size(3);
    const Pair k{weight.size(2), weight.size(3)};
    const int64_t paddedH = height + 2 * p.padding[0], paddedW = width + 2 * p.padding[1];
    const int64_t outH = (paddedH - p.dilation[0] * (k[0] - 1) - 1) / p.stride[0] + 1;
    const int64_t outW = (paddedW - p.dilation[1] * (k[1] - 1) - 1) / p.stride[1] + 1;
    if (paddedH < p.dilation[0] * (k[0] - 1) + 1 || paddedW < p.dilation[1] * (k[1] - 1) + 1)
        failRuntime("Calculated padded input size per channel: " + pairString(paddedH, paddedW) +
                    ". Kernel size: " +
                    pairString(p.dilation[0] * (k[0] - 1) + 1, p.dilation[1] * (k[1] - 1) + 1) +
                    ". Kernel size can't be greater than actual input size");
    const int64_t outChannels = weight.size(0), groupIn = channels / p.groups;
    const int64_t groupOut = outChannels / p.groups, taps = groupIn * k[0] * k[1];
    const int64_t plane = outH * outW, columns = n * plane;
    Tensor w = contiguous(toDType(weight, dtype));
    Tensor out = Tensor::empty(std::array<int64_t, 4>{n, outChannels, outH, outW}, dtype);
    if (out.numel() > 0 && x.numel() > 0 && useOnednn(out)) {
        std::optional<Tensor> b;
        if (bias) b = contiguous(toDType(*bias, dtype));
        if (detail::onednnConv2d(x, w, b ? &*b : nullptr, p, out)) return fromBatch(out, input);
    }
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        if constexpr (std::is_floating_point_v<T>) {
            const T* xs = x.data<T>();
            T* ys = out.data<T>();
            for (int64_t g = 0; g < p.groups; ++g) {
                // Every image of the batch side by side: one product per group.
                Tensor cols = columnsBuffer(taps, columns, dtype);
                for (int64_t b = 0; b < n; ++b)
                    imageToColumns<T>(xs + (b * channels + g * groupIn) * height * width,
                                      cols.data<T>(), groupIn, height, width, k, p, outH, outW,
                                      columns, b * plane);
                Tensor wg = reshape(narrow(w, 0, g * groupOut, groupOut),
                                    std::array<int64_t, 2>{groupOut, taps});
                if (p.groups == 1 && plane >= kPlaneForBatchedProducts) {
                    // Straight into the output: image b's product reads its columns in place
                    // (a strided view) and writes its (out_channels, plane) block.
                    Tensor weights = Tensor::view(wg.storage(), wg.offset(), {n, groupOut, taps},
                                                  {0, taps, 1}, dtype);
                    Tensor images = Tensor::view(cols.storage(), cols.offset(), {n, taps, plane},
                                                 {plane, columns, 1}, dtype);
                    Tensor result =
                        Tensor::view(out.storage(), out.offset(), {n, outChannels, plane},
                                     {outChannels * plane, plane, 1}, dtype);
                    detail::batchedGemm(weights, images, result, Scalar(1.0), Scalar(0.0));
                    continue;
                }
                Tensor product = contiguous(mm(wg, cols)); // (groupOut, n * plane)
                const T* src = product.data<T>();
                for (int64_t o = 0; o < groupOut; ++o)
                    for (int64_t b = 0; b < n; ++b)
                        std::copy_n(src + o * columns + b * plane, plane,
                                    ys + (b * outChannels + g * groupOut + o) * plane);
            }
        }
    });
    if (bias) {
        Tensor b = reshape(toDType(*bias, dtype), std::array<int64_t, 4>{1, outChannels, 1, 1});
        binaryInPlace(BinaryOp::Add, out, b);
    }
    return fromBatch(out, input);
}

} // namespace

Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              const ConvParams& p) {
    checkConvArgs(input, weight, bias, p);
    Tensor out;
    {
        detail::NoGradGuard noGrad; // one node for the whole op, bias included
        out = conv2dForward(input, weight, bias, p);
    }
    recordGradFn(out, "ConvolutionBackward0", {&input, &weight, bias ? &*bias : nullptr});
    attachConvDerivative(out, input, weight, bias.has_value(), p);
    return out;
}

namespace {

void checkPool(const Tensor& input, const PoolParams& p, const char* op) {
    checkImage(input, op);
    if (p.stride[0] == 0 || p.stride[1] == 0) failRuntime("stride should not be zero");
    for (int d = 0; d < 2; ++d) {
        if (p.kernel[d] <= 0)
            failRuntime(std::string(op) + ": kernel_size must be greater than zero, but got kH: " +
                        std::to_string(p.kernel[0]) + " kW: " + std::to_string(p.kernel[1]));
        if (p.stride[d] <= 0)
            failRuntime(std::string(op) + ": stride must be greater than zero, but got dH: " +
                        std::to_string(p.stride[0]) + " dW: " + std::to_string(p.stride[1]));
        if (p.dilation[d] <= 0)
            failRuntime(std::string(op) +
                        ": dilation must be greater than zero, but got "
                        "dilationH: " +
                        std::to_string(p.dilation[0]) +
                        " dilationW: " + std::to_string(p.dilation[1]));
        if (p.padding[d] < 0 || p.padding[d] > (p.dilation[d] * (p.kernel[d] - 1) + 1) / 2)
            failRuntime("pad should be at most half of effective kernel size, but got pad=" +
                        std::to_string(p.padding[d]) +
                        ", kernel_size=" + std::to_string(p.kernel[d]) +
                        " and dilation=" + std::to_string(p.dilation[d]));
    }
}

/// Runs `window(plane_in, plane_out, oh, ow)` over every output position of every plane.
template <typename T, typename Fn>
Tensor poolPlanes(const Tensor& input, DType dtype, int64_t outH, int64_t outW, Fn window) {
    Tensor x = asBatch(input, dtype);
    const int64_t n = x.size(0), channels = x.size(1), height = x.size(2), width = x.size(3);
    if (outH <= 0 || outW <= 0)
        failRuntime(std::string("Given input size: (") + std::to_string(channels) + "x" +
                    std::to_string(height) + "x" + std::to_string(width) +
                    "). Calculated output size: (" + std::to_string(channels) + "x" +
                    std::to_string(outH) + "x" + std::to_string(outW) +
                    "). Output size is too small");
    Tensor out = Tensor::empty(std::array<int64_t, 4>{n, channels, outH, outW}, dtype);
    const T* xs = x.data<T>();
    T* ys = out.data<T>();
    const int64_t planeGrain =
        std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, outH * outW * 4));
    parallelFor(n * channels, planeGrain, [&](int64_t begin, int64_t end) {
        for (int64_t planeIndex = begin; planeIndex < end; ++planeIndex)
            for (int64_t oh = 0; oh < outH; ++oh)
                for (int64_t ow = 0; ow < outW; ++ow)
                    ys[(planeIndex * outH + oh) * outW + ow] =
                        window(xs + planeIndex * height * width, height, width, oh, ow);
    });
    return fromBatch(out, input);
}

} // namespace

Tensor maxPool2d(const Tensor& input, const PoolParams& p) {
    checkPool(input, p, "max_pool2d");
    DType dtype = computeDType(input, "max_pool2d");
    int64_t outH = pooledSize(input.size(-2), p.kernel[0], p.padding[0], p.stride[0], p.dilation[0],
                              p.ceilMode);
    int64_t outW = pooledSize(input.size(-1), p.kernel[1], p.padding[1], p.stride[1], p.dilation[1],
                              p.ceilMode);
    Tensor out = dispatchDType(dtype, [&]<DType D>() -> Tensor {
        using T = CType<D>;
        if constexpr (std::is_floating_point_v<T>) {
            return poolPlanes<T>(
                input, dtype, outH, outW,
                [&](const T* x, int64_t height, int64_t width, int64_t oh, int64_t ow) {
                    // The taps inside the image, found once per window (padding never wins).
                    const int64_t h0 = oh * p.stride[0] - p.padding[0];
                    const int64_t w0 = ow * p.stride[1] - p.padding[1];
                    const int64_t d0 = p.dilation[0], d1 = p.dilation[1];
                    int64_t iBegin = h0 >= 0 ? 0 : (-h0 + d0 - 1) / d0;
                    int64_t iEnd = std::min(p.kernel[0], (height - h0 + d0 - 1) / d0);
                    int64_t jBegin = w0 >= 0 ? 0 : (-w0 + d1 - 1) / d1;
                    int64_t jEnd = std::min(p.kernel[1], (width - w0 + d1 - 1) / d1);
                    T best = -std::numeric_limits<T>::infinity();
                    bool nan = false;
                    for (int64_t i = iBegin; i < iEnd; ++i) {
                        const T* row = x + (h0 + i * d0) * width + w0;
                        for (int64_t j = jBegin; j < jEnd; ++j) {
                            T v = row[j * d1];
                            best = v > best ? v : best;
                            nan |= v != v; // NaN wins, as in PyTorch
                        }
                    }
                    return nan ? std::numeric_limits<T>::quiet_NaN() : best;
                });
        }
        return Tensor();
    });
    recordGradFn(out, "MaxPool2DWithIndicesBackward0", {&input});
    attachMaxPoolDerivative(out, input, p);
    return out;
}

Tensor avgPool2d(const Tensor& input, const PoolParams& p, bool countIncludePad,
                 std::optional<int64_t> divisorOverride) {
    checkPool(input, p, "avg_pool2d");
    if (divisorOverride && *divisorOverride == 0) failRuntime("divisor must be not zero");
    DType dtype = computeDType(input, "avg_pool2d");
    int64_t outH =
        pooledSize(input.size(-2), p.kernel[0], p.padding[0], p.stride[0], 1, p.ceilMode);
    int64_t outW =
        pooledSize(input.size(-1), p.kernel[1], p.padding[1], p.stride[1], 1, p.ceilMode);
    Tensor out = dispatchDType(dtype, [&]<DType D>() -> Tensor {
        using T = CType<D>;
        if constexpr (std::is_floating_point_v<T>) {
            return poolPlanes<T>(
                input, dtype, outH, outW,
                [&](const T* x, int64_t height, int64_t width, int64_t oh, int64_t ow) {
                    int64_t h0 = oh * p.stride[0] - p.padding[0];
                    int64_t w0 = ow * p.stride[1] - p.padding[1];
                    int64_t h1 = std::min(h0 + p.kernel[0], height + p.padding[0]);
                    int64_t w1 = std::min(w0 + p.kernel[1], width + p.padding[1]);
                    int64_t windowSize = (h1 - h0) * (w1 - w0);
                    h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
                    h1 = std::min(h1, height), w1 = std::min(w1, width);
                    T total = 0;
                    for (int64_t h = h0; h < h1; ++h)
                        for (int64_t w = w0; w < w1; ++w)
                            total += x[h * width + w];
                    int64_t divisor = divisorOverride   ? *divisorOverride
                                      : countIncludePad ? windowSize
                                                        : (h1 - h0) * (w1 - w0);
                    return total / static_cast<T>(divisor);
                });
        }
        return Tensor();
    });
    recordGradFn(out, "AvgPool2DBackward0", {&input});
    attachAvgPoolDerivative(out, input, p, countIncludePad, divisorOverride);
    return out;
}

Tensor adaptiveAvgPool2d(const Tensor& input, Pair outputSize) {
    checkImage(input, "adaptive_avg_pool2d");
    for (int d = 0; d < 2; ++d)
        if (outputSize[d] < 0)
            failRuntime("adaptive_avg_pool2d: elements of output_size must be greater than or "
                        "equal to 0 but received {" +
                        std::to_string(outputSize[0]) + ", " + std::to_string(outputSize[1]) + "}");
    DType dtype = computeDType(input, "adaptive_avg_pool2d");
    Tensor out = dispatchDType(dtype, [&]<DType D>() -> Tensor {
        using T = CType<D>;
        if constexpr (std::is_floating_point_v<T>) {
            const int64_t outH = outputSize[0], outW = outputSize[1];
            if (outH == 0 || outW == 0) {
                DimVector sizes = input.sizes();
                sizes[sizes.size() - 2] = outH, sizes[sizes.size() - 1] = outW;
                return Tensor::empty(sizes, input.dtype());
            }
            return poolPlanes<T>(
                input, dtype, outH, outW,
                [&](const T* x, int64_t height, int64_t width, int64_t oh, int64_t ow) {
                    int64_t h0 = oh * height / outH, h1 = ((oh + 1) * height + outH - 1) / outH;
                    int64_t w0 = ow * width / outW, w1 = ((ow + 1) * width + outW - 1) / outW;
                    T total = 0;
                    for (int64_t h = h0; h < h1; ++h)
                        for (int64_t w = w0; w < w1; ++w)
                            total += x[h * width + w];
                    return total / static_cast<T>((h1 - h0) * (w1 - w0));
                });
        }
        return Tensor();
    });
    recordGradFn(out, outputSize == Pair{1, 1} ? "MeanBackward1" : "AdaptiveAvgPool2DBackward0",
                 {&input});
    attachAdaptiveAvgPoolDerivative(out, input, outputSize);
    return out;
}

} // namespace kiln::tensor

namespace kiln::tensor {

/// The source coordinate of output element `i` along one dimension (PyTorch's
/// area_pixel_compute_source_index for bilinear, the floor of a scaled index for nearest).
double resampleSourceIndex(int64_t i, double scale, ResampleMode mode, bool alignCorners) {
    switch (mode) {
    case ResampleMode::Nearest:
        return std::floor(static_cast<double>(i) * scale);
    case ResampleMode::NearestExact:
        return std::floor((static_cast<double>(i) + 0.5) * scale);
    case ResampleMode::Bilinear:
        if (alignCorners) return static_cast<double>(i) * scale;
        return std::max(0.0, (static_cast<double>(i) + 0.5) * scale - 0.5);
    }
    return 0;
}

namespace {

/// The node PyTorch's upsample kernels leave.
std::string_view resampleGradFn(ResampleMode mode) {
    switch (mode) {
    case ResampleMode::Nearest:
        return "UpsampleNearest2DBackward0";
    case ResampleMode::NearestExact:
        return "_UpsampleNearestExact2DBackward0";
    case ResampleMode::Bilinear:
        break;
    }
    return "UpsampleBilinear2DBackward0";
}

} // namespace

Tensor resample2d(const Tensor& input, Pair outputSize, ResampleMode mode, bool alignCorners,
                  std::array<double, 2> scales) {
    if (input.dim() != 4)
        failRuntime("Kiln resizes 4-D (N, C, H, W) inputs; got input of size " +
                    shapeString(input.sizes()));
    if (outputSize[0] <= 0 || outputSize[1] <= 0)
        failRuntime("Input and output sizes should be greater than 0, but got input (H: " +
                    std::to_string(input.size(2)) + ", W: " + std::to_string(input.size(3)) +
                    ") output (H: " + std::to_string(outputSize[0]) +
                    ", W: " + std::to_string(outputSize[1]) + ")");
    DType dtype = computeDType(input, "upsample");
    const int64_t outH = outputSize[0], outW = outputSize[1];
    // align_corners maps the corner pixels onto each other: the step is (in - 1) / (out - 1).
    for (int d = 0; d < 2; ++d)
        if (mode == ResampleMode::Bilinear && alignCorners) {
            int64_t in = input.size(2 + d), out = outputSize[d];
            scales[d] = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0;
        }
    Tensor out = dispatchDType(dtype, [&]<DType D>() -> Tensor {
        using T = CType<D>;
        if constexpr (std::is_floating_point_v<T>) {
            return poolPlanes<T>(
                input, dtype, outH, outW,
                [&](const T* x, int64_t height, int64_t width, int64_t oh, int64_t ow) {
                    double sh = resampleSourceIndex(oh, scales[0], mode, alignCorners);
                    double sw = resampleSourceIndex(ow, scales[1], mode, alignCorners);
                    int64_t h0 = std::min<int64_t>(static_cast<int64_t>(sh), height - 1);
                    int64_t w0 = std::min<int64_t>(static_cast<int64_t>(sw), width - 1);
                    if (mode != ResampleMode::Bilinear) return x[h0 * width + w0];
                    int64_t h1 = std::min<int64_t>(h0 + 1, height - 1);
                    int64_t w1 = std::min<int64_t>(w0 + 1, width - 1);
                    T lh = static_cast<T>(sh - static_cast<double>(h0));
                    T lw = static_cast<T>(sw - static_cast<double>(w0));
                    T top = x[h0 * width + w0] * (1 - lw) + x[h0 * width + w1] * lw;
                    T bottom = x[h1 * width + w0] * (1 - lw) + x[h1 * width + w1] * lw;
                    return top * (1 - lh) + bottom * lh;
                });
        }
        return Tensor();
    });
    recordGradFn(out, resampleGradFn(mode), {&input});
    attachResampleDerivative(out, input, mode, alignCorners, scales);
    return out;
}

} // namespace kiln::tensor
