// SPDX-License-Identifier: MIT
// Python's `operator` module. Its functions are the targets of graph nodes recorded from Python
// operators (node.target is operator.add), so each one runs the interpreter's own operator
// protocol: operator.add(x, 1) is exactly x + 1, on tensors as on ints. Names, arities and
// argument errors follow CPython 3.11's _operator.
#include "graph/graph_module.h"
#include "lang/signature.h"

#include <deque>

namespace kiln::graph {

using namespace kiln::lang;

namespace detail {
/// attrgetter, itemgetter and methodcaller (operator_getters.cpp).
void installOperatorGetters(Interpreter& interp, ModuleObject& module);
} // namespace detail

namespace {

enum class Family : uint8_t {
    Binary,
    Inplace,
    Unary,
    Compare,
    Contains,
    GetItem,
    SetItem,
    DelItem,
    Abs,
    Truth,
    Index,
    Concat,
    IConcat,
    CountOf,
    IndexOf,
    LengthHint
};

struct OperatorSpec {
    const char* name;
    const char* signature; ///< CPython's, for its argument errors
    Family family;
    uint8_t code; ///< BinaryOperator / UnaryOperator / CompareOperator
    bool dunder;  ///< also exported as __name__ (and_ as __and__)
};

constexpr uint8_t code(BinaryOperator op) {
    return static_cast<uint8_t>(op);
}
constexpr uint8_t code(UnaryOperator op) {
    return static_cast<uint8_t>(op);
}
constexpr uint8_t code(CompareOperator op) {
    return static_cast<uint8_t>(op);
}

using B = BinaryOperator;
using C = CompareOperator;
using F = Family;

// clang-format off
const OperatorSpec kSpecs[] = {
    {"add", "add(a, b, /)", F::Binary, code(B::Add), true},
    {"sub", "sub(a, b, /)", F::Binary, code(B::Sub), true},
    {"mul", "mul(a, b, /)", F::Binary, code(B::Mul), true},
    {"truediv", "truediv(a, b, /)", F::Binary, code(B::Div), true},
    {"floordiv", "floordiv(a, b, /)", F::Binary, code(B::FloorDiv), true},
    {"mod", "mod(a, b, /)", F::Binary, code(B::Mod), true},
    {"pow", "pow(a, b, /)", F::Binary, code(B::Pow), true},
    {"matmul", "matmul(a, b, /)", F::Binary, code(B::MatMul), true},
    {"lshift", "lshift(a, b, /)", F::Binary, code(B::LShift), true},
    {"rshift", "rshift(a, b, /)", F::Binary, code(B::RShift), true},
    {"and_", "and_(a, b, /)", F::Binary, code(B::BitAnd), true},
    {"or_", "or_(a, b, /)", F::Binary, code(B::BitOr), true},
    {"xor", "xor(a, b, /)", F::Binary, code(B::BitXor), true},
    {"iadd", "iadd(a, b, /)", F::Inplace, code(B::Add), true},
    {"isub", "isub(a, b, /)", F::Inplace, code(B::Sub), true},
    {"imul", "imul(a, b, /)", F::Inplace, code(B::Mul), true},
    {"itruediv", "itruediv(a, b, /)", F::Inplace, code(B::Div), true},
    {"ifloordiv", "ifloordiv(a, b, /)", F::Inplace, code(B::FloorDiv), true},
    {"imod", "imod(a, b, /)", F::Inplace, code(B::Mod), true},
    {"ipow", "ipow(a, b, /)", F::Inplace, code(B::Pow), true},
    {"imatmul", "imatmul(a, b, /)", F::Inplace, code(B::MatMul), true},
    {"ilshift", "ilshift(a, b, /)", F::Inplace, code(B::LShift), true},
    {"irshift", "irshift(a, b, /)", F::Inplace, code(B::RShift), true},
    {"iand", "iand(a, b, /)", F::Inplace, code(B::BitAnd), true},
    {"ior", "ior(a, b, /)", F::Inplace, code(B::BitOr), true},
    {"ixor", "ixor(a, b, /)", F::Inplace, code(B::BitXor), true},
    {"neg", "neg(a, /)", F::Unary, code(UnaryOperator::Neg), true},
    {"pos", "pos(a, /)", F::Unary, code(UnaryOperator::Pos), true},
    {"not_", "not_(a, /)", F::Unary, code(UnaryOperator::Not), true},
    {"invert", "invert(a, /)", F::Unary, code(UnaryOperator::Invert), true},
    {"lt", "lt(a, b, /)", F::Compare, code(C::Lt), true},
    {"le", "le(a, b, /)", F::Compare, code(C::LtE), true},
    {"eq", "eq(a, b, /)", F::Compare, code(C::Eq), true},
    {"ne", "ne(a, b, /)", F::Compare, code(C::NotEq), true},
    {"gt", "gt(a, b, /)", F::Compare, code(C::Gt), true},
    {"ge", "ge(a, b, /)", F::Compare, code(C::GtE), true},
    {"is_", "is_(a, b, /)", F::Compare, code(C::Is), false},
    {"is_not", "is_not(a, b, /)", F::Compare, code(C::IsNot), false},
    {"contains", "contains(a, b, /)", F::Contains, 0, true},
    {"getitem", "getitem(a, b, /)", F::GetItem, 0, true},
    {"setitem", "setitem(a, b, c, /)", F::SetItem, 0, true},
    {"delitem", "delitem(a, b, /)", F::DelItem, 0, true},
    {"abs", "abs(a, /)", F::Abs, 0, true},
    {"truth", "truth(a, /)", F::Truth, 0, false},
    {"index", "index(a, /)", F::Index, 0, true},
    {"concat", "concat(a, b, /)", F::Concat, 0, true},
    {"iconcat", "iconcat(a, b, /)", F::IConcat, 0, true},
    {"countOf", "countOf(a, b, /)", F::CountOf, 0, false},
    {"indexOf", "indexOf(a, b, /)", F::IndexOf, 0, false},
    {"length_hint", "length_hint(obj, default=0, /)", F::LengthHint, 0, false},
};
// clang-format on

const std::deque<BuiltinSignature>& signatures() {
    static const std::deque<BuiltinSignature> sigs = [] {
        std::deque<BuiltinSignature> out;
        for (const OperatorSpec& s : kSpecs)
            out.emplace_back(s.signature);
        return out;
    }();
    return sigs;
}

/// CPython's sequence check for concat: the left operand must support indexing.
void checkConcatenable(Interpreter& interp, const Value& a) {
    bool sequence = a.isTensor() || a.is(ObjectKind::List) || a.is(ObjectKind::Tuple) ||
                    a.is(ObjectKind::Str) ||
                    (a.is(ObjectKind::Instance) &&
                     !interp.tryGetAttr(a, Symbol::intern("__getitem__")).isEmpty());
    if (!sequence)
        interp.raiseTypeError("'" + interp.typeName(a) + "' object can't be concatenated");
}

Value index(Interpreter& interp, const Value& a) {
    if (a.isIntLike()) return Value::fromInt(a.asInt());
    Value method =
        a.is(ObjectKind::Instance) ? interp.tryGetAttr(a, Symbol::intern("__index__")) : Value();
    if (!method.isEmpty()) {
        Value r = interp.call(method, {});
        if (!r.isIntLike())
            interp.raiseTypeError("__index__ returned non-int (type " + interp.typeName(r) + ")");
        return Value::fromInt(r.asInt());
    }
    interp.raiseTypeError("'" + interp.typeName(a) +
                          "' object cannot be interpreted as an integer");
}

bool sameItem(Interpreter& interp, const Value& item, const Value& b) {
    return item.identical(b) || interp.equals(item, b);
}

Value countOf(Interpreter& interp, const Value& a, const Value& b) {
    int64_t n = 0;
    for (const Value& item : interp.toVector(a))
        n += sameItem(interp, item, b);
    return Value::fromInt(n);
}

Value indexOf(Interpreter& interp, const Value& a, const Value& b) {
    std::vector<Value> items = interp.toVector(a);
    for (size_t i = 0; i < items.size(); ++i)
        if (sameItem(interp, items[i], b)) return Value::fromInt(static_cast<int64_t>(i));
    interp.raiseValueError("sequence.index(x): x not in sequence");
}

/// len(obj) when obj has one, else the default (the builtins Kiln has define no
/// __length_hint__ beyond len).
Value lengthHint(Interpreter& interp, const Value& obj, const Value& fallback) {
    if (!fallback.isIntLike())
        interp.raiseTypeError("'" + interp.typeName(fallback) +
                              "' object cannot be interpreted as an integer");
    try {
        return Value::fromInt(interp.len(obj));
    } catch (const PyException& e) {
        if (!interp.isInstance(e.exception, builtinTypes().typeError.get())) throw;
    }
    return fallback;
}

Value callBuiltin(Interpreter& interp, const char* name, const Value& a) {
    const Value* fn = interp.builtinsModule().globals.find(Symbol::intern(name));
    KILN_ASSERT(fn, "builtin missing");
    return interp.call(*fn, {a});
}

Value run(Interpreter& interp, const OperatorSpec& s, const BoundArgs& a) {
    switch (s.family) {
    case F::Binary:
        return interp.binaryOp(static_cast<BinaryOperator>(s.code), a[0], a[1]);
    case F::Inplace:
        return interp.inplaceOp(static_cast<BinaryOperator>(s.code), a[0], a[1]);
    case F::Unary:
        return interp.unaryOp(static_cast<UnaryOperator>(s.code), a[0]);
    case F::Compare:
        return interp.compare(static_cast<CompareOperator>(s.code), a[0], a[1]);
    case F::Contains:
        return Value::fromBool(interp.contains(a[0], a[1]));
    case F::GetItem:
        return interp.getItem(a[0], a[1]);
    case F::SetItem:
        interp.setItem(a[0], a[1], a[2]);
        return Value::none();
    case F::DelItem:
        interp.delItem(a[0], a[1]);
        return Value::none();
    case F::Abs:
        return callBuiltin(interp, "abs", a[0]);
    case F::Truth:
        return Value::fromBool(interp.truthy(a[0]));
    case F::Index:
        return index(interp, a[0]);
    case F::Concat:
        checkConcatenable(interp, a[0]);
        return interp.binaryOp(BinaryOperator::Add, a[0], a[1]);
    case F::IConcat:
        checkConcatenable(interp, a[0]);
        return interp.inplaceOp(BinaryOperator::Add, a[0], a[1]);
    case F::CountOf:
        return countOf(interp, a[0], a[1]);
    case F::IndexOf:
        return indexOf(interp, a[0], a[1]);
    case F::LengthHint:
        return lengthHint(interp, a[0], a[1]);
    }
    return Value::none();
}

Value operatorNative(Interpreter& interp, const CallArgs& args, void* data) {
    size_t i = reinterpret_cast<uintptr_t>(data);
    return run(interp, kSpecs[i], signatures()[i].bind(interp, args));
}

/// operator.call(obj, /, *args, **kwargs) (3.11).
Value operatorCall(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.empty())
        interp.raiseTypeError("call() missing required argument 'obj' (pos 1)");
    return interp.call(args.positional[0],
                       CallArgs{args.positional.subspan(1), args.keywordNames, args.keywordValues});
}

/// "__and__" for "and_", "__add__" for "add".
std::string dunderName(std::string name) {
    if (name.back() == '_') name.pop_back();
    return "__" + name + "__";
}

void installOperator(Interpreter& interp, ModuleObject& module) {
    AttrMap& g = module.globals;
    for (size_t i = 0; i < std::size(kSpecs); ++i) {
        Value fn = interp.newNative(kSpecs[i].name, operatorNative, reinterpret_cast<void*>(i));
        g.set(Symbol::intern(kSpecs[i].name), fn);
        if (kSpecs[i].dunder) g.set(Symbol::intern(dunderName(kSpecs[i].name)), fn);
    }
    // CPython: `inv = invert` and `__inv__ = invert`, one function under three names.
    g.set(Symbol::intern("inv"), *g.find(Symbol::intern("invert")));
    g.set(Symbol::intern("__inv__"), *g.find(Symbol::intern("invert")));
    interp.defineNative(g, "call", operatorCall);
    g.set(Symbol::intern("__call__"), *g.find(Symbol::intern("call")));
    detail::installOperatorGetters(interp, module);
}

/// The operator function a node's operator stands for, by name.
const char* operatorName(const Node& n) {
    // `in` and `not in` have none that takes the graph's argument order (item, container):
    // operator.contains is (container, item), and handing it out would compute the wrong thing.
    static const char* const compare[] = {"eq", "ne", "lt", "le", "gt", "ge", "is_", "is_not"};
    static const char* const unary[] = {"neg", "pos", "not_", "invert"};
    size_t code = n.operatorCode;
    switch (n.operatorKind) {
    case OperatorKind::Binary:
    case OperatorKind::InplaceBinary:
        for (const OperatorSpec& s : kSpecs)
            if (s.code == code &&
                s.family == (n.operatorKind == OperatorKind::Binary ? F::Binary : F::Inplace))
                return s.name;
        return nullptr;
    case OperatorKind::Unary:
        return code < std::size(unary) ? unary[code] : nullptr;
    case OperatorKind::Compare:
        return code < std::size(compare) ? compare[code] : nullptr;
    case OperatorKind::GetItem:
        return "getitem";
    case OperatorKind::SetItem:
        return "setitem";
    case OperatorKind::None:
        break;
    }
    return nullptr;
}

} // namespace

void installOperatorModule(Interpreter& interp) {
    interp.registerNativeModule("operator", installOperator);
}

Value operatorFunction(Interpreter& interp, const Node& node) {
    const char* name = operatorName(node);
    if (!name) return Value();
    const Value* fn = interp.importModule("operator")->globals.find(Symbol::intern(name));
    return fn ? *fn : Value();
}

} // namespace kiln::graph
