// SPDX-License-Identifier: MIT
// Derivatives of conv2d and conv_transpose2d, written with the two ops themselves.
//
// conv2d: the input's gradient is the transposed convolution of the output gradient with the
// same weight (output_padding restores the rows the forward's stride dropped); the weight's,
// per group, is a convolution of the input (channels and batch swapped) with the output
// gradient as its kernel, stride and dilation exchanged, cut to the kernel's size. A
// transposed convolution is the adjoint of a convolution, so its input's gradient is the
// convolution of the output gradient, and its weight's the same correlation with the roles of
// input and output gradient swapped.
#include "tensor/autograd.h"
#include "tensor/conv.h"
#include "tensor/convert.h"
#include "tensor/derivative_math.h"
#include "tensor/ops.h"

namespace kiln::tensor {

namespace {

using derivative::wanted;

Tensor batched(const Tensor& t) {
    return t.dim() == 3 ? unsqueeze(t, 0) : t;
}

/// Σ over n, h, w of image[n, i, h * stride + a * dilation - padding] * kernel[n, o, h, w]:
/// the (C_image, C_kernel, kH, kW) correlation both weight gradients are made of, per group.
Tensor correlate(const Tensor& image, const Tensor& kernel, const ConvParams& forward,
                 Pair kernelSize) {
    ConvParams swapped;
    swapped.stride = forward.dilation;
    swapped.dilation = forward.stride;
    swapped.padding = forward.padding;
    std::vector<Tensor> groups;
    const int64_t imageGroup = image.size(1) / forward.groups;
    const int64_t kernelGroup = kernel.size(1) / forward.groups;
    for (int64_t g = 0; g < forward.groups; ++g) {
        Tensor x = transpose(narrow(image, 1, g * imageGroup, imageGroup), 0, 1);
        Tensor k = transpose(narrow(kernel, 1, g * kernelGroup, kernelGroup), 0, 1);
        Tensor r = conv2d(contiguous(x), contiguous(k), std::nullopt, swapped);
        groups.push_back(narrow(narrow(r, 2, 0, kernelSize[0]), 3, 0, kernelSize[1]));
    }
    return groups.size() == 1 ? groups[0] : cat(groups, 1);
}

/// The transposed convolution that maps conv2d's output gradient `g` back onto an input of
/// spatial sizes `inputHW`.
ConvTransposeParams transposeOf(const ConvParams& p, IntList inputHW, const Tensor& g,
                                Pair kernel) {
    ConvTransposeParams t;
    t.stride = p.stride;
    t.padding = p.padding;
    t.dilation = p.dilation;
    t.groups = p.groups;
    for (int d = 0; d < 2; ++d) {
        const int64_t k = kernel[static_cast<size_t>(d)];
        const int64_t reached =
            (g.size(2 + d) - 1) * p.stride[d] - 2 * p.padding[d] + p.dilation[d] * (k - 1) + 1;
        t.outputPadding[d] = inputHW[static_cast<size_t>(d)] - reached;
    }
    return t;
}

} // namespace

Tensor conv2dInputGrad(const Tensor& grad, const Tensor& weight, IntList inputSizes,
                       const ConvParams& p) {
    const Pair kernel{weight.size(2), weight.size(3)};
    const DimVector hw{inputSizes[inputSizes.size() - 2], inputSizes[inputSizes.size() - 1]};
    return convTranspose2d(grad, weight, std::nullopt, transposeOf(p, hw, grad, kernel));
}

Tensor conv2dWeightGrad(const Tensor& grad, const Tensor& input, IntList weightSizes,
                        const ConvParams& p) {
    const Pair kernel{weightSizes[2], weightSizes[3]};
    // conv2d's weight is (C_out, C_in/g, ...): correlate(x, g) is (C_in/g, C_out, ...) per group.
    return contiguous(transpose(correlate(input, grad, p, kernel), 0, 1));
}

namespace {

class ConvBackward final : public GradNode {
public:
    ConvBackward(std::string_view name, bool transposed, const Tensor& input, const Tensor& weight,
                 bool hasBias, ConvParams params)
        : GradNode(name)
        , m_transposed(transposed)
        , m_input(input)
        , m_weight(weight)
        , m_hasBias(hasBias)
        , m_params(params) {}
    void releaseSaved() override {
        m_input.release();
        m_weight.release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor input = m_input.unpack(*this), weight = m_weight.unpack(*this);
        const bool single = input.dim() == 3;
        Tensor x = batched(input), g = batched(grads[0]);
        const Pair kernel{weight.size(2), weight.size(3)};
        std::vector<Tensor> out(3);
        if (wanted(*this, 0)) {
            Tensor gx = m_transposed ? conv2d(g, weight, std::nullopt, m_params)
                                     : conv2dInputGrad(g, weight, x.sizes(), m_params);
            out[0] = toDType(single ? squeeze(gx, DimVector{0}) : gx, input.dtype());
        }
        if (wanted(*this, 1)) {
            // conv_transpose2d's weight is (C_in, C_out/g, ...): correlate(g, x).
            Tensor gw = m_transposed
                            ? contiguous(transpose(correlate(g, x, m_params, kernel), 0, 1))
                            : conv2dWeightGrad(g, x, weight.sizes(), m_params);
            out[1] = toDType(gw, weight.dtype());
        }
        if (m_hasBias && wanted(*this, 2))
            out[2] = toDType(sum(g, DimVector{0, 2, 3}, false), weight.dtype());
        return out;
    }

private:
    bool m_transposed;
    SavedTensor m_input;
    SavedTensor m_weight;
    bool m_hasBias;
    ConvParams m_params;
};

} // namespace

void attachConvDerivative(Tensor& out, const Tensor& input, const Tensor& weight, bool hasBias,
                          const ConvParams& params) {
    if (!out.gradNode()) return;
    attachDerivative(out,
                     makeRef<ConvBackward>(out.gradFn(), false, input, weight, hasBias, params));
}

void attachConvTransposeDerivative(Tensor& out, const Tensor& input, const Tensor& weight,
                                   bool hasBias, const ConvTransposeParams& params) {
    if (!out.gradNode()) return;
    ConvParams forward;
    forward.stride = params.stride;
    forward.padding = params.padding;
    forward.dilation = params.dilation;
    forward.groups = params.groups;
    // The output padding only adds rows no input element reached: no gradient flows there.
    attachDerivative(out,
                     makeRef<ConvBackward>(out.gradFn(), true, input, weight, hasBias, forward));
}

} // namespace kiln::tensor
