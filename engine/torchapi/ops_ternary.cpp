// SPDX-License-Identifier: MIT
// Pointwise ops with more than two operands or a mask: where, clamp/clip (and clamp_min,
// clamp_max), masked_fill, lerp, addcmul/addcdiv, and the closeness tests isclose, allclose and
// equal.
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"
#include "torchapi/bindings.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// PyTorch 2.3 warns of a uint8 condition and reads its truth, as tensor::where does.
void warnByteCondition(Interpreter& interp, const Tensor& condition) {
    if (condition.dtype() == tensor::DType::UInt8)
        warnUser(interp, "where received a uint8 condition tensor. This behavior is deprecated "
                         "and will be removed in a future version of PyTorch. Use a boolean "
                         "condition instead. (Triggered internally at "
                         "../aten/src/ATen/native/TensorCompare.cpp:530.)");
}

/// torch.where(condition, input, other), or torch.where(condition): nonzero(as_tuple=True).
Value whereFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("where(condition, input=None, other=None, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor condition = a.toTensor(0);
    if (a[1].isEmpty() || a[1].isNone()) {
        if (!a[2].isNone())
            interp.raiseTypeError("where() missing 1 required positional argument: 'input'");
        Tensor nz = tensor::nonzero(condition);
        std::vector<Tensor> columns;
        for (int64_t d = 0; d < nz.size(1); ++d)
            columns.push_back(tensor::contiguous(tensor::select(nz, 1, d)));
        return tensorTuple(columns);
    }
    if (a[2].isNone())
        interp.raiseTypeError("where() missing 1 required positional argument: 'other'");
    warnByteCondition(interp, condition);
    Tensor r = tensor::where(condition, tensorOrNumber(a, 1), tensorOrNumber(a, 2));
    return resultOrOut(a, 3, r);
}

/// Tensor.where(condition, other): the tensor is the value where the condition holds.
Value whereMethod(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("where(input, condition, other)");
    BoundArgs a = sig.bind(interp, args);
    warnByteCondition(interp, a.toTensor(1));
    return tensorValue(tensor::where(a.toTensor(1), a.toTensor(0), tensorOrNumber(a, 2)));
}

std::optional<Tensor> bound(const BoundArgs& a, size_t i) {
    if (!a.has(i)) return std::nullopt;
    return tensorOrNumber(a, i);
}

/// The autograd node names PyTorch shows for clamp_min/clamp_max (scalar bound: ...0, tensor
/// bound: ...1).
void renameClampNode(Tensor& r, const char* scalarName, const char* tensorName, bool tensorBound) {
    if (r.requiresGrad() && !r.gradFn().empty())
        tensor::renameGradFn(r, tensorBound ? tensorName : scalarName);
}

enum class ClampKind : uint8_t { Both, Min, Max };

struct ClampEntry {
    ClampKind kind;
    bool inPlace;
    Signature sig;
};

Value clampFn(Interpreter& interp, const CallArgs& args, void* data) {
    const ClampEntry& e = *static_cast<const ClampEntry*>(data);
    if (auto r = runOnDevice(interp, e.sig.name(), args)) return *r; // not via registerOps
    BoundArgs a = e.sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor src = e.inPlace ? inPlaceSource(x) : x; // the clamp's node reads the old values
    Tensor r;
    if (e.kind == ClampKind::Both) {
        r = tensor::clamp(src, bound(a, 1), bound(a, 2));
    } else {
        std::optional<Tensor> b = bound(a, 1);
        if (!b)
            interp.raiseTypeError(e.sig.name() + "(): argument '" + a.paramName(1) +
                                  "' must be Number, not NoneType");
        bool min = e.kind == ClampKind::Min;
        r = min ? tensor::clamp(src, b, std::nullopt) : tensor::clamp(src, std::nullopt, b);
        renameClampNode(r, min ? "ClampMinBackward0" : "ClampMaxBackward0",
                        min ? "ClampMinBackward1" : "ClampMaxBackward1", a[1].isTensor());
    }
    if (e.inPlace) {
        // clamp_ names the target type the way C++ does ("long int"), unlike other ops.
        if (!tensor::detail::canCast(r.dtype(), x.dtype()))
            interp.raise(builtinTypes().runtimeError.get(),
                         "result type " + std::string(tensor::dtypeLegacyName(r.dtype())) +
                             " can't be cast to the desired output type " +
                             std::string(tensor::detail::typeMetaName(x.dtype())));
        assignInPlace(x, r);
        return a[0];
    }
    size_t out = e.kind == ClampKind::Both ? 3 : 2;
    return resultOrOut(a, out, r);
}

/// Function-local so the Signatures are built after the symbol table exists.
std::span<const ClampEntry> clampEntries() {
    static const ClampEntry entries[] = {
        {ClampKind::Both, false, Signature("clamp(input, min=None, max=None, *, out=None)")},
        {ClampKind::Both, false, Signature("clip(input, min=None, max=None, *, out=None)")},
        {ClampKind::Both, true, Signature("clamp_(input, min=None, max=None)")},
        {ClampKind::Both, true, Signature("clip_(input, min=None, max=None)")},
        {ClampKind::Min, false, Signature("clamp_min(input, min, *, out=None)")},
        {ClampKind::Max, false, Signature("clamp_max(input, max, *, out=None)")},
        {ClampKind::Min, true, Signature("clamp_min_(input, min)")},
        {ClampKind::Max, true, Signature("clamp_max_(input, max)")},
    };
    return entries;
}

template <bool InPlace>
Value maskedFillFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "masked_fill_(input, mask, value)"
                                       : "masked_fill(input, mask, value)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor value = tensorOrNumber(a, 2);
    if (value.dim() != 0)
        interp.raise(builtinTypes().runtimeError.get(),
                     "masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                     "with " +
                         std::to_string(value.dim()) + " dimension(s).");
    Tensor r = tensor::maskedFill(InPlace ? inPlaceSource(x) : x, a.toTensor(1), value);
    if (!InPlace) return tensorValue(r);
    assignInPlace(x, r);
    return a[0];
}

template <bool InPlace>
Value lerpFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "lerp_(input, end, weight)"
                                       : "lerp(input, end, weight, *, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    Tensor r = tensor::lerp(InPlace ? inPlaceSource(x) : x, a.toTensor(1), tensorOrNumber(a, 2));
    if (InPlace) {
        assignInPlace(x, r);
        return a[0];
    }
    return resultOrOut(a, 3, r);
}

/// addcmul/addcdiv: input + value * tensor1 * tensor2 (or / tensor2), as PyTorch's kernel
/// computes it: the value times tensor1 first, then tensor2, then the sum.
template <tensor::BinaryOp Op, bool InPlace>
Value addcFn(Interpreter& interp, const CallArgs& args, void*) {
    constexpr bool divides = Op == tensor::BinaryOp::Div;
    static const Signature sig(
        divides ? (InPlace ? "addcdiv_(input, tensor1, tensor2, *, value=1)"
                           : "addcdiv(input, tensor1, tensor2, *, value=1, out=None)")
                : (InPlace ? "addcmul_(input, tensor1, tensor2, *, value=1)"
                           : "addcmul(input, tensor1, tensor2, *, value=1, out=None)"));
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0), t1 = a.toTensor(1), t2 = a.toTensor(2);
    if (divides && !tensor::isFloating(t1.dtype()) && !tensor::isFloating(t2.dtype()))
        tensor::failRuntime("Integer division with addcdiv is no longer supported, and in a "
                            "future release addcdiv will perform a true division of tensor1 and "
                            "tensor2. The historic addcdiv behavior can be implemented as "
                            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
                            "integer inputs and as (input + value * tensor1 / tensor2) for float "
                            "inputs. The future addcdiv behavior is just the latter "
                            "implementation: (input + value * tensor1 / tensor2), for all dtypes.");
    using tensor::BinaryOp;
    Tensor scaled = tensor::binary(BinaryOp::Mul, tensor::wrapNumber(scalarArg(a, 3)), t1);
    Tensor src = InPlace ? inPlaceSource(x) : x; // the add's node must not hold x
    Tensor r = tensor::binary(BinaryOp::Add, src, tensor::binary(Op, scaled, t2));
    tensor::renameGradFn(r, divides ? "AddcdivBackward0" : "AddcmulBackward0");
    if (InPlace) {
        assignInPlace(x, r);
        return a[0];
    }
    return resultOrOut(a, 4, r);
}

Value iscloseFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)");
    BoundArgs a = sig.bind(interp, args);
    return tensorValue(
        tensor::isclose(a.toTensor(0), a.toTensor(1), a.toDouble(2), a.toDouble(3), a.toBool(4)));
}

Value allcloseFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromBool(
        tensor::allclose(a.toTensor(0), a.toTensor(1), a.toDouble(2), a.toDouble(3), a.toBool(4)));
}

Value equalFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("equal(input, other)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromBool(tensor::equal(a.toTensor(0), a.toTensor(1)));
}

} // namespace

void installTernaryOps(Interpreter& interp, ModuleObject& torch) {
    for (const ClampEntry& e : clampEntries()) {
        void* data = const_cast<ClampEntry*>(&e);
        interp.defineNative(builtinTypes().tensor->dict, e.sig.name(), clampFn, data);
        interp.defineNative(torch.globals, e.sig.name(), clampFn, data);
    }
    static const OpEntry ops[] = {
        {"where", whereFn, true, false},
        {"where", whereMethod, false, true},
        {"masked_fill", maskedFillFn<false>, true, true},
        {"masked_fill_", maskedFillFn<true>, false, true},
        {"lerp", lerpFn<false>, true, true},
        {"lerp_", lerpFn<true>, false, true},
        {"addcmul", addcFn<tensor::BinaryOp::Mul, false>, true, true},
        {"addcmul_", addcFn<tensor::BinaryOp::Mul, true>, false, true},
        {"addcdiv", addcFn<tensor::BinaryOp::Div, false>, true, true},
        {"addcdiv_", addcFn<tensor::BinaryOp::Div, true>, false, true},
        {"isclose", iscloseFn, true, true},
        {"allclose", allcloseFn, true, true},
        {"equal", equalFn, true, true},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
