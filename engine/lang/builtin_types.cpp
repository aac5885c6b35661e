// SPDX-License-Identifier: MIT
// Calling the built-in types: int(), float(), bool(), str(), list(), tuple(), dict(), range(),
// slice(), type(), object(), and the few methods of object, int and float scripts use.
#include "lang/builtins.h"
#include "lang/format.h"
#include "lang/signature.h"
#include "lang/tensor_bridge.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

std::string strip(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\n\r\f\v");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\n\r\f\v");
    return s.substr(b, e - b + 1);
}

int64_t parseInt(Interpreter& interp, const std::string& text, int64_t base) {
    std::string s = strip(text);
    const int64_t givenBase = base; // the error names the base the caller asked for
    auto invalid = [&]() -> int64_t {
        interp.raiseValueError("invalid literal for int() with base " + std::to_string(givenBase) +
                               ": " + pyStringRepr(text));
    };
    bool negative = false;
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (base == 0 || base == 16 || base == 8 || base == 2) {
        if (i + 1 < s.size() && s[i] == '0' && std::strchr("xXoObB", s[i + 1])) {
            char p = static_cast<char>(std::tolower(s[i + 1]));
            int64_t prefixBase = p == 'x' ? 16 : p == 'o' ? 8 : 2;
            if (base != 0 && base != prefixBase) return invalid();
            base = prefixBase;
            i += 2;
        } else if (base == 0) {
            base = 10;
        }
    }
    if (i >= s.size()) return invalid();
    uint64_t value = 0;
    bool lastUnderscore = true;
    for (; i < s.size(); ++i) {
        char c = s[i];
        if (c == '_') {
            if (lastUnderscore) return invalid();
            lastUnderscore = true;
            continue;
        }
        int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                : std::isalpha(static_cast<unsigned char>(c))
                    ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                    : 99;
        if (d >= base) return invalid();
        if (value > (static_cast<uint64_t>(INT64_MAX) + 1 - static_cast<uint64_t>(d)) /
                        static_cast<uint64_t>(base))
            interp.raise(builtinTypes().overflowError.get(),
                         "integer overflow: " + pyStringRepr(text) +
                             " does not fit in Kiln's 64-bit integers");
        value = value * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
        lastUnderscore = false;
    }
    if (lastUnderscore) return invalid();
    if (!negative && value > static_cast<uint64_t>(INT64_MAX))
        interp.raise(builtinTypes().overflowError.get(),
                     "integer overflow: " + pyStringRepr(text) +
                         " does not fit in Kiln's 64-bit integers");
    return negative ? static_cast<int64_t>(0 - value) : static_cast<int64_t>(value);
}

Value scalarOfTensor(Interpreter& interp, const Value& v, TensorValueUse use) {
    if (interp.recorder() && interp.recorder()->isTraced(v)) [[unlikely]]
        interp.recorder()->needValue(v, use);
    if (v.asTensor().numel() != 1)
        interp.raiseValueError("only one element tensors can be converted to Python scalars");
    tensor::Scalar s = tensor::item(v.asTensor());
    if (s.isFloat()) return Value::fromFloat(s.toDouble());
    if (s.isBool()) return Value::fromBool(s.toBool());
    return Value::fromInt(s.toInt());
}

Value intCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("int(x=0, /, base=None)");
    BoundArgs a = sig.bind(interp, args);
    const Value& v = a[0];
    if (a.has(1)) {
        int64_t base = a.toInt(1);
        if (base != 0 && (base < 2 || base > 36))
            interp.raiseValueError("int() base must be >= 2 and <= 36, or 0");
        if (!v.is(ObjectKind::Str))
            interp.raiseTypeError("int() can't convert non-string with explicit base");
        return Value::fromInt(parseInt(interp, v.as<StrObject>()->str(), base));
    }
    if (v.isIntLike()) return Value::fromInt(v.asInt());
    if (v.isFloat()) return Value::fromInt(floatToInt(interp, v.asFloat()));
    if (v.is(ObjectKind::Str))
        return Value::fromInt(parseInt(interp, v.as<StrObject>()->str(), 10));
    if (v.isTensor()) {
        Value s = scalarOfTensor(interp, v, TensorValueUse::Int);
        return Value::fromInt(s.isFloat() ? floatToInt(interp, s.asFloat()) : s.asInt());
    }
    for (const char* name : {"__int__", "__index__"}) {
        Value method = interp.tryGetAttr(v, sym(name));
        if (!method.isEmpty()) return interp.call(method, {});
    }
    interp.raiseTypeError("int() argument must be a string, a bytes-like object or a real "
                          "number, not '" +
                          interp.typeName(v) + "'");
}

Value floatCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("float(x=0.0, /)");
    const Value v = sig.bind(interp, args)[0];
    if (v.isNumber()) return Value::fromFloat(v.toDouble());
    if (v.isTensor())
        return Value::fromFloat(scalarOfTensor(interp, v, TensorValueUse::Float).toDouble());
    if (v.is(ObjectKind::Str)) {
        std::string s = strip(v.as<StrObject>()->str());
        std::string clean;
        bool badUnderscore = false; // '_' may only separate two digits
        for (size_t i = 0; i < s.size(); ++i) {
            if (s[i] != '_') {
                clean += s[i];
                continue;
            }
            badUnderscore |= i == 0 || i + 1 == s.size() ||
                             !std::isdigit(static_cast<unsigned char>(s[i - 1])) ||
                             !std::isdigit(static_cast<unsigned char>(s[i + 1]));
        }
        if (badUnderscore) clean.clear(); // reported as unconvertible below
        std::string lower;
        for (char c : clean)
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity")
            return Value::fromFloat(INFINITY);
        if (lower == "-inf" || lower == "-infinity") return Value::fromFloat(-INFINITY);
        if (lower == "nan" || lower == "+nan" || lower == "-nan") return Value::fromFloat(NAN);
        char* end = nullptr;
        errno = 0;
        double d = std::strtod(clean.c_str(), &end);
        bool hexLike = lower.find('x') != std::string::npos;
        if (clean.empty() || *end != '\0' || hexLike)
            interp.raiseValueError("could not convert string to float: " +
                                   pyStringRepr(v.as<StrObject>()->str()));
        return Value::fromFloat(d);
    }
    Value method = interp.tryGetAttr(v, sym("__float__"));
    if (!method.isEmpty()) return interp.call(method, {});
    interp.raiseTypeError("float() argument must be a string or a real number, not '" +
                          interp.typeName(v) + "'");
}

Value boolCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("bool(x=False, /)");
    return Value::fromBool(interp.truthy(sig.bind(interp, args)[0]));
}

Value strCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("str(object='')");
    // CPython's str type has no vectorcall: calling it counts a recursion level, so a
    // __str__ that calls str(self) fails where CPython's does, with its message.
    Interpreter::NestedCall nested(interp, " while calling a Python object");
    return strValue(interp.str(sig.bind(interp, args)[0]));
}

Value listCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("list(iterable=None, /)");
    BoundArgs a = sig.bind(interp, args);
    return listValue(a.has(0) ? interp.toVector(a[0]) : std::vector<Value>());
}

Value tupleCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("tuple(iterable=None, /)");
    BoundArgs a = sig.bind(interp, args);
    return tupleValue(a.has(0) ? interp.toVector(a[0]) : std::vector<Value>());
}

void dictUpdateFrom(Interpreter& interp, DictObject& dict, const Value& source) {
    if (source.is(ObjectKind::Dict)) {
        source.as<DictObject>()->forEach(
            [&](const Value& k, const Value& v) { dict.set(interp, k, v); });
        return;
    }
    if (source.is(ObjectKind::Instance) && !interp.tryGetAttr(source, sym("keys")).isEmpty()) {
        for (const Value& k : interp.toVector(interp.callMethod(source, sym("keys"), {})))
            dict.set(interp, k, interp.getItem(source, k));
        return;
    }
    size_t index = 0;
    for (const Value& pair : interp.toVector(source)) {
        std::vector<Value> kv;
        if (pair.is(ObjectKind::Tuple) || pair.is(ObjectKind::List))
            kv = interp.toVector(pair);
        else
            interp.raiseTypeError("cannot convert dictionary update sequence element #" +
                                  std::to_string(index) + " to a sequence");
        if (kv.size() != 2)
            interp.raiseValueError("dictionary update sequence element #" + std::to_string(index) +
                                   " has length " + std::to_string(kv.size()) + "; 2 is required");
        dict.set(interp, kv[0], kv[1]);
        ++index;
    }
}

Value dictCtor(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() > 1)
        interp.raiseTypeError("dict expected at most 1 argument, got " +
                              std::to_string(args.positional.size()));
    auto dict = makeRef<DictObject>();
    if (!args.positional.empty()) dictUpdateFrom(interp, *dict, args.positional[0]);
    for (size_t k = 0; k < args.keywordNames.size(); ++k)
        dict->set(interp, strValue(args.keywordNames[k].str()), args.keywordValues[k]);
    return Value(dict);
}

int64_t rangeArg(Interpreter& interp, const Value& v) {
    auto i = asIndex(interp, v);
    if (!i)
        interp.raiseTypeError("'" + interp.typeName(v) +
                              "' object cannot be interpreted as an integer");
    return *i;
}

Value rangeCtor(Interpreter& interp, const CallArgs& args, void*) {
    if (!args.keywordNames.empty()) interp.raiseTypeError("range() takes no keyword arguments");
    size_t n = args.positional.size();
    if (n < 1 || n > 3)
        interp.raiseTypeError(n == 0
                                  ? "range expected at least 1 argument, got 0"
                                  : "range expected at most 3 arguments, got " + std::to_string(n));
    int64_t start = 0, stop, step = 1;
    if (n == 1) {
        stop = rangeArg(interp, args.positional[0]);
    } else {
        start = rangeArg(interp, args.positional[0]);
        stop = rangeArg(interp, args.positional[1]);
        if (n == 3) step = rangeArg(interp, args.positional[2]);
    }
    if (step == 0) interp.raiseValueError("range() arg 3 must not be zero");
    return Value(makeRef<RangeObject>(start, stop, step));
}

Value sliceCtor(Interpreter& interp, const CallArgs& args, void*) {
    size_t n = args.positional.size();
    if (n < 1 || n > 3)
        interp.raiseTypeError("slice expected at least 1 argument, got " + std::to_string(n));
    if (n == 1)
        return Value(makeRef<SliceObject>(Value::none(), args.positional[0], Value::none()));
    return Value(makeRef<SliceObject>(args.positional[0], args.positional[1],
                                      n == 3 ? args.positional[2] : Value::none()));
}

/// The type a value reports to type() and isinstance(): its own, or the one its class stands
/// in for (`__kiln_type__`: torch.SymInt is an int to the program, as in PyTorch).
TypeObject* reportedType(Interpreter& interp, const Value& v) {
    TypeObject* type = interp.typeOf(v);
    if (!v.is(ObjectKind::Instance)) return type;
    const Value* standIn = type->lookup(Symbol::intern("__kiln_type__"));
    return standIn && standIn->is(ObjectKind::Type) ? standIn->as<TypeObject>() : type;
}

Value typeCtor(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() == 1) {
        if (!args.keywordNames.empty()) interp.raiseTypeError("type() takes no keyword arguments");
        return Value(reportedType(interp, args.positional[0]));
    }
    if (args.positional.size() != 1 && args.positional.size() != 3)
        interp.raiseTypeError("type() takes 1 or 3 arguments");
    std::vector<Value> withType{Value(builtinTypes().type)};
    withType.insert(withType.end(), args.positional.begin(), args.positional.end());
    return typeNewNative(interp, CallArgs{withType, args.keywordNames, args.keywordValues},
                         nullptr);
}

Value objectCtor(Interpreter& interp, const CallArgs& args, void*) {
    if (args.count() != 0) interp.raiseTypeError("object() takes no arguments");
    return Value(makeRef<InstanceObject>(builtinTypes().object.get()));
}

Value objectSetattr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("object.__setattr__(self, name, value, /)");
    BoundArgs a = sig.bind(interp, args);
    AttrMap* attrs = instanceNamespace(a[0]);
    if (!attrs) interp.raiseTypeError("object.__setattr__ requires an instance");
    Symbol name = Symbol::intern(a.toStr(1));
    TypeObject* type = interp.typeOf(a[0]);
    const Value* desc = type->lookup(name);
    if (desc && desc->is(ObjectKind::Property) && !desc->as<PropertyObject>()->setter.isEmpty()) {
        interp.call(desc->as<PropertyObject>()->setter, {a[0], a[2]});
        return Value::none();
    }
    if (!type->acceptsInstanceAttribute(name)) // __slots__ leave it out
        interp.raiseAttributeError(
            a[0], name, "'" + type->name + "' object has no attribute '" + name.str() + "'");
    attrs->set(name, a[2]);
    return Value::none();
}

Value objectGetattribute(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("object.__getattribute__(self, name, /)");
    BoundArgs a = sig.bind(interp, args);
    Symbol name = Symbol::intern(a.toStr(1));
    if (const AttrMap* attrs = instanceNamespace(a[0]))
        if (const Value* v = attrs->find(name)) return *v;
    return interp.getAttr(a[0], name);
}

Value objectDelattr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("object.__delattr__(self, name, /)");
    BoundArgs a = sig.bind(interp, args);
    Symbol name = Symbol::intern(a.toStr(1));
    AttrMap* attrs = instanceNamespace(a[0]);
    if (!attrs || !attrs->erase(name))
        interp.raise(builtinTypes().attributeError.get(), "'" + interp.typeName(a[0]) +
                                                              "' object has no attribute '" +
                                                              name.str() + "'");
    return Value::none();
}

Value objectInit(Interpreter&, const CallArgs&, void*) {
    return Value::none();
}

Value objectNew(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Type))
        interp.raiseTypeError("object.__new__(X): X is not a type object");
    TypeObject* type = args.positional[0].as<TypeObject>();
    interp.checkNotAbstract(*type);
    if (type->isSubtypeOf(builtinTypes().str.get())) {
        // CPython names the nearest class whose __new__ is not written in Python.
        const TypeObject* safe = type;
        for (const TypeObject* t : type->mro) {
            safe = t;
            if (!t->isUserClass || !t->dict.contains(sym("__new__"))) break;
        }
        interp.raiseTypeError("object.__new__(" + type->name + ") is not safe, use " + safe->name +
                              ".__new__()");
    }
    return Value(makeRef<InstanceObject>(type));
}

// str.__new__(cls, object=''): the str of `object`, as an instance of cls (a subclass of str).
Value strNew(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.empty()) interp.raiseTypeError("str.__new__(): not enough arguments");
    const Value& cls = args.positional[0];
    if (!cls.is(ObjectKind::Type))
        interp.raiseTypeError("str.__new__(X): X is not a type object (" + interp.typeName(cls) +
                              ")");
    TypeObject* type = cls.as<TypeObject>();
    if (!type->isSubtypeOf(builtinTypes().str.get()))
        interp.raiseTypeError("str.__new__(" + type->name + "): " + type->name +
                              " is not a subtype of str");
    CallArgs rest{{args.positional.begin() + 1, args.positional.end()},
                  args.keywordNames,
                  args.keywordValues};
    Value s = strCtor(interp, rest, nullptr);
    if (type == builtinTypes().str.get()) return s;
    return strSubclassValue(type, s.as<StrObject>()->str());
}

// str's own __str__/__repr__/__format__, for `str.__repr__(self)` in a subclass's override.
const std::string& strSelf(Interpreter& interp, const CallArgs& args, const char* method) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Str))
        interp.raiseTypeError(
            std::string("descriptor '") + method + "' requires a 'str' object but received '" +
            (args.positional.empty() ? "nothing" : interp.typeName(args.positional[0])) + "'");
    return args.positional[0].as<StrObject>()->str();
}

Value strStr(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(strSelf(interp, args, "__str__"));
}

Value strRepr(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(pyStringRepr(strSelf(interp, args, "__repr__")));
}

Value strFormat(Interpreter& interp, const CallArgs& args, void*) {
    const std::string& self = strSelf(interp, args, "__format__");
    if (args.positional.size() != 2 || !args.positional[1].is(ObjectKind::Str))
        interp.raiseTypeError("str.__format__() takes exactly one str argument");
    const std::string& spec = args.positional[1].as<StrObject>()->str();
    // An empty spec is str(self), a subclass's __str__ included, as in CPython.
    if (spec.empty()) return strValue(interp.str(args.positional[0]));
    return strValue(formatValue(interp, strValue(self), spec));
}

Value floatIsInteger(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("float.is_integer(self, /)");
    double d = sig.bind(interp, args).toDouble(0);
    return Value::fromBool(std::isfinite(d) && d == std::floor(d));
}

Value intBitLength(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("int.bit_length(self, /)");
    int64_t v = sig.bind(interp, args).toInt(0);
    uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    return Value::fromInt(m == 0 ? 0 : 64 - __builtin_clzll(m));
}

Value typeMro(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("type.mro(self, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].is(ObjectKind::Type))
        interp.raiseTypeError("descriptor 'mro' for 'type' objects doesn't apply to a '" +
                              interp.typeName(a[0]) + "' object");
    std::vector<Value> items;
    for (TypeObject* t : a[0].as<TypeObject>()->mro)
        items.emplace_back(t);
    return listValue(std::move(items));
}

Value exceptionInit(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Instance))
        interp.raiseTypeError("BaseException.__init__ requires an exception instance");
    args.positional[0].as<InstanceObject>()->attrs.set(
        sym("args"), tupleValue({args.positional.begin() + 1, args.positional.end()}));
    return Value::none();
}

Value exceptionWithTraceback(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.empty()) interp.raiseTypeError("with_traceback() missing argument");
    return args.positional[0];
}

} // namespace

int64_t floatToInt(Interpreter& interp, double d) {
    if (std::isinf(d))
        interp.raise(builtinTypes().overflowError.get(),
                     "cannot convert float infinity to integer");
    if (std::isnan(d)) interp.raiseValueError("cannot convert float NaN to integer");
    double t = std::trunc(d);
    if (t >= 9.223372036854775807e18 || t < -9.223372036854775808e18)
        interp.raise(builtinTypes().overflowError.get(),
                     "integer overflow: " + floatRepr(d) +
                         " does not fit in Kiln's 64-bit integers");
    return static_cast<int64_t>(t);
}

void installTypeConstructors(Interpreter& interp, ModuleObject& builtins) {
    const BuiltinTypes& t = builtinTypes();
    struct Ctor {
        TypeObject* type;
        NativeFn fn;
    };
    const Ctor ctors[] = {
        {t.intType.get(), intCtor}, {t.floatType.get(), floatCtor}, {t.boolType.get(), boolCtor},
        {t.str.get(), strCtor},     {t.list.get(), listCtor},       {t.tuple.get(), tupleCtor},
        {t.dict.get(), dictCtor},   {t.range.get(), rangeCtor},     {t.slice.get(), sliceCtor},
        {t.type.get(), typeCtor},   {t.object.get(), objectCtor},
    };
    for (const Ctor& c : ctors) {
        c.type->constructor = interp.newNative(c.type->name, c.fn);
        builtins.globals.set(Symbol::intern(c.type->name), Value(c.type));
    }
    AttrMap& od = t.object->dict;
    interp.defineNative(od, "__setattr__", objectSetattr);
    interp.defineNative(od, "__getattribute__", objectGetattribute);
    interp.defineNative(od, "__delattr__", objectDelattr);
    interp.defineNative(od, "__init__", objectInit);
    od.set(sym("__new__"),
           Value(makeRef<StaticMethodObject>(interp.newNative("__new__", objectNew))));
    AttrMap& sd = t.str->dict;
    sd.set(sym("__new__"), Value(makeRef<StaticMethodObject>(interp.newNative("__new__", strNew))));
    interp.defineNative(sd, "__str__", strStr);
    interp.defineNative(sd, "__repr__", strRepr);
    interp.defineNative(sd, "__format__", strFormat);
    interp.defineNative(t.floatType->dict, "is_integer", floatIsInteger);
    interp.defineNative(t.intType->dict, "bit_length", intBitLength);
    interp.defineNative(t.type->dict, "mro", typeMro);
    interp.defineNative(t.baseException->dict, "with_traceback", exceptionWithTraceback);
    interp.defineNative(t.baseException->dict, "__init__", exceptionInit);
}

} // namespace kiln::lang
