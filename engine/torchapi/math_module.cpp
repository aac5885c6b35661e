// SPDX-License-Identifier: MIT
// The math module: constants and the functions model code uses, with CPython's errors.
#include "lang/builtins.h"
#include "lang/signature.h"
#include "tensor/convert.h"
#include "torchapi/install.h"
#include "torchapi/math_gamma.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

double realArg(Interpreter& interp, const Value& v, const char* fn) {
    if (v.isNumber()) return v.toDouble();
    if (v.isTensor() && v.asTensor().numel() == 1) return tensor::item(v.asTensor()).toDouble();
    // As CPython's PyFloat_AsDouble: __float__, else __index__ (a SymInt in a compiled frame:
    // math.sqrt(k.size(-1)) in attention code).
    if (v.is(ObjectKind::Instance)) {
        for (const char* method : {"__float__", "__index__"}) {
            Value f = interp.tryGetAttr(v, Symbol::intern(method));
            if (f.isEmpty()) continue;
            Value r = interp.call(f, {});
            if (r.isNumber()) return r.toDouble();
            interp.raiseTypeError(std::string(method) + " returned non-" +
                                  (method[2] == 'f' ? "float" : "int") + " (type " +
                                  interp.typeName(r) + ")");
        }
    }
    interp.raiseTypeError("must be real number, not " + interp.typeName(v));
}

[[noreturn]] void domainError(Interpreter& interp) {
    interp.raiseValueError("math domain error");
}

using Unary = double (*)(double);

enum class Errors : uint8_t {
    None,     ///< plain arithmetic (fabs, degrees, radians): never raises
    Domain,   ///< CPython's math_1: nan from a number, or inf from a finite number, is a
              ///< domain error
    Overflow, ///< as Domain, but inf from a finite number overflows (exp, sinh, ...)
};

struct UnaryEntry {
    const char* name;
    Unary fn;
    Errors errors;
};

const UnaryEntry kUnary[] = {
    {"sqrt", [](double x) { return std::sqrt(x); }, Errors::Domain},
    {"exp", [](double x) { return std::exp(x); }, Errors::Overflow},
    {"exp2", [](double x) { return std::exp2(x); }, Errors::Overflow},
    {"log2", [](double x) { return std::log2(x); }, Errors::Domain},
    {"log10", [](double x) { return std::log10(x); }, Errors::Domain},
    {"log1p", [](double x) { return std::log1p(x); }, Errors::Domain},
    {"expm1", [](double x) { return std::expm1(x); }, Errors::Overflow},
    {"sin", [](double x) { return std::sin(x); }, Errors::Domain},
    {"cos", [](double x) { return std::cos(x); }, Errors::Domain},
    {"tan", [](double x) { return std::tan(x); }, Errors::Domain},
    {"asin", [](double x) { return std::asin(x); }, Errors::Domain},
    {"acos", [](double x) { return std::acos(x); }, Errors::Domain},
    {"atan", [](double x) { return std::atan(x); }, Errors::Domain},
    {"sinh", [](double x) { return std::sinh(x); }, Errors::Overflow},
    {"cosh", [](double x) { return std::cosh(x); }, Errors::Overflow},
    {"tanh", [](double x) { return std::tanh(x); }, Errors::Domain},
    {"asinh", [](double x) { return std::asinh(x); }, Errors::Domain},
    {"acosh", [](double x) { return std::acosh(x); }, Errors::Domain},
    {"atanh", [](double x) { return std::atanh(x); }, Errors::Domain},
    {"erf", [](double x) { return std::erf(x); }, Errors::Domain},
    {"erfc", [](double x) { return std::erfc(x); }, Errors::Domain},
    {"cbrt", [](double x) { return std::cbrt(x); }, Errors::Domain},
    {"fabs", [](double x) { return std::fabs(x); }, Errors::None},
    {"degrees", [](double x) { return x * (180.0 / M_PI); }, Errors::None},
    {"radians", [](double x) { return x * (M_PI / 180.0); }, Errors::None},
};

Value mathUnary(Interpreter& interp, const CallArgs& args, void* data) {
    const UnaryEntry& e = *static_cast<const UnaryEntry*>(data);
    if (args.positional.size() != 1 || !args.keywordNames.empty())
        interp.raiseTypeError(std::string("math.") + e.name + "() takes exactly one argument (" +
                              std::to_string(args.count()) + " given)");
    double x = realArg(interp, args.positional[0], e.name);
    double r = e.fn(x);
    if (e.errors == Errors::None) return Value::fromFloat(r);
    if (std::isnan(r) && !std::isnan(x)) domainError(interp);
    if (std::isinf(r) && std::isfinite(x)) {
        if (e.errors == Errors::Overflow)
            interp.raise(builtinTypes().overflowError.get(), "math range error");
        domainError(interp);
    }
    return Value::fromFloat(r);
}

/// gamma/lgamma with CPython's algorithm and its domain and range errors.
Value mathGamma(Interpreter& interp, const CallArgs& args, void* data) {
    bool log = data != nullptr;
    if (args.positional.size() != 1 || !args.keywordNames.empty())
        interp.raiseTypeError(std::string("math.") + (log ? "lgamma" : "gamma") +
                              "() takes exactly one argument (" +
                              std::to_string(args.positional.size()) + " given)");
    double x = realArg(interp, args.positional[0], log ? "lgamma" : "gamma");
    MathResult r = log ? pythonLgamma(x) : pythonGamma(x);
    if (r.error == MathError::Domain) domainError(interp);
    if (r.error == MathError::Range)
        interp.raise(builtinTypes().overflowError.get(), "math range error");
    return Value::fromFloat(r.value);
}

Value mathLog(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("log(x, base=None, /)");
    BoundArgs a = sig.bind(interp, args);
    double x = realArg(interp, a[0], "log");
    if (x <= 0.0) domainError(interp);
    double r = std::log(x);
    if (a.has(1)) {
        double b = realArg(interp, a[1], "log");
        if (b <= 0.0) domainError(interp);
        if (b == 1.0)
            interp.raise(builtinTypes().zeroDivisionError.get(), "float division by zero");
        r /= std::log(b);
    }
    return Value::fromFloat(r);
}

Value mathPow(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("pow(x, y, /)");
    BoundArgs a = sig.bind(interp, args);
    double x = realArg(interp, a[0], "pow"), y = realArg(interp, a[1], "pow");
    if (x == 0.0 && y < 0.0) domainError(interp);
    if (x < 0.0 && y != std::floor(y)) domainError(interp);
    double r = std::pow(x, y);
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y))
        interp.raise(builtinTypes().overflowError.get(), "math range error");
    return Value::fromFloat(r);
}

Value mathAtan2(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("atan2(y, x, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromFloat(
        std::atan2(realArg(interp, a[0], "atan2"), realArg(interp, a[1], "atan2")));
}

Value mathHypot(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() == 2)
        return Value::fromFloat(std::hypot(realArg(interp, args.positional[0], "hypot"),
                                           realArg(interp, args.positional[1], "hypot")));
    double sum = 0.0;
    for (const Value& v : args.positional) {
        double x = realArg(interp, v, "hypot");
        sum += x * x;
    }
    return Value::fromFloat(std::sqrt(sum));
}

Value roundingTo(Interpreter& interp, const CallArgs& args, double (*fn)(double),
                 const char* name) {
    if (args.positional.size() != 1)
        interp.raiseTypeError(std::string("math.") + name + "() takes exactly one argument");
    const Value& v = args.positional[0];
    if (v.isIntLike()) return Value::fromInt(v.asInt());
    return Value::fromInt(lang::floatToInt(interp, fn(realArg(interp, v, name))));
}

Value mathFloor(Interpreter& interp, const CallArgs& args, void*) {
    return roundingTo(
        interp, args, [](double x) { return std::floor(x); }, "floor");
}
Value mathCeil(Interpreter& interp, const CallArgs& args, void*) {
    return roundingTo(
        interp, args, [](double x) { return std::ceil(x); }, "ceil");
}
Value mathTrunc(Interpreter& interp, const CallArgs& args, void*) {
    return roundingTo(
        interp, args, [](double x) { return std::trunc(x); }, "trunc");
}

Value mathIsX(Interpreter& interp, const CallArgs& args, void* data) {
    int kind = static_cast<int>(reinterpret_cast<intptr_t>(data));
    if (args.positional.size() != 1) interp.raiseTypeError("takes exactly one argument");
    double x = realArg(interp, args.positional[0], "is");
    return Value::fromBool(kind == 0   ? std::isnan(x)
                           : kind == 1 ? std::isinf(x)
                                       : std::isfinite(x));
}

Value mathIsclose(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("isclose(a, b, /, *, rel_tol=1e-09, abs_tol=0.0)");
    BoundArgs a = sig.bind(interp, args);
    double x = realArg(interp, a[0], "isclose"), y = realArg(interp, a[1], "isclose");
    double rel = a.toDouble(2), abs = a.toDouble(3);
    if (rel < 0.0 || abs < 0.0) interp.raiseValueError("tolerances must be non-negative");
    if (x == y) return Value::fromBool(true);
    if (std::isinf(x) || std::isinf(y)) return Value::fromBool(false);
    double diff = std::fabs(y - x);
    return Value::fromBool(diff <= std::fabs(rel * y) || diff <= std::fabs(rel * x) || diff <= abs);
}

Value mathFactorial(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("factorial(n, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].isIntLike())
        interp.raiseTypeError("'" + interp.typeName(a[0]) +
                              "' object cannot be interpreted as an integer");
    int64_t n = a[0].asInt();
    if (n < 0) interp.raiseValueError("factorial() not defined for negative values");
    int64_t r = 1;
    for (int64_t i = 2; i <= n; ++i)
        if (__builtin_mul_overflow(r, i, &r))
            interp.raise(builtinTypes().overflowError.get(),
                         "integer overflow: factorial(" + std::to_string(n) +
                             ") does not fit in Kiln's 64-bit integers");
    return Value::fromInt(r);
}

Value mathGcd(Interpreter& interp, const CallArgs& args, void*) {
    int64_t g = 0;
    for (const Value& v : args.positional) {
        if (!v.isIntLike())
            interp.raiseTypeError("'" + interp.typeName(v) +
                                  "' object cannot be interpreted as an integer");
        g = std::gcd(g, v.asInt());
    }
    return Value::fromInt(g);
}

Value mathProd(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("prod(iterable, /, *, start=1)");
    BoundArgs a = sig.bind(interp, args);
    Value acc = a[1];
    for (const Value& v : interp.toVector(a[0]))
        acc = interp.binaryOp(BinaryOperator::Mul, acc, v);
    return acc;
}

/// The correctly rounded sum of non-overlapping partials (increasing magnitude): add from the
/// top until the rounding error is not zero, then round half to even with the next partial.
double exactSum(const std::vector<double>& partials) {
    size_t n = partials.size();
    if (n == 0) return 0.0;
    double hi = partials[--n], lo = 0.0;
    while (n > 0) {
        double x = hi, y = partials[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0) break;
    }
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
        double y = lo * 2.0, x = hi + y;
        if (y == x - hi) hi = x;
    }
    return hi;
}

Value mathFsum(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("fsum(seq, /)");
    BoundArgs a = sig.bind(interp, args);
    // Shewchuk's exact partial sums (CPython's algorithm): the result is the correctly rounded
    // sum, overflow of a finite intermediate is an OverflowError, inf + -inf a ValueError.
    std::vector<double> partials;
    double special = 0.0, infinities = 0.0;
    for (const Value& v : interp.toVector(a[0])) {
        const double input = realArg(interp, v, "fsum");
        double x = input;
        size_t kept = 0;
        for (double y : partials) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            double hi = x + y, lo = y - (hi - x);
            if (lo != 0.0) partials[kept++] = lo;
            x = hi;
        }
        partials.resize(kept);
        if (x == 0.0) continue;
        if (std::isfinite(x)) {
            partials.push_back(x);
            continue;
        }
        if (std::isfinite(input))
            interp.raise(builtinTypes().overflowError.get(), "intermediate overflow in fsum");
        if (std::isinf(input)) infinities += input;
        special += input;
        partials.clear();
    }
    if (special != 0.0 || std::isnan(special)) {
        if (std::isnan(infinities)) interp.raiseValueError("-inf + inf in fsum");
        return Value::fromFloat(special);
    }
    return Value::fromFloat(exactSum(partials));
}

int64_t intArg(Interpreter& interp, const Value& v) {
    if (!v.isIntLike())
        interp.raiseTypeError("'" + interp.typeName(v) +
                              "' object cannot be interpreted as an integer");
    return v.asInt();
}

/// fmod(x, y) and remainder(x, y): C's fmod and IEEE remainder, with CPython's domain errors.
Value mathFmod(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature fmodSig("fmod(x, y, /)");
    static const Signature remainderSig("remainder(x, y, /)");
    bool remainder = data != nullptr;
    BoundArgs a = (remainder ? remainderSig : fmodSig).bind(interp, args);
    double x = realArg(interp, a[0], "fmod"), y = realArg(interp, a[1], "fmod");
    if (std::isnan(x) || std::isnan(y)) return Value::fromFloat(NAN);
    if (std::isinf(x) || y == 0.0) domainError(interp);
    return Value::fromFloat(remainder ? std::remainder(x, y) : std::fmod(x, y));
}

Value mathModf(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("modf(x, /)");
    BoundArgs a = sig.bind(interp, args);
    double whole = 0.0;
    double frac = std::modf(realArg(interp, a[0], "modf"), &whole);
    return tupleValue({Value::fromFloat(frac), Value::fromFloat(whole)});
}

Value mathFrexp(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("frexp(x, /)");
    BoundArgs a = sig.bind(interp, args);
    int exponent = 0;
    double mantissa = std::frexp(realArg(interp, a[0], "frexp"), &exponent);
    return tupleValue({Value::fromFloat(mantissa), Value::fromInt(exponent)});
}

Value mathLdexp(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("ldexp(x, i, /)");
    BoundArgs a = sig.bind(interp, args);
    double x = realArg(interp, a[0], "ldexp");
    int64_t i = intArg(interp, a[1]);
    double r = std::ldexp(x, static_cast<int>(std::clamp<int64_t>(i, -100000, 100000)));
    if (std::isinf(r) && std::isfinite(x))
        interp.raise(builtinTypes().overflowError.get(), "math range error");
    return Value::fromFloat(r);
}

Value mathIsqrt(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("isqrt(n, /)");
    BoundArgs a = sig.bind(interp, args);
    int64_t n = intArg(interp, a[0]);
    if (n < 0) interp.raiseValueError("isqrt() argument must be nonnegative");
    // The double estimate is off by at most one; squares are compared in 128 bits, since
    // (r + 1)^2 overflows int64 near its top (isqrt(2**63 - 1) looped forever).
    using Wide = unsigned __int128;
    auto r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
    while (r > 0 && Wide(r) * Wide(r) > Wide(n))
        --r;
    while (Wide(r + 1) * Wide(r + 1) <= Wide(n))
        ++r;
    return Value::fromInt(r);
}

[[noreturn]] void raiseIntOverflow(Interpreter& interp) {
    interp.raise(builtinTypes().overflowError.get(),
                 "integer overflow: the result does not fit in Kiln's 64-bit integers");
}

Value mathLcm(Interpreter& interp, const CallArgs& args, void*) {
    int64_t l = 1;
    for (const Value& v : args.positional) {
        int64_t x = intArg(interp, v);
        if (x == 0 || l == 0) {
            l = 0;
            continue;
        }
        int64_t product = 0;
        if (__builtin_mul_overflow(l / std::gcd(l, x), x, &product) || product == INT64_MIN)
            raiseIntOverflow(interp);
        l = std::abs(product);
    }
    return Value::fromInt(l);
}

Value mathPerm(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("perm(n, k=None, /)");
    BoundArgs a = sig.bind(interp, args);
    int64_t n = intArg(interp, a[0]);
    int64_t k = a.has(1) ? intArg(interp, a[1]) : n;
    if (n < 0) interp.raiseValueError("n must be a non-negative integer");
    if (k < 0) interp.raiseValueError("k must be a non-negative integer");
    if (k > n) return Value::fromInt(0);
    int64_t r = 1;
    for (int64_t i = n - k + 1; i <= n; ++i)
        if (__builtin_mul_overflow(r, i, &r)) raiseIntOverflow(interp);
    return Value::fromInt(r);
}

Value mathDist(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("dist(p, q, /)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<Value> p = interp.toVector(a[0]), q = interp.toVector(a[1]);
    if (p.size() != q.size())
        interp.raiseValueError("both points must have the same number of dimensions");
    double sum = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        double d = realArg(interp, p[i], "dist") - realArg(interp, q[i], "dist");
        sum += d * d;
    }
    return Value::fromFloat(
        p.size() == 2 ? std::hypot(realArg(interp, p[0], "dist") - realArg(interp, q[0], "dist"),
                                   realArg(interp, p[1], "dist") - realArg(interp, q[1], "dist"))
                      : std::sqrt(sum));
}

Value mathCopysign(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("copysign(x, y, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromFloat(
        std::copysign(realArg(interp, a[0], "copysign"), realArg(interp, a[1], "copysign")));
}

Value mathComb(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("comb(n, k, /)");
    BoundArgs a = sig.bind(interp, args);
    int64_t n = a.toInt(0), k = a.toInt(1);
    if (n < 0 || k < 0)
        interp.raiseValueError(n < 0 ? "n must be a non-negative integer"
                                     : "k must be a non-negative integer");
    if (k > n) return Value::fromInt(0);
    k = std::min(k, n - k);
    // Each partial product r * (n - k + i) / i is C(n - k + i, i), exact; it is formed in 128
    // bits, and a partial result beyond int64 means the final one is too (C grows with i).
    __int128 r = 1;
    for (int64_t i = 1; i <= k; ++i) {
        r = r * (n - k + i) / i;
        if (r > INT64_MAX) raiseIntOverflow(interp);
    }
    return Value::fromInt(static_cast<int64_t>(r));
}

void installMath(Interpreter& interp, ModuleObject& math) {
    AttrMap& g = math.globals;
    g.set(Symbol::intern("pi"), Value::fromFloat(M_PI));
    g.set(Symbol::intern("e"), Value::fromFloat(M_E));
    g.set(Symbol::intern("tau"), Value::fromFloat(2 * M_PI));
    g.set(Symbol::intern("inf"), Value::fromFloat(INFINITY));
    g.set(Symbol::intern("nan"), Value::fromFloat(NAN));
    for (const UnaryEntry& e : kUnary)
        interp.defineNative(g, e.name, mathUnary, const_cast<UnaryEntry*>(&e));
    interp.defineNative(g, "log", mathLog);
    interp.defineNative(g, "gamma", mathGamma);
    interp.defineNative(g, "lgamma", mathGamma, reinterpret_cast<void*>(1));
    interp.defineNative(g, "pow", mathPow);
    interp.defineNative(g, "atan2", mathAtan2);
    interp.defineNative(g, "hypot", mathHypot);
    interp.defineNative(g, "floor", mathFloor);
    interp.defineNative(g, "ceil", mathCeil);
    interp.defineNative(g, "trunc", mathTrunc);
    interp.defineNative(g, "isnan", mathIsX, reinterpret_cast<void*>(0));
    interp.defineNative(g, "isinf", mathIsX, reinterpret_cast<void*>(1));
    interp.defineNative(g, "isfinite", mathIsX, reinterpret_cast<void*>(2));
    interp.defineNative(g, "isclose", mathIsclose);
    interp.defineNative(g, "factorial", mathFactorial);
    interp.defineNative(g, "gcd", mathGcd);
    interp.defineNative(g, "prod", mathProd);
    interp.defineNative(g, "fsum", mathFsum);
    interp.defineNative(g, "copysign", mathCopysign);
    interp.defineNative(g, "comb", mathComb);
    interp.defineNative(g, "fmod", mathFmod);
    interp.defineNative(g, "remainder", mathFmod, reinterpret_cast<void*>(1));
    interp.defineNative(g, "modf", mathModf);
    interp.defineNative(g, "frexp", mathFrexp);
    interp.defineNative(g, "ldexp", mathLdexp);
    interp.defineNative(g, "isqrt", mathIsqrt);
    interp.defineNative(g, "lcm", mathLcm);
    interp.defineNative(g, "perm", mathPerm);
    interp.defineNative(g, "dist", mathDist);
}

} // namespace

void installMathModule(Interpreter& interp) {
    interp.registerNativeModule("math", installMath);
}

} // namespace kiln::torchapi
