// SPDX-License-Identifier: MIT
// torch.nn.functional: activations, normalisation, attention, dropout, embedding, padding and
// losses. Convolution, pooling and batch/group norm are in functional_conv.cpp.
#include "tensor/autograd.h"
#include "tensor/conv.h"
#include "tensor/error.h"
#include "tensor/random.h"
#include "torchapi/bindings.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

struct ActivationEntry {
    tensor::UnaryOp op;
    Signature sig;
};

/// relu/silu/sigmoid/tanh(input, inplace=False) (sigmoid and tanh have no inplace).
Value activation(Interpreter& interp, const CallArgs& args, void* data) {
    const ActivationEntry& e = *static_cast<const ActivationEntry*>(data);
    if (auto r = runOnDevice(interp, e.sig.name(), args)) return *r; // not via registerOps
    BoundArgs a = e.sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    if (e.sig.size() > 1 && a.toBool(1)) {
        tensor::unaryInPlace(e.op, x);
        return a[0];
    }
    return tensorValue(tensor::unary(e.op, x));
}

std::span<const ActivationEntry> activationEntries() {
    static const ActivationEntry entries[] = {
        {tensor::UnaryOp::Relu, Signature("relu(input, inplace=False)")},
        {tensor::UnaryOp::Silu, Signature("silu(input, inplace=False)")},
        {tensor::UnaryOp::Sigmoid, Signature("sigmoid(input)")},
        {tensor::UnaryOp::Tanh, Signature("tanh(input)")},
    };
    return entries;
}

Value gelu(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("gelu(input, approximate='none')");
    BoundArgs a = sig.bind(interp, args);
    const std::string& approx = a.toStr(1);
    if (approx != "none" && approx != "tanh")
        interp.raise(builtinTypes().runtimeError.get(),
                     "approximate argument must be either none or tanh.");
    return tensorValue(tensor::gelu(a.toTensor(0), approx));
}

Value leakyRelu(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("leaky_relu(input, negative_slope=0.01, inplace=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor r, positive;
    {
        NoGradScope noGrad;
        Tensor scaled =
            tensor::binary(tensor::BinaryOp::Mul, x, tensor::wrapNumber(scalarArg(a, 1)));
        positive = tensor::binary(tensor::BinaryOp::Gt, x, tensor::wrapNumber(int64_t(0)));
        r = tensor::where(positive, x, scaled);
    }
    tensor::recordGradFn(r, "LeakyReluBackward0", {&x});
    if (r.gradNode()) {
        NoGradScope noGrad;
        Tensor slope =
            tensor::where(positive, tensor::wrapNumber(1.0), tensor::wrapNumber(scalarArg(a, 1)));
        tensor::attachFactorDerivative(r, tensor::toDType(slope, x.dtype()), {}, true);
    }
    if (!a.toBool(2)) return tensorValue(r);
    tensor::renameGradFn(r, "LeakyReluBackward1"); // PyTorch's name for the in-place form
    assignInPlace(x, r);
    return a[0];
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
        // PyTorch's legacy implicit dim (it also warns on stderr).
        int64_t nd = x.dim();
        dim = (nd == 0 || nd == 1 || nd == 3) ? 0 : 1;
        interp.write(OutputStream::Stderr,
                     "UserWarning: Implicit dimension choice for " + sig.name() +
                         " has been deprecated. Change the call to include dim=X as an "
                         "argument.\n");
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
    static const Signature sig(
        "layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::layerNorm(a.toTensor(0), a.toIntList(1), a.optTensor(2),
                                         a.optTensor(3), a.toDouble(4)));
}

Value normalize(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("normalize(input, p=2.0, dim=1, eps=1e-12, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    const int64_t dim[] = {a.toInt(2)};
    Tensor norm = tensor::norm(x, a.toDouble(1), dim, true);
    Tensor denom =
        tensor::expand(tensor::clamp(norm, tensor::wrapNumber(a.toDouble(3)), {}), x.sizes());
    Tensor r = tensor::binary(tensor::BinaryOp::Div, x, denom);
    return resultOrOut(a, 4, r);
}

/// The padded copy: narrow the input where pads are negative, fill, copy into the window.
Tensor padInto(const Tensor& x, const std::vector<int64_t>& pad, tensor::Scalar value,
               int64_t pairs) {
    Tensor src = x;
    tensor::DimVector outSizes = x.sizes();
    std::vector<int64_t> dstStart(static_cast<size_t>(x.dim()), 0);
    for (int64_t i = 0; i < pairs; ++i) {
        int64_t dim = x.dim() - 1 - i;
        int64_t before = pad[static_cast<size_t>(2 * i)];
        int64_t after = pad[static_cast<size_t>(2 * i + 1)];
        int64_t keep = x.size(dim) + std::min<int64_t>(before, 0) + std::min<int64_t>(after, 0);
        if (keep < 0) tensor::failRuntime("narrow(): length must be non-negative.");
        src = tensor::narrow(src, dim, std::max<int64_t>(-before, 0), keep);
        outSizes[static_cast<size_t>(dim)] = x.size(dim) + before + after;
        dstStart[static_cast<size_t>(dim)] = std::max<int64_t>(before, 0);
    }
    Tensor out = tensor::full(outSizes, value, tensor::TensorOptions{x.dtype()});
    Tensor window = out;
    for (int64_t d = 0; d < x.dim(); ++d)
        window = tensor::narrow(window, d, dstStart[static_cast<size_t>(d)], src.size(d));
    tensor::copyInto(window, src);
    return out;
}

Tensor recordedPad(const Tensor& x, const std::vector<int64_t>& pad, tensor::Scalar value);

/// ConstantPadNdBackward0: the gradient padded by the negated pads (PyTorch's
/// constant_pad_nd_backward: what the pad added is cropped, what it cropped is zero), itself
/// recorded, so a second derivative follows.
class ConstantPadBackward final : public tensor::GradNode {
public:
    ConstantPadBackward(std::string_view name, const std::vector<int64_t>& pad)
        : GradNode(name) {
        for (int64_t p : pad)
            m_back.push_back(-p);
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        return {recordedPad(grads[0], m_back, tensor::Scalar(int64_t(0)))};
    }

private:
    std::vector<int64_t> m_back;
};

Tensor recordedPad(const Tensor& x, const std::vector<int64_t>& pad, tensor::Scalar value) {
    Tensor out;
    {
        NoGradScope noGrad;
        out = padInto(x, pad, value, static_cast<int64_t>(pad.size()) / 2);
    }
    tensor::recordGradFn(out, "ConstantPadNdBackward0", {&x});
    if (out.gradNode())
        tensor::attachDerivative(out, makeRef<ConstantPadBackward>(out.gradFn(), pad));
    return out;
}

/// F.pad in constant mode: negative pads crop (a narrow of the input), positive pads fill.
Tensor constantPad(Interpreter& interp, const Tensor& x, const std::vector<int64_t>& pad,
                   tensor::Scalar value) {
    if (pad.size() % 2 != 0)
        interp.raise(builtinTypes().runtimeError.get(), "Padding length must be divisible by 2");
    int64_t pairs = static_cast<int64_t>(pad.size()) / 2;
    if (pairs > x.dim())
        interp.raise(builtinTypes().runtimeError.get(),
                     "Padding length should be less than or equal to two times the input "
                     "dimension but got padding length " +
                         std::to_string(pad.size()) + " and input of dimension " +
                         std::to_string(x.dim()));
    return recordedPad(x, pad, value);
}

Value pad(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("pad(input, pad, mode='constant', value=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    const std::string& mode = a.toStr(2);
    if (mode != "constant")
        interp.raise(builtinTypes().notImplementedError.get(),
                     "Kiln implements F.pad only in 'constant' mode, not '" + mode + "'");
    tensor::Scalar value = a.has(3) ? scalarArg(a, 3) : tensor::Scalar(int64_t(0));
    return tensorValue(constantPad(interp, x, a.toIntList(1), value));
}
Value dropout(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("dropout(input, p=0.5, training=True, inplace=False)");
    BoundArgs a = sig.bind(interp, args);
    double p = a.toDouble(1);
    if (p < 0.0 || p > 1.0)
        interp.raiseValueError("dropout probability has to be between 0 and 1, but got " +
                               interp.repr(a[1]));
    Tensor x = a.toTensor(0);
    Tensor r = tensor::dropout(x, p, a.toBool(2), tensor::defaultGenerator());
    if (!a.toBool(3)) return tensorValue(r);
    if (!r.sameImpl(x)) assignInPlace(x, r);
    return a[0];
}

/// Rows that the lookup touches are rescaled in place to norm max_norm, as PyTorch's
/// embedding_renorm_ does before the lookup.
void renormRows(const Tensor& weight, const Tensor& indices, double maxNorm, double normType) {
    NoGradScope noGrad;
    const int64_t all[] = {-1};
    Tensor flat =
        tensor::contiguous(tensor::toDType(tensor::reshape(indices, all), tensor::DType::Int64));
    const int64_t* idx = flat.data<int64_t>();
    for (int64_t i = 0; i < flat.numel(); ++i) {
        Tensor row = tensor::select(weight, 0, idx[i]);
        double n = tensor::item(tensor::norm(row, normType, {}, false)).toDouble();
        if (n > maxNorm)
            tensor::binaryInPlace(tensor::BinaryOp::Mul, row,
                                  tensor::wrapNumber(maxNorm / (n + 1e-7)));
    }
}

Value embedding(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, "
        "scale_grad_by_freq=False, sparse=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor indices = a.toTensor(0), weight = a.toTensor(1);
    std::optional<int64_t> paddingIdx = a.optInt(2);
    if (paddingIdx) {
        int64_t rows = weight.size(0);
        if (*paddingIdx >= rows || *paddingIdx < -rows)
            interp.raise(builtinTypes().assertionError.get(),
                         "Padding_idx must be within num_embeddings");
        if (*paddingIdx < 0) *paddingIdx += rows;
    }
    if (a.has(3)) renormRows(weight, indices, a.toDouble(3), a.toDouble(4));
    return tensorValue(tensor::embedding(weight, indices, paddingIdx));
}

/// With enable_gqa, each key/value head serves a group of query heads.
Tensor repeatHeads(const Tensor& t, int64_t groups) {
    if (groups == 1) return t;
    tensor::DimVector sizes = t.sizes();
    int64_t headDim = t.dim() - 3;
    Tensor u = tensor::unsqueeze(t, headDim + 1);
    tensor::DimVector expanded = u.sizes();
    expanded[static_cast<size_t>(headDim + 1)] = groups;
    sizes[static_cast<size_t>(headDim)] *= groups;
    return tensor::reshape(tensor::expand(u, expanded), sizes);
}

Value sdpa(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("scaled_dot_product_attention(query, key, value, attn_mask=None, "
                               "dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor q = a.toTensor(0), k = a.toTensor(1), v = a.toTensor(2);
    if (a.toBool(7) && q.dim() >= 3 && k.dim() >= 3 && k.size(-3) != q.size(-3) && k.size(-3) > 0 &&
        q.size(-3) % k.size(-3) == 0) {
        int64_t groups = q.size(-3) / k.size(-3);
        k = repeatHeads(k, groups);
        v = repeatHeads(v, groups);
    }
    return tensorValue(tensor::scaledDotProductAttention(q, k, v, a.optTensor(3), a.toDouble(4),
                                                         a.toBool(5), a.optDouble(6),
                                                         tensor::defaultGenerator()));
}

/// The reduction, honouring the deprecated size_average/reduce flags as PyTorch still does.
std::string reductionArg(const BoundArgs& a, size_t sizeAverage, size_t reduce, size_t reduction) {
    if (!a.has(sizeAverage) && !a.has(reduce)) return a.toStr(reduction);
    a.interp().write(OutputStream::Stderr,
                     "UserWarning: size_average and reduce args will be deprecated, please use "
                     "reduction='" +
                         a.toStr(reduction) + "' instead.\n");
    bool average = !a.has(sizeAverage) || a.toBool(sizeAverage);
    bool reduced = !a.has(reduce) || a.toBool(reduce);
    return !reduced ? "none" : average ? "mean" : "sum";
}

Value crossEntropy(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, "
        "reduce=None, reduction='mean', label_smoothing=0.0)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::crossEntropy(a.toTensor(0), a.toTensor(1), a.optTensor(2),
                                            reductionArg(a, 3, 5, 6), a.toInt(4), a.toDouble(7)));
}

Value nllLoss(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("nll_loss(input, target, weight=None, size_average=None, "
                               "ignore_index=-100, reduce=None, reduction='mean')");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(
        tensor::nllLoss(a.toTensor(0), a.toTensor(1), a.optTensor(2), a.toStr(6), a.toInt(4)));
}

Value mseLoss(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "mse_loss(input, target, size_average=None, reduce=None, reduction='mean', weight=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor input = a.toTensor(0), target = a.toTensor(1);
    std::string reduction = reductionArg(a, 2, 3, 4);
    if (!a.has(5)) return tensorValue(tensor::mseLoss(input, target, reduction));
    // The weighted form is plain arithmetic in PyTorch too (torch/nn/functional.py).
    Tensor weight = a.toTensor(5);
    if (!(weight.sizes() == input.sizes()))
        interp.raiseValueError("Weights and input must have the same size.");
    using tensor::BinaryOp;
    Tensor diff = tensor::binary(BinaryOp::Sub, input, target);
    Tensor weighted = tensor::binary(
        BinaryOp::Mul, tensor::binary(BinaryOp::Pow, diff, tensor::wrapNumber(int64_t(2))), weight);
    if (reduction == "none") return tensorValue(weighted);
    if (reduction != "sum" && reduction != "mean")
        interp.raiseValueError("Invalid reduction mode: " + reduction +
                               ". Expected one of 'none', 'mean', 'sum'.");
    Tensor total = tensor::sum(weighted, {}, false);
    if (reduction == "sum") return tensorValue(total);
    return tensorValue(tensor::binary(BinaryOp::Div, total, tensor::sum(weight, {}, false)));
}

std::string sizeText(const Tensor& x) {
    std::string out = "torch.Size([";
    for (size_t i = 0; i < x.sizes().size(); ++i)
        out += (i ? ", " : "") + std::to_string(x.sizes()[i]);
    return out + "])";
}

/// An elementwise loss reduced as asked, its grad_fn named as PyTorch's fused loss node (its
/// gradient comes through the ops it is built of).
Tensor reducedLoss(const Tensor& loss, const std::string& reduction, std::string_view node) {
    Tensor out = reduction == "sum"    ? tensor::sum(loss, {}, false)
                 : reduction == "mean" ? tensor::mean(loss, {}, false)
                                       : loss;
    tensor::renameGradFn(out, node);
    return out;
}

/// F.binary_cross_entropy: -w (t log p + (1 - t) log(1 - p)), each log clamped at -100 as
/// PyTorch does so that p of exactly 0 or 1 gives a finite loss.
Value binaryCrossEntropy(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("binary_cross_entropy(input, target, weight=None, "
                               "size_average=None, reduce=None, reduction='mean')");
    BoundArgs a = sig.bind(interp, args);
    Tensor p = a.toTensor(0), t = a.toTensor(1);
    std::string reduction = reductionArg(a, 3, 4, 5);
    if (!(t.sizes() == p.sizes()))
        interp.raiseValueError("Using a target size (" + sizeText(t) +
                               ") that is different to the input size (" + sizeText(p) +
                               ") is deprecated. Please ensure they have the same size.");
    if (reduction != "none" && reduction != "sum" && reduction != "mean")
        interp.raiseValueError(reduction + " is not a valid value for reduction");
    using tensor::BinaryOp;
    using tensor::UnaryOp;
    if (p.numel() > 0) {
        const double lo = tensor::item(tensor::amin(p, {}, false)).toDouble();
        const double hi = tensor::item(tensor::amax(p, {}, false)).toDouble();
        if (!(lo >= 0 && hi <= 1))
            interp.raise(builtinTypes().runtimeError.get(),
                         "all elements of input should be between 0 and 1");
    }
    const Tensor floor = tensor::wrapNumber(-100.0);
    const Tensor one = tensor::wrapNumber(1.0);
    auto clampedLog = [&](const Tensor& x) {
        return tensor::clamp(tensor::unary(UnaryOp::Log, x), floor, std::nullopt);
    };
    Tensor loss = tensor::unary(
        UnaryOp::Neg,
        tensor::binary(BinaryOp::Add, tensor::binary(BinaryOp::Mul, t, clampedLog(p)),
                       tensor::binary(BinaryOp::Mul, tensor::binary(BinaryOp::Sub, one, t),
                                      clampedLog(tensor::binary(BinaryOp::Sub, one, p)))));
    if (a.has(2) && !a[2].isNone()) loss = tensor::binary(BinaryOp::Mul, loss, a.toTensor(2));
    return tensorValue(reducedLoss(loss, reduction, "BinaryCrossEntropyBackward0"));
}

/// F.binary_cross_entropy_with_logits: (1 - t) x + (1 + (pw - 1) t) softplus(-x), with
/// softplus(-x) = log1p(exp(-|x|)) + max(-x, 0) so that no exp overflows (PyTorch's form).
Value binaryCrossEntropyWithLogits(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("binary_cross_entropy_with_logits(input, target, weight=None, "
                               "size_average=None, reduce=None, reduction='mean', "
                               "pos_weight=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0), t = a.toTensor(1);
    std::string reduction = reductionArg(a, 3, 4, 5);
    if (!(t.sizes() == x.sizes()))
        interp.raiseValueError("Target size (" + sizeText(t) +
                               ") must be the same as input size (" + sizeText(x) + ")");
    if (reduction != "none" && reduction != "sum" && reduction != "mean")
        interp.raiseValueError(reduction + " is not a valid value for reduction");
    using tensor::BinaryOp;
    using tensor::UnaryOp;
    const Tensor one = tensor::wrapNumber(1.0);
    Tensor negX = tensor::unary(UnaryOp::Neg, x);
    Tensor softplusNegX = tensor::binary(
        BinaryOp::Add,
        tensor::unary(UnaryOp::Log1p,
                      tensor::unary(UnaryOp::Exp,
                                    tensor::unary(UnaryOp::Neg, tensor::unary(UnaryOp::Abs, x)))),
        tensor::binary(BinaryOp::Maximum, negX, tensor::wrapNumber(0.0)));
    if (a.has(6) && !a[6].isNone()) { // pos_weight: the positive term counts pw times
        Tensor scale = tensor::binary(
            BinaryOp::Add, one,
            tensor::binary(BinaryOp::Mul, tensor::binary(BinaryOp::Sub, a.toTensor(6), one), t));
        softplusNegX = tensor::binary(BinaryOp::Mul, scale, softplusNegX);
    }
    Tensor loss = tensor::binary(
        BinaryOp::Add, tensor::binary(BinaryOp::Mul, tensor::binary(BinaryOp::Sub, one, t), x),
        softplusNegX);
    if (a.has(2) && !a[2].isNone()) loss = tensor::binary(BinaryOp::Mul, loss, a.toTensor(2));
    return tensorValue(reducedLoss(loss, reduction, "BinaryCrossEntropyWithLogitsBackward0"));
}

Value oneHot(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("one_hot(tensor, num_classes=-1)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(tensor::oneHot(a.toTensor(0), a.toInt(1)));
}

} // namespace

void installFunctionalConv(Interpreter& interp, lang::AttrMap& functional);

void installFunctional(Interpreter& interp, ModuleObject& f) {
    AttrMap& g = f.globals;
    for (const ActivationEntry& e : activationEntries())
        interp.defineNative(g, e.sig.name(), activation, const_cast<ActivationEntry*>(&e));
    static const OpEntry ops[] = {
        {"gelu", gelu, true, false},
        {"leaky_relu", leakyRelu, true, false},
        {"softmax", softmaxFn<false>, true, false},
        {"log_softmax", softmaxFn<true>, true, false},
        {"linear", linear, true, false},
        {"layer_norm", layerNorm, true, false},
        {"normalize", normalize, true, false},
        {"pad", pad, true, false},
        {"dropout", dropout, true, false},
        {"embedding", embedding, true, false},
        {"scaled_dot_product_attention", sdpa, true, false},
        {"binary_cross_entropy", binaryCrossEntropy, true, false},
        {"binary_cross_entropy_with_logits", binaryCrossEntropyWithLogits, true, false},
        {"cross_entropy", crossEntropy, true, false},
        {"nll_loss", nllLoss, true, false},
        {"mse_loss", mseLoss, true, false},
        {"one_hot", oneHot, true, false},
    };
    registerOps(interp, &g, ops);
    installFunctionalConv(interp, g);
}

} // namespace kiln::torchapi
