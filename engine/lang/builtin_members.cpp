// SPDX-License-Identifier: MIT
// Attributes and methods of the built-in objects that are not containers or strings: range and
// slice (start/stop/step, index, count, indices), the numbers' real/imag, and property's
// getter/setter/deleter decorators.
#include "lang/builtins.h"
#include "lang/signature.h"
#include "lang/tensor_bridge.h"

namespace kiln::lang {

namespace {

void defineProperty(Interpreter& interp, TypeObject& type, const char* name, NativeFn getter) {
    type.dict.set(Symbol::intern(name),
                  Value(makeRef<PropertyObject>(interp.newNative(name, getter), Value())));
}

RangeObject& rangeSelf(const CallArgs& args) {
    return *args.positional[0].as<RangeObject>();
}

Value rangeStart(Interpreter&, const CallArgs& args, void*) {
    return Value::fromInt(rangeSelf(args).start);
}
Value rangeStop(Interpreter&, const CallArgs& args, void*) {
    return Value::fromInt(rangeSelf(args).stop);
}
Value rangeStep(Interpreter&, const CallArgs& args, void*) {
    return Value::fromInt(rangeSelf(args).step);
}

Value rangeCount(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("range.count(self, value, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromInt(interp.contains(a[0], a[1]) ? 1 : 0);
}

Value rangeIndex(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("range.index(self, value, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!interp.contains(a[0], a[1]))
        interp.raiseValueError(interp.repr(a[1]) + " is not in range");
    const RangeObject& r = rangeSelf(args);
    return Value::fromInt((a[1].asInt() - r.start) / r.step);
}

const SliceObject& sliceSelf(const CallArgs& args) {
    return *args.positional[0].as<SliceObject>();
}

Value sliceStart(Interpreter&, const CallArgs& args, void*) {
    return sliceSelf(args).start;
}
Value sliceStop(Interpreter&, const CallArgs& args, void*) {
    return sliceSelf(args).stop;
}
Value sliceStep(Interpreter&, const CallArgs& args, void*) {
    return sliceSelf(args).step;
}

Value sliceIndices(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("slice.indices(self, length, /)");
    BoundArgs a = sig.bind(interp, args);
    int64_t length = a.toInt(1);
    if (length < 0) interp.raiseValueError("length should not be negative");
    SliceBounds b = computeSlice(interp, sliceSelf(args), length);
    // computeSlice clamps an empty reversed range's stop to -1 like CPython's indices().
    return tupleValue({Value::fromInt(b.start), Value::fromInt(b.stop), Value::fromInt(b.step)});
}

Value numberReal(Interpreter&, const CallArgs& args, void*) {
    const Value& v = args.positional[0];
    return v.isBool() ? Value::fromInt(v.asInt()) : v;
}

Value numberImag(Interpreter&, const CallArgs& args, void*) {
    return args.positional[0].isFloat() ? Value::fromFloat(0.0) : Value::fromInt(0);
}

// property.setter(f) and friends return a copy of the property with one accessor replaced.
Value propertyWith(Interpreter& interp, const CallArgs& args, Value PropertyObject::*part,
                   const char* name) {
    if (args.positional.size() != 2 || !args.positional[0].is(ObjectKind::Property))
        interp.raiseTypeError(std::string("property.") + name + "() takes exactly one argument (" +
                              std::to_string(args.positional.size() - 1) + " given)");
    const auto* p = args.positional[0].as<PropertyObject>();
    auto copy = makeRef<PropertyObject>(p->getter, p->setter, p->deleter);
    (*copy).*part = args.positional[1];
    return Value(copy);
}

Value propertyGetter(Interpreter& interp, const CallArgs& args, void*) {
    return propertyWith(interp, args, &PropertyObject::getter, "getter");
}
Value propertySetter(Interpreter& interp, const CallArgs& args, void*) {
    return propertyWith(interp, args, &PropertyObject::setter, "setter");
}
Value propertyDeleter(Interpreter& interp, const CallArgs& args, void*) {
    return propertyWith(interp, args, &PropertyObject::deleter, "deleter");
}

} // namespace

void installBuiltinMembers(Interpreter& interp) {
    const BuiltinTypes& t = builtinTypes();
    defineProperty(interp, *t.range, "start", rangeStart);
    defineProperty(interp, *t.range, "stop", rangeStop);
    defineProperty(interp, *t.range, "step", rangeStep);
    interp.defineNative(t.range->dict, "count", rangeCount);
    interp.defineNative(t.range->dict, "index", rangeIndex);
    defineProperty(interp, *t.slice, "start", sliceStart);
    defineProperty(interp, *t.slice, "stop", sliceStop);
    defineProperty(interp, *t.slice, "step", sliceStep);
    interp.defineNative(t.slice->dict, "indices", sliceIndices);
    for (TypeObject* number : {t.intType.get(), t.floatType.get()}) {
        defineProperty(interp, *number, "real", numberReal);
        defineProperty(interp, *number, "imag", numberImag);
    }
    interp.defineNative(t.property->dict, "getter", propertyGetter);
    interp.defineNative(t.property->dict, "setter", propertySetter);
    interp.defineNative(t.property->dict, "deleter", propertyDeleter);
}

} // namespace kiln::lang
