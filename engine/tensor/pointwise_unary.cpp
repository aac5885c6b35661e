// SPDX-License-Identifier: MIT
// The unary pointwise ops: math functions, rounding, activations and predicates. Each op has a
// scalar function over the compute type; one kernel per op, instantiated per supported dtype,
// is picked from a table indexed by the op.
#include "support/assert.h"
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/fast_math.h"
#include "tensor/ops.h"
#include "tensor/vec_math.h"

#include <cmath>
#include <numbers>
#include <type_traits>
#include <utility>

namespace kiln::tensor {

using detail::LoopInput;

namespace {

/// Integer negation wraps (-INT_MIN == INT_MIN) as in PyTorch; -0.0 stays a signed zero.
template <typename C>
C negate(C x) {
    if constexpr (detail::kIsInteger<C>)
        return detail::wrapping(C(0), x, [](auto a, auto b) { return a - b; });
    else
        return -x;
}

template <typename C>
C geluTanh(C x) {
    constexpr C kBeta = C(std::numbers::sqrt2 * std::numbers::inv_sqrtpi);
    constexpr C kKappa = C(0.044715);
    C inner = kBeta * (x + kKappa * x * x * x);
    return C(0.5) * x * (C(1) + std::tanh(inner));
}

template <UnaryOp Op, typename C>
inline auto unaryScalar(C x) {
    using enum UnaryOp;
    constexpr bool kFloat = std::is_floating_point_v<C>;
    // clang-format off
    if constexpr (Op == Abs) { if constexpr (kFloat) return std::abs(x); else return x < 0 ? negate(x) : x; }
    else if constexpr (Op == Neg) return negate(x);
    else if constexpr (Op == Exp) return detail::expOf(x);
    else if constexpr (Op == Exp2) return std::exp2(x);
    else if constexpr (Op == Expm1) return std::expm1(x);
    else if constexpr (Op == Log) return std::log(x);
    else if constexpr (Op == Log2) return std::log2(x);
    else if constexpr (Op == Log10) return std::log10(x);
    else if constexpr (Op == Log1p) return std::log1p(x);
    else if constexpr (Op == Sqrt) return std::sqrt(x);
    else if constexpr (Op == Rsqrt) return C(1) / std::sqrt(x);
    else if constexpr (Op == Sin) return std::sin(x);
    else if constexpr (Op == Cos) return std::cos(x);
    else if constexpr (Op == Tan) return std::tan(x);
    else if constexpr (Op == Asin) return std::asin(x);
    else if constexpr (Op == Acos) return std::acos(x);
    else if constexpr (Op == Atan) return std::atan(x);
    else if constexpr (Op == Sinh) return std::sinh(x);
    else if constexpr (Op == Cosh) return std::cosh(x);
    else if constexpr (Op == Tanh) return std::tanh(x);
    else if constexpr (Op == Sigmoid) return C(1) / (C(1) + detail::expOf(-x));
    else if constexpr (Op == Erf) return std::erf(x);
    else if constexpr (Op == Erfc) return std::erfc(x);
    else if constexpr (Op == Floor) { if constexpr (kFloat) return std::floor(x); else return x; }
    else if constexpr (Op == Ceil) { if constexpr (kFloat) return std::ceil(x); else return x; }
    else if constexpr (Op == Round) { if constexpr (kFloat) return std::nearbyint(x); else return x; }
    else if constexpr (Op == Trunc) { if constexpr (kFloat) return std::trunc(x); else return x; }
    else if constexpr (Op == Frac) return x - std::trunc(x);
    else if constexpr (Op == Sign) { if constexpr (std::is_same_v<C, bool>) return x; else return C((C(0) < x) - (x < C(0))); }
    else if constexpr (Op == Reciprocal) return C(1) / x;
    else if constexpr (Op == Square) return detail::wrapping(x, x, [](auto a, auto b) { return a * b; });
    else if constexpr (Op == Relu) return x < C(0) ? C(0) : x; // NaN stays NaN
    else if constexpr (Op == Silu) return x / (C(1) + detail::expOf(-x));
    else if constexpr (Op == Gelu) return x * C(0.5) * (C(1) + std::erf(x * C(std::numbers::sqrt2 / 2)));
    else if constexpr (Op == GeluTanh) return geluTanh(x);
    else if constexpr (Op == LogicalNot) return !(x != C(0));
    else if constexpr (Op == BitwiseNot) { if constexpr (std::is_same_v<C, bool>) return !x; else return C(~x); }
    else if constexpr (Op == IsNan) { if constexpr (kFloat) return x != x; else return false; }
    else if constexpr (Op == IsInf) { if constexpr (kFloat) return std::isinf(x); else return false; }
    else { if constexpr (kFloat) return bool(std::isfinite(x)); else return true; }
    // clang-format on
}

// ---------------------------------------------------------------------------------------------
// Op properties

enum class UnaryKind {
    FloatFunction, ///< integers compute in the default float dtype
    KeepNoBool,    ///< keeps the dtype; bool is rejected
    Keep,          ///< keeps the dtype, bool included
    FloatOnly,     ///< floating dtypes only
    Square,        ///< bool squares as int64
    Predicate,     ///< any dtype in, bool out
    Bitwise        ///< integral and bool only
};

struct UnaryInfo {
    UnaryKind kind;
    const char* kernel;   ///< the name PyTorch's "not implemented for" message uses
    const char* gradName; ///< empty: not differentiable
};

constexpr UnaryInfo unaryInfo(UnaryOp op) {
    using enum UnaryOp;
    using K = UnaryKind;
    switch (op) {
    // clang-format off
    case Abs: return {K::KeepNoBool, "abs_cpu", "AbsBackward0"};
    case Neg: return {K::KeepNoBool, "", "NegBackward0"};
    case Exp: return {K::FloatFunction, "", "ExpBackward0"};
    case Exp2: return {K::FloatFunction, "", "Exp2Backward0"};
    case Expm1: return {K::FloatFunction, "", "Expm1Backward0"};
    case Log: return {K::FloatFunction, "", "LogBackward0"};
    case Log2: return {K::FloatFunction, "", "Log2Backward0"};
    case Log10: return {K::FloatFunction, "", "Log10Backward0"};
    case Log1p: return {K::FloatFunction, "", "Log1PBackward0"};
    case Sqrt: return {K::FloatFunction, "", "SqrtBackward0"};
    case Rsqrt: return {K::FloatFunction, "", "RsqrtBackward0"};
    case Sin: return {K::FloatFunction, "", "SinBackward0"};
    case Cos: return {K::FloatFunction, "", "CosBackward0"};
    case Tan: return {K::FloatFunction, "", "TanBackward0"};
    case Asin: return {K::FloatFunction, "", "AsinBackward0"};
    case Acos: return {K::FloatFunction, "", "AcosBackward0"};
    case Atan: return {K::FloatFunction, "", "AtanBackward0"};
    case Sinh: return {K::FloatFunction, "", "SinhBackward0"};
    case Cosh: return {K::FloatFunction, "", "CoshBackward0"};
    case Tanh: return {K::FloatFunction, "", "TanhBackward0"};
    case Sigmoid: return {K::FloatFunction, "", "SigmoidBackward0"};
    case Erf: return {K::FloatFunction, "", "ErfBackward0"};
    case Erfc: return {K::FloatFunction, "", "ErfcBackward0"};
    case Floor: return {K::KeepNoBool, "floor_vml_cpu", "FloorBackward0"};
    case Ceil: return {K::KeepNoBool, "ceil_vml_cpu", "CeilBackward0"};
    case Round: return {K::KeepNoBool, "round_vml_cpu", "RoundBackward0"};
    case Trunc: return {K::KeepNoBool, "trunc_vml_cpu", "TruncBackward0"};
    case Frac: return {K::FloatOnly, "frac_cpu", "FracBackward0"};
    case Sign: return {K::Keep, "", "SignBackward0"};
    case Reciprocal: return {K::FloatFunction, "", "ReciprocalBackward0"};
    case Square: return {K::Square, "", "PowBackward0"};
    case Relu: return {K::KeepNoBool, "", "ReluBackward0"};
    case Silu: return {K::FloatOnly, "silu_cpu", "SiluBackward0"};
    case Gelu: return {K::FloatOnly, "GeluKernelImpl", "GeluBackward0"};
    case GeluTanh: return {K::FloatOnly, "GeluKernelImpl", "GeluBackward0"};
    case LogicalNot: return {K::Predicate, "", ""};
    case BitwiseNot: return {K::Bitwise, "bitwise_not_cpu", ""};
    case IsNan: return {K::Predicate, "", ""};
    case IsInf: return {K::Predicate, "", ""};
    case IsFinite: return {K::Predicate, "", ""};
        // clang-format on
    }
    return {K::Keep, "", ""};
}

template <UnaryOp Op, typename T>
constexpr bool unarySupports() {
    constexpr UnaryKind kind = unaryInfo(Op).kind;
    if constexpr (kind == UnaryKind::Keep || kind == UnaryKind::Predicate)
        return true;
    else if constexpr (kind == UnaryKind::Bitwise)
        return !std::is_floating_point_v<ComputeType<T>>;
    else if constexpr (kind == UnaryKind::KeepNoBool || kind == UnaryKind::Square)
        return !std::is_same_v<T, bool>;
    else
        return std::is_floating_point_v<ComputeType<T>>;
}

// ---------------------------------------------------------------------------------------------
// Kernels

template <UnaryOp Op, typename T>
void unaryTyped(const Tensor& out, const LoopInput& a) {
    using C = ComputeType<T>;
    using R = decltype(unaryScalar<Op, C>(C{}));
    using TO = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
    if constexpr (std::is_floating_point_v<C> && std::is_same_v<TO, T>) {
        if (std::optional<detail::VecMath> vm = detail::vecMathFor(Op)) {
            auto kernel = detail::vecMath().forType<T>();
            return detail::runUnaryRuns<T, T>(
                out, a, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
                    kernel(*vm, p[1], s[1], p[0], s[0], n);
                });
        }
    }
    runUnary<TO, T>(out, a, [](T x) { return TO(unaryScalar<Op, C>(C(x))); });
}

using UnaryKernel = void (*)(const Tensor&, const LoopInput&, DType);

template <UnaryOp Op>
void unaryKernel(const Tensor& out, const LoopInput& a, DType compute) {
    dispatchDType(compute, [&]<DType D>() {
        if constexpr (unarySupports<Op, CType<D>>())
            unaryTyped<Op, CType<D>>(out, a);
        else
            KILN_UNREACHABLE("unary op dtype is checked before dispatch");
    });
}

constexpr size_t kUnaryOpCount = static_cast<size_t>(UnaryOp::IsFinite) + 1;

template <size_t... I>
constexpr auto makeUnaryKernels(std::index_sequence<I...>) {
    return std::array<UnaryKernel, sizeof...(I)>{&unaryKernel<static_cast<UnaryOp>(I)>...};
}

constexpr auto kUnaryKernels = makeUnaryKernels(std::make_index_sequence<kUnaryOpCount>{});

// ---------------------------------------------------------------------------------------------
// Planning: checks, compute dtype and result dtype

struct UnaryPlan {
    DType compute;
    DType result;
};

void checkBoolInput(UnaryOp op, const UnaryInfo& info) {
    if (op == UnaryOp::Neg)
        fail(ErrorKind::NotImplementedError,
             "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
             "to invert a mask, use the `~` or `logical_not()` operator instead.");
    if (op == UnaryOp::Relu)
        fail(ErrorKind::NotImplementedError, "Boolean inputs not supported for relu");
    detail::failNotImplementedFor(info.kernel, DType::Bool);
}

UnaryPlan planUnary(UnaryOp op, DType dtype) {
    const UnaryInfo info = unaryInfo(op);
    switch (info.kind) {
    case UnaryKind::FloatFunction: {
        DType compute = isFloating(dtype) ? dtype : defaultFloatDType();
        return {compute, compute};
    }
    case UnaryKind::Predicate:
        return {dtype, DType::Bool};
    case UnaryKind::Square:
        if (dtype == DType::Bool) return {DType::Int64, DType::Int64};
        break;
    case UnaryKind::KeepNoBool:
        if (dtype == DType::Bool) checkBoolInput(op, info);
        break;
    case UnaryKind::FloatOnly:
        if (!isFloating(dtype)) detail::failNotImplementedFor(info.kernel, dtype);
        break;
    case UnaryKind::Bitwise:
        if (isFloating(dtype)) detail::failNotImplementedFor(info.kernel, dtype);
        break;
    case UnaryKind::Keep:
        break;
    }
    return {dtype, dtype};
}

void runUnaryOp(UnaryOp op, const Tensor& out, const Tensor& a, DType compute) {
    LoopInput la(a, compute, out.sizes());
    kUnaryKernels[static_cast<size_t>(op)](out, la, compute);
}

/// `out`'s node for op of `a`; the derivative reads `saved` as the input (a itself, or for an
/// in-place op a copy of it as it was).
void recordUnaryGrad(Tensor& out, UnaryOp op, const Tensor& a, const Tensor& saved) {
    const char* name = unaryInfo(op).gradName;
    if (!*name) return;
    recordGradFn(out, name, {&a});
    attachDerivative(out, unaryBackward(op, name, saved, out));
}

} // namespace

Tensor unary(UnaryOp op, const Tensor& a) {
    UnaryPlan plan = planUnary(op, a.dtype());
    Tensor out = detail::allocateElementwiseOutput(a.sizes(), plan.result, {&a});
    runUnaryOp(op, out, a, plan.compute);
    recordUnaryGrad(out, op, a, a);
    return out;
}

void unaryInPlace(UnaryOp op, const Tensor& a) {
    UnaryPlan plan = planUnary(op, a.dtype());
    detail::checkCanCastResult(plan.result, a.dtype());
    detail::checkInPlaceTarget(a, a.sizes());
    // Recorded only with grad mode on (without it, a keeps the node it has), from a copy of
    // the input as it was where the derivative reads it: sin_'s needs the old values
    // (PyTorch's original self); relu_'s and exp_'s read only the result.
    // Otherwise the node keeps a plain view of a: a itself would hold the node that holds it.
    const bool records = gradModeEnabled() && a.requiresGrad();
    Tensor original;
    if (records && unaryDerivativeReadsInput(op)) {
        {
            detail::NoGradGuard noGrad;
            original = clone(a);
        }
        // With a's history, so a second derivative through the saved original reaches it.
        if (a.gradNode()) setGradNode(original, a.gradNode(), a.impl()->gradOutputNr);
    } else if (records) {
        original = Tensor::view(a.storage(), a.offset(), a.sizes(), a.strides(), a.dtype());
    }
    if (plan.result == a.dtype() && plan.compute == a.dtype()) {
        runUnaryOp(op, a, a, plan.compute);
    } else {
        Tensor result = Tensor::empty(a.sizes(), plan.result);
        runUnaryOp(op, result, a, plan.compute);
        copyInto(a, result);
    }
    if (!records) return;
    Tensor target = a;
    recordUnaryGrad(target, op, a, original);
}

} // namespace kiln::tensor
