// SPDX-License-Identifier: MIT
// Reductions as torch functions and Tensor methods: sum, mean, prod, amax/amin, the three
// forms of max/min, argmax/argmin, var/std (unbiased= and correction=), all/any,
// count_nonzero, softmax/log_softmax, logsumexp, cumsum/cumprod and norm.
#include "tensor/grad_node.h"
#include "torchapi/bindings.h"

#include <algorithm>
#include <cmath>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

std::optional<tensor::DType> dtypeArg(const BoundArgs& a, size_t i) {
    return optDType(a.interp(), a[i], a.functionName() + "(): argument 'dtype'");
}

/// A dtype= argument converts the input first, as PyTorch's reductions do.
Tensor withDType(const Tensor& x, std::optional<tensor::DType> dtype) {
    return dtype ? tensor::toDType(x, *dtype) : x;
}

template <int Kind> // 0 sum, 1 mean
Value sumMeanFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Kind == 0 ? "sum" : "mean") +
                               "(input, dim=None, keepdim=False, *, dtype=None, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    std::vector<int64_t> dims = dimsArg(a, 1);
    auto dtype = dtypeArg(a, 3);
    Tensor r = Kind == 0 ? tensor::sum(x, dims, a.toBool(2), dtype)
                         : tensor::mean(x, dims, a.toBool(2), dtype);
    return resultOrOut(a, 4, r);
}

Value prodFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("prod(input, dim=None, keepdim=False, *, dtype=None, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    std::vector<int64_t> dims;
    if (a.has(1)) dims.push_back(a.toInt(1));
    return resultOrOut(a, 4, tensor::prod(x, dims, a.toBool(2), dtypeArg(a, 3)));
}

template <bool Max>
Value amaxFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Max ? "amax" : "amin") +
                               "(input, dim=None, keepdim=False, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    std::vector<int64_t> dims = dimsArg(a, 1);
    Tensor r = Max ? tensor::amax(x, dims, a.toBool(2)) : tensor::amin(x, dims, a.toBool(2));
    return resultOrOut(a, 3, r);
}

/// max(input), max(input, dim, keepdim=False) -> (values, indices), max(input, other).
template <bool Max>
Value maxFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Max ? "max" : "min") +
                               "(input, dim=None, keepdim=False, *, other=None, out=None)");
    static const ReturnType type(Max ? "max" : "min", {"values", "indices"});
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    if (a[1].isTensor() || a.has(3)) {
        Tensor other = a[1].isTensor() ? a.toTensor(1) : a.toTensor(3);
        Tensor r =
            tensor::binary(Max ? tensor::BinaryOp::Maximum : tensor::BinaryOp::Minimum, x, other);
        return resultOrOut(a, 4, r);
    }
    if (!a.has(1)) {
        if (!a[2].isBool() || a[2].asBool())
            interp.raiseTypeError(sig.name() +
                                  "() received an invalid combination of arguments - got "
                                  "(keepdim=bool, ), but expected one of:\n * ()\n      didn't "
                                  "match because some of the keywords were incorrect: keepdim\n"
                                  " * (Tensor other)\n      didn't match because some of the "
                                  "keywords were incorrect: keepdim\n * (int dim, bool keepdim "
                                  "= False)\n");
        return tensorValue(Max ? tensor::maxAll(x) : tensor::minAll(x));
    }
    auto [values, indices] = Max ? tensor::maxDim(x, a.toInt(1), a.toBool(2))
                                 : tensor::minDim(x, a.toInt(1), a.toBool(2));
    return type.make({tensorValue(values), tensorValue(indices)});
}

template <bool Max>
Value argmaxFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Max ? "argmax" : "argmin") +
                               "(input, dim=None, keepdim=False, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor r = Max ? tensor::argmax(x, a.optInt(1), a.toBool(2))
                   : tensor::argmin(x, a.optInt(1), a.toBool(2));
    return resultOrOut(a, 3, r);
}

/// var/std accept (dim, unbiased, keepdim), (unbiased) and (dim, *, correction, keepdim).
struct Spread {
    std::vector<int64_t> dims;
    double correction = 1.0;
    bool keepdim = false;
};

Spread spreadArgs(const BoundArgs& a) {
    Spread s;
    std::optional<bool> unbiased;
    if (a[1].isBool())
        unbiased = a[1].asBool();
    else
        s.dims = dimsArg(a, 1);
    if (a.has(2)) {
        if (unbiased)
            a.interp().raiseTypeError(a.functionName() +
                                      "(): argument 'unbiased' given twice (as dim and unbiased)");
        unbiased = a.toBool(2);
    }
    if (a.has(4)) {
        if (unbiased)
            a.interp().raise(builtinTypes().runtimeError.get(),
                             a.functionName() + ": Cannot pass both unbiased and correction");
        s.correction = a.toDouble(4);
    } else if (unbiased) {
        s.correction = *unbiased ? 1.0 : 0.0;
    }
    s.keepdim = a.toBool(3);
    return s;
}

template <bool Std>
Value varFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Std ? "std" : "var") +
                               "(input, dim=None, unbiased=None, keepdim=False, *, "
                               "correction=None, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Spread s = spreadArgs(a);
    Tensor r = Std ? tensor::std(x, s.dims, s.correction, s.keepdim)
                   : tensor::var(x, s.dims, s.correction, s.keepdim);
    return resultOrOut(a, 5, r);
}

template <bool Std>
Value varMeanFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Std ? "std_mean" : "var_mean") +
                               "(input, dim=None, unbiased=None, keepdim=False, *, "
                               "correction=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Spread s = spreadArgs(a);
    Tensor spread = Std ? tensor::std(x, s.dims, s.correction, s.keepdim)
                        : tensor::var(x, s.dims, s.correction, s.keepdim);
    Tensor mean = tensor::mean(x, s.dims, s.keepdim);
    std::string_view node = Std ? "StdMeanBackward0" : "VarMeanBackward0";
    for (Tensor* t : {&spread, &mean})
        tensor::renameGradFn(*t, node);
    return tupleValue({tensorValue(spread), tensorValue(mean)});
}

/// all/any over one dim, several dims (reduced one after another), or everything.
template <bool All>
Value allAnyFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(All ? "all" : "any") +
                               "(input, dim=None, keepdim=False, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    bool keepdim = a.toBool(2);
    auto reduce = [&](const Tensor& t, std::optional<int64_t> d, bool keep) {
        return All ? tensor::all(t, d, keep) : tensor::any(t, d, keep);
    };
    if (!a.has(1) || a[1].isIntLike()) return resultOrOut(a, 3, reduce(x, a.optInt(1), keepdim));
    std::vector<int64_t> dims = a.toIntList(1);
    for (int64_t& d : dims)
        d = tensor::wrapDim(d, x.dim());
    std::sort(dims.begin(), dims.end(), std::greater<>());
    Tensor r = x;
    for (int64_t d : dims)
        r = reduce(r, d, keepdim);
    if (dims.empty()) r = tensor::toDType(x, tensor::DType::Bool, true);
    return resultOrOut(a, 3, r);
}

Value countNonzeroFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("count_nonzero(input, dim=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor nonzero = tensor::binary(tensor::BinaryOp::Ne, x, tensor::wrapNumber(int64_t(0)));
    return tensorValue(tensor::sum(nonzero, dimsArg(a, 1), false, tensor::DType::Int64));
}

template <bool Log>
Value softmaxFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Log ? "log_softmax" : "softmax") +
                               "(input, dim=None, dtype=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    if (!a.has(1))
        interp.raiseTypeError(sig.name() + "() missing 1 required positional arguments: \"dim\"");
    auto dtype = dtypeArg(a, 2);
    int64_t dim = a.toInt(1);
    return tensorValue(Log ? tensor::logSoftmax(x, dim, dtype) : tensor::softmax(x, dim, dtype));
}

Value logsumexpFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("logsumexp(input, dim, keepdim=False, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    return resultOrOut(a, 3, tensor::logsumexp(a.toTensor(0), a.toIntList(1), a.toBool(2)));
}

template <bool Prod, bool InPlace>
Value cumulativeFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(std::string(Prod ? "cumprod" : "cumsum") + (InPlace ? "_" : "") +
                               "(input, dim, *, dtype=None" + (InPlace ? ")" : ", out=None)"));
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    auto dtype = dtypeArg(a, 2);
    int64_t dim = a.toInt(1);
    Tensor src = InPlace ? inPlaceSource(x) : x; // cumprod's node reads the old values
    Tensor r = Prod ? tensor::cumprod(src, dim, dtype) : tensor::cumsum(src, dim, dtype);
    if (InPlace) {
        assignInPlace(x, r);
        return a[0];
    }
    return resultOrOut(a, 3, r);
}

/// torch.norm: p is a number, inf, or 'fro' (the 2-norm of the flattened dims); 'nuc' needs
/// singular values, which Kiln's library does not compute.
Value normFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("norm(input, p='fro', dim=None, keepdim=False, out=None, "
                               "dtype=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = withDType(a.toTensor(0), dtypeArg(a, 5));
    double p = 2.0;
    if (a[1].is(ObjectKind::Str)) {
        const std::string& name = a.toStr(1);
        if (name == "nuc")
            interp.raise(builtinTypes().runtimeError.get(),
                         "Kiln does not implement the nuclear norm (p='nuc')");
        if (name != "fro")
            interp.raise(builtinTypes().runtimeError.get(),
                         "linalg.vector_norm: expected ord to be a number, 'fro' or 'nuc', got " +
                             name);
    } else if (a.has(1)) {
        p = a.toDouble(1);
    }
    Tensor r = tensor::norm(x, p, dimsArg(a, 2), a.toBool(3));
    return resultOrOut(a, 4, r);
}

} // namespace

void installReduceOps(Interpreter& interp, ModuleObject& torch) {
    static const OpEntry ops[] = {
        {"sum", sumMeanFn<0>, true, true},
        {"mean", sumMeanFn<1>, true, true},
        {"prod", prodFn, true, true},
        {"amax", amaxFn<true>, true, true},
        {"amin", amaxFn<false>, true, true},
        {"max", maxFn<true>, true, true},
        {"min", maxFn<false>, true, true},
        {"argmax", argmaxFn<true>, true, true},
        {"argmin", argmaxFn<false>, true, true},
        {"var", varFn<false>, true, true},
        {"std", varFn<true>, true, true},
        {"var_mean", varMeanFn<false>, true, false},
        {"std_mean", varMeanFn<true>, true, false},
        {"all", allAnyFn<true>, true, true},
        {"any", allAnyFn<false>, true, true},
        {"count_nonzero", countNonzeroFn, true, true},
        {"softmax", softmaxFn<false>, true, true},
        {"log_softmax", softmaxFn<true>, true, true},
        {"logsumexp", logsumexpFn, true, true},
        {"cumsum", cumulativeFn<false, false>, true, true},
        {"cumprod", cumulativeFn<true, false>, true, true},
        {"cumsum_", cumulativeFn<false, true>, false, true},
        {"cumprod_", cumulativeFn<true, true>, false, true},
        {"norm", normFn, true, true},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
