// SPDX-License-Identifier: MIT
// The numeric builtins: abs, round, divmod, pow, chr, ord, format, bin, oct, hex.
#include "lang/builtins.h"
#include "lang/format.h"
#include "lang/iterators.h"
#include "lang/signature.h"
#include "lang/tensor_bridge.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

Value builtinAbs(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("abs(x, /)");
    Value v = sig.bind(interp, args)[0];
    if (v.isIntLike()) {
        if (v.asInt() == INT64_MIN)
            interp.raise(builtinTypes().overflowError.get(), "integer overflow in abs()");
        return Value::fromInt(std::abs(v.asInt()));
    }
    if (v.isFloat()) return Value::fromFloat(std::fabs(v.asFloat()));
    if (v.isTensor()) {
        // While torch.compile traces, the Tensor method runs so the graph records the op.
        if (interp.recorder()) return interp.call(interp.getAttr(v, sym("abs")), {});
        return Value(tensor::unary(tensor::UnaryOp::Abs, v.asTensor()));
    }
    Value method = interp.tryGetAttr(v, sym("__abs__"));
    if (!method.isEmpty()) return interp.call(method, {});
    interp.raiseTypeError("bad operand type for abs(): '" + interp.typeName(v) + "'");
}

/// round(v, -digits) for an int: exact, halves to even (round(25, -1) == 20), as CPython;
/// nullopt when the result leaves int64.
std::optional<int64_t> roundIntToTens(int64_t v, int64_t digits) {
    if (digits >= 19) {
        // 10^19 is past int64: only 0 or +-10^19 (which overflows) are candidates.
        const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
        if (digits > 19 || magnitude <= 5000000000000000000ULL) return 0;
        return std::nullopt;
    }
    int64_t p = 1;
    for (int64_t i = 0; i < digits; ++i)
        p *= 10;
    int64_t q = v / p, r = v % p;
    if (r < 0) { // floor division, so that 0 <= r < p
        r += p;
        --q;
    }
    if (2 * r > p || (2 * r == p && q % 2 != 0)) ++q;
    int64_t out = 0;
    if (__builtin_mul_overflow(q, p, &out)) return std::nullopt;
    return out;
}

Value builtinRound(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("round(number, ndigits=None)");
    BoundArgs a = sig.bind(interp, args);
    const Value& v = a[0];
    if (v.isTensor()) {
        tensor::Tensor t = v.asTensor();
        if (t.numel() != 1) interp.raiseTypeError("type Tensor doesn't define __round__ method");
        if (interp.recorder() && !a.has(1)) return interp.call(interp.getAttr(v, sym("round")), {});
        return Value(tensor::unary(tensor::UnaryOp::Round, t));
    }
    if (v.isIntLike()) {
        if (!a.has(1) || a.toInt(1) >= 0) return Value::fromInt(v.asInt());
        std::optional<int64_t> r = roundIntToTens(v.asInt(), -a.toInt(1));
        if (!r)
            interp.raise(builtinTypes().overflowError.get(),
                         "Python int too large to convert to C int64");
        return Value::fromInt(*r);
    }
    if (!v.isFloat()) {
        Value method = interp.tryGetAttr(v, sym("__round__"));
        if (method.isEmpty())
            interp.raiseTypeError("type " + interp.typeName(v) +
                                  " doesn't define __round__ method");
        return a.has(1) ? interp.call(method, {a[1]}) : interp.call(method, {});
    }
    double x = v.asFloat();
    if (a.has(1)) {
        Expected<double> r = pyRound(x, a.toInt(1));
        if (!r.ok()) interp.raise(builtinTypes().overflowError.get(), r.error().message);
        return Value::fromFloat(r.value());
    }
    return Value::fromInt(floatToInt(interp, pyRoundHalfEven(x)));
}

Value builtinDivmod(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("divmod(x, y, /)");
    BoundArgs a = sig.bind(interp, args);
    const Value &x = a[0], &y = a[1];
    if (x.isNumber() && y.isNumber() && y.toDouble() == 0.0)
        interp.raise(builtinTypes().zeroDivisionError.get(),
                     x.isFloat() || y.isFloat() ? "float divmod()"
                                                : "integer division or modulo by zero");
    Value q = interp.tryBinaryOp(BinaryOperator::FloorDiv, x, y);
    Value r = q.isEmpty() ? Value() : interp.tryBinaryOp(BinaryOperator::Mod, x, y);
    if (r.isEmpty())
        interp.raiseTypeError("unsupported operand type(s) for divmod(): '" + interp.typeName(x) +
                              "' and '" + interp.typeName(y) + "'");
    return tupleValue({std::move(q), std::move(r)});
}

// base ** exp % mod without overflow, for the three-argument pow() on ints.
int64_t modularPow(int64_t base, int64_t exp, int64_t mod) {
    __int128 result = 1 % mod, b = base % mod;
    for (; exp > 0; exp >>= 1) {
        if (exp & 1) result = result * b % mod;
        b = b * b % mod;
    }
    int64_t r = static_cast<int64_t>(result);
    return r != 0 && (r < 0) != (mod < 0) ? r + mod : r; // Python's sign rule
}

Value builtinPow(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("pow(base, exp, mod=None)");
    BoundArgs a = sig.bind(interp, args);
    if (!a.has(2)) return interp.binaryOp(BinaryOperator::Pow, a[0], a[1]);
    if (!a[0].isIntLike() || !a[1].isIntLike() || !a[2].isIntLike())
        interp.raiseTypeError("pow() 3rd argument not allowed unless all arguments are integers");
    if (a[2].asInt() == 0) interp.raiseValueError("pow() 3rd argument cannot be 0");
    if (a[1].asInt() < 0)
        interp.raiseValueError("pow() negative exponent with a modulus is not supported by Kiln");
    return Value::fromInt(modularPow(a[0].asInt(), a[1].asInt(), a[2].asInt()));
}

Value builtinChr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("chr(i, /)");
    int64_t cp = sig.bind(interp, args).toInt(0);
    if (cp < 0 || cp > 0x10FFFF) interp.raiseValueError("chr() arg not in range(0x110000)");
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
    static const BuiltinSignature sig("ord(c, /)");
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
    static const BuiltinSignature sig("format(value, format_spec='', /)");
    BoundArgs a = sig.bind(interp, args);
    return strValue(formatValue(interp, a[0], a.toStr(1)));
}

// bin(), oct(), hex(): any integer (or object with __index__) in base 2, 8 or 16.
Value integerInBase(Interpreter& interp, const CallArgs& args, const char* name, int shift,
                    const char* prefix) {
    if (args.positional.size() != 1 || !args.keywordNames.empty())
        interp.raiseTypeError(std::string(name) + "() takes exactly one argument (" +
                              std::to_string(args.count()) + " given)");
    std::optional<int64_t> v = asIndex(interp, args.positional[0]);
    if (!v || args.positional[0].isTensor())
        interp.raiseTypeError("'" + interp.typeName(args.positional[0]) +
                              "' object cannot be interpreted as an integer");
    uint64_t m = *v < 0 ? 0 - static_cast<uint64_t>(*v) : static_cast<uint64_t>(*v);
    std::string digits;
    const uint64_t mask = (1u << shift) - 1;
    do {
        digits += "0123456789abcdef"[m & mask];
        m >>= shift;
    } while (m);
    std::reverse(digits.begin(), digits.end());
    return strValue((*v < 0 ? "-" : "") + std::string(prefix) + digits);
}

Value builtinBin(Interpreter& interp, const CallArgs& args, void*) {
    return integerInBase(interp, args, "bin", 1, "0b");
}

Value builtinOct(Interpreter& interp, const CallArgs& args, void*) {
    return integerInBase(interp, args, "oct", 3, "0o");
}

Value builtinHex(Interpreter& interp, const CallArgs& args, void*) {
    return integerInBase(interp, args, "hex", 4, "0x");
}

} // namespace

void installNumericBuiltins(Interpreter& interp, ModuleObject& builtins) {
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"abs", builtinAbs},       {"round", builtinRound}, {"divmod", builtinDivmod},
        {"pow", builtinPow},       {"chr", builtinChr},     {"ord", builtinOrd},
        {"format", builtinFormat}, {"bin", builtinBin},     {"oct", builtinOct},
        {"hex", builtinHex},
    };
    for (const Entry& e : entries)
        interp.defineNative(builtins.globals, e.name, e.fn);
}

} // namespace kiln::lang
