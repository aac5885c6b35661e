// SPDX-License-Identifier: MIT
#include "compiler/fold_batch_norm.h"

#include "tensor/ops.h"

namespace kiln::compiler {

namespace {

/// The tensor a constant_tensor node stands for.
std::optional<tensor::Tensor> constantOf(AtenBuilder& b, std::optional<int32_t> node) {
    if (!node || b.node(*node).op != "constant_tensor") return std::nullopt;
    return b.graph().constants.at(static_cast<size_t>(b.node(*node).position));
}

tensor::ConvParams paramsOf(const AtenNode& conv) {
    int64_t v[7] = {};
    for (size_t i = 0; i < 7; ++i)
        KILN_ASSERT(isConstant(conv.ints.at(i), &v[i]), "convolution parameters are numbers");
    return tensor::ConvParams{{v[0], v[1]}, {v[2], v[3]}, {v[4], v[5]}, v[6]};
}

} // namespace

std::optional<int32_t> foldBatchNormIntoConvolution(OpCall& c, const BatchNormOperands& bn) {
    using tensor::BinaryOp;
    AtenBuilder& b = c.b();
    if (!b.freezing() || c.node().meta.requiresGrad || c.readersOf("input") != 1) return {};
    const AtenNode& conv = b.node(bn.input);
    if (conv.op != "convolution") return {};
    auto w = constantOf(b, conv.inputs[1]);
    auto convBias = conv.inputs.size() > 2 ? constantOf(b, conv.inputs[2]) : std::nullopt;
    auto mean = constantOf(b, bn.mean), var = constantOf(b, bn.var);
    auto gamma = constantOf(b, bn.weight), beta = constantOf(b, bn.bias);
    if (!w || !mean || !var || (conv.inputs.size() > 2 && !convBias) || (bn.weight && !gamma) ||
        (bn.bias && !beta))
        return {};

    // The pipeline folds only with grad mode off: these eager ops record no gradients.
    const tensor::TensorOptions statsType{var->dtype(), var->device()};
    tensor::Tensor scale = tensor::unary(
        tensor::UnaryOp::Rsqrt,
        tensor::binary(BinaryOp::Add, *var, tensor::scalarTensor(bn.eps, var->dtype())));
    if (gamma) scale = tensor::binary(BinaryOp::Mul, scale, *gamma);
    const std::vector<int64_t> perChannel{w->size(0), 1, 1, 1};
    tensor::Tensor foldedWeight = tensor::toDType(
        tensor::binary(BinaryOp::Mul, *w, tensor::reshape(scale, perChannel)), w->dtype(), true);
    tensor::Tensor shift =
        convBias ? *convBias : tensor::zeros(std::span(perChannel).first(1), statsType);
    shift = tensor::binary(BinaryOp::Mul, tensor::binary(BinaryOp::Sub, shift, *mean), scale);
    if (beta) shift = tensor::binary(BinaryOp::Add, shift, *beta);
    tensor::Tensor foldedBias = tensor::toDType(shift, convBias ? convBias->dtype() : w->dtype());

    const int32_t replaced = bn.input;
    const int32_t image = conv.inputs[0];
    const tensor::ConvParams params = paramsOf(conv);
    int32_t folded = b.convolution(image, constantTensorNode(b, foldedWeight),
                                   constantTensorNode(b, foldedBias), params);
    if (const graph::Node* source = c.argNode("input"))
        b.graph().nodes[static_cast<size_t>(folded)].alsoComputes.push_back(source->name);
    b.markReplaced(replaced);
    return folded;
}

} // namespace kiln::compiler
