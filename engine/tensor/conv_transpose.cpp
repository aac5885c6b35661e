// SPDX-License-Identifier: MIT
// Transposed convolution (F.conv_transpose1d/2d) as the convolution it is the gradient of: the
// input spread out by the stride (zeros between its elements), padded by
// dilation * (kernel - 1) - padding on each side (output_padding more at the end), and
// convolved with the kernel flipped and its input and output channels swapped within each group.
#include "tensor/autograd.h"
#include "tensor/conv.h"
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <string>

namespace kiln::tensor {

namespace {

/// `x` (N, C, H, W) with `stride - 1` zeros between neighbours, then `before` rows/columns of
/// zeros ahead and `after` behind (negative values crop instead).
Tensor spreadAndPad(const Tensor& x, Pair stride, Pair before, Pair after) {
    const int64_t h = x.size(2), w = x.size(3);
    const int64_t spreadH = (h - 1) * stride[0] + 1, spreadW = (w - 1) * stride[1] + 1;
    const int64_t outH = std::max<int64_t>(0, spreadH + before[0] + after[0]);
    const int64_t outW = std::max<int64_t>(0, spreadW + before[1] + after[1]);
    Tensor out = zeros(DimVector{x.size(0), x.size(1), outH, outW}, {x.dtype(), {}, false});
    if (out.numel() == 0 || x.numel() == 0) return out;
    // Where the spread input lands in `out`, and which of its rows/columns stay inside.
    auto place = [](int64_t spread, int64_t step, int64_t lead, int64_t size) {
        int64_t first = 0; // the first input element that lands at or after 0
        while (lead + first * step < 0)
            ++first;
        int64_t last = (spread - 1) / step; // the last input element
        while (last >= first && lead + last * step >= size)
            --last;
        return std::array<int64_t, 3>{first, last - first + 1, lead + first * step};
    };
    auto [firstH, countH, atH] = place(spreadH, stride[0], before[0], outH);
    auto [firstW, countW, atW] = place(spreadW, stride[1], before[1], outW);
    if (countH <= 0 || countW <= 0) return out;
    Tensor target = slice(slice(out, 2, atH, atH + (countH - 1) * stride[0] + 1, stride[0]), 3, atW,
                          atW + (countW - 1) * stride[1] + 1, stride[1]);
    copyInto(target, narrow(narrow(x, 2, firstH, countH), 3, firstW, countW));
    return out;
}

} // namespace

Tensor convTranspose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                       const ConvTransposeParams& p) {
    if (weight.dim() != 4)
        failRuntime("weight should have 4 dimensions for conv_transpose2d, but got " +
                    std::to_string(weight.dim()));
    if (input.dim() != 3 && input.dim() != 4)
        failRuntime("Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got "
                    "input of size: " +
                    shapeString(input.sizes()));
    for (int d = 0; d < 2; ++d)
        if (p.outputPadding[d] >= p.stride[d] && p.outputPadding[d] >= p.dilation[d])
            failRuntime("output padding must be smaller than either stride or dilation, but got "
                        "output_padding_height: " +
                        std::to_string(p.outputPadding[0]) +
                        " output_padding_width: " + std::to_string(p.outputPadding[1]) +
                        " stride_height: " + std::to_string(p.stride[0]) +
                        " stride_width: " + std::to_string(p.stride[1]) +
                        " dilation_height: " + std::to_string(p.dilation[0]) +
                        " dilation_width: " + std::to_string(p.dilation[1]));
    const bool batched = input.dim() == 4;
    Tensor x = batched ? input : unsqueeze(input, 0);
    const int64_t groups = p.groups, inChannels = weight.size(0);
    if (x.size(1) != inChannels)
        failRuntime("Given transposed=1, weight of size " + shapeString(weight.sizes()) +
                    ", expected input" + shapeString(x.sizes()) + " to have " +
                    std::to_string(inChannels) + " channels, but got " + std::to_string(x.size(1)) +
                    " channels instead");
    if (groups <= 0 || inChannels % groups != 0)
        failRuntime("non-positive groups is not supported");
    const int64_t groupOut = weight.size(1), kH = weight.size(2), kW = weight.size(3);
    Tensor out;
    {
        detail::NoGradGuard noGrad;
        // (C_in, C_out/g, kH, kW) -> (C_out, C_in/g, kH, kW), flipped: per group, swap the
        // channel roles.
        Tensor w = reshape(weight, DimVector{groups, inChannels / groups, groupOut, kH, kW});
        w = reshape(contiguous(permute(w, DimVector{0, 2, 1, 3, 4})),
                    DimVector{groups * groupOut, inChannels / groups, kH, kW});
        w = flip(w, DimVector{2, 3});
        Pair before{p.dilation[0] * (kH - 1) - p.padding[0],
                    p.dilation[1] * (kW - 1) - p.padding[1]};
        Pair after{before[0] + p.outputPadding[0], before[1] + p.outputPadding[1]};
        Tensor spread = spreadAndPad(x, p.stride, before, after);
        ConvParams conv;
        conv.dilation = p.dilation;
        conv.groups = groups;
        out = conv2d(spread, w, bias, conv);
    }
    if (!batched) out = squeeze(out, std::array<int64_t, 1>{0});
    recordGradFn(out, "ConvolutionBackward0", {&input, &weight, bias ? &*bias : nullptr});
    attachConvTransposeDerivative(out, input, weight, bias.has_value(), p);
    return out;
}

} // namespace kiln::tensor
