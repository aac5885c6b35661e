// SPDX-License-Identifier: MIT
// The builtin functions of the workload language.
#include "lang/builtins.h"

#include "lang/format.h"
#include "lang/iterators.h"
#include "lang/signature.h"
#include "lang/tensor_bridge.h"

#include <algorithm>
#include <cmath>

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

Value builtinPrint(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("print(*values, sep=' ', end='\\n', file=None, flush=False)");
    BoundArgs a = sig.bind(interp, args);
    std::string sep = a[1].isNone() ? " " : a.toStr(1);
    std::string end = a[2].isNone() ? "\n" : a.toStr(2);
    if (end == "\\n")
        end = "\n";
    OutputStream stream = OutputStream::Stdout;
    if (a.has(3)) {
        Value name = interp.tryGetAttr(a[3], sym("name"));
        if (name.is(ObjectKind::Str) && name.as<StrObject>()->str() == "<stderr>")
            stream = OutputStream::Stderr;
    }
    std::string text;
    const auto& values = a[0].as<TupleObject>()->items;
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            text += sep;
        text += interp.str(values[i]);
    }
    text += end;
    interp.write(stream, text);
    return Value::none();
}

Value builtinLen(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() != 1 || !args.keywordNames.empty())
        interp.raiseTypeError("len() takes exactly one argument (" +
                              std::to_string(args.count()) + " given)");
    return Value::fromInt(interp.len(args.positional[0]));
}

Value builtinRepr(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("repr(obj, /)");
    return strValue(interp.repr(sig.bind(interp, args)[0]));
}

Value builtinIsinstance(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("isinstance(obj, class_or_tuple, /)");
    BoundArgs a = sig.bind(interp, args);
    std::function<bool(const Value&)> check = [&](const Value& cls) -> bool {
        if (cls.is(ObjectKind::Tuple)) {
            for (const Value& c : cls.as<TupleObject>()->items)
                if (check(c))
                    return true;
            return false;
        }
        if (!cls.is(ObjectKind::Type))
            interp.raiseTypeError("isinstance() arg 2 must be a type, a tuple of types, or a union");
        return interp.isInstance(a[0], cls.as<TypeObject>());
    };
    return Value::fromBool(check(a[1]));
}

Value builtinIssubclass(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("issubclass(cls, class_or_tuple, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].is(ObjectKind::Type))
        interp.raiseTypeError("issubclass() arg 1 must be a class");
    std::function<bool(const Value&)> check = [&](const Value& cls) -> bool {
        if (cls.is(ObjectKind::Tuple)) {
            for (const Value& c : cls.as<TupleObject>()->items)
                if (check(c))
                    return true;
            return false;
        }
        if (!cls.is(ObjectKind::Type))
            interp.raiseTypeError("issubclass() arg 2 must be a class, a tuple of classes, or a union");
        return a[0].as<TypeObject>()->isSubtypeOf(cls.as<TypeObject>());
    };
    return Value::fromBool(check(a[1]));
}

Symbol attrName(Interpreter& interp, const Value& v, const char* fn) {
    if (!v.is(ObjectKind::Str))
        interp.raiseTypeError(std::string(fn) + "(): attribute name must be string");
    return Symbol::intern(v.as<StrObject>()->str());
}

Value builtinGetattr(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() < 2 || args.positional.size() > 3)
        interp.raiseTypeError("getattr expected at least 2 arguments, got " +
                              std::to_string(args.positional.size()));
    Symbol name = attrName(interp, args.positional[1], "getattr");
    if (args.positional.size() == 3) {
        Value v = interp.tryGetAttr(args.positional[0], name);
        return v.isEmpty() ? args.positional[2] : v;
    }
    return interp.getAttr(args.positional[0], name);
}

Value builtinHasattr(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("hasattr(obj, name, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromBool(!interp.tryGetAttr(a[0], attrName(interp, a[1], "hasattr")).isEmpty());
}

Value builtinSetattr(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("setattr(obj, name, value, /)");
    BoundArgs a = sig.bind(interp, args);
    interp.setAttr(a[0], attrName(interp, a[1], "setattr"), a[2]);
    return Value::none();
}

Value builtinDelattr(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("delattr(obj, name, /)");
    BoundArgs a = sig.bind(interp, args);
    interp.delAttr(a[0], attrName(interp, a[1], "delattr"));
    return Value::none();
}

Value builtinAbs(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("abs(x, /)");
    const Value& v = sig.bind(interp, args)[0];
    if (v.isIntLike()) {
        if (v.asInt() == INT64_MIN)
            interp.raise(builtinTypes().overflowError.get(), "integer overflow in abs()");
        return Value::fromInt(std::abs(v.asInt()));
    }
    if (v.isFloat())
        return Value::fromFloat(std::fabs(v.asFloat()));
    if (v.isTensor())
        return Value(tensor::unary(tensor::UnaryOp::Abs, v.asTensor()));
    Value method = interp.tryGetAttr(v, sym("__abs__"));
    if (!method.isEmpty())
        return interp.call(method, {});
    interp.raiseTypeError("bad operand type for abs(): '" + interp.typeName(v) + "'");
}

Value builtinRound(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("round(number, ndigits=None)");
    BoundArgs a = sig.bind(interp, args);
    const Value& v = a[0];
    if (v.isTensor()) {
        tensor::Tensor t = v.asTensor();
        if (t.numel() != 1)
            interp.raiseTypeError("type Tensor doesn't define __round__ method");
        return Value(tensor::unary(tensor::UnaryOp::Round, t));
    }
    if (v.isIntLike()) {
        if (!a.has(1) || a.toInt(1) >= 0)
            return Value::fromInt(v.asInt());
        Expected<double> r = pyRound(static_cast<double>(v.asInt()), a.toInt(1));
        return Value::fromInt(static_cast<int64_t>(r.ok() ? r.value() : 0.0));
    }
    if (!v.isFloat()) {
        Value method = interp.tryGetAttr(v, sym("__round__"));
        if (method.isEmpty())
            interp.raiseTypeError("type " + interp.typeName(v) + " doesn't define __round__ method");
        return a.has(1) ? interp.call(method, {a[1]}) : interp.call(method, {});
    }
    double x = v.asFloat();
    if (a.has(1)) {
        Expected<double> r = pyRound(x, a.toInt(1));
        if (!r.ok())
            interp.raise(builtinTypes().overflowError.get(), r.error().message);
        return Value::fromFloat(r.value());
    }
    if (std::isinf(x))
        interp.raise(builtinTypes().overflowError.get(), "cannot convert float infinity to integer");
    if (std::isnan(x))
        interp.raiseValueError("cannot convert float NaN to integer");
    return Value::fromInt(static_cast<int64_t>(pyRoundHalfEven(x)));
}

Value minMax(Interpreter& interp, const CallArgs& args, bool isMax) {
    const char* name = isMax ? "max" : "min";
    Value key, dflt;
    for (size_t k = 0; k < args.keywordNames.size(); ++k) {
        const std::string& kw = args.keywordNames[k].str();
        if (kw == "key")
            key = args.keywordValues[k];
        else if (kw == "default")
            dflt = args.keywordValues[k];
        else
            interp.raiseTypeError(std::string(name) + "() got an unexpected keyword argument '" +
                                  kw + "'");
    }
    if (args.positional.empty())
        interp.raiseTypeError(std::string(name) + " expected at least 1 argument, got 0");
    std::vector<Value> items = args.positional.size() == 1
                                   ? interp.toVector(args.positional[0])
                                   : std::vector<Value>(args.positional.begin(), args.positional.end());
    if (items.empty()) {
        if (!dflt.isEmpty())
            return dflt;
        interp.raiseValueError(std::string(name) + "() arg is an empty sequence");
    }
    size_t best = 0;
    Value bestKey = key.isEmpty() || key.isNone() ? items[0] : interp.call(key, {items[0]});
    for (size_t i = 1; i < items.size(); ++i) {
        Value k = key.isEmpty() || key.isNone() ? items[i] : interp.call(key, {items[i]});
        bool better = isMax ? interp.lessThan(bestKey, k) : interp.lessThan(k, bestKey);
        if (better) {
            best = i;
            bestKey = k;
        }
    }
    return items[best];
}

Value builtinMax(Interpreter& interp, const CallArgs& args, void*) {
    return minMax(interp, args, true);
}

Value builtinMin(Interpreter& interp, const CallArgs& args, void*) {
    return minMax(interp, args, false);
}

Value builtinSum(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("sum(iterable, /, start=0)");
    BoundArgs a = sig.bind(interp, args);
    if (a[1].is(ObjectKind::Str))
        interp.raiseTypeError("sum() can't sum strings [use ''.join(seq) instead]");
    Value total = a[1];
    Value it = interp.getIter(a[0]);
    Value item;
    while (interp.iterNext(it, item))
        total = interp.binaryOp(BinaryOperator::Add, total, item);
    return total;
}

Value anyAll(Interpreter& interp, const CallArgs& args, bool isAny) {
    static const Signature anySig("any(iterable, /)");
    static const Signature allSig("all(iterable, /)");
    BoundArgs a = (isAny ? anySig : allSig).bind(interp, args);
    Value it = interp.getIter(a[0]);
    Value item;
    while (interp.iterNext(it, item))
        if (interp.truthy(item) == isAny)
            return Value::fromBool(isAny);
    return Value::fromBool(!isAny);
}

Value builtinAny(Interpreter& interp, const CallArgs& args, void*) {
    return anyAll(interp, args, true);
}

Value builtinAll(Interpreter& interp, const CallArgs& args, void*) {
    return anyAll(interp, args, false);
}

Value builtinSorted(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("sorted(iterable, /, *, key=None, reverse=False)");
    BoundArgs a = sig.bind(interp, args);
    auto list = makeRef<ListObject>(interp.toVector(a[0]));
    sortValues(interp, list->items, a[1], a.toBool(2));
    return Value(list);
}

Value builtinReversed(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("reversed(sequence, /)");
    const Value& v = sig.bind(interp, args)[0];
    if (v.is(ObjectKind::Range)) {
        auto* r = v.as<RangeObject>();
        int64_t n = r->length();
        return Value(makeRef<RangeIterator>(r->start + (n - 1) * r->step, r->start - r->step, -r->step));
    }
    if (v.is(ObjectKind::Instance)) {
        Value method = interp.tryGetAttr(v, sym("__reversed__"));
        if (!method.isEmpty())
            return interp.call(method, {});
    }
    if (!(v.is(ObjectKind::List) || v.is(ObjectKind::Tuple) || v.is(ObjectKind::Str) ||
          v.is(ObjectKind::Instance) || v.isTensor()))
        interp.raiseTypeError("'" + interp.typeName(v) + "' object is not reversible");
    std::vector<Value> items = interp.toVector(v);
    std::reverse(items.begin(), items.end());
    return interp.getIter(listValue(std::move(items)));
}

Value builtinEnumerate(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("enumerate(iterable, start=0)");
    BoundArgs a = sig.bind(interp, args);
    return Value(makeRef<EnumerateIterator>(interp.getIter(a[0]), a.toInt(1)));
}

Value builtinZip(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("zip(*iterables, strict=False)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<Value> iters;
    for (const Value& v : a[0].as<TupleObject>()->items)
        iters.push_back(interp.getIter(v));
    return Value(makeRef<ZipIterator>(std::move(iters), a.toBool(1)));
}

Value builtinMap(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() < 2)
        interp.raiseTypeError("map() must have at least two arguments.");
    std::vector<Value> iters;
    for (size_t i = 1; i < args.positional.size(); ++i)
        iters.push_back(interp.getIter(args.positional[i]));
    return Value(makeRef<MapIterator>(args.positional[0], std::move(iters)));
}

Value builtinFilter(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("filter(function, iterable, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value(makeRef<FilterIterator>(a[0], interp.getIter(a[1])));
}

Value builtinIter(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("iter(object, /)");
    return interp.getIter(sig.bind(interp, args)[0]);
}

Value builtinNext(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("next(iterator, default=..., /)");
    if (args.positional.empty() || args.positional.size() > 2)
        interp.raiseTypeError("next expected at least 1 argument, got " +
                              std::to_string(args.positional.size()));
    const Value& it = args.positional[0];
    if (!it.is(ObjectKind::Iterator)) {
        if (it.is(ObjectKind::Instance) && !interp.tryGetAttr(it, sym("__next__")).isEmpty())
            return interp.callMethod(it, sym("__next__"), {});
        interp.raiseTypeError("'" + interp.typeName(it) + "' object is not an iterator");
    }
    Value out;
    if (interp.iterNext(it, out))
        return out;
    if (args.positional.size() == 2)
        return args.positional[1];
    interp.raise(builtinTypes().stopIteration.get(), "");
}

Value builtinCallable(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("callable(obj, /)");
    const Value& v = sig.bind(interp, args)[0];
    if (!v.isObject())
        return Value::fromBool(false);
    switch (v.asObject()->kind()) {
    case ObjectKind::Function:
    case ObjectKind::NativeFunction:
    case ObjectKind::BoundMethod:
    case ObjectKind::Type:
        return Value::fromBool(true);
    default:
        return Value::fromBool(!interp.tryGetAttr(v, sym("__call__")).isEmpty());
    }
}

Value builtinId(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("id(obj, /)");
    const Value& v = sig.bind(interp, args)[0];
    if (v.isObject())
        return Value::fromInt(static_cast<int64_t>(reinterpret_cast<uintptr_t>(v.asObject())));
    if (v.isTensor())
        return Value::fromInt(static_cast<int64_t>(reinterpret_cast<uintptr_t>(v.tensorImpl())));
    return Value::fromInt(static_cast<int64_t>(interp.hash(v)));
}

Value builtinHash(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("hash(obj, /)");
    return Value::fromInt(static_cast<int64_t>(interp.hash(sig.bind(interp, args)[0]) >> 1));
}

Value builtinDivmod(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("divmod(x, y, /)");
    BoundArgs a = sig.bind(interp, args);
    return tupleValue({interp.binaryOp(BinaryOperator::FloorDiv, a[0], a[1]),
                       interp.binaryOp(BinaryOperator::Mod, a[0], a[1])});
}

Value builtinPow(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("pow(base, exp, mod=None)");
    BoundArgs a = sig.bind(interp, args);
    Value r = interp.binaryOp(BinaryOperator::Pow, a[0], a[1]);
    if (a.has(2))
        r = interp.binaryOp(BinaryOperator::Mod, r, a[2]);
    return r;
}

Value builtinChr(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("chr(i, /)");
    int64_t cp = sig.bind(interp, args).toInt(0);
    if (cp < 0 || cp > 0x10FFFF)
        interp.raiseValueError("chr() arg not in range(0x110000)");
    std::string out;
    uint32_t c = static_cast<uint32_t>(cp);
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
    return strValue(std::move(out));
}

Value builtinOrd(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("ord(c, /)");
    BoundArgs a = sig.bind(interp, args);
    const std::string& s = a.toStr(0);
    int64_t n = utf8Length(s);
    if (n != 1)
        interp.raiseTypeError("ord() expected a character, but string of length " +
                              std::to_string(n) + " found");
    unsigned char c0 = static_cast<unsigned char>(s[0]);
    uint32_t cp = c0 < 0x80 ? c0 : c0 < 0xE0 ? c0 & 0x1F : c0 < 0xF0 ? c0 & 0x0F : c0 & 0x07;
    for (size_t i = 1; i < s.size(); ++i)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
    return Value::fromInt(cp);
}

Value builtinFormat(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("format(value, format_spec='', /)");
    BoundArgs a = sig.bind(interp, args);
    return strValue(formatValue(interp, a[0], a.toStr(1)));
}

Value builtinSuper(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() == 2) {
        if (!args.positional[0].is(ObjectKind::Type))
            interp.raiseTypeError("super() argument 1 must be a type, not " +
                                  interp.typeName(args.positional[0]));
        return Value(makeRef<SuperObject>(args.positional[0].as<TypeObject>(), args.positional[1]));
    }
    const Frame* f = interp.currentFrame();
    if (!f || !f->function || !f->function->ownerClass || f->code->params.empty())
        interp.raise(builtinTypes().runtimeError.get(), "super(): no arguments");
    Value self = f->slots[0];
    if (self.is(ObjectKind::Cell))
        self = self.as<CellObject>()->value;
    return Value(makeRef<SuperObject>(f->function->ownerClass, self));
}

Value builtinProperty(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("property(fget=None, fset=None, fdel=None, doc=None)");
    BoundArgs a = sig.bind(interp, args);
    return Value(makeRef<PropertyObject>(a[0], a[1].isNone() ? Value() : a[1]));
}

Value builtinStaticmethod(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("staticmethod(function, /)");
    return Value(makeRef<StaticMethodObject>(sig.bind(interp, args)[0]));
}

Value builtinClassmethod(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("classmethod(function, /)");
    return Value(makeRef<ClassMethodObject>(sig.bind(interp, args)[0]));
}

Value builtinUnavailable(Interpreter& interp, const CallArgs&, void* data) {
    interp.raise(builtinTypes().notImplementedError.get(),
                 std::string(static_cast<const char*>(data)) +
                     "() is not available in Kiln workloads: scripts cannot read or write files, "
                     "run code from strings, or reach the network and other processes");
}

} // namespace

void sortValues(Interpreter& interp, std::vector<Value>& items, const Value& key, bool reverse) {
    std::vector<Value> keys;
    bool useKey = !key.isEmpty() && !key.isNone();
    if (useKey)
        for (const Value& v : items)
            keys.push_back(interp.call(key, {v}));
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const std::vector<Value>& k = useKey ? keys : items;
    // Python's sort is stable, also under reverse=True (equal items keep their order).
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return reverse ? interp.lessThan(k[y], k[x]) : interp.lessThan(k[x], k[y]);
    });
    std::vector<Value> sorted;
    sorted.reserve(items.size());
    for (size_t i : order)
        sorted.push_back(std::move(items[i]));
    items = std::move(sorted);
}

void installBuiltinFunctions(Interpreter& interp, ModuleObject& builtins) {
    AttrMap& g = builtins.globals;
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"print", builtinPrint},         {"len", builtinLen},
        {"repr", builtinRepr},           {"isinstance", builtinIsinstance},
        {"issubclass", builtinIssubclass}, {"getattr", builtinGetattr},
        {"hasattr", builtinHasattr},     {"setattr", builtinSetattr},
        {"delattr", builtinDelattr},     {"abs", builtinAbs},
        {"round", builtinRound},         {"max", builtinMax},
        {"min", builtinMin},             {"sum", builtinSum},
        {"any", builtinAny},             {"all", builtinAll},
        {"sorted", builtinSorted},       {"reversed", builtinReversed},
        {"enumerate", builtinEnumerate}, {"zip", builtinZip},
        {"map", builtinMap},             {"filter", builtinFilter},
        {"iter", builtinIter},           {"next", builtinNext},
        {"callable", builtinCallable},   {"id", builtinId},
        {"hash", builtinHash},           {"divmod", builtinDivmod},
        {"pow", builtinPow},             {"chr", builtinChr},
        {"ord", builtinOrd},             {"format", builtinFormat},
        {"super", builtinSuper},         {"property", builtinProperty},
        {"staticmethod", builtinStaticmethod}, {"classmethod", builtinClassmethod},
    };
    for (const Entry& e : entries)
        interp.defineNative(g, e.name, e.fn);
    static const char* unavailable[] = {"open", "input", "exec", "eval", "compile", "__import__"};
    for (const char* name : unavailable)
        interp.defineNative(g, name, builtinUnavailable, const_cast<char*>(name));
    g.set(sym("Ellipsis"), ellipsisValue());
    g.set(sym("NotImplemented"), notImplementedValue());
    g.set(sym("__name__"), strValue("builtins"));
    for (TypeObject* t : builtinTypes().exceptionTypes())
        g.set(Symbol::intern(t->name), Value(t));
}

void installBuiltins(Interpreter& interp, ModuleObject& builtins) {
    installBuiltinFunctions(interp, builtins);
    installTypeConstructors(interp, builtins);
    installStrMethods(interp);
    installContainerMethods(interp);
}

} // namespace kiln::lang
