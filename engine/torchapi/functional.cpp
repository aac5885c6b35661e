// SPDX-License-Identifier: MIT
// torch.nn.functional: activations, normalisation, attention, dropout, embedding and losses.
#include "tensor/random.h"
#include "torchapi/bindings.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

template <tensor::UnaryOp Op>
Value activation(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig(std::string(static_cast<const char*>(data)) + "(input, inplace=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    if (a.toBool(1)) {
        tensor::unaryInPlace(Op, x);
        return a[0];
    }
    return tensorValue(tensor::unary(Op, x));
}

Value gelu(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("gelu(input, approximate='none')");
    BoundArgs a = sig.bind(interp, args);
    const std::string& approx = a.toStr(1);
    if (approx != "none" && approx != "tanh")
        interp.raise(builtinTypes().runtimeError.get(), "approximate argument must be either none or tanh.");
    return tensorValue(tensor::gelu(a.toTensor(0), approx));
}

template <bool Log>
Value softmaxFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Log ? "log_softmax" : "softmax") +
                               "(input, dim=None, _stacklevel=3, dtype=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    int64_t dim;
    if (a.has(1)) {
        dim = a.toInt(1);
    } else {
        // PyTorch's legacy implicit dim (with a deprecation warning it prints to stderr).
        int64_t nd = x.dim();
        dim = (nd == 0 || nd == 1 || nd == 3) ? 0 : 1;
    }
    auto dtype = optDType(interp, a[3], sig.name() + "(): argument 'dtype'");
    return tensorValue(Log ? tensor::logSoftmax(x, dim, dtype) : tensor::softmax(x, dim, dtype));
}

Value linear(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("linear(input, weight, bias=None)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::linear(a.toTensor(0), a.toTensor(1), a.optTensor(2)));
}

Value layerNorm(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::layerNorm(a.toTensor(0), a.toIntList(1), a.optTensor(2),
                                         a.optTensor(3), a.toDouble(4)));
}

Value dropout(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("dropout(input, p=0.5, training=True, inplace=False)");
    BoundArgs a = sig.bind(interp, args);
    double p = a.toDouble(1);
    if (p < 0.0 || p > 1.0)
        interp.raiseValueError("dropout probability has to be between 0 and 1, but got " +
                               interp.repr(a[1]));
    return tensorValue(tensor::dropout(a.toTensor(0), p, a.toBool(2), tensor::defaultGenerator()));
}

Value embedding(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::embedding(a.toTensor(1), a.toTensor(0), a.optInt(2)));
}

Value sdpa(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::scaledDotProductAttention(
        a.toTensor(0), a.toTensor(1), a.toTensor(2), a.optTensor(3), a.toDouble(4), a.toBool(5),
        a.optDouble(6), tensor::defaultGenerator()));
}

Value crossEntropy(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::crossEntropy(a.toTensor(0), a.toTensor(1), a.optTensor(2), a.toStr(6),
                                            a.toInt(4), a.toDouble(7)));
}

Value nllLoss(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean')");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::nllLoss(a.toTensor(0), a.toTensor(1), a.optTensor(2), a.toStr(6), a.toInt(4)));
}

Value mseLoss(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("mse_loss(input, target, size_average=None, reduce=None, reduction='mean')");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::mseLoss(a.toTensor(0), a.toTensor(1), a.toStr(4)));
}

Value oneHot(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("one_hot(tensor, num_classes=-1)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::oneHot(a.toTensor(0), a.toInt(1)));
}

} // namespace

void installFunctional(Interpreter& interp, ModuleObject& f) {
    AttrMap& g = f.globals;
    interp.defineNative(g, "relu", activation<tensor::UnaryOp::Relu>, const_cast<char*>("relu"));
    interp.defineNative(g, "silu", activation<tensor::UnaryOp::Silu>, const_cast<char*>("silu"));
    interp.defineNative(g, "gelu", gelu);
    interp.defineNative(g, "softmax", softmaxFn<false>);
    interp.defineNative(g, "log_softmax", softmaxFn<true>);
    interp.defineNative(g, "linear", linear);
    interp.defineNative(g, "layer_norm", layerNorm);
    interp.defineNative(g, "dropout", dropout);
    interp.defineNative(g, "embedding", embedding);
    interp.defineNative(g, "scaled_dot_product_attention", sdpa);
    interp.defineNative(g, "cross_entropy", crossEntropy);
    interp.defineNative(g, "nll_loss", nllLoss);
    interp.defineNative(g, "mse_loss", mseLoss);
    interp.defineNative(g, "one_hot", oneHot);
}

} // namespace kiln::torchapi
