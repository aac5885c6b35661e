// SPDX-License-Identifier: MIT
// Derivatives of the window ops over images: max_pool2d, avg_pool2d, adaptive_avg_pool2d and
// interpolate (nearest, nearest-exact, bilinear). Each output element is a weighted sum of
// input taps (for max pooling, the one tap that won, found again from the saved input), so one
// backward serves them all: every output's gradient is added to its taps, times their weights.
// The tap geometry follows the forward kernels in conv.cpp. Computed in double on the CPU.
#include "tensor/autograd.h"
#include "tensor/conv.h"
#include "tensor/convert.h"
#include "tensor/ops.h"

#include <cmath>
#include <functional>
#include <limits>

namespace kiln::tensor {

namespace {

/// Calls `tap(index into the plane, weight)` for each input tap of output (oh, ow).
using Tap = std::function<void(int64_t, double)>;
using Taps = std::function<void(const double* plane, int64_t height, int64_t width, int64_t oh,
                                int64_t ow, const Tap& tap)>;

class WindowBackward final : public GradNode {
public:
    WindowBackward(std::string_view name, const Tensor& input, bool needsValues, Taps taps)
        : GradNode(name)
        , m_sizes(input.sizes())
        , m_dtype(input.dtype())
        , m_taps(std::move(taps)) {
        if (needsValues) m_input.emplace(input);
    }
    void releaseSaved() override {
        if (m_input) m_input->release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const bool single = m_sizes.size() == 3;
        Tensor g = contiguous(toDType(single ? unsqueeze(grads[0], 0) : grads[0], DType::Float64));
        Tensor x;
        if (m_input) {
            Tensor saved = m_input->unpack(*this);
            x = contiguous(toDType(single ? unsqueeze(saved, 0) : saved, DType::Float64));
        }
        const int64_t height = m_sizes[m_sizes.size() - 2], width = m_sizes.back();
        const int64_t outH = g.size(2), outW = g.size(3), planes = g.size(0) * g.size(1);
        DimVector batchSizes{g.size(0), g.size(1), height, width};
        Tensor gx = zeros(batchSizes, TensorOptions{DType::Float64, Device(), false});
        double* out = gx.data<double>();
        const double* gs = g.data<double>();
        for (int64_t p = 0; p < planes; ++p) {
            const double* plane = x.defined() ? x.data<double>() + p * height * width : nullptr;
            double* target = out + p * height * width;
            for (int64_t oh = 0; oh < outH; ++oh)
                for (int64_t ow = 0; ow < outW; ++ow) {
                    const double up = gs[(p * outH + oh) * outW + ow];
                    m_taps(plane, height, width, oh, ow,
                           [&](int64_t at, double weight) { target[at] += up * weight; });
                }
        }
        Tensor result = single ? squeeze(gx, DimVector{0}) : gx;
        return {toDType(result, m_dtype)};
    }

private:
    DimVector m_sizes;
    DType m_dtype;
    std::optional<SavedTensor> m_input;
    Taps m_taps;
};

Taps maxTaps(const PoolParams& p) {
    return [p](const double* x, int64_t height, int64_t width, int64_t oh, int64_t ow,
               const Tap& tap) {
        const int64_t h0 = oh * p.stride[0] - p.padding[0];
        const int64_t w0 = ow * p.stride[1] - p.padding[1];
        int64_t best = -1;
        double bestValue = -std::numeric_limits<double>::infinity();
        for (int64_t i = 0; i < p.kernel[0]; ++i)
            for (int64_t j = 0; j < p.kernel[1]; ++j) {
                const int64_t h = h0 + i * p.dilation[0], w = w0 + j * p.dilation[1];
                if (h < 0 || h >= height || w < 0 || w >= width) continue;
                const double v = x[h * width + w];
                // The first largest wins, and NaN wins, as PyTorch's indices say.
                if (best < 0 || v > bestValue || std::isnan(v)) {
                    if (best >= 0 && std::isnan(bestValue)) continue;
                    best = h * width + w;
                    bestValue = v;
                }
            }
        if (best >= 0) tap(best, 1.0);
    };
}

Taps averageTaps(const PoolParams& p, bool countIncludePad, std::optional<int64_t> divisor) {
    return
        [=](const double*, int64_t height, int64_t width, int64_t oh, int64_t ow, const Tap& tap) {
            int64_t h0 = oh * p.stride[0] - p.padding[0], w0 = ow * p.stride[1] - p.padding[1];
            int64_t h1 = std::min(h0 + p.kernel[0], height + p.padding[0]);
            int64_t w1 = std::min(w0 + p.kernel[1], width + p.padding[1]);
            const int64_t windowSize = (h1 - h0) * (w1 - w0);
            h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
            h1 = std::min(h1, height), w1 = std::min(w1, width);
            const int64_t count = divisor           ? *divisor
                                  : countIncludePad ? windowSize
                                                    : (h1 - h0) * (w1 - w0);
            for (int64_t h = h0; h < h1; ++h)
                for (int64_t w = w0; w < w1; ++w)
                    tap(h * width + w, 1.0 / static_cast<double>(count));
        };
}

Taps adaptiveTaps(int64_t outH, int64_t outW) {
    return
        [=](const double*, int64_t height, int64_t width, int64_t oh, int64_t ow, const Tap& tap) {
            int64_t h0 = oh * height / outH, h1 = ((oh + 1) * height + outH - 1) / outH;
            int64_t w0 = ow * width / outW, w1 = ((ow + 1) * width + outW - 1) / outW;
            for (int64_t h = h0; h < h1; ++h)
                for (int64_t w = w0; w < w1; ++w)
                    tap(h * width + w, 1.0 / static_cast<double>((h1 - h0) * (w1 - w0)));
        };
}

Taps resampleTaps(ResampleMode mode, bool alignCorners, std::array<double, 2> scales) {
    return
        [=](const double*, int64_t height, int64_t width, int64_t oh, int64_t ow, const Tap& tap) {
            const double sh = resampleSourceIndex(oh, scales[0], mode, alignCorners);
            const double sw = resampleSourceIndex(ow, scales[1], mode, alignCorners);
            const int64_t h0 = std::min<int64_t>(static_cast<int64_t>(sh), height - 1);
            const int64_t w0 = std::min<int64_t>(static_cast<int64_t>(sw), width - 1);
            if (mode != ResampleMode::Bilinear) {
                tap(h0 * width + w0, 1.0);
                return;
            }
            const int64_t h1 = std::min<int64_t>(h0 + 1, height - 1);
            const int64_t w1 = std::min<int64_t>(w0 + 1, width - 1);
            const double lh = sh - static_cast<double>(h0), lw = sw - static_cast<double>(w0);
            tap(h0 * width + w0, (1 - lh) * (1 - lw));
            tap(h0 * width + w1, (1 - lh) * lw);
            tap(h1 * width + w0, lh * (1 - lw));
            tap(h1 * width + w1, lh * lw);
        };
}

void attachWindow(Tensor& out, const Tensor& input, bool needsValues, Taps taps) {
    if (!out.gradNode()) return;
    attachDerivative(out,
                     makeRef<WindowBackward>(out.gradFn(), input, needsValues, std::move(taps)));
}

} // namespace

void attachMaxPoolDerivative(Tensor& out, const Tensor& input, const PoolParams& params) {
    attachWindow(out, input, true, maxTaps(params));
}

void attachAvgPoolDerivative(Tensor& out, const Tensor& input, const PoolParams& params,
                             bool countIncludePad, std::optional<int64_t> divisorOverride) {
    attachWindow(out, input, false, averageTaps(params, countIncludePad, divisorOverride));
}

void attachAdaptiveAvgPoolDerivative(Tensor& out, const Tensor& input, Pair outputSize) {
    attachWindow(out, input, false, adaptiveTaps(outputSize[0], outputSize[1]));
}

void attachResampleDerivative(Tensor& out, const Tensor& input, ResampleMode mode,
                              bool alignCorners, std::array<double, 2> scales) {
    attachWindow(out, input, false, resampleTaps(mode, alignCorners, scales));
}

} // namespace kiln::tensor
