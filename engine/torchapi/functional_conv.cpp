// SPDX-License-Identifier: MIT
// torch.nn.functional for convolutional networks: conv1d/conv2d, max/avg/adaptive-avg pooling,
// batch_norm, group_norm and interpolate.
#include "tensor/conv.h"
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/shape.h"
#include "torchapi/bindings.h"
#include "torchapi/torch_types.h"

#include <cmath>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

using tensor::BinaryOp;
using tensor::Pair;

std::string listString(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

/// An int or a sequence of `dims` ints as (height, width); for 1-d ops (`unit`, value): the
/// height of a one-row image takes no stride, padding or dilation.
Pair pairArg(const BoundArgs& a, size_t i, int dims, const char* what, int64_t unit = 1) {
    std::vector<int64_t> v = a.toIntList(i);
    if (v.size() == 1) v.resize(static_cast<size_t>(dims), v[0]);
    if (static_cast<int>(v.size()) != dims)
        a.interp().raise(builtinTypes().runtimeError.get(),
                         a.functionName() + "(): expected " + what + " to be a single integer " +
                             "value or a list of " + std::to_string(dims) + " values to match " +
                             "the convolution dimensions, but got " + what + "=" + listString(v));
    return dims == 1 ? Pair{unit, v[0]} : Pair{v[0], v[1]};
}

/// The input with `extra` zeros after the last row and column (an odd 'same' padding: PyTorch
/// puts the odd one at the end).
Tensor padEnd(const Tensor& x, Pair extra) {
    if (extra[0] == 0 && extra[1] == 0) return x;
    tensor::DimVector sizes = x.sizes();
    sizes[sizes.size() - 2] += extra[0];
    sizes[sizes.size() - 1] += extra[1];
    Tensor out = tensor::zeros(sizes, tensor::TensorOptions{x.dtype()});
    Tensor window = tensor::narrow(tensor::narrow(out, -2, 0, x.size(-2)), -1, 0, x.size(-1));
    tensor::copyInto(window, x);
    return out;
}

/// The operands of a convolution (`op`, "conv1d", "conv_transpose2d"...) as 2-d ones: a 1-d
/// op's input and weight become one-row images; checks ranks (1-d) and that the dtypes agree.
void prepareOperands(Interpreter& interp, int dims, const std::string& op, Tensor& input,
                     Tensor& weight) {
    if (dims == 1) {
        if (input.dim() != 2 && input.dim() != 3)
            interp.raise(builtinTypes().runtimeError.get(),
                         "Expected 2D (unbatched) or 3D (batched) input to " + op +
                             ", but got input of size: " + tensor::shapeString(input.sizes()));
        if (weight.dim() != 3)
            interp.raise(builtinTypes().runtimeError.get(), "weight should have 3 dimensions for " +
                                                                op + ", but got " +
                                                                std::to_string(weight.dim()));
        input = tensor::unsqueeze(input, -2);
        weight = tensor::unsqueeze(weight, -2);
    }
    if (weight.dtype() != input.dtype())
        interp.raise(builtinTypes().runtimeError.get(),
                     "Input type (" + std::string(legacyTypeName(input.dtype())) +
                         ") and weight type (" + std::string(legacyTypeName(weight.dtype())) +
                         ") should be the same or input should be a MKLDNN tensor and weight is "
                         "a dense tensor");
}

/// conv1d/conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1); conv1d
/// runs as conv2d over images one row high.
template <int Dims>
Value conv(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Dims == 1 ? "conv1d" : "conv2d") +
                               "(input, weight, bias=None, stride=1, padding=0, dilation=1, "
                               "groups=1)");
    BoundArgs a = sig.bind(interp, args);
    Tensor input = a.toTensor(0), weight = a.toTensor(1);
    tensor::ConvParams p;
    p.stride = pairArg(a, 3, Dims, "stride");
    p.dilation = pairArg(a, 5, Dims, "dilation");
    p.groups = a.toInt(6);
    Pair extra{0, 0};
    if (a[4].is(ObjectKind::Str)) {
        const std::string& mode = a.toStr(4);
        if (mode != "same" && mode != "valid")
            interp.raiseValueError("Invalid padding string '" + mode +
                                   "', should be one of {'valid', 'same'}");
        if (mode == "same") {
            if (p.stride[0] != 1 || p.stride[1] != 1)
                interp.raise(builtinTypes().runtimeError.get(),
                             "padding='same' is not supported for strided convolutions");
            for (int d = 0; d < 2; ++d) {
                // Kernel height, width; conv1d's one-row images have height 1. A weight of
                // the wrong rank is reported by the convolution itself.
                int64_t kernel = 1;
                if (weight.dim() >= 2 + Dims && (Dims == 2 || d == 1))
                    kernel = weight.size(weight.dim() - 2 + d);
                int64_t total = p.dilation[d] * (kernel - 1);
                p.padding[d] = total / 2;
                extra[d] = total % 2;
            }
        }
    } else {
        p.padding = pairArg(a, 4, Dims, "padding", 0);
    }
    prepareOperands(interp, Dims, sig.name(), input, weight);
    Tensor out = tensor::conv2d(padEnd(input, extra), weight, a.optTensor(2), p);
    if (Dims == 1) out = tensor::squeeze(out, std::array<int64_t, 1>{out.dim() - 2});
    return tensorValue(out);
}

/// conv_transpose1d/2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
/// groups=1, dilation=1) (groups before dilation, unlike conv); 1-d runs over one-row images.
template <int Dims>
Value convTranspose(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Dims == 1 ? "conv_transpose1d" : "conv_transpose2d") +
                               "(input, weight, bias=None, stride=1, padding=0, "
                               "output_padding=0, groups=1, dilation=1)");
    BoundArgs a = sig.bind(interp, args);
    Tensor input = a.toTensor(0), weight = a.toTensor(1);
    if (a[4].is(ObjectKind::Str))
        interp.raiseTypeError(sig.name() + "(): argument 'padding' must be tuple of ints, not str");
    tensor::ConvTransposeParams p;
    p.stride = pairArg(a, 3, Dims, "stride");
    p.padding = pairArg(a, 4, Dims, "padding", 0);
    p.outputPadding = pairArg(a, 5, Dims, "output_padding", 0);
    p.groups = a.toInt(6);
    p.dilation = pairArg(a, 7, Dims, "dilation");
    prepareOperands(interp, Dims, sig.name(), input, weight);
    Tensor out = tensor::convTranspose2d(input, weight, a.optTensor(2), p);
    if (Dims == 1) out = tensor::squeeze(out, std::array<int64_t, 1>{out.dim() - 2});
    return tensorValue(out);
}

tensor::PoolParams poolParams(const BoundArgs& a, size_t kernel, size_t stride, size_t padding) {
    tensor::PoolParams p;
    p.kernel = pairArg(a, kernel, 2, "kernel_size");
    // stride=None (or an empty list) is the kernel size, as in PyTorch.
    bool strided = a.has(stride) && !a.toIntList(stride).empty();
    p.stride = strided ? pairArg(a, stride, 2, "stride") : p.kernel;
    p.padding = pairArg(a, padding, 2, "padding");
    return p;
}

Value maxPool2d(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("max_pool2d(input, kernel_size, stride=None, padding=0, "
                               "dilation=1, ceil_mode=False, return_indices=False)");
    BoundArgs a = sig.bind(interp, args);
    if (a.toBool(6))
        interp.raise(builtinTypes().notImplementedError.get(),
                     "Kiln's max_pool2d does not return indices (return_indices=True)");
    tensor::PoolParams p = poolParams(a, 1, 2, 3);
    p.dilation = pairArg(a, 4, 2, "dilation");
    p.ceilMode = a.toBool(5);
    return tensorValue(tensor::maxPool2d(a.toTensor(0), p));
}

Value avgPool2d(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("avg_pool2d(input, kernel_size, stride=None, padding=0, "
                               "ceil_mode=False, count_include_pad=True, divisor_override=None)");
    BoundArgs a = sig.bind(interp, args);
    tensor::PoolParams p = poolParams(a, 1, 2, 3);
    p.ceilMode = a.toBool(4);
    return tensorValue(tensor::avgPool2d(a.toTensor(0), p, a.toBool(5), a.optInt(6)));
}

Value adaptiveAvgPool2d(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("adaptive_avg_pool2d(input, output_size)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    // None in output_size keeps that input dimension.
    Pair size{0, 0};
    const Value& given = a[1];
    if (given.is(ObjectKind::Tuple) || given.is(ObjectKind::List)) {
        const auto& items = given.is(ObjectKind::Tuple) ? given.as<TupleObject>()->items
                                                        : given.as<ListObject>()->items;
        if (items.size() != 2) interp.raiseValueError("adaptive_avg_pool2d: output_size must be 2");
        for (int d = 0; d < 2; ++d)
            size[d] = items[d].isNone() ? x.size(x.dim() - 2 + d)
                                        : toIntVector(interp, items[d], "output_size").at(0);
    } else {
        size = pairArg(a, 1, 2, "output_size");
    }
    return tensorValue(tensor::adaptiveAvgPool2d(x, size));
}

/// (1, C, 1, ...) for a per-channel vector against an (N, C, ...) input.
Tensor perChannel(const Tensor& v, const Tensor& x) {
    tensor::DimVector shape(static_cast<size_t>(x.dim()), 1);
    shape[1] = v.numel();
    return tensor::reshape(v, shape);
}

/// The dims of everything but the channels: the statistics of batch_norm.
std::vector<int64_t> nonChannelDims(const Tensor& x) {
    std::vector<int64_t> dims{0};
    for (int64_t d = 2; d < x.dim(); ++d)
        dims.push_back(d);
    return dims;
}

Tensor normalize(const Tensor& x, const Tensor& mean, const Tensor& var, double eps) {
    Tensor denom = tensor::unary(tensor::UnaryOp::Sqrt,
                                 tensor::binary(BinaryOp::Add, var, tensor::wrapNumber(eps)));
    return tensor::binary(BinaryOp::Div, tensor::binary(BinaryOp::Sub, x, mean), denom);
}

/// y * weight + bias per channel of the (N, C, ...) input `x`.
Tensor applyAffine(Tensor y, const Tensor& x, const std::optional<Tensor>& weight,
                   const std::optional<Tensor>& bias) {
    if (weight) y = tensor::binary(BinaryOp::Mul, y, perChannel(*weight, x));
    if (bias) y = tensor::binary(BinaryOp::Add, y, perChannel(*bias, x));
    return y;
}

/// running = (1 - momentum) * running + momentum * value, in place.
void updateRunning(const Tensor& running, const Tensor& value, double momentum) {
    NoGradScope noGrad;
    Tensor next = tensor::binary(
        BinaryOp::Add, tensor::binary(BinaryOp::Mul, running, tensor::wrapNumber(1.0 - momentum)),
        tensor::binary(BinaryOp::Mul, tensor::toDType(value, running.dtype()),
                       tensor::wrapNumber(momentum)));
    tensor::copyInto(running, next);
}

Value batchNorm(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("batch_norm(input, running_mean, running_var, weight=None, "
                               "bias=None, training=False, momentum=0.1, eps=1e-05)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    std::optional<Tensor> runningMean = a.optTensor(1), runningVar = a.optTensor(2);
    bool training = a.toBool(5);
    if (x.dim() < 2)
        interp.raiseValueError("expected 2D or higher input (got " + std::to_string(x.dim()) +
                               "D input)");
    std::vector<int64_t> dims = nonChannelDims(x);
    int64_t count = x.numel() / std::max<int64_t>(x.size(1), 1);
    if (training && count <= 1)
        interp.raiseValueError("Expected more than 1 value per channel when training, got input "
                               "size " +
                               tensor::torchSizeString(x.sizes()));
    Tensor mean, var;
    if (training) {
        mean = tensor::mean(x, dims, true);
        var = tensor::var(x, dims, 0.0, true);
        double momentum = a.toDouble(6);
        if (runningMean)
            updateRunning(*runningMean, tensor::reshape(mean, std::array<int64_t, 1>{x.size(1)}),
                          momentum);
        if (runningVar) {
            Tensor unbiased = tensor::var(x, dims, 1.0, false);
            updateRunning(*runningVar, unbiased, momentum);
        }
    } else {
        if (!runningMean || !runningVar)
            interp.raise(builtinTypes().runtimeError.get(),
                         "running_mean must be defined in evaluation mode");
        mean = perChannel(*runningMean, x);
        var = perChannel(*runningVar, x);
    }
    return tensorValue(
        applyAffine(normalize(x, mean, var, a.toDouble(7)), x, a.optTensor(3), a.optTensor(4)));
}

Value groupNorm(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("group_norm(input, num_groups, weight=None, bias=None, eps=1e-05)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    int64_t groups = a.toInt(1);
    if (x.dim() < 2 || groups <= 0 || x.size(1) % groups != 0)
        interp.raise(builtinTypes().runtimeError.get(),
                     "Expected number of channels in input to be divisible by num_groups, but "
                     "got input of shape " +
                         tensor::shapeString(x.sizes()) +
                         " and num_groups=" + std::to_string(groups));
    Tensor grouped = tensor::reshape(x, std::array<int64_t, 3>{x.size(0), groups, -1});
    const int64_t last[] = {2};
    Tensor mean = tensor::mean(grouped, last, true);
    Tensor var = tensor::var(grouped, last, 0.0, true);
    Tensor y = tensor::reshape(normalize(grouped, mean, var, a.toDouble(4)), x.sizes());
    return tensorValue(applyAffine(y, x, a.optTensor(2), a.optTensor(3)));
}

/// F.interpolate for 4-D inputs: nearest, nearest-exact and bilinear, by size or scale factor.
Value interpolate(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("interpolate(input, size=None, scale_factor=None, mode='nearest', "
                               "align_corners=None, recompute_scale_factor=None, "
                               "antialias=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    const std::string& mode = a.toStr(3);
    bool interpolating =
        mode == "linear" || mode == "bilinear" || mode == "bicubic" || mode == "trilinear";
    if (a.has(4) && !interpolating)
        interp.raiseValueError("align_corners option can only be set with the interpolating "
                               "modes: linear | bilinear | bicubic | trilinear");
    if (a.has(1) == a.has(2))
        interp.raiseValueError(a.has(1) ? "only one of size or scale_factor should be defined"
                                        : "either size or scale_factor should be defined");
    tensor::ResampleMode kind;
    if (mode == "nearest")
        kind = tensor::ResampleMode::Nearest;
    else if (mode == "nearest-exact")
        kind = tensor::ResampleMode::NearestExact;
    else if (mode == "bilinear")
        kind = tensor::ResampleMode::Bilinear;
    else
        interp.raise(builtinTypes().notImplementedError.get(),
                     "Kiln's interpolate does mode='nearest', 'nearest-exact' and 'bilinear', "
                     "not '" +
                         mode + "'");
    if (x.dim() != 4)
        interp.raise(builtinTypes().notImplementedError.get(),
                     "Kiln's interpolate resizes 4-D (N, C, H, W) inputs, not " +
                         std::to_string(x.dim()) + "-D ones");
    if (a.has(6) && a.toBool(6))
        interp.raise(builtinTypes().notImplementedError.get(),
                     "Kiln's interpolate does not antialias");
    Pair size{0, 0};
    std::array<double, 2> scales{0, 0};
    bool recompute = a.has(5) && a.toBool(5);
    if (a.has(1)) {
        size = pairArg(a, 1, 2, "size");
    } else {
        std::vector<double> factors;
        const Value& f = a[2];
        if (f.is(ObjectKind::Tuple) || f.is(ObjectKind::List)) {
            const auto& items =
                f.is(ObjectKind::Tuple) ? f.as<TupleObject>()->items : f.as<ListObject>()->items;
            for (const Value& item : items) {
                if (!item.isNumber())
                    interp.raiseTypeError("scale_factor must be a float or a tuple of floats");
                factors.push_back(item.toDouble());
            }
        } else {
            factors.assign(2, a.toDouble(2));
        }
        if (factors.size() != 2)
            interp.raiseValueError("Input and scale_factor must have the same number of spatial "
                                   "dimensions, but got input with spatial dimensions of [" +
                                   std::to_string(x.size(2)) + ", " + std::to_string(x.size(3)) +
                                   "] and scale_factor of shape " + std::to_string(factors.size()) +
                                   ".");
        for (int d = 0; d < 2; ++d) {
            size[d] = static_cast<int64_t>(
                std::floor(static_cast<double>(x.size(2 + d)) * factors[static_cast<size_t>(d)]));
            if (!recompute) scales[d] = 1.0 / factors[static_cast<size_t>(d)];
        }
    }
    for (int d = 0; d < 2; ++d)
        if (scales[d] == 0 && size[d] > 0)
            scales[d] = static_cast<double>(x.size(2 + d)) / static_cast<double>(size[d]);
    bool alignCorners = a.has(4) && a.toBool(4);
    return tensorValue(tensor::resample2d(x, size, kind, alignCorners, scales));
}

} // namespace

void installFunctionalConv(Interpreter& interp, AttrMap& functional) {
    static const OpEntry ops[] = {
        {"conv1d", conv<1>, true, false},
        {"conv2d", conv<2>, true, false},
        {"conv_transpose1d", convTranspose<1>, true, false},
        {"conv_transpose2d", convTranspose<2>, true, false},
        {"max_pool2d", maxPool2d, true, false},
        {"avg_pool2d", avgPool2d, true, false},
        {"adaptive_avg_pool2d", adaptiveAvgPool2d, true, false},
        {"batch_norm", batchNorm, true, false},
        {"group_norm", groupNorm, true, false},
        {"interpolate", interpolate, true, false},
    };
    registerOps(interp, &functional, ops);
}

} // namespace kiln::torchapi
