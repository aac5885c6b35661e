// SPDX-License-Identifier: MIT
// The value protocols: truth, length, membership, equality, hashing, ordering, repr and str.
#include "lang/format.h"
#include "lang/interpreter.h"
#include "lang/number_compare.h"
#include "lang/py_hash.h"
#include "tensor/ops.h"
#include "tensor/print.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

std::string addressOf(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%012llx",
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
    return buf;
}

constexpr const char* kInRepr = " while getting the repr of an object";
constexpr const char* kInStr = " while getting the str of an object";
constexpr const char* kInComparison = " in comparison";

// Guards repr against self-containing containers ([...] as CPython prints them).
struct ReprGuard {
    static std::vector<const Object*>& active() {
        static std::vector<const Object*> stack;
        return stack;
    }
    explicit ReprGuard(const Object* o)
        : object(o)
        , recursive(std::find(active().begin(), active().end(), o) != active().end()) {
        if (!recursive) active().push_back(o);
    }
    ~ReprGuard() {
        if (!recursive) active().pop_back();
    }
    const Object* object;
    bool recursive;
};

} // namespace

bool Interpreter::truthy(const Value& v) {
    switch (v.tag()) {
    case Value::Tag::Empty:
    case Value::Tag::None:
        return false;
    case Value::Tag::Bool:
    case Value::Tag::Int:
        return v.asInt() != 0;
    case Value::Tag::Float:
        return v.asFloat() != 0.0;
    case Value::Tag::Tensor: {
        if (m_recorder && m_recorder->isTraced(v)) [[unlikely]]
            m_recorder->needValue(v, TensorValueUse::Bool);
        tensor::Tensor t = v.asTensor();
        if (t.numel() == 0)
            raise(builtinTypes().runtimeError.get(),
                  "Boolean value of Tensor with no values is ambiguous");
        if (t.numel() > 1)
            raise(builtinTypes().runtimeError.get(),
                  "Boolean value of Tensor with more than one value is ambiguous");
        return tensor::item(t).toBool();
    }
    case Value::Tag::Object:
        break;
    }
    Object* o = v.asObject();
    switch (o->kind()) {
    case ObjectKind::Str:
        return !static_cast<StrObject*>(o)->str().empty();
    case ObjectKind::List:
        return !static_cast<ListObject*>(o)->items.empty();
    case ObjectKind::Tuple:
        return !static_cast<TupleObject*>(o)->items.empty();
    case ObjectKind::Dict:
        return static_cast<DictObject*>(o)->size() != 0;
    case ObjectKind::Range:
        return static_cast<RangeObject*>(o)->length() != 0;
    case ObjectKind::DictView:
        return static_cast<DictViewObject*>(o)->dict->size() != 0;
    case ObjectKind::Type: { // a class: its metaclass's __bool__ or __len__
        Value b = metaclassMethod(v, sym("__bool__"));
        if (!b.isEmpty()) {
            Value r = call(b, {});
            if (!r.isBool()) raiseTypeError("__bool__ should return bool, returned " + typeName(r));
            return r.asBool();
        }
        return metaclassMethod(v, sym("__len__")).isEmpty() || len(v) != 0;
    }
    case ObjectKind::Instance: {
        Value b = tryGetAttr(v, sym("__bool__"));
        if (!b.isEmpty()) {
            Value r = call(b, {});
            if (!r.isBool()) raiseTypeError("__bool__ should return bool, returned " + typeName(r));
            return r.asBool();
        }
        Value l = tryGetAttr(v, sym("__len__"));
        if (!l.isEmpty()) return len(v) != 0;
        return true;
    }
    default:
        return true;
    }
}

int64_t Interpreter::len(const Value& v) {
    if (v.isTensor()) {
        tensor::Tensor t = v.asTensor();
        if (t.dim() == 0) raiseTypeError("len() of a 0-d tensor");
        return t.size(0);
    }
    if (v.isObject()) {
        Object* o = v.asObject();
        switch (o->kind()) {
        case ObjectKind::Str:
            return static_cast<StrObject*>(o)->length();
        case ObjectKind::List:
            return static_cast<int64_t>(static_cast<ListObject*>(o)->items.size());
        case ObjectKind::Tuple:
            return static_cast<int64_t>(static_cast<TupleObject*>(o)->items.size());
        case ObjectKind::Dict:
            return static_cast<int64_t>(static_cast<DictObject*>(o)->size());
        case ObjectKind::Range:
            if (static_cast<RangeObject*>(o)->count() > static_cast<uint64_t>(INT64_MAX))
                raise(builtinTypes().overflowError.get(),
                      "Python int too large to convert to C ssize_t");
            return static_cast<RangeObject*>(o)->length();
        case ObjectKind::DictView:
            return static_cast<int64_t>(static_cast<DictViewObject*>(o)->dict->size());
        case ObjectKind::Instance:
        case ObjectKind::Type: { // a class: its metaclass's __len__
            Value l = o->kind() == ObjectKind::Type ? metaclassMethod(v, sym("__len__"))
                                                    : tryGetAttr(v, sym("__len__"));
            if (l.isEmpty()) break;
            Value r = call(l, {});
            if (!r.isIntLike())
                raiseTypeError("'" + typeName(r) + "' object cannot be interpreted as an integer");
            if (r.asInt() < 0) raiseValueError("__len__() should return >= 0");
            return r.asInt();
        }
        default:
            break;
        }
    }
    raiseTypeError("object of type '" + typeName(v) + "' has no len()");
}

bool Interpreter::contains(const Value& container, const Value& item) {
    if (container.isObject()) {
        Object* o = container.asObject();
        switch (o->kind()) {
        case ObjectKind::List:
        case ObjectKind::Tuple: {
            const auto& items = o->kind() == ObjectKind::List ? static_cast<ListObject*>(o)->items
                                                              : static_cast<TupleObject*>(o)->items;
            for (size_t i = 0; i < items.size(); ++i)
                if (items[i].identical(item) || equals(items[i], item)) return true;
            return false;
        }
        case ObjectKind::Dict:
            return static_cast<DictObject*>(o)->find(*this, item) != nullptr;
        case ObjectKind::DictView: {
            auto* view = static_cast<DictViewObject*>(o);
            if (view->part == DictViewObject::Part::Keys)
                return view->dict->find(*this, item) != nullptr;
            if (view->part == DictViewObject::Part::Items) {
                if (!item.is(ObjectKind::Tuple) || item.as<TupleObject>()->items.size() != 2)
                    return false;
                const auto& kv = item.as<TupleObject>()->items;
                const Value* v = view->dict->find(*this, kv[0]);
                return v && (v->identical(kv[1]) || equals(*v, kv[1]));
            }
            break; // values: by iteration
        }
        case ObjectKind::Str:
            if (!item.is(ObjectKind::Str))
                raiseTypeError("'in <string>' requires string as left operand, not " +
                               typeName(item));
            return static_cast<StrObject*>(o)->str().find(item.as<StrObject>()->str()) !=
                   std::string::npos;
        case ObjectKind::Range: {
            auto* r = static_cast<RangeObject*>(o);
            if (!item.isIntLike()) break;
            int64_t x = item.asInt();
            if (r->step > 0 ? (x < r->start || x >= r->stop) : (x > r->start || x <= r->stop))
                return false;
            // |x - start| and |step| as unsigned: no overflow near the int64 limits.
            uint64_t distance = r->step > 0
                                    ? static_cast<uint64_t>(x) - static_cast<uint64_t>(r->start)
                                    : static_cast<uint64_t>(r->start) - static_cast<uint64_t>(x);
            uint64_t stride =
                r->step > 0 ? static_cast<uint64_t>(r->step) : 0 - static_cast<uint64_t>(r->step);
            return distance % stride == 0;
        }
        case ObjectKind::Instance:
        case ObjectKind::Type: { // a class: its metaclass's __contains__
            Value c = o->kind() == ObjectKind::Type
                          ? metaclassMethod(container, sym("__contains__"))
                          : tryGetAttr(container, sym("__contains__"));
            if (!c.isEmpty()) return truthy(call(c, {item}));
            break;
        }
        default:
            break;
        }
    }
    if (container.isTensor()) {
        tensor::Tensor eq = tensor::binary(
            tensor::BinaryOp::Eq, container.asTensor(),
            item.isTensor() ? item.asTensor()
                            : tensor::wrapNumber(item.isFloat() ? tensor::Scalar(item.asFloat())
                                                                : tensor::Scalar(item.asInt())));
        return tensor::item(tensor::any(eq, std::nullopt, false)).toBool();
    }
    bool iterable = container.isObject() &&
                    (container.is(ObjectKind::Iterator) || container.is(ObjectKind::Instance) ||
                     container.is(ObjectKind::DictView) ||
                     (container.is(ObjectKind::Type) && isIterable(container)));
    if (!iterable) raiseTypeError("argument of type '" + typeName(container) + "' is not iterable");
    Value it = getIter(container);
    Value x;
    while (iterNext(it, x))
        if (x.identical(item) || equals(x, item)) return true;
    return false;
}

/// keys() and items() views compare as sets (same size, every key or pair of one in the
/// other); values() views only equal themselves, as in CPython.
bool Interpreter::dictViewsEqual(const DictViewObject& x, const DictViewObject& y) {
    if (x.part != y.part || x.part == DictViewObject::Part::Values) return &x == &y;
    if (x.dict->size() != y.dict->size()) return false;
    bool same = true;
    x.dict->forEach([&](const Value& k, const Value& v) {
        if (!same) return;
        Value* other = y.dict->find(*this, k);
        same = other &&
               (x.part == DictViewObject::Part::Keys || other->identical(v) || equals(*other, v));
    });
    return same;
}

bool Interpreter::equals(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) return compareNumbers(a, b) == 0;
    if (a.isNone() || b.isNone()) return a.isNone() && b.isNone();
    static const Symbol eq = sym("__eq__");
    if (a.isTensor() || b.isTensor() || a.is(ObjectKind::Instance) || b.is(ObjectKind::Instance) ||
        a.is(ObjectKind::Native) || b.is(ObjectKind::Native) || strSubclassOverride(a, eq) ||
        strSubclassOverride(b, eq))
        return truthy(compare(CompareOperator::Eq, a, b));
    if (!a.isObject() || !b.isObject()) return false;
    Object* x = a.asObject();
    Object* y = b.asObject();
    if (x == y) return true;
    if (x->kind() == ObjectKind::Str && y->kind() == ObjectKind::Str)
        return static_cast<StrObject*>(x)->str() == static_cast<StrObject*>(y)->str();
    bool xSeq = x->kind() == ObjectKind::List || x->kind() == ObjectKind::Tuple;
    bool yContainer = y->kind() == ObjectKind::List || y->kind() == ObjectKind::Tuple ||
                      y->kind() == ObjectKind::Dict;
    std::optional<NestedCall> nested;
    if (x->kind() == y->kind() && yContainer) nested.emplace(*this, kInComparison);
    if (xSeq && x->kind() == y->kind()) {
        const auto& xs = x->kind() == ObjectKind::List ? static_cast<ListObject*>(x)->items
                                                       : static_cast<TupleObject*>(x)->items;
        const auto& ys = y->kind() == ObjectKind::List ? static_cast<ListObject*>(y)->items
                                                       : static_cast<TupleObject*>(y)->items;
        if (xs.size() != ys.size()) return false;
        for (size_t i = 0; i < xs.size(); ++i)
            if (!xs[i].identical(ys[i]) && !equals(xs[i], ys[i])) return false;
        return true;
    }
    if (x->kind() == ObjectKind::Dict && y->kind() == ObjectKind::Dict) {
        auto* dx = static_cast<DictObject*>(x);
        auto* dy = static_cast<DictObject*>(y);
        if (dx->size() != dy->size()) return false;
        bool same = true;
        dx->forEach([&](const Value& k, const Value& v) {
            Value* other = same ? dy->find(*this, k) : nullptr;
            same = same && other && (other->identical(v) || equals(*other, v));
        });
        return same;
    }
    if (x->kind() == ObjectKind::DictView && y->kind() == ObjectKind::DictView)
        return dictViewsEqual(*static_cast<DictViewObject*>(x), *static_cast<DictViewObject*>(y));
    if (x->kind() == ObjectKind::BoundMethod && y->kind() == ObjectKind::BoundMethod) {
        auto* mx = static_cast<BoundMethodObject*>(x);
        auto* my = static_cast<BoundMethodObject*>(y);
        return mx->self.identical(my->self) && mx->function.identical(my->function);
    }
    if (x->kind() == ObjectKind::NativeFunction && y->kind() == ObjectKind::NativeFunction) {
        auto* fx = static_cast<NativeFunctionObject*>(x);
        auto* fy = static_cast<NativeFunctionObject*>(y);
        return fx->fn == fy->fn && fx->data == fy->data && !fx->bound.isEmpty() &&
               fx->bound.identical(fy->bound);
    }
    if (x->kind() == ObjectKind::Range && y->kind() == ObjectKind::Range) {
        auto* rx = static_cast<RangeObject*>(x);
        auto* ry = static_cast<RangeObject*>(y);
        return rx->length() == ry->length() &&
               (rx->length() == 0 ||
                (rx->start == ry->start && (rx->length() == 1 || rx->step == ry->step)));
    }
    return false;
}

std::optional<size_t> Interpreter::userHash(const Value& v, const Value& hashAttr) {
    if (hashAttr.isNone()) raiseTypeError("unhashable type: '" + typeName(v) + "'");
    if (!hashAttr.is(ObjectKind::Function)) return std::nullopt;
    Value r = callMethod(v, sym("__hash__"), {});
    if (!r.isIntLike()) raiseTypeError("__hash__ method should return an integer");
    return static_cast<size_t>(pyHashFinal(r.asInt())); // kept as returned, -1 aside
}

size_t Interpreter::hash(const Value& v) {
    // Numbers and tuples hash as in CPython (py_hash.h); the int64 value travels as size_t.
    auto bits = [](int64_t h) { return static_cast<size_t>(h); };
    switch (v.tag()) {
    case Value::Tag::Empty:
    case Value::Tag::None:
        return 0x9e3779b9u;
    case Value::Tag::Bool:
    case Value::Tag::Int:
        return bits(pyHashInt(v.asInt()));
    case Value::Tag::Float: {
        double d = v.asFloat();
        // CPython hashes NaN by identity; Kiln's floats have none, and NaN equals nothing.
        return std::isnan(d) ? 0 : bits(pyHashDouble(d));
    }
    case Value::Tag::Tensor:
        return std::hash<const void*>()(v.tensorImpl());
    case Value::Tag::Object:
        break;
    }
    Object* o = v.asObject();
    switch (o->kind()) {
    case ObjectKind::Str:
        if (const Value* h = strSubclassOverride(v, sym("__hash__")))
            if (auto custom = userHash(v, *h)) return *custom;
        return static_cast<StrObject*>(o)->hash();
    case ObjectKind::Tuple: {
        PyTupleHash h;
        for (const Value& item : static_cast<TupleObject*>(o)->items)
            h.add(static_cast<int64_t>(hash(item)));
        return bits(h.value());
    }
    case ObjectKind::List:
    case ObjectKind::Dict:
        raiseTypeError("unhashable type: '" + typeName(v) + "'");
    case ObjectKind::Instance: {
        if (const Value* h = o->type()->lookup(sym("__hash__")))
            if (auto custom = userHash(v, *h)) return *custom;
        return std::hash<const void*>()(o);
    }
    default:
        return std::hash<const void*>()(o);
    }
}

bool Interpreter::lessThan(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) return compareNumbers(a, b) == -1;
    return truthy(compare(CompareOperator::Lt, a, b));
}

std::string Interpreter::repr(const Value& v) {
    switch (v.tag()) {
    case Value::Tag::Empty:
    case Value::Tag::None:
        return "None";
    case Value::Tag::Bool:
        return v.asBool() ? "True" : "False";
    case Value::Tag::Int:
        return std::to_string(v.asInt());
    case Value::Tag::Float:
        return floatRepr(v.asFloat());
    case Value::Tag::Tensor: {
        if (m_recorder && m_recorder->isTraced(v)) [[unlikely]]
            m_recorder->needValue(v, TensorValueUse::Format);
        tensor::Tensor t = v.asTensor();
        return t.isParameter() ? tensor::formatParameter(t) : tensor::formatTensor(t);
    }
    case Value::Tag::Object:
        break;
    }
    Object* o = v.asObject();
    // Types may define __repr__ (user classes, torch.Size, torch.dtype, ...); a subclass of str
    // only where it overrides str's.
    if (o->kind() != ObjectKind::Type) {
        const Value* custom = o->kind() == ObjectKind::Str ? strSubclassOverride(v, sym("__repr__"))
                                                           : o->type()->lookup(sym("__repr__"));
        if (custom &&
            (custom->is(ObjectKind::Function) || custom->is(ObjectKind::NativeFunction))) {
            // No "..." guard here: like CPython, a __repr__ that recurses into itself ends in
            // RecursionError (only the built-in containers print [...] for themselves).
            NestedCall nested(*this, kInRepr);
            Value r = callMethod(v, sym("__repr__"), {});
            if (!r.is(ObjectKind::Str))
                raiseTypeError("__repr__ returned non-string (type " + typeName(r) + ")");
            return r.as<StrObject>()->str();
        }
    }
    switch (o->kind()) {
    case ObjectKind::Str:
        return pyStringRepr(static_cast<StrObject*>(o)->str());
    case ObjectKind::List:
    case ObjectKind::Tuple: {
        ReprGuard guard(o);
        bool isList = o->kind() == ObjectKind::List;
        if (guard.recursive) return isList ? "[...]" : "(...)";
        NestedCall nested(*this, kInRepr);
        const auto& items =
            isList ? static_cast<ListObject*>(o)->items : static_cast<TupleObject*>(o)->items;
        std::string out = isList ? "[" : "(";
        for (size_t i = 0; i < items.size(); ++i)
            out += (i ? ", " : "") + repr(items[i]);
        if (!isList && items.size() == 1) out += ",";
        return out + (isList ? "]" : ")");
    }
    case ObjectKind::Dict: {
        ReprGuard guard(o);
        if (guard.recursive) return "{...}";
        NestedCall nested(*this, kInRepr);
        std::string out = "{";
        bool first = true;
        static_cast<DictObject*>(o)->forEach([&](const Value& k, const Value& val) {
            out += (first ? "" : ", ") + repr(k) + ": " + repr(val);
            first = false;
        });
        return out + "}";
    }
    case ObjectKind::DictView:
        return o->type()->name + "(" + repr(listValue(toVector(v))) + ")";
    case ObjectKind::Range: {
        auto* r = static_cast<RangeObject*>(o);
        return "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop) +
               (r->step == 1 ? "" : ", " + std::to_string(r->step)) + ")";
    }
    case ObjectKind::Slice: {
        auto* s = static_cast<SliceObject*>(o);
        return "slice(" + repr(s->start) + ", " + repr(s->stop) + ", " + repr(s->step) + ")";
    }
    case ObjectKind::Type: {
        auto* t = static_cast<TypeObject*>(o);
        Value custom = metaclassMethod(v, sym("__repr__")); // EnumType's `<enum 'Color'>`
        if (!custom.isEmpty()) {
            NestedCall nested(*this, kInRepr);
            Value r = call(custom, {});
            if (!r.is(ObjectKind::Str))
                raiseTypeError("__repr__ returned non-string (type " + typeName(r) + ")");
            return r.as<StrObject>()->str();
        }
        return "<class '" + t->qualifiedName() + "'>";
    }
    case ObjectKind::Function: {
        auto* fn = static_cast<FunctionObject*>(o);
        return "<function " + fn->code->qualifiedName + " at " + addressOf(fn) + ">";
    }
    case ObjectKind::NativeFunction: {
        auto* fn = static_cast<NativeFunctionObject*>(o);
        if (!fn->bound.isEmpty())
            return "<built-in method " + fn->name + " of " + typeName(fn->bound) + " object at " +
                   addressOf(fn->bound.isObject() ? static_cast<const void*>(fn->bound.asObject())
                                                  : fn) +
                   ">";
        switch (fn->style) {
        case NativeStyle::PythonFunction:
            return "<function " + (fn->qualname.empty() ? fn->name : fn->qualname) + " at " +
                   addressOf(fn) + ">";
        case NativeStyle::VariableFunction:
            // torch's operators are static methods of one class object: one address for all.
            return "<built-in method " + fn->name + " of type object at " +
                   addressOf(&builtinTypes().builtinFunction) + ">";
        case NativeStyle::Builtin:
            break;
        }
        return "<built-in function " + fn->name + ">";
    }
    case ObjectKind::BoundMethod: {
        auto* bm = static_cast<BoundMethodObject*>(o);
        std::string name = bm->function.is(ObjectKind::Function)
                               ? bm->function.as<FunctionObject>()->code->qualifiedName
                               : repr(bm->function);
        return "<bound method " + name + " of " + repr(bm->self) + ">";
    }
    case ObjectKind::Module: {
        auto* m = static_cast<ModuleObject*>(o);
        if (m->source && m->name != "__main__")
            return "<module '" + m->name + "' from '" + m->source->path() + "'>";
        return "<module '" + m->name + "' (built-in)>";
    }
    case ObjectKind::Instance: {
        auto* inst = static_cast<InstanceObject*>(o);
        if (inst->type()->isSubtypeOf(builtinTypes().baseException.get())) {
            Value args = getAttr(v, sym("args"));
            std::string inner = repr(args);
            const auto& items = args.as<TupleObject>()->items;
            if (items.size() == 1) inner = "(" + repr(items[0]) + ")";
            return inst->type()->name + inner;
        }
        return "<" + inst->type()->qualifiedName() + " object at " + addressOf(o) + ">";
    }
    case ObjectKind::Property:
        return "<property object at " + addressOf(o) + ">";
    case ObjectKind::Iterator:
        return "<iterator object at " + addressOf(o) + ">";
    case ObjectKind::Cell:
        return "<cell at " + addressOf(o) + ">";
    default:
        break;
    }
    if (o->type() == builtinTypes().ellipsisType.get()) return "Ellipsis";
    if (o->type() == builtinTypes().notImplementedType.get()) return "NotImplemented";
    return "<" + o->type()->qualifiedName() + " object at " + addressOf(o) + ">";
}

std::string Interpreter::str(const Value& v) {
    if (v.is(ObjectKind::Str)) {
        const Value* custom = strSubclassOverride(v, sym("__str__"));
        if (!custom || !custom->is(ObjectKind::Function)) return v.as<StrObject>()->str();
        NestedCall nested(*this, kInStr);
        Value r = callMethod(v, sym("__str__"), {});
        if (!r.is(ObjectKind::Str))
            raiseTypeError("__str__ returned non-string (type " + typeName(r) + ")");
        return r.as<StrObject>()->str();
    }
    if (v.is(ObjectKind::Type)) { // a class: its metaclass's __str__, else its repr
        Value custom = metaclassMethod(v, sym("__str__"));
        if (custom.isEmpty()) return repr(v);
        NestedCall nested(*this, kInStr);
        Value r = call(custom, {});
        if (!r.is(ObjectKind::Str))
            raiseTypeError("__str__ returned non-string (type " + typeName(r) + ")");
        return r.as<StrObject>()->str();
    }
    if (v.isObject()) {
        Object* o = v.asObject();
        if (o->kind() != ObjectKind::Type) {
            const Value* custom = o->type()->lookup(sym("__str__"));
            if (custom &&
                (custom->is(ObjectKind::Function) || custom->is(ObjectKind::NativeFunction))) {
                NestedCall nested(*this, kInStr);
                Value r = callMethod(v, sym("__str__"), {});
                if (!r.is(ObjectKind::Str))
                    raiseTypeError("__str__ returned non-string (type " + typeName(r) + ")");
                return r.as<StrObject>()->str();
            }
        }
        if (o->kind() == ObjectKind::Instance &&
            o->type()->isSubtypeOf(builtinTypes().baseException.get())) {
            Value args = getAttr(v, sym("args"));
            const auto& items = args.as<TupleObject>()->items;
            if (items.empty()) return "";
            if (items.size() == 1) {
                if (o->type()->isSubtypeOf(builtinTypes().keyError.get())) return repr(items[0]);
                return str(items[0]);
            }
            return repr(args);
        }
        if (o->kind() != ObjectKind::Type) {
            // CPython's object.__str__ calls the type's repr slot directly: one recursion level,
            // counted as getting the str.
            const Value* custom = o->type()->lookup(sym("__repr__"));
            if (custom && custom->is(ObjectKind::Function)) {
                NestedCall nested(*this, kInStr);
                Value r = callMethod(v, sym("__repr__"), {});
                if (!r.is(ObjectKind::Str))
                    raiseTypeError("__str__ returned non-string (type " + typeName(r) + ")");
                return r.as<StrObject>()->str();
            }
        }
    }
    return repr(v);
}

} // namespace kiln::lang
