// SPDX-License-Identifier: MIT
// Subscripts: indexing and slicing of lists, tuples, strings, ranges, dicts and tensors, with
// Python's clamping rules and error messages; item assignment and deletion.
#include "lang/interpreter.h"
#include "lang/tensor_bridge.h"

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

// Character offsets of a UTF-8 string, for indexing by code point.
std::vector<size_t> charOffsets(const std::string& s) {
    std::vector<size_t> offsets;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) offsets.push_back(i);
    offsets.push_back(s.size());
    return offsets;
}

} // namespace

std::optional<int64_t> asIndex(Interpreter& interp, const Value& v) {
    if (v.isIntLike()) return v.asInt();
    if (v.isTensor()) {
        tensor::Tensor t = v.asTensor();
        if (t.numel() == 1 && tensor::isIntegral(t.dtype(), true) && t.dim() == 0)
            return tensor::item(t).toInt();
        return std::nullopt;
    }
    if (v.is(ObjectKind::Instance)) {
        Value idx = interp.tryGetAttr(v, sym("__index__"));
        if (!idx.isEmpty()) {
            Value r = interp.call(idx, {});
            if (r.isIntLike()) return r.asInt();
        }
    }
    return std::nullopt;
}

namespace {

/// The slice's bounds over a sequence of `length()` elements, read after its indices are
/// converted: an __index__ may change the sequence (CPython reads the length after, too).
template <typename Length>
SliceBounds sliceBounds(Interpreter& interp, const SliceObject& s, Length length) {
    auto part = [&](const Value& v, std::optional<int64_t>& out) {
        if (v.isNone()) return;
        out = asIndex(interp, v);
        if (!out)
            interp.raiseTypeError("slice indices must be integers or None or have an __index__ "
                                  "method");
    };
    std::optional<int64_t> start, stop, step;
    part(s.start, start);
    part(s.stop, stop);
    part(s.step, step);
    SliceBounds b;
    b.step = step.value_or(1);
    if (b.step == 0) interp.raiseValueError("slice step cannot be zero");
    const int64_t n = length();
    auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v;
        if (x < 0) {
            x += n;
            if (x < 0) x = b.step < 0 ? -1 : 0;
        } else if (x >= n) {
            x = b.step < 0 ? n - 1 : n;
        }
        return x;
    };
    b.start = clamp(start, b.step < 0 ? n - 1 : 0);
    b.stop = clamp(stop, b.step < 0 ? -1 : n);
    if (b.step > 0)
        b.length = b.stop > b.start ? (b.stop - b.start - 1) / b.step + 1 : 0;
    else
        b.length = b.stop < b.start ? (b.start - b.stop - 1) / (-b.step) + 1 : 0;
    return b;
}

} // namespace

SliceBounds computeSlice(Interpreter& interp, const SliceObject& s, int64_t length) {
    return sliceBounds(interp, s, [length] { return length; });
}

namespace {

/// `key` as a position in a sequence of `length()` elements (read after the conversion, which
/// may run an __index__ that changes the sequence).
template <typename Length>
int64_t normaliseIndex(Interpreter& interp, const Value& key, Length length, const char* what,
                       bool assignment = false) {
    std::optional<int64_t> index = asIndex(interp, key);
    if (!index && std::string_view(what) == "string")
        interp.raiseTypeError("string indices must be integers, not '" + interp.typeName(key) +
                              "'");
    if (!index)
        interp.raiseTypeError(std::string(what) + " indices must be integers or slices, not " +
                              interp.typeName(key));
    const int64_t n = length();
    int64_t i = *index < 0 ? *index + n : *index;
    if (i < 0 || i >= n)
        interp.raise(builtinTypes().indexError.get(),
                     std::string(what) + (assignment ? " assignment" : "") + " index out of range");
    return i;
}

/// The current length of a vector of items, for the index and slice helpers above.
auto sizeOf(const std::vector<Value>& items) {
    return [&items] { return static_cast<int64_t>(items.size()); };
}

auto fixed(int64_t length) {
    return [length] { return length; };
}

std::vector<Value> sliceItems(Interpreter& interp, const std::vector<Value>& items,
                              const SliceObject& s) {
    SliceBounds b = sliceBounds(interp, s, sizeOf(items));
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(b.length));
    for (int64_t i = 0, k = b.start; i < b.length; ++i, k += b.step)
        out.push_back(items[static_cast<size_t>(k)]);
    return out;
}

Value strItem(Interpreter& interp, const StrObject& s, const Value& key) {
    const std::string& text = s.str();
    if (key.is(ObjectKind::Slice)) {
        std::vector<size_t> offsets = s.isAscii() ? std::vector<size_t>() : charOffsets(text);
        int64_t n = s.length();
        SliceBounds b = computeSlice(interp, *key.as<SliceObject>(), n);
        std::string out;
        for (int64_t i = 0, k = b.start; i < b.length; ++i, k += b.step) {
            if (s.isAscii())
                out += text[static_cast<size_t>(k)];
            else
                out += text.substr(offsets[k], offsets[k + 1] - offsets[k]);
        }
        return strValue(std::move(out));
    }
    int64_t i = normaliseIndex(interp, key, fixed(s.length()), "string");
    if (s.isAscii()) return strValue(std::string(1, text[static_cast<size_t>(i)]));
    std::vector<size_t> offsets = charOffsets(text);
    return strValue(text.substr(offsets[i], offsets[i + 1] - offsets[i]));
}

} // namespace

namespace {

bool isGenericBuiltin(const TypeObject& type) {
    if (type.isUserClass || type.moduleName != "builtins") return false;
    for (const char* name : {"list", "tuple", "dict", "type", "set", "frozenset"})
        if (type.name == name) return true;
    return false;
}

} // namespace

Value Interpreter::getItem(const Value& object, const Value& key) {
    if (object.isTensor()) return tensorItem(*this, object, key);
    if (object.isObject()) {
        Object* o = object.asObject();
        switch (o->kind()) {
        case ObjectKind::List: {
            auto& items = static_cast<ListObject*>(o)->items;
            if (key.is(ObjectKind::Slice))
                return listValue(sliceItems(*this, items, *key.as<SliceObject>()));
            int64_t i = normaliseIndex(*this, key, sizeOf(items), "list");
            return items[static_cast<size_t>(i)];
        }
        case ObjectKind::Tuple: {
            auto* t = static_cast<TupleObject*>(o);
            if (key.is(ObjectKind::Slice))
                return Value(makeRef<TupleObject>(
                    sliceItems(*this, t->items, *key.as<SliceObject>()), t->type()));
            return t
                ->items[static_cast<size_t>(normaliseIndex(*this, key, sizeOf(t->items), "tuple"))];
        }
        case ObjectKind::Str:
            return strItem(*this, *static_cast<StrObject*>(o), key);
        case ObjectKind::Dict: {
            Value* v = static_cast<DictObject*>(o)->find(*this, key);
            if (!v) {
                Value exc = call(Value(builtinTypes().keyError), {key});
                raise(exc);
            }
            return *v;
        }
        case ObjectKind::Range: {
            auto* r = static_cast<RangeObject*>(o);
            if (key.is(ObjectKind::Slice)) {
                SliceBounds b = computeSlice(*this, *key.as<SliceObject>(), r->length());
                return Value(makeRef<RangeObject>(r->start + b.start * r->step,
                                                  r->start + b.stop * r->step, b.step * r->step));
            }
            int64_t i = normaliseIndex(*this, key, fixed(r->length()), "range object");
            return Value::fromInt(r->at(static_cast<uint64_t>(i)));
        }
        case ObjectKind::Instance: {
            Value g = tryGetAttr(object, sym("__getitem__"));
            if (!g.isEmpty()) return call(g, {key});
            break;
        }
        case ObjectKind::Type: {
            // The metaclass's __getitem__ first (EnumType's Color["RED"]), then the class's
            // own __class_getitem__ (an implicit class method).
            Value mg = metaclassMethod(object, sym("__getitem__"));
            if (!mg.isEmpty()) return call(mg, {key});
            const Value* cg = static_cast<TypeObject*>(o)->lookup(sym("__class_getitem__"));
            if (cg && cg->is(ObjectKind::ClassMethod))
                return call(cg->as<ClassMethodObject>()->function, {object, key});
            if (cg) return call(*cg, {object, key});
            if (isGenericBuiltin(*static_cast<TypeObject*>(o))) // list[int] is PEP 585's alias
                return call(libraryAttr("types", "GenericAlias"), {object, key});
            raiseTypeError("type '" + static_cast<TypeObject*>(o)->name + "' is not subscriptable");
        }
        default:
            break;
        }
    }
    raiseTypeError("'" + typeName(object) + "' object is not subscriptable");
}

void Interpreter::setItem(const Value& object, const Value& key, Value value) {
    if (m_recorder && !object.isTensor()) [[unlikely]]
        value = m_recorder->mutation(object, "item assignment", key, value);
    if (object.isTensor()) {
        tensorAssignItem(*this, object, key, value);
        return;
    }
    if (object.is(ObjectKind::List)) {
        auto& items = object.as<ListObject>()->items;
        if (!key.is(ObjectKind::Slice)) {
            int64_t i = normaliseIndex(*this, key, sizeOf(items), "list", true);
            items[static_cast<size_t>(i)] = std::move(value);
            return;
        }
        if (!isIterable(value)) raiseTypeError("can only assign an iterable");
        std::vector<Value> replacement = toVector(value);
        SliceBounds b = sliceBounds(*this, *key.as<SliceObject>(), sizeOf(items));
        if (b.step == 1) {
            int64_t stop = std::max(b.start, b.stop);
            items.erase(items.begin() + b.start, items.begin() + stop);
            items.insert(items.begin() + b.start, replacement.begin(), replacement.end());
            return;
        }
        if (static_cast<int64_t>(replacement.size()) != b.length)
            raiseValueError("attempt to assign sequence of size " +
                            std::to_string(replacement.size()) + " to extended slice of size " +
                            std::to_string(b.length));
        for (int64_t i = 0, k = b.start; i < b.length; ++i, k += b.step)
            items[static_cast<size_t>(k)] = replacement[static_cast<size_t>(i)];
        return;
    }
    if (object.is(ObjectKind::Dict)) {
        object.as<DictObject>()->set(*this, key, std::move(value));
        return;
    }
    if (object.is(ObjectKind::Instance)) {
        Value s = tryGetAttr(object, sym("__setitem__"));
        if (!s.isEmpty()) {
            call(s, {key, value});
            return;
        }
    }
    raiseTypeError("'" + typeName(object) + "' object does not support item assignment");
}

void Interpreter::delItem(const Value& object, const Value& key) {
    if (m_recorder && !object.isTensor()) [[unlikely]]
        m_recorder->mutation(object, "item deletion", key, Value());
    if (object.is(ObjectKind::List)) {
        auto& items = object.as<ListObject>()->items;
        if (key.is(ObjectKind::Slice)) {
            SliceBounds b = sliceBounds(*this, *key.as<SliceObject>(), sizeOf(items));
            std::vector<bool> drop(items.size(), false);
            for (int64_t i = 0, k = b.start; i < b.length; ++i, k += b.step)
                drop[static_cast<size_t>(k)] = true;
            std::vector<Value> kept;
            for (size_t i = 0; i < items.size(); ++i)
                if (!drop[i]) kept.push_back(std::move(items[i]));
            items = std::move(kept);
            return;
        }
        int64_t i = normaliseIndex(*this, key, sizeOf(items), "list", true);
        items.erase(items.begin() + i);
        return;
    }
    if (object.is(ObjectKind::Dict)) {
        if (!object.as<DictObject>()->erase(*this, key))
            raise(call(Value(builtinTypes().keyError), {key}));
        return;
    }
    if (object.is(ObjectKind::Instance)) {
        Value d = tryGetAttr(object, sym("__delitem__"));
        if (!d.isEmpty()) {
            call(d, {key});
            return;
        }
    }
    raiseTypeError("'" + typeName(object) + "' object doesn't support item deletion");
}

} // namespace kiln::lang
