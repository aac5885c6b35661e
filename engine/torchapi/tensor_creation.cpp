// SPDX-License-Identifier: MIT
// Tensor factories: torch.tensor, zeros/ones/full/empty (and their _like forms), arange,
// linspace, eye, the random factories, tril/triu, and the seed and default-dtype controls.
#include "runtime/cuda_tensor.h"
#include "tensor/device_transfer.h"
#include "tensor/random.h"
#include "torchapi/bindings.h"
#include "torchapi/cuda_support.h"
#include "torchapi/tensor_data.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// dtype, device and requires_grad of a factory call. `o.device` is where the result goes;
/// the values are computed on the host (the tensor layer's factories ignore o.device) and
/// moved there by finish(). Without `device=`, tensors go to `likeDevice` (the *_like and
/// new_* factories) or the run's default device.
tensor::TensorOptions factoryOptions(const BoundArgs& a, size_t dtypeIndex, tensor::DType dflt,
                                     std::optional<tensor::Device> likeDevice = {}) {
    Interpreter& interp = a.interp();
    tensor::TensorOptions o;
    o.dtype =
        optDType(interp, a[dtypeIndex], a.functionName() + "(): argument 'dtype'").value_or(dflt);
    tensor::Device device = a.has(dtypeIndex + 1) ? deviceOf(interp, a[dtypeIndex + 1])
                                                  : likeDevice.value_or(defaultFactoryDevice());
    o.device = cudaResolved(interp, device);
    o.requiresGrad = a.toBool(dtypeIndex + 2);
    if (o.requiresGrad && !tensor::isFloating(o.dtype))
        interp.raise(builtinTypes().runtimeError.get(),
                     "Only Tensors of floating point and complex dtype can require gradients");
    return o;
}

/// The options a tensor-layer factory gets: it computes on the host (the tensor layer allocates
/// CPU memory only), and placed() moves the result to the requested device.
tensor::TensorOptions onHost(tensor::TensorOptions o) {
    o.device = {};
    return o;
}

/// The factory's host result on the requested device.
Tensor placed(Tensor t, const tensor::TensorOptions& o) {
    return o.device.isCpu() ? t : runtime::toDevice(t, o.device);
}

Value finish(Tensor t, const tensor::TensorOptions& o) {
    t = placed(std::move(t), o);
    t.impl()->requiresGrad = o.requiresGrad;
    return tensorValue(std::move(t));
}

/// A factory's result, written into its `out=` tensor when one was given.
Value finishOut(const BoundArgs& a, size_t outIndex, Tensor t, const tensor::TensorOptions& o) {
    t = placed(std::move(t), o);
    t.impl()->requiresGrad = o.requiresGrad;
    return resultOrOut(a, outIndex, t);
}

/// Uninitialised memory is made where it lives: no host buffer to copy.
Tensor emptyOn(tensor::IntList sizes, const tensor::TensorOptions& o) {
    return o.device.isCuda() ? runtime::emptyCuda(sizes, o.dtype, o.device.index)
                             : Tensor::empty(sizes, o.dtype);
}

tensor::Generator& generatorFor(const tensor::TensorOptions& o) {
    return o.device.isCuda() ? cudaGenerator() : tensor::defaultGenerator();
}

/// Sizes from the `*size` varargs, or from the `size=` keyword (zeros(size=(2, 3))).
std::vector<int64_t> factorySizes(const BoundArgs& a, size_t sizeKeyword) {
    const auto& items = a[0].as<TupleObject>()->items;
    if (!a.has(sizeKeyword)) return sizesFromArgs(a.interp(), items, a.functionName());
    if (!items.empty())
        a.interp().raiseTypeError(a.functionName() + "() got multiple values for argument 'size'");
    return sizesFromArgs(a.interp(), {a[sizeKeyword]}, a.functionName());
}

// zeros(*size, dtype=None, device=None, requires_grad=False) and friends share one shape.
constexpr const char* kSizeFactoryTail = "*sizes, out=None, dtype=None, device=None, "
                                         "requires_grad=False, layout=None, pin_memory=False, "
                                         "size=None)";

template <int Kind> // 0 zeros, 1 ones, 2 empty
Value sizeFactory(Interpreter& interp, const CallArgs& args, void*) {
    static const char* names[] = {"zeros(", "ones(", "empty("};
    static const Signature sig(std::string(names[Kind]) + kSizeFactoryTail);
    BoundArgs a = sig.bind(interp, args);
    std::vector<int64_t> sizes = factorySizes(a, 7);
    tensor::TensorOptions o = factoryOptions(a, 2, tensor::defaultFloatDType());
    Tensor t = Kind == 0   ? tensor::zeros(sizes, onHost(o))
               : Kind == 1 ? tensor::ones(sizes, onHost(o))
                           : emptyOn(sizes, o);
    return finishOut(a, 1, std::move(t), o);
}

Value full(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("full(size, fill_value, *, out=None, dtype=None, device=None, "
                               "requires_grad=False, layout=None, pin_memory=False)");
    BoundArgs a = sig.bind(interp, args);
    auto value = asScalar(a[1]);
    if (!value)
        interp.raiseTypeError("full(): argument 'fill_value' must be Number, not " +
                              interp.typeName(a[1]));
    tensor::DType dflt = value->naturalDType(tensor::defaultFloatDType());
    tensor::TensorOptions o = factoryOptions(a, 3, dflt);
    return finishOut(a, 2, tensor::full(a.toIntList(0), *value, onHost(o)), o);
}

template <int Kind> // 0 zeros_like, 1 ones_like, 2 empty_like, 3 rand_like, 4 randn_like
Value likeFactory(Interpreter& interp, const CallArgs& args, void*) {
    static const char* names[] = {"zeros_like", "ones_like", "empty_like", "rand_like",
                                  "randn_like"};
    static const Signature sig(std::string(names[Kind]) +
                               "(input, *, dtype=None, device=None, requires_grad=False, "
                               "layout=None, memory_format=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor like = a.toTensor(0);
    tensor::TensorOptions o = factoryOptions(a, 1, like.dtype(), like.device());
    if (Kind >= 3 && !tensor::isFloating(o.dtype))
        interp.raise(builtinTypes().notImplementedError.get(),
                     std::string(Kind == 4 ? "\"normal_kernel_cpu\"" : "\"check_uniform_bounds\"") +
                         " not implemented for '" + std::string(tensor::dtypeLegacyName(o.dtype)) +
                         "'");
    Tensor t = emptyLike(like, o.dtype);
    tensor::Generator& gen = generatorFor(o);
    if (Kind == 0 || Kind == 1)
        tensor::fill(t, tensor::Scalar(int64_t(Kind)));
    else if (Kind == 3)
        tensor::uniformInPlace(t, 0.0, 1.0, gen);
    else if (Kind == 4)
        tensor::normalInPlace(t, 0.0, 1.0, gen);
    return finish(std::move(t), o);
}

Value fullLike(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("full_like(input, fill_value, *, dtype=None, device=None, "
                               "requires_grad=False, layout=None, memory_format=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor like = a.toTensor(0);
    auto value = asScalar(a[1]);
    if (!value)
        interp.raiseTypeError("full_like(): argument 'fill_value' must be Number, not " +
                              interp.typeName(a[1]));
    tensor::TensorOptions o = factoryOptions(a, 2, like.dtype(), like.device());
    Tensor t = emptyLike(like, o.dtype);
    tensor::fill(t, *value);
    return finish(std::move(t), o);
}

Value tensorFactory(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(
        "tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False)");
    BoundArgs a = sig.bind(interp, args);
    std::optional<tensor::DType> dtype = optDType(interp, a[1], "tensor(): argument 'dtype'");
    tensor::TensorOptions o = factoryOptions(a, 1, tensor::DType::Float32);
    Tensor t = tensorFromData(interp, a[0], dtype);
    if (o.requiresGrad && !tensor::isFloating(t.dtype()))
        interp.raise(builtinTypes().runtimeError.get(),
                     "Only Tensors of floating point and complex dtype can require gradients");
    return finish(std::move(t), o);
}

Value asTensor(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("as_tensor(data, dtype=None, device=None)");
    BoundArgs a = sig.bind(interp, args);
    std::optional<tensor::DType> dtype = optDType(interp, a[1], "as_tensor(): argument 'dtype'");
    std::optional<tensor::Device> device;
    if (a.has(2)) device = cudaResolved(interp, deviceOf(interp, a[2]));
    Tensor t = a[0].isTensor() ? a[0].asTensor() : tensorFromData(interp, a[0], dtype);
    if (t.device().isCpu() && dtype) t = tensor::toDType(t, *dtype);
    if (!t.device().isCpu() && dtype && *dtype != t.dtype())
        t = tensor::toDType(tensor::copyToHost(t), *dtype);
    if (device && *device != t.device()) t = runtime::toDevice(t, *device);
    return tensorValue(t);
}

/// Tensor.new_zeros(size), new_ones, new_empty, new_full(size, fill_value), new_tensor(data):
/// like the torch factories, with self's dtype as the default.
template <int Kind> // 0 new_zeros, 1 new_ones, 2 new_empty, 3 new_full, 4 new_tensor
Value newFactory(Interpreter& interp, const CallArgs& args, void*) {
    static const char* heads[] = {"new_zeros(self, *size", "new_ones(self, *size",
                                  "new_empty(self, *size", "new_full(self, size, fill_value, *",
                                  "new_tensor(self, data, *"};
    static const Signature sig(std::string(heads[Kind]) +
                               ", dtype=None, device=None, requires_grad=False, layout=None, "
                               "pin_memory=False)");
    BoundArgs a = sig.bind(interp, args);
    Tensor self = a.toTensor(0);
    tensor::TensorOptions o = factoryOptions(a, Kind == 3 ? 3 : 2, self.dtype(), self.device());
    if (Kind == 4) {
        auto dtype = optDType(interp, a[2], "new_tensor(): argument 'dtype'");
        return finish(tensorFromData(interp, a[1], dtype.value_or(self.dtype())), o);
    }
    if (Kind == 3) return finish(tensor::full(a.toIntList(1), scalarArg(a, 2), onHost(o)), o);
    std::vector<int64_t> sizes = varSizes(a, 1);
    Tensor t = Kind == 0   ? tensor::zeros(sizes, onHost(o))
               : Kind == 1 ? tensor::ones(sizes, onHost(o))
                           : emptyOn(sizes, o);
    return finish(std::move(t), o);
}

Value arange(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("arange(start, end=None, step=1, *, out=None, dtype=None, "
                               "device=None, requires_grad=False, layout=None, pin_memory=False)");
    BoundArgs a = sig.bind(interp, args);
    auto number = [&](size_t i) {
        auto s = asScalar(a[i]);
        if (!s && a[i].isTensor() && a[i].asTensor().numel() == 1)
            s = tensor::item(a[i].asTensor());
        if (!s)
            interp.raiseTypeError("arange(): argument '" + a.paramName(i) +
                                  "' must be Number, not " + interp.typeName(a[i]));
        return *s;
    };
    tensor::Scalar start = a.has(1) ? number(0) : tensor::Scalar(int64_t(0));
    tensor::Scalar end = a.has(1) ? number(1) : number(0);
    tensor::Scalar step = number(2);
    std::optional<tensor::DType> dtype = optDType(interp, a[4], "arange(): argument 'dtype'");
    tensor::TensorOptions o = factoryOptions(a, 4, tensor::DType::Float32);
    return finishOut(a, 3, tensor::arange(start, end, step, dtype), o);
}

Value linspace(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("linspace(start, end, steps, *, out=None, dtype=None, device=None, "
                               "requires_grad=False, layout=None, pin_memory=False)");
    BoundArgs a = sig.bind(interp, args);
    tensor::TensorOptions o = factoryOptions(a, 4, tensor::defaultFloatDType());
    return finishOut(a, 3, tensor::linspace(a.toDouble(0), a.toDouble(1), a.toInt(2), onHost(o)),
                     o);
}

Value eye(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("eye(n, m=None, *, out=None, dtype=None, device=None, "
                               "requires_grad=False, layout=None, pin_memory=False)");
    BoundArgs a = sig.bind(interp, args);
    tensor::TensorOptions o = factoryOptions(a, 3, tensor::defaultFloatDType());
    int64_t n = a.toInt(0);
    return finishOut(a, 2, tensor::eye(n, a.has(1) ? a.toInt(1) : n, onHost(o)), o);
}

template <bool Normal>
Value randFactory(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Normal ? "randn(" : "rand(") +
                               "*sizes, generator=None, out=None, dtype=None, device=None, "
                               "requires_grad=False, layout=None, pin_memory=False, size=None)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<int64_t> sizes = factorySizes(a, 8);
    tensor::TensorOptions o = factoryOptions(a, 3, tensor::defaultFloatDType());
    if (!tensor::isFloating(o.dtype))
        interp.raise(builtinTypes().notImplementedError.get(),
                     std::string(Normal ? "\"normal_kernel_cpu\"" : "\"check_uniform_bounds\"") +
                         " not implemented for '" + std::string(tensor::dtypeLegacyName(o.dtype)) +
                         "'");
    tensor::Generator& gen = generatorFor(o);
    return finishOut(
        a, 2, Normal ? tensor::randn(sizes, onHost(o), gen) : tensor::rand(sizes, onHost(o), gen),
        o);
}

Value randint(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("randint(*args, generator=None, out=None, dtype=None, device=None, "
                               "requires_grad=False, layout=None, pin_memory=False, size=None)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<Value> items = a[0].as<TupleObject>()->items;
    if (a.has(8)) items.push_back(a[8]);
    if (items.size() != 2 && items.size() != 3)
        interp.raiseTypeError(
            "randint() received an invalid combination of arguments - expected (int high, tuple of "
            "ints size) or (int low, int high, tuple of ints size)");
    int64_t low = items.size() == 3 ? toIntVector(interp, items[0], "randint(): low")[0] : 0;
    int64_t high = toIntVector(interp, items[items.size() - 2], "randint(): high")[0];
    std::vector<int64_t> sizes = toIntVector(interp, items.back(), "randint(): argument 'size'");
    tensor::TensorOptions o = factoryOptions(a, 3, tensor::DType::Int64);
    return finishOut(a, 2, tensor::randint(low, high, sizes, onHost(o), generatorFor(o)), o);
}

/// randint_like(input, high) or randint_like(input, low, high): integers in [low, high) with
/// input's shape, and input's dtype unless dtype= is given.
Value randintLike(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("randint_like(input, *args, dtype=None, device=None, "
                               "requires_grad=False, layout=None, memory_format=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor like = a.toTensor(0);
    const auto& bounds = a[1].as<TupleObject>()->items;
    if (bounds.size() != 1 && bounds.size() != 2)
        interp.raiseTypeError("randint_like() received an invalid combination of arguments - "
                              "expected (Tensor input, int high) or (Tensor input, int low, int "
                              "high)");
    int64_t low = bounds.size() == 2 ? toIntVector(interp, bounds[0], "randint_like(): low")[0] : 0;
    int64_t high = toIntVector(interp, bounds.back(), "randint_like(): high")[0];
    tensor::TensorOptions o = factoryOptions(a, 2, like.dtype(), like.device());
    return finish(tensor::randint(low, high, like.sizes(), onHost(o), generatorFor(o)), o);
}

Value randperm(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("randperm(n, *, generator=None, out=None, dtype=None, device=None, "
                               "requires_grad=False, layout=None, pin_memory=False)");
    BoundArgs a = sig.bind(interp, args);
    tensor::TensorOptions o = factoryOptions(a, 3, tensor::DType::Int64);
    return finishOut(a, 2, tensor::randperm(a.toInt(0), onHost(o), generatorFor(o)), o);
}

template <bool Lower>
Value triangle(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Lower ? "tril" : "triu") + "(input, diagonal=0)");
    BoundArgs a = sig.bind(interp, args);
    Tensor t = a.toTensor(0);
    Tensor out = Lower ? tensor::tril(t, a.toInt(1)) : tensor::triu(t, a.toInt(1));
    return tensorValue(out);
}

Value manualSeed(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("manual_seed(seed)");
    BoundArgs a = sig.bind(interp, args);
    // As PyTorch's, torch.manual_seed seeds every device's generator.
    tensor::defaultGenerator().manualSeed(static_cast<uint64_t>(a.toInt(0)));
    cudaGenerator().manualSeed(static_cast<uint64_t>(a.toInt(0)));
    return Value::none();
}

Value initialSeed(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromInt(static_cast<int64_t>(tensor::defaultGenerator().initialSeed()));
}

Value getDefaultDtype(Interpreter& interp, const CallArgs& args, void*) {
    return dtypeValue(tensor::defaultFloatDType());
}

Value setDefaultDtype(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("set_default_dtype(d)");
    BoundArgs a = sig.bind(interp, args);
    tensor::DType d = dtypeOf(interp, a[0], "set_default_dtype()");
    if (!tensor::isFloating(d) || d == tensor::DType::Float16 || d == tensor::DType::BFloat16) {
        if (!tensor::isFloating(d))
            interp.raiseTypeError("only floating-point types are supported as the default type");
    }
    tensor::setDefaultFloatDType(d);
    return Value::none();
}

} // namespace

void installTensorCreation(Interpreter& interp, ModuleObject& torch) {
    static const OpEntry ops[] = {
        {"tensor", tensorFactory, true, false},
        {"as_tensor", asTensor, true, false},
        {"zeros", sizeFactory<0>, true, false},
        {"ones", sizeFactory<1>, true, false},
        {"empty", sizeFactory<2>, true, false},
        {"full", full, true, false},
        {"zeros_like", likeFactory<0>, true, false},
        {"ones_like", likeFactory<1>, true, false},
        {"empty_like", likeFactory<2>, true, false},
        {"rand_like", likeFactory<3>, true, false},
        {"randn_like", likeFactory<4>, true, false},
        {"full_like", fullLike, true, false},
        {"arange", arange, true, false},
        {"linspace", linspace, true, false},
        {"eye", eye, true, false},
        {"randn", randFactory<true>, true, false},
        {"rand", randFactory<false>, true, false},
        {"randint", randint, true, false},
        {"randint_like", randintLike, true, false},
        {"randperm", randperm, true, false},
        {"new_zeros", newFactory<0>, false, true},
        {"new_ones", newFactory<1>, false, true},
        {"new_empty", newFactory<2>, false, true},
        {"new_full", newFactory<3>, false, true},
        {"new_tensor", newFactory<4>, false, true},
        {"tril", triangle<true>, true, true},
        {"triu", triangle<false>, true, true},
        {"manual_seed", manualSeed, true, false},
        {"initial_seed", initialSeed, true, false},
        {"get_default_dtype", getDefaultDtype, true, false},
        {"set_default_dtype", setDefaultDtype, true, false},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
