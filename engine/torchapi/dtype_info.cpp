// SPDX-License-Identifier: MIT
// torch.finfo and torch.iinfo: the numeric limits of a dtype (attention code masks with
// torch.finfo(x.dtype).min), with PyTorch's attributes, errors and printing.
#include "torchapi/bindings.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>

namespace kiln::torchapi {

using namespace kiln::lang;
using tensor::DType;

namespace {

class DTypeInfoObject final : public NativeObject {
public:
    DTypeInfoObject(TypeObject* type, DType d)
        : NativeObject(type)
        , dtype(d) {}
    DType dtype;
};

/// The smallest and largest value of an integer dtype (bool: 0 and 1).
std::pair<int64_t, int64_t> integerLimits(DType d) {
    return tensor::dispatchDType(d, [&]<DType D>() -> std::pair<int64_t, int64_t> {
        using T = tensor::CType<D>;
        if constexpr (std::is_integral_v<T>)
            return {std::numeric_limits<T>::min(), std::numeric_limits<T>::max()};
        return {0, 0};
    });
}

struct Limits {
    double bits, eps, max, min, tiny, resolution;
};

Limits limitsOf(DType d) {
    switch (d) {
    case DType::Float16:
        return {16, 0x1p-10, 65504.0, -65504.0, 0x1p-14, 1e-3};
    case DType::BFloat16:
        return {16, 0x1p-7, 0x1.FEp127, -0x1.FEp127, FLT_MIN, 1e-2};
    case DType::Float32:
        return {32, FLT_EPSILON, FLT_MAX, -FLT_MAX, FLT_MIN, 1e-6};
    case DType::Float64:
        return {64, DBL_EPSILON, DBL_MAX, -DBL_MAX, DBL_MIN, 1e-15};
    default:
        break;
    }
    // Integers (iinfo): only bits, min and max are read; max and min come exact from
    // integerLimits.
    auto [lo, hi] = integerLimits(d);
    return {static_cast<double>(tensor::itemSize(d) * 8),
            0,
            static_cast<double>(hi),
            static_cast<double>(lo),
            0,
            0};
}

DTypeInfoObject& info(const CallArgs& args) {
    return *args.positional[0].as<DTypeInfoObject>();
}

/// C++ stream formatting with its default precision (6 significant digits), as PyTorch prints.
std::string streamFormat(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

Value infoRepr(Interpreter&, const CallArgs& args, void*) {
    const DTypeInfoObject& i = info(args);
    Limits l = limitsOf(i.dtype);
    std::string name(tensor::dtypeName(i.dtype));
    if (!tensor::isFloating(i.dtype))
        return strValue("iinfo(min=" + streamFormat(l.min) + ", max=" + streamFormat(l.max) +
                        ", dtype=" + name + ")");
    return strValue("finfo(resolution=" + streamFormat(l.resolution) +
                    ", min=" + streamFormat(l.min) + ", max=" + streamFormat(l.max) +
                    ", eps=" + streamFormat(l.eps) + ", smallest_normal=" + streamFormat(l.tiny) +
                    ", tiny=" + streamFormat(l.tiny) + ", dtype=" + name + ")");
}

Value infoEq(Interpreter&, const CallArgs& args, void*) {
    const Value& other = args.positional[1];
    if (!other.is(ObjectKind::Native) || other.asObject()->type() != info(args).type())
        return Value::fromBool(false);
    return Value::fromBool(other.as<DTypeInfoObject>()->dtype == info(args).dtype);
}

/// One attribute of the limits; integer types report ints, floating types floats.
Value infoField(Interpreter&, const CallArgs& args, void* data) {
    const DTypeInfoObject& i = info(args);
    Limits l = limitsOf(i.dtype);
    auto field = static_cast<int>(reinterpret_cast<intptr_t>(data));
    switch (field) {
    case 0:
        return Value::fromInt(static_cast<int64_t>(l.bits));
    case 1:
        return strValue(std::string(tensor::dtypeName(i.dtype)));
    default:
        break;
    }
    if (!tensor::isFloating(i.dtype)) {
        auto [lo, hi] = integerLimits(i.dtype);
        return Value::fromInt(field == 2 ? hi : lo);
    }
    const double values[] = {0, 0, l.max, l.min, l.eps, l.tiny, l.tiny, l.resolution};
    return Value::fromFloat(values[field]);
}

const char* const kFloatFields[] = {"bits", "dtype",           "max",       "min", "eps",
                                    "tiny", "smallest_normal", "resolution"};

Ref<TypeObject> makeInfoType(bool floating) {
    Ref<TypeObject> t = makeNativeType(floating ? "finfo" : "iinfo", "torch");
    size_t fields = floating ? 8 : 4;
    for (size_t f = 0; f < fields; ++f) {
        auto getter =
            makeRef<NativeFunctionObject>(kFloatFields[f], infoField, reinterpret_cast<void*>(f));
        t->dict.set(Symbol::intern(kFloatFields[f]),
                    Value(makeRef<PropertyObject>(Value(getter), Value())));
    }
    t->dict.set(Symbol::intern("__repr__"),
                Value(makeRef<NativeFunctionObject>("__repr__", infoRepr)));
    t->dict.set(Symbol::intern("__eq__"), Value(makeRef<NativeFunctionObject>("__eq__", infoEq)));
    return t;
}

const TypeObject* finfoType() {
    static const Ref<TypeObject> t = makeInfoType(true);
    return t.get();
}

const TypeObject* iinfoType() {
    static const Ref<TypeObject> t = makeInfoType(false);
    return t.get();
}

Value finfoFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("finfo(type=None)");
    BoundArgs a = sig.bind(interp, args);
    DType d =
        a.has(0) ? dtypeOf(interp, a[0], "finfo(): argument 'type'") : tensor::defaultFloatDType();
    if (!tensor::isFloating(d))
        interp.raiseTypeError("torch.finfo() requires a floating point input type. Use "
                              "torch.iinfo to handle 'torch.finfo'");
    return Value(makeRef<DTypeInfoObject>(const_cast<TypeObject*>(finfoType()), d));
}

Value iinfoFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("iinfo(type)");
    BoundArgs a = sig.bind(interp, args);
    DType d = dtypeOf(interp, a[0], "iinfo(): argument 'type'");
    if (d == DType::Bool) interp.raiseTypeError("torch.bool is not supported by torch.iinfo");
    if (tensor::isFloating(d))
        interp.raiseTypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                              "to handle 'torch.iinfo'");
    return Value(makeRef<DTypeInfoObject>(const_cast<TypeObject*>(iinfoType()), d));
}

} // namespace

void installDTypeInfo(Interpreter& interp, ModuleObject& torch) {
    static const OpEntry ops[] = {
        {"finfo", finfoFn, true, false},
        {"iinfo", iinfoFn, true, false},
    };
    registerOps(interp, &torch.globals, ops);
}

} // namespace kiln::torchapi
