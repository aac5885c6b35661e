// SPDX-License-Identifier: MIT
// Operators: arithmetic on Python numbers with Python's rounding and error rules, sequence
// concatenation and repetition, comparisons, and dispatch to tensors and to user dunders.
#include "lang/builtins.h"
#include "lang/format_detail.h"
#include "lang/interpreter.h"
#include "lang/number_compare.h"
#include "lang/tensor_bridge.h"

#include <cerrno>
#include <cmath>

namespace kiln::lang {

namespace {

struct Dunders {
    const char* forward;
    const char* reflected;
    const char* inplace;
};

Dunders dundersFor(BinaryOperator op) {
    switch (op) {
    case BinaryOperator::Add:
        return {"__add__", "__radd__", "__iadd__"};
    case BinaryOperator::Sub:
        return {"__sub__", "__rsub__", "__isub__"};
    case BinaryOperator::Mul:
        return {"__mul__", "__rmul__", "__imul__"};
    case BinaryOperator::Div:
        return {"__truediv__", "__rtruediv__", "__itruediv__"};
    case BinaryOperator::FloorDiv:
        return {"__floordiv__", "__rfloordiv__", "__ifloordiv__"};
    case BinaryOperator::Mod:
        return {"__mod__", "__rmod__", "__imod__"};
    case BinaryOperator::Pow:
        return {"__pow__", "__rpow__", "__ipow__"};
    case BinaryOperator::MatMul:
        return {"__matmul__", "__rmatmul__", "__imatmul__"};
    case BinaryOperator::LShift:
        return {"__lshift__", "__rlshift__", "__ilshift__"};
    case BinaryOperator::RShift:
        return {"__rshift__", "__rrshift__", "__irshift__"};
    case BinaryOperator::BitAnd:
        return {"__and__", "__rand__", "__iand__"};
    case BinaryOperator::BitOr:
        return {"__or__", "__ror__", "__ior__"};
    case BinaryOperator::BitXor:
        return {"__xor__", "__rxor__", "__ixor__"};
    }
    return {"", "", ""};
}

[[noreturn]] void overflow(Interpreter& interp, int64_t a, const char* op, int64_t b) {
    interp.raise(builtinTypes().overflowError.get(), "integer overflow: " + std::to_string(a) +
                                                         " " + op + " " + std::to_string(b) +
                                                         " does not fit in Kiln's 64-bit integers");
}

int64_t intPow(Interpreter& interp, int64_t base, int64_t exp) {
    int64_t result = 1, b = base;
    for (int64_t e = exp; e > 0; e >>= 1) {
        if ((e & 1) && __builtin_mul_overflow(result, b, &result))
            overflow(interp, base, "**", exp);
        if (e > 1 && __builtin_mul_overflow(b, b, &b)) overflow(interp, base, "**", exp);
    }
    return result;
}

Value intBinary(Interpreter& interp, BinaryOperator op, int64_t a, int64_t b, bool bothBool) {
    const auto& types = builtinTypes();
    int64_t r = 0;
    switch (op) {
    case BinaryOperator::Add:
        if (__builtin_add_overflow(a, b, &r)) overflow(interp, a, "+", b);
        return Value::fromInt(r);
    case BinaryOperator::Sub:
        if (__builtin_sub_overflow(a, b, &r)) overflow(interp, a, "-", b);
        return Value::fromInt(r);
    case BinaryOperator::Mul:
        if (__builtin_mul_overflow(a, b, &r)) overflow(interp, a, "*", b);
        return Value::fromInt(r);
    case BinaryOperator::Div:
        if (b == 0) interp.raise(types.zeroDivisionError.get(), "division by zero");
        return Value::fromFloat(static_cast<double>(a) / static_cast<double>(b));
    case BinaryOperator::FloorDiv:
    case BinaryOperator::Mod: {
        if (b == 0)
            interp.raise(types.zeroDivisionError.get(), op == BinaryOperator::Mod
                                                            ? "integer modulo by zero"
                                                            : "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) {
            if (op == BinaryOperator::Mod) return Value::fromInt(0);
            overflow(interp, a, "//", b);
        }
        int64_t q = a / b, m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) {
            q -= 1;
            m += b;
        }
        return Value::fromInt(op == BinaryOperator::Mod ? m : q);
    }
    case BinaryOperator::Pow:
        if (b < 0) {
            if (a == 0)
                interp.raise(types.zeroDivisionError.get(),
                             "0.0 cannot be raised to a negative power");
            return Value::fromFloat(std::pow(static_cast<double>(a), static_cast<double>(b)));
        }
        return Value::fromInt(intPow(interp, a, b));
    case BinaryOperator::LShift:
        if (b < 0) interp.raiseValueError("negative shift count");
        if (a != 0 && (b >= 63 || (a << b) >> b != a)) overflow(interp, a, "<<", b);
        return Value::fromInt(a << b);
    case BinaryOperator::RShift:
        if (b < 0) interp.raiseValueError("negative shift count");
        return Value::fromInt(b >= 64 ? (a < 0 ? -1 : 0) : a >> b);
    case BinaryOperator::BitAnd:
        return bothBool ? Value::fromBool(a & b) : Value::fromInt(a & b);
    case BinaryOperator::BitOr:
        return bothBool ? Value::fromBool(a | b) : Value::fromInt(a | b);
    case BinaryOperator::BitXor:
        return bothBool ? Value::fromBool(a ^ b) : Value::fromInt(a ^ b);
    case BinaryOperator::MatMul:
        break;
    }
    return Value();
}

Value floatBinary(Interpreter& interp, BinaryOperator op, double a, double b) {
    const auto& types = builtinTypes();
    switch (op) {
    case BinaryOperator::Add:
        return Value::fromFloat(a + b);
    case BinaryOperator::Sub:
        return Value::fromFloat(a - b);
    case BinaryOperator::Mul:
        return Value::fromFloat(a * b);
    case BinaryOperator::Div:
        if (b == 0.0) interp.raise(types.zeroDivisionError.get(), "float division by zero");
        return Value::fromFloat(a / b);
    case BinaryOperator::FloorDiv:
    case BinaryOperator::Mod: {
        if (b == 0.0)
            interp.raise(types.zeroDivisionError.get(), op == BinaryOperator::Mod
                                                            ? "float modulo"
                                                            : "float floor division by zero");
        double mod = std::fmod(a, b);
        double div = (a - mod) / b;
        if (mod != 0.0) {
            if ((b < 0) != (mod < 0)) {
                mod += b;
                div -= 1.0;
            }
        } else {
            mod = std::copysign(0.0, b);
        }
        if (op == BinaryOperator::Mod) return Value::fromFloat(mod);
        double floordiv;
        if (div != 0.0) {
            floordiv = std::floor(div);
            if (div - floordiv > 0.5) floordiv += 1.0;
        } else {
            floordiv = std::copysign(0.0, a / b);
        }
        return Value::fromFloat(floordiv);
    }
    case BinaryOperator::Pow:
        if (a == 0.0 && b < 0.0)
            interp.raise(types.zeroDivisionError.get(), "0.0 cannot be raised to a negative power");
        if (a < 0.0 && b != std::floor(b) && std::isfinite(b))
            interp.raiseValueError("complex results are not supported by Kiln (negative number "
                                   "raised to a fractional power)");
        {
            double r = std::pow(a, b);
            // CPython's float_pow reports ERANGE as OSError-style arguments: (34, '...').
            if (std::isinf(r) && std::isfinite(a) && std::isfinite(b))
                interp.raise(interp.call(
                    Value(types.overflowError),
                    {Value::fromInt(ERANGE), strValue("Numerical result out of range")}));
            return Value::fromFloat(r);
        }
    default:
        return Value();
    }
}

/// `seq * n` checks the size of its result before building it: one beyond what CPython's
/// Py_ssize_t can count is its OverflowError (strings) or MemoryError (lists, tuples), and one
/// beyond detail::kMaxFieldWidth bytes is a MemoryError at once instead of a slow climb until
/// the machine runs out of memory.
void checkRepeatSize(Interpreter& interp, size_t bytes, int64_t n, bool isStr) {
    const auto& types = builtinTypes();
    if (bytes > static_cast<size_t>(INT64_MAX / n)) {
        if (isStr) interp.raise(types.overflowError.get(), "repeated string is too long");
        interp.raise(types.memoryError.get(), "");
    }
    if (static_cast<int64_t>(bytes) * n > detail::kMaxFieldWidth)
        interp.raise(types.memoryError.get(), "");
}

std::optional<Value> sequenceBinary(Interpreter& interp, BinaryOperator op, const Value& a,
                                    const Value& b) {
    auto repeat = [&](const std::vector<Value>& items, int64_t n) {
        std::vector<Value> out;
        if (n <= 0 || items.empty()) return out;
        checkRepeatSize(interp, items.size() * sizeof(Value), n, false);
        out.reserve(items.size() * static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            out.insert(out.end(), items.begin(), items.end());
        return out;
    };
    if (a.is(ObjectKind::Str)) {
        const std::string& s = a.as<StrObject>()->str();
        if (op == BinaryOperator::Add) {
            if (!b.is(ObjectKind::Str))
                interp.raiseTypeError("can only concatenate str (not \"" + interp.typeName(b) +
                                      "\") to str");
            return strValue(s + b.as<StrObject>()->str());
        }
        if (op == BinaryOperator::Mod) return percentFormatValue(interp, s, b);
        if (op == BinaryOperator::Mul && b.isIntLike()) {
            int64_t n = b.asInt();
            std::string out;
            if (n <= 0 || s.empty()) return strValue(std::move(out));
            checkRepeatSize(interp, s.size(), n, true);
            out.reserve(s.size() * static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i)
                out += s;
            return strValue(std::move(out));
        }
    }
    for (ObjectKind kind : {ObjectKind::List, ObjectKind::Tuple}) {
        if (!a.is(kind)) continue;
        const auto& items =
            kind == ObjectKind::List ? a.as<ListObject>()->items : a.as<TupleObject>()->items;
        if (op == BinaryOperator::Add) {
            if (!b.is(kind)) {
                if (b.isTensor()) return std::nullopt;
                interp.raiseTypeError(std::string("can only concatenate ") +
                                      (kind == ObjectKind::List ? "list" : "tuple") + " (not \"" +
                                      interp.typeName(b) + "\") to " +
                                      (kind == ObjectKind::List ? "list" : "tuple"));
            }
            std::vector<Value> out = items;
            const auto& more =
                kind == ObjectKind::List ? b.as<ListObject>()->items : b.as<TupleObject>()->items;
            out.insert(out.end(), more.begin(), more.end());
            return kind == ObjectKind::List ? listValue(std::move(out))
                                            : tupleValue(std::move(out));
        }
        if (op == BinaryOperator::Mul && b.isIntLike()) {
            auto out = repeat(items, b.asInt());
            return kind == ObjectKind::List ? listValue(std::move(out))
                                            : tupleValue(std::move(out));
        }
    }
    if (op == BinaryOperator::Mul && a.isIntLike() &&
        (b.is(ObjectKind::Str) || b.is(ObjectKind::List) || b.is(ObjectKind::Tuple)))
        return sequenceBinary(interp, op, b, a);
    if (op == BinaryOperator::Mul &&
        (a.is(ObjectKind::Str) || a.is(ObjectKind::List) || a.is(ObjectKind::Tuple)) &&
        !b.isTensor() && !b.is(ObjectKind::Instance))
        interp.raiseTypeError("can't multiply sequence by non-int of type '" + interp.typeName(b) +
                              "'");
    if (op == BinaryOperator::BitOr && a.is(ObjectKind::Dict) && b.is(ObjectKind::Dict)) {
        auto merged = makeRef<DictObject>();
        for (const Value* d : {&a, &b})
            d->as<DictObject>()->forEach(
                [&](const Value& k, const Value& v) { merged->set(interp, k, v); });
        return Value(merged);
    }
    return std::nullopt;
}

// Objects whose type may define operator dunders: user classes, and native types such as
// torch.dtype that install __eq__ and friends in their type dict.
bool mayDefineDunders(const Value& v) {
    return v.is(ObjectKind::Instance) || v.is(ObjectKind::Native) || isStrSubclassInstance(v);
}

Value callDunder(Interpreter& interp, const Value& self, const char* name, const Value& other) {
    Value method;
    if (self.is(ObjectKind::Type)) // a class: its metaclass's operator, as CPython looks it up
        method = interp.metaclassMethod(self, Symbol::intern(name));
    else if (mayDefineDunders(self))
        method = interp.tryGetAttr(self, Symbol::intern(name));
    if (method.isEmpty()) return Value();
    Value r = interp.call(method, {other});
    return r.identical(notImplementedValue()) ? Value() : r;
}

// The result of `a op b`, or Empty when neither operand supports the operation. As in CPython,
// a user class's reflected dunder gets its chance before a built-in sequence reports the error.
/// `int | None` (PEP 604) builds a types.UnionType; aliases define their own __or__.
bool isUnionOperand(const Value& v) {
    return v.is(ObjectKind::Type) || v.isNone();
}

Value tryBinary(Interpreter& interp, BinaryOperator op, const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) {
        Value r = (a.isFloat() || b.isFloat())
                      ? floatBinary(interp, op, a.toDouble(), b.toDouble())
                      : intBinary(interp, op, a.asInt(), b.asInt(), a.isBool() && b.isBool());
        if (!r.isEmpty()) return r;
    } else if (a.isTensor() || b.isTensor()) {
        Value r = tensorBinary(interp, op, a, b, false);
        if (!r.isEmpty()) return r;
    }
    Dunders d = dundersFor(op);
    bool userLeft =
        a.is(ObjectKind::Instance) || isStrSubclassInstance(a) || a.is(ObjectKind::Type);
    Value r = userLeft ? callDunder(interp, a, d.forward, b) : Value();
    if (r.isEmpty()) r = callDunder(interp, b, d.reflected, a);
    if (r.isEmpty() && !a.is(ObjectKind::Instance) && !a.isTensor() && !b.isTensor())
        if (auto s = sequenceBinary(interp, op, a, b)) return *s;
    if (r.isEmpty() && op == BinaryOperator::BitOr && isUnionOperand(a) && isUnionOperand(b) &&
        (a.is(ObjectKind::Type) || b.is(ObjectKind::Type)))
        return interp.call(interp.libraryAttr("types", "UnionType"), {a, b});
    return r;
}

[[noreturn]] void unsupportedOperands(Interpreter& interp, const std::string& symbol,
                                      const Value& a, const Value& b) {
    interp.raiseTypeError("unsupported operand type(s) for " + symbol + ": '" + interp.typeName(a) +
                          "' and '" + interp.typeName(b) + "'");
}

} // namespace

Value Interpreter::tryBinaryOp(BinaryOperator op, const Value& a, const Value& b) {
    return tryBinary(*this, op, a, b);
}

Value Interpreter::binaryOp(BinaryOperator op, const Value& a, const Value& b) {
    Value r = tryBinary(*this, op, a, b);
    if (r.isEmpty()) unsupportedOperands(*this, binaryOperatorSymbol(op), a, b);
    return r;
}

Value Interpreter::inplaceOp(BinaryOperator op, const Value& a, const Value& b) {
    if (a.isTensor() && (b.isTensor() || b.isNumber())) {
        Value r = tensorBinary(*this, op, a, b, true);
        if (!r.isEmpty()) return r;
    }
    if (a.is(ObjectKind::List)) {
        if (m_recorder) [[unlikely]]
            m_recorder->mutation(a, "in-place list operator", Value(), b);
        auto& items = a.as<ListObject>()->items;
        if (op == BinaryOperator::Add) {
            std::vector<Value> more = toVector(b);
            items.insert(items.end(), more.begin(), more.end());
            return a;
        }
        if (op == BinaryOperator::Mul && b.isIntLike()) {
            std::vector<Value> copy = items;
            if (b.asInt() > 0 && !copy.empty())
                checkRepeatSize(*this, copy.size() * sizeof(Value), b.asInt(), false);
            items.clear();
            for (int64_t i = 0; i < b.asInt(); ++i)
                items.insert(items.end(), copy.begin(), copy.end());
            return a;
        }
    }
    if (a.is(ObjectKind::Instance)) {
        Value r = callDunder(*this, a, dundersFor(op).inplace, b);
        if (!r.isEmpty()) return r;
    }
    Value r = tryBinary(*this, op, a, b);
    if (r.isEmpty())
        unsupportedOperands(*this,
                            op == BinaryOperator::Pow ? std::string("**=")
                                                      : binaryOperatorSymbol(op) + std::string("="),
                            a, b);
    return r;
}

Value Interpreter::unaryOp(UnaryOperator op, const Value& v) {
    if (op == UnaryOperator::Not) return Value::fromBool(!truthy(v));
    if (v.isIntLike()) {
        int64_t i = v.asInt();
        if (op == UnaryOperator::Neg) {
            if (i == INT64_MIN)
                raise(builtinTypes().overflowError.get(), "integer overflow in negation");
            return Value::fromInt(-i);
        }
        if (op == UnaryOperator::Pos) return Value::fromInt(i);
        return Value::fromInt(~i);
    }
    if (v.isFloat() && op != UnaryOperator::Invert)
        return Value::fromFloat(op == UnaryOperator::Neg ? -v.asFloat() : v.asFloat());
    if (v.isTensor()) return tensorUnary(*this, op, v.asTensor());
    const char* name = op == UnaryOperator::Neg   ? "__neg__"
                       : op == UnaryOperator::Pos ? "__pos__"
                                                  : "__invert__";
    if (v.is(ObjectKind::Instance)) {
        Value method = tryGetAttr(v, Symbol::intern(name));
        if (!method.isEmpty()) return call(method, {});
    }
    const char* symbol = op == UnaryOperator::Neg ? "-" : op == UnaryOperator::Pos ? "+" : "~";
    raiseTypeError(std::string("bad operand type for unary ") + symbol + ": '" + typeName(v) + "'");
}

namespace {

struct CompareDunders {
    const char* forward;
    const char* reflected;
};

CompareDunders compareDunders(CompareOperator op) {
    switch (op) {
    case CompareOperator::Eq:
        return {"__eq__", "__eq__"};
    case CompareOperator::NotEq:
        return {"__ne__", "__ne__"};
    case CompareOperator::Lt:
        return {"__lt__", "__gt__"};
    case CompareOperator::LtE:
        return {"__le__", "__ge__"};
    case CompareOperator::Gt:
        return {"__gt__", "__lt__"};
    default:
        return {"__ge__", "__le__"};
    }
}

bool orderResult(CompareOperator op, int cmp) {
    switch (op) {
    case CompareOperator::Lt:
        return cmp < 0;
    case CompareOperator::LtE:
        return cmp <= 0;
    case CompareOperator::Gt:
        return cmp > 0;
    default:
        return cmp >= 0;
    }
}

} // namespace

Value Interpreter::compare(CompareOperator op, const Value& a, const Value& b) {
    switch (op) {
    case CompareOperator::Is:
        return Value::fromBool(a.identical(b));
    case CompareOperator::IsNot:
        return Value::fromBool(!a.identical(b));
    case CompareOperator::In:
        return Value::fromBool(contains(b, a));
    case CompareOperator::NotIn:
        return Value::fromBool(!contains(b, a));
    default:
        break;
    }
    if (a.isNumber() && b.isNumber()) {
        int cmp = compareNumbers(a, b);
        bool unordered = cmp == kUnordered;
        if (op == CompareOperator::Eq) return Value::fromBool(!unordered && cmp == 0);
        if (op == CompareOperator::NotEq) return Value::fromBool(unordered || cmp != 0);
        return Value::fromBool(!unordered && orderResult(op, cmp));
    }
    if (a.isTensor() || b.isTensor()) {
        Value r = tensorCompare(*this, op, a, b);
        if (!r.isEmpty()) return r;
    }
    CompareDunders d = compareDunders(op);
    Value r = callDunder(*this, a, d.forward, b);
    if (r.isEmpty()) r = callDunder(*this, b, d.reflected, a);
    if (!r.isEmpty()) return r;
    if (op == CompareOperator::Eq || op == CompareOperator::NotEq) {
        // != falls back on __eq__ where object.__ne__ would answer: not for a str subclass,
        // whose inherited str.__ne__ compares the characters.
        if (op == CompareOperator::NotEq && mayDefineDunders(a) && !a.is(ObjectKind::Str)) {
            Value eq = callDunder(*this, a, "__eq__", b);
            if (!eq.isEmpty()) return Value::fromBool(!truthy(eq));
        }
        // Two strs left here compare as str.__eq__ does, by characters, whatever their class.
        bool bothStr = a.is(ObjectKind::Str) && b.is(ObjectKind::Str);
        bool same = a.identical(b) ||
                    (bothStr ? a.as<StrObject>()->str() == b.as<StrObject>()->str()
                             : !mayDefineDunders(a) && !mayDefineDunders(b) && equals(a, b));
        return Value::fromBool(op == CompareOperator::Eq ? same : !same);
    }
    if (a.is(ObjectKind::Str) && b.is(ObjectKind::Str)) {
        int cmp = a.as<StrObject>()->str().compare(b.as<StrObject>()->str());
        return Value::fromBool(orderResult(op, cmp));
    }
    bool seqs = (a.is(ObjectKind::List) && b.is(ObjectKind::List)) ||
                (a.is(ObjectKind::Tuple) && b.is(ObjectKind::Tuple));
    if (seqs) {
        NestedCall nested(*this, " in comparison");
        const auto& xs =
            a.is(ObjectKind::List) ? a.as<ListObject>()->items : a.as<TupleObject>()->items;
        const auto& ys =
            b.is(ObjectKind::List) ? b.as<ListObject>()->items : b.as<TupleObject>()->items;
        for (size_t i = 0; i < xs.size() && i < ys.size(); ++i)
            if (!xs[i].identical(ys[i]) && !equals(xs[i], ys[i])) return compare(op, xs[i], ys[i]);
        int cmp = xs.size() < ys.size() ? -1 : xs.size() > ys.size() ? 1 : 0;
        return Value::fromBool(orderResult(op, cmp));
    }
    raiseTypeError(std::string("'") + compareOperatorSymbol(op) +
                   "' not supported between instances of '" + typeName(a) + "' and '" +
                   typeName(b) + "'");
}

} // namespace kiln::lang
