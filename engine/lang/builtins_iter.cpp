// SPDX-License-Identifier: MIT
// The builtins that consume or build iterables: min, max, sum, any, all, sorted, reversed,
// enumerate, zip, map, filter, iter, next.
#include "lang/builtins.h"
#include "lang/format.h"
#include "lang/generators.h"
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
            interp.raiseTypeError("'" + kw + "' is an invalid keyword argument for " + name + "()");
    }
    if (args.positional.empty())
        interp.raiseTypeError(std::string(name) + " expected at least 1 argument, got 0");
    if (args.positional.size() > 1 && !dflt.isEmpty())
        interp.raiseTypeError(std::string("Cannot specify a default for ") + name +
                              "() with multiple positional arguments");
    std::vector<Value> items =
        args.positional.size() == 1
            ? interp.toVector(args.positional[0])
            : std::vector<Value>(args.positional.begin(), args.positional.end());
    if (items.empty()) {
        if (!dflt.isEmpty()) return dflt;
        interp.raiseValueError(std::string(name) + "() arg is an empty sequence");
    }
    size_t best = 0;
    Value bestKey = key.isEmpty() || key.isNone() ? items[0] : interp.call(key, {items[0]});
    for (size_t i = 1; i < items.size(); ++i) {
        Value k = key.isEmpty() || key.isNone() ? items[i] : interp.call(key, {items[i]});
        // CPython asks `item > best` for max and `item < best` for min (in that order).
        bool better = k.isNumber() && bestKey.isNumber()
                          ? (isMax ? interp.lessThan(bestKey, k) : interp.lessThan(k, bestKey))
                          : interp.truthy(interp.compare(
                                isMax ? CompareOperator::Gt : CompareOperator::Lt, k, bestKey));
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
    static const BuiltinSignature sig("sum(iterable, /, start=0)");
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
    static const BuiltinSignature anySig("any(iterable, /)");
    static const BuiltinSignature allSig("all(iterable, /)");
    BoundArgs a = (isAny ? anySig : allSig).bind(interp, args);
    Value it = interp.getIter(a[0]);
    Value item;
    while (interp.iterNext(it, item))
        if (interp.truthy(item) == isAny) return Value::fromBool(isAny);
    return Value::fromBool(!isAny);
}

Value builtinAny(Interpreter& interp, const CallArgs& args, void*) {
    return anyAll(interp, args, true);
}

Value builtinAll(Interpreter& interp, const CallArgs& args, void*) {
    return anyAll(interp, args, false);
}

Value builtinSorted(Interpreter& interp, const CallArgs& args, void*) {
    // Named "sort" because CPython's sorted() passes its keywords on to list.sort().
    static const BuiltinSignature sig("sort(iterable, /, *, key=None, reverse=False)");
    if (args.positional.size() != 1)
        interp.raiseTypeError("sorted expected 1 argument, got " +
                              std::to_string(args.positional.size()));
    BoundArgs a = sig.bind(interp, args);
    auto list = makeRef<ListObject>(interp.toVector(a[0]));
    sortValues(interp, list->items, a[1], a.toBool(2));
    return Value(list);
}

Value builtinReversed(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("reversed(sequence, /)");
    Value v = sig.bind(interp, args)[0];
    if (v.is(ObjectKind::Range)) {
        auto* r = v.as<RangeObject>();
        uint64_t n = r->count();
        // -step wraps for INT64_MIN, and so does the iterator's arithmetic: still exact.
        return Value(
            makeRef<RangeIterator>(n ? r->at(n - 1) : r->start,
                                   static_cast<int64_t>(0 - static_cast<uint64_t>(r->step)), n));
    }
    if (v.is(ObjectKind::Instance) || v.is(ObjectKind::Type)) { // a class: its metaclass's
        Value method = v.is(ObjectKind::Type) ? interp.metaclassMethod(v, sym("__reversed__"))
                                              : interp.tryGetAttr(v, sym("__reversed__"));
        if (!method.isEmpty()) return interp.call(method, {});
    }
    if (v.is(ObjectKind::List)) return Value(makeRef<ListReverseIterator>(v));
    if (!(v.is(ObjectKind::List) || v.is(ObjectKind::Tuple) || v.is(ObjectKind::Str) ||
          v.is(ObjectKind::Instance) || v.isTensor()))
        interp.raiseTypeError("'" + interp.typeName(v) + "' object is not reversible");
    std::vector<Value> items = interp.toVector(v);
    std::reverse(items.begin(), items.end());
    return interp.getIter(listValue(std::move(items)));
}

Value builtinEnumerate(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("enumerate(iterable, start=0)");
    BoundArgs a = sig.bind(interp, args);
    return Value(makeRef<EnumerateIterator>(interp.getIter(a[0]), a.toInt(1)));
}

Value builtinZip(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("zip(*iterables, strict=False)");
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
    static const BuiltinSignature sig("filter(function, iterable, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value(makeRef<FilterIterator>(a[0], interp.getIter(a[1])));
}

Value builtinIter(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("iter(object, /)");
    return interp.getIter(sig.bind(interp, args)[0]);
}

Value builtinNext(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("next(iterator, default=..., /)");
    if (args.positional.empty() || args.positional.size() > 2)
        interp.raiseTypeError("next expected at least 1 argument, got " +
                              std::to_string(args.positional.size()));
    Value it = args.positional[0];
    if (!it.is(ObjectKind::Iterator)) {
        if (!it.is(ObjectKind::Instance) || interp.tryGetAttr(it, sym("__next__")).isEmpty())
            interp.raiseTypeError("'" + interp.typeName(it) + "' object is not an iterator");
        if (args.positional.size() == 1) return interp.callMethod(it, sym("__next__"), {});
        it = Value(makeRef<UserIterator>(it)); // turns StopIteration into exhaustion
    }
    Value out;
    if (interp.iterNext(it, out)) return out;
    if (args.positional.size() == 2) return args.positional[1];
    if (it.asObject()->type() == builtinTypes().generator.get()) { // StopIteration(return value)
        const Value& returned = static_cast<GeneratorObject*>(it.asObject())->body().returned;
        if (!returned.isEmpty() && !returned.isNone())
            interp.raise(interp.call(Value(builtinTypes().stopIteration), {returned}));
    }
    interp.raise(builtinTypes().stopIteration.get(), "");
}

} // namespace

namespace {

/// Sorts positions stably by `less` with a bottom-up merge sort. Written out instead of
/// std::stable_sort because `less` runs Python code: a comparison that is inconsistent (a
/// random __lt__) must not make the sort read out of bounds, and one that raises must leave
/// `order` a permutation. Two runs already in order cost one comparison, so sorted input
/// takes n - 1 comparisons, as with CPython's timsort.
template <typename Less>
void mergeSortPositions(std::vector<size_t>& order, Less less) {
    const size_t n = order.size();
    std::vector<size_t> merged(n);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo + width < n; lo += 2 * width) {
            const size_t mid = lo + width;
            const size_t hi = std::min(lo + 2 * width, n);
            if (!less(order[mid], order[mid - 1])) continue;
            size_t left = lo, right = mid, out = lo;
            while (left < mid && right < hi)
                merged[out++] = less(order[right], order[left]) ? order[right++] : order[left++];
            while (left < mid)
                merged[out++] = order[left++];
            while (right < hi)
                merged[out++] = order[right++];
            std::copy(merged.begin() + lo, merged.begin() + hi, order.begin() + lo);
        }
    }
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
    mergeSortPositions(order, [&](size_t x, size_t y) {
        return reverse ? interp.lessThan(k[y], k[x]) : interp.lessThan(k[x], k[y]);
    });
    std::vector<Value> sorted;
    sorted.reserve(items.size());
    for (size_t i : order)
        sorted.push_back(std::move(items[i]));
    items = std::move(sorted);
}

void installIterationBuiltins(Interpreter& interp, ModuleObject& builtins) {
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"max", builtinMax},           {"min", builtinMin},
        {"sum", builtinSum},           {"any", builtinAny},
        {"all", builtinAll},           {"sorted", builtinSorted},
        {"reversed", builtinReversed}, {"enumerate", builtinEnumerate},
        {"zip", builtinZip},           {"map", builtinMap},
        {"filter", builtinFilter},     {"iter", builtinIter},
        {"next", builtinNext},
    };
    for (const Entry& e : entries)
        interp.defineNative(builtins.globals, e.name, e.fn);
}

} // namespace kiln::lang
