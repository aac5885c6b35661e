// SPDX-License-Identifier: MIT
// In-place fills and random sampling: fill_, zero_, copy_, uniform_, normal_ (what nn.init is
// made of), plus torch.multinomial. The arithmetic in-place forms (add_, clamp_, ...) live with
// their out-of-place ops.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/elementwise.h"
#include "tensor/grad_node.h"
#include "tensor/ops.h"
#include "tensor/random.h"
#include "torchapi/bindings.h"

#include <sstream>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// PyTorch's checks before an in-place write of self's own shape.
void checkWritable(const Tensor& self) {
    tensor::detail::checkInPlaceTarget(self, self.sizes());
}

/// After the write: a tensor that is part of a graph (or written from one) shows the node.
void markWritten(const Tensor& self, std::string_view node, const Tensor* source = nullptr) {
    Tensor written = self;
    if (source)
        tensor::recordGradFn(written, node, {&self, source});
    else
        tensor::recordGradFn(written, node, {&self});
}

/// fill_, zero_ and copy_ overwrite every element: self's old values get a zero gradient.
void attachOverwrite(const Tensor& self, const Tensor* value) {
    Tensor written = self;
    tensor::attachOverwriteDerivative(written, value);
}

Value fillFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("fill_(input, value)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    checkWritable(self);
    if (a[1].isTensor()) {
        Tensor value = a[1].asTensor();
        if (value.dim() != 0)
            interp.raise(builtinTypes().runtimeError.get(),
                         "fill_ only supports 0-dimension value tensor but got tensor with " +
                             std::to_string(value.dim()) + " dimensions.");
        // A tensor's value is converted, not range-checked (uint8 fill_ of tensor(300) is 44).
        tensor::copyInto(self, tensor::scalarTensor(tensor::item(value), self.dtype()));
        markWritten(self, "FillBackward3", &value);
        attachOverwrite(self, &value);
        return a[0];
    }
    tensor::fill(self, scalarArg(a, 1));
    markWritten(self, "FillBackward2");
    attachOverwrite(self, nullptr);
    return a[0];
}

Value zeroFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("zero_(input)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    checkWritable(self);
    tensor::fill(self, tensor::Scalar(int64_t(0)));
    markWritten(self, "ZeroBackward0");
    attachOverwrite(self, nullptr);
    return a[0];
}

Value copyFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("copy_(input, src, non_blocking=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    Tensor src = a.toTensor(1);
    checkWritable(self);
    tensor::copyInto(self, src);
    markWritten(self, "CopyBackwards", &src);
    attachOverwrite(self, &src);
    return a[0];
}

template <bool Normal>
Value sampleFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(Normal ? "normal_(input, mean=0, std=1, *, generator=None)"
                                      : "uniform_(input, from=0, to=1, *, generator=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    checkWritable(self);
    tensor::Generator& gen = tensor::defaultGenerator();
    if (Normal)
        tensor::normalInPlace(self, a.toDouble(1), a.toDouble(2), gen);
    else
        tensor::uniformInPlace(self, a.toDouble(1), a.toDouble(2), gen);
    markWritten(self, Normal ? "NormalBackward0" : "UniformBackward0");
    return a[0];
}

/// 0 or 1 per element of `like`, 1 with probability `probs` (broadcast), in like's dtype.
Tensor bernoulliOf(Interpreter& interp, const Tensor& like, const Tensor& probs) {
    if (probs.numel() > 0) {
        const double lo = tensor::item(tensor::amin(probs, {}, false)).toDouble();
        const double hi = tensor::item(tensor::amax(probs, {}, false)).toDouble();
        if (!(lo >= 0 && hi <= 1))
            interp.raise(builtinTypes().runtimeError.get(),
                         "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                         "this error message be improved?  If so, please report an enhancement "
                         "request to PyTorch.)");
    }
    const tensor::DType drawn =
        tensor::isFloating(like.dtype()) ? like.dtype() : tensor::DType::Float32;
    Tensor u = Tensor::empty(like.sizes(), drawn, like.device());
    tensor::uniformInPlace(u, 0, 1, tensor::defaultGenerator());
    return tensor::toDType(tensor::binary(tensor::BinaryOp::Lt, u, probs), like.dtype());
}

/// A probability as PyTorch prints it in messages: 2, 1.5.
std::string numberText(double p) {
    std::ostringstream out;
    out << p;
    return out.str();
}

/// torch.bernoulli(input, p=None) and Tensor.bernoulli(): input holds the probabilities, or
/// every element has probability p.
Value bernoulliFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("bernoulli(input, p=None, *, generator=None, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor input = a.toTensor(0);
    if (a.has(1) && !a[1].isNone()) {
        const double p = a.toDouble(1);
        if (!(p >= 0 && p <= 1))
            interp.raise(builtinTypes().runtimeError.get(),
                         "bernoulli_ expects p to be in [0, 1], but got p=" + numberText(p));
        return resultOrOut(a, 3, bernoulliOf(interp, input, tensor::wrapNumber(p)));
    }
    return resultOrOut(a, 3, bernoulliOf(interp, input, input));
}

/// Tensor.bernoulli_(p=0.5): self filled with draws of probability p (a number or a tensor).
Value bernoulliInPlaceFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("bernoulli_(input, p=0.5, *, generator=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    checkWritable(self);
    Tensor probs;
    if (a[1].isTensor()) {
        probs = a.toTensor(1);
    } else {
        const double p = a.toDouble(1);
        if (!(p >= 0 && p <= 1))
            interp.raise(builtinTypes().runtimeError.get(),
                         "bernoulli_ expects p to be in [0, 1], but got p=" + numberText(p));
        probs = tensor::wrapNumber(p);
    }
    tensor::copyInto(self, bernoulliOf(interp, self, probs));
    markWritten(self, "BernoulliBackward0");
    return a[0];
}

Value multinomialFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "multinomial(input, num_samples, replacement=False, *, generator=None, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor r =
        tensor::multinomial(a.toTensor(0), a.toInt(1), a.toBool(2), tensor::defaultGenerator());
    return resultOrOut(a, 4, r);
}

} // namespace

void installInPlaceOps(Interpreter& interp, ModuleObject& torch) {
    static const OpEntry ops[] = {
        {"fill_", fillFn, true, true},
        {"zero_", zeroFn, true, true},
        {"copy_", copyFn, false, true},
        {"uniform_", sampleFn<false>, false, true},
        {"normal_", sampleFn<true>, false, true},
        {"multinomial", multinomialFn, true, true},
        {"bernoulli", bernoulliFn, true, true},
        {"bernoulli_", bernoulliInPlaceFn, false, true},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
