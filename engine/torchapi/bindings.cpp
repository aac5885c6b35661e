// SPDX-License-Identifier: MIT
#include "torchapi/bindings.h"

namespace kiln::torchapi {

using namespace kiln::lang;

void registerOps(Interpreter& interp, AttrMap* torchModule, std::span<const OpEntry> ops) {
    AttrMap& tensorDict = builtinTypes().tensor->dict;
    for (const OpEntry& op : ops) {
        if (op.function && torchModule)
            interp.defineNative(*torchModule, op.name, op.fn);
        if (op.method)
            interp.defineNative(tensorDict, op.name, op.fn);
    }
}

void defineTensorProperty(Interpreter& interp, const char* name, NativeFn getter, NativeFn setter) {
    Value set = setter ? interp.newNative(name, setter) : Value();
    builtinTypes().tensor->dict.set(Symbol::intern(name),
                                    Value(makeRef<PropertyObject>(interp.newNative(name, getter), set)));
}

std::vector<int64_t> dimsArg(const BoundArgs& a, size_t i) {
    if (!a.has(i))
        return {};
    return a.toIntList(i);
}

Tensor tensorOrNumber(const BoundArgs& a, size_t i) {
    const Value& v = a[i];
    if (v.isTensor())
        return v.asTensor();
    if (auto s = asScalar(v))
        return tensor::wrapNumber(*s);
    a.interp().raiseTypeError(a.functionName() + "(): argument '" + a.paramName(i) +
                              "' must be Tensor or Number, not " + a.interp().typeName(v));
}

Value scalarValue(const tensor::Scalar& s) {
    if (s.isFloat())
        return Value::fromFloat(s.toDouble());
    if (s.isBool())
        return Value::fromBool(s.toBool());
    return Value::fromInt(s.toInt());
}

} // namespace kiln::torchapi
