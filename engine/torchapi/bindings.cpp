// SPDX-License-Identifier: MIT
#include "torchapi/bindings.h"

#include "lang/device_ops.h"
#include "tensor/device_check.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"
#include "tensor/shape.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// Ops that never read elements with a CPU kernel: metadata, views, and the conversions that
/// move data between devices themselves. Everything else goes through the device check.
bool deviceNeutral(std::string_view name) {
    static const std::set<std::string_view> names = {
        // the small integer dtypes' casts, and dtype queries
        "byte", "char", "short", "is_signed", "is_complex",
        // metadata, views, moves
        "size", "stride", "dim", "ndimension", "numel", "nelement", "is_contiguous",
        "is_floating_point", "storage_offset", "element_size", "data_ptr", "item", "tolist", "to",
        "float", "double", "half", "bfloat16", "long", "int", "bool", "type", "type_as", "cpu",
        "cuda", "contiguous", "detach", "detach_", "requires_grad_", "__len__", "view", "view_as",
        "permute", "transpose", "swapaxes", "swapdims", "t", "unsqueeze", "squeeze", "expand",
        "expand_as", "flatten", "unflatten", "narrow", "select", "movedim", "moveaxis", "split",
        "chunk", "unbind", "diagonal", "alias", "get_device", "zeros_like", "ones_like",
        "empty_like", "full_like", "rand_like", "randn_like", "randint_like", "new_zeros",
        "new_ones", "new_empty", "new_full", "new_tensor", "is_tensor", "result_type",
        "is_same_size", "is_nonzero", "data_ptr", "record_stream",
        // between devices too (tensor::copyInto)
        "copy_"};
    return names.count(name) > 0;
}

Value deviceChecked(Interpreter& interp, const CallArgs& args, void* data) {
    const OpEntry& op = *static_cast<const OpEntry*>(data);
    if (std::optional<Value> r = runOnDevice(interp, op.name, args, !op.function)) return *r;
    return op.fn(interp, args, op.data);
}

} // namespace

std::optional<Value> runOnDevice(Interpreter& interp, std::string_view op, const CallArgs& args,
                                 bool method) {
    using Form = lang::DeviceOpCall::Form;
    return lang::dispatchToDevice(interp, {method ? Form::Method : Form::Function, op, 0, args});
}

void registerOps(Interpreter& interp, AttrMap* torchModule, std::span<const OpEntry> ops) {
    AttrMap& tensorDict = builtinTypes().tensor->dict;
    for (const OpEntry& op : ops) {
        // The checked entry points at the table entry, so tables must outlive interpreters.
        bool neutral = deviceNeutral(op.name);
        NativeFn fn = neutral ? op.fn : deviceChecked;
        void* data = neutral ? op.data : const_cast<OpEntry*>(&op);
        if (op.function && torchModule) interp.defineNative(*torchModule, op.name, fn, data);
        if (op.method) interp.defineNative(tensorDict, op.name, fn, data);
    }
}

void defineTensorProperty(Interpreter& interp, const char* name, NativeFn getter, NativeFn setter) {
    Value set = setter ? interp.newNative(name, setter) : Value();
    builtinTypes().tensor->dict.set(
        Symbol::intern(name), Value(makeRef<PropertyObject>(interp.newNative(name, getter), set)));
}

Value tensorTuple(const std::vector<Tensor>& tensors) {
    std::vector<Value> items;
    items.reserve(tensors.size());
    for (const Tensor& t : tensors)
        items.emplace_back(t);
    return tupleValue(std::move(items));
}

std::vector<int64_t> dimsArg(const BoundArgs& a, size_t i) {
    if (!a.has(i)) return {};
    return a.toIntList(i);
}

Tensor tensorOrNumber(const BoundArgs& a, size_t i) {
    const Value& v = a[i];
    if (v.isTensor()) return v.asTensor();
    if (auto s = asScalar(v)) return tensor::wrapNumber(*s);
    a.interp().raiseTypeError(a.functionName() + "(): argument '" + a.paramName(i) +
                              "' (position " + std::to_string(i + 1) + ") must be Tensor, not " +
                              a.interp().typeName(v));
}

tensor::Scalar scalarArg(const BoundArgs& a, size_t i) {
    const Value& v = a[i];
    if (auto s = asScalar(v)) return *s;
    if (v.isTensor() && v.asTensor().numel() == 1 && v.asTensor().dim() == 0)
        return tensor::item(v.asTensor());
    a.interp().raiseTypeError(a.functionName() + "(): argument '" + a.paramName(i) +
                              "' must be Number, not " + a.interp().typeName(v));
}

Value scalarValue(const tensor::Scalar& s) {
    if (s.isFloat()) return Value::fromFloat(s.toDouble());
    if (s.isBool()) return Value::fromBool(s.toBool());
    return Value::fromInt(s.toInt());
}

std::vector<Tensor> tensorListArg(const BoundArgs& a, size_t i) {
    const Value& v = a[i];
    Interpreter& interp = a.interp();
    if (!v.is(ObjectKind::List) && !v.is(ObjectKind::Tuple))
        interp.raiseTypeError(a.functionName() + "(): argument '" + a.paramName(i) +
                              "' (position " + std::to_string(i + 1) +
                              ") must be tuple of Tensors, not " + interp.typeName(v));
    const auto& items =
        v.is(ObjectKind::List) ? v.as<ListObject>()->items : v.as<TupleObject>()->items;
    std::vector<Tensor> out;
    out.reserve(items.size());
    for (size_t k = 0; k < items.size(); ++k) {
        if (!items[k].isTensor())
            interp.raiseTypeError("expected Tensor as element " + std::to_string(k) +
                                  " in argument " + std::to_string(i) + ", but got " +
                                  interp.typeName(items[k]));
        out.push_back(items[k].asTensor());
    }
    return out;
}

std::vector<int64_t> varSizes(const BoundArgs& a, size_t i) {
    return sizesFromArgs(a.interp(), a[i].as<TupleObject>()->items, a.functionName());
}

Tensor emptyLike(const Tensor& t, tensor::DType dtype) {
    if (t.isContiguous()) return Tensor::empty(t.sizes(), dtype);
    // Order the dims from outermost to innermost by stride; the layout is dense when the
    // strides are then exactly the contiguous strides of the permuted sizes.
    std::vector<int64_t> order(static_cast<size_t>(t.dim()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return t.stride(a) > t.stride(b); });
    int64_t expected = 1;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        if (t.size(*it) != 1 && t.stride(*it) != expected) return Tensor::empty(t.sizes(), dtype);
        expected *= t.size(*it);
    }
    std::vector<int64_t> permutedSizes, inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        permutedSizes.push_back(t.size(order[i]));
        inverse[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
    }
    NoGradScope noGrad;
    Tensor out = tensor::permute(Tensor::empty(permutedSizes, dtype), inverse);
    tensor::dropViewBase(out); // a new tensor, laid out as t: no view
    return out;
}

void assignInPlace(const Tensor& self, const Tensor& result) {
    tensor::detail::checkCanCastResult(result.dtype(), self.dtype());
    tensor::detail::checkInPlaceTarget(self, tensor::broadcastShapes(self.sizes(), result.sizes()));
    tensor::copyInto(self, result);
    if (result.requiresGrad()) {
        // self now holds the op's result: it takes the op's node (whose edges lead to what
        // self was before), as PyTorch's in-place ops rebase self's history.
        Tensor written = self;
        tensor::setGradNode(written, result.gradNode(), result.impl()->gradOutputNr);
    }
}

Tensor inPlaceSource(const Tensor& x) {
    tensor::refreshViewGradFn(x); // a view whose base was written since may need a gradient
    if (!tensor::gradModeEnabled() || !x.gradNode()) return x;
    Tensor copy;
    {
        tensor::GradModeGuard off(false);
        copy = tensor::clone(x);
    }
    tensor::setGradNode(copy, x.gradNode(), x.impl()->gradOutputNr);
    return copy;
}

Value resultOrOut(const BoundArgs& a, size_t outIndex, const Tensor& result) {
    if (!a.has(outIndex)) return tensorValue(result);
    const Value& out = a[outIndex];
    if (!out.isTensor())
        a.interp().raiseTypeError(a.functionName() + "(): argument 'out' must be Tensor, not " +
                                  a.interp().typeName(out));
    Tensor target = out.asTensor();
    tensor::detail::checkCanCastResult(result.dtype(), target.dtype());
    if (!(target.sizes() == result.sizes())) {
        Tensor fresh = Tensor::empty(result.sizes(), target.dtype());
        tensor::TensorImpl* impl = target.impl();
        impl->storage = fresh.storage();
        impl->offset = 0;
        impl->sizes = fresh.sizes();
        impl->strides = fresh.strides();
    }
    tensor::copyInto(target, result);
    return out;
}

} // namespace kiln::torchapi
