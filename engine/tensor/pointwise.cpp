// SPDX-License-Identifier: MIT
// Type promotion and the binary pointwise ops (arithmetic, comparisons, logical and bitwise).
// Each op has a scalar function over the compute type; one kernel per op, instantiated per
// supported dtype, is picked from a table indexed by the op.
#include "support/assert.h"
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <cmath>
#include <type_traits>
#include <utility>

namespace kiln::tensor {

using detail::kIsInteger;
using detail::LoopInput;
using detail::wrapping;

namespace {

// ---------------------------------------------------------------------------------------------
// Type promotion

DType combineCategories(std::optional<DType> higher, std::optional<DType> lower) {
    if (!higher) return *lower;
    if (!lower || isFloating(*higher)) return *higher;
    if (*higher == DType::Bool || isFloating(*lower)) return promoteTypes(*higher, *lower);
    return *higher;
}

void promoteInto(std::optional<DType>& slot, DType dtype) {
    slot = slot ? promoteTypes(*slot, dtype) : dtype;
}

} // namespace

DType resultType(std::initializer_list<const Tensor*> operands) {
    std::optional<DType> dimResult, zeroDimResult, numberResult;
    for (const Tensor* t : operands) {
        if (!t || !t->defined()) continue;
        DType dtype = t->dtype();
        if (t->isWrappedNumber())
            promoteInto(numberResult, isFloating(dtype) ? defaultFloatDType() : dtype);
        else if (t->dim() > 0)
            promoteInto(dimResult, dtype);
        else
            promoteInto(zeroDimResult, dtype);
    }
    KILN_ASSERT(dimResult || zeroDimResult || numberResult, "resultType needs an operand");
    if (!zeroDimResult && !numberResult) return *dimResult;
    DType lower = combineCategories(zeroDimResult, numberResult);
    return combineCategories(dimResult, lower);
}

namespace {

// ---------------------------------------------------------------------------------------------
// Scalar arithmetic in the compute type (float for the 16-bit floats)

template <typename C>
C floorDivide(C a, C b) {
    if constexpr (kIsInteger<C>) {
        if (b == 0) failRuntime("ZeroDivisionError");
        if (b == -1) // INT_MIN / -1 traps on x86; PyTorch's result wraps
            return wrapping(C(0), a, [](auto x, auto y) { return x - y; });
        C q = a / b;
        return (a % b != 0 && (a < 0) != (b < 0)) ? C(q - 1) : q;
    } else {
        if (b == 0) return a / b;
        C mod = std::fmod(a, b);
        C div = (a - mod) / b;
        if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
        if (div == 0) return std::copysign(C(0), a / b);
        C floored = std::floor(div);
        return div - floored > C(0.5) ? floored + 1 : floored;
    }
}

template <typename C>
C truncDivide(C a, C b) {
    if constexpr (kIsInteger<C>) {
        if (b == 0) failRuntime("ZeroDivisionError");
        return b == -1 ? wrapping(C(0), a, [](auto x, auto y) { return x - y; }) : C(a / b);
    } else {
        return std::trunc(a / b);
    }
}

template <typename C>
C remainderOf(C a, C b) {
    if constexpr (kIsInteger<C>) {
        if (b == 0) failRuntime("ZeroDivisionError");
        if (b == -1) return 0;
        C r = a % b;
        return (r != 0 && (r < 0) != (b < 0)) ? C(r + b) : r;
    } else {
        C mod = std::fmod(a, b);
        return (mod != 0 && (b < 0) != (mod < 0)) ? mod + b : mod;
    }
}

template <typename C>
C fmodOf(C a, C b) {
    if constexpr (kIsInteger<C>) {
        if (b == 0) failRuntime("ZeroDivisionError");
        return b == -1 ? C(0) : C(a % b);
    } else {
        return std::fmod(a, b);
    }
}

template <typename C>
C power(C base, C exponent) {
    if constexpr (kIsInteger<C>) {
        if (exponent < 0) // what PyTorch's integer pow gives for tensor exponents
            return base == 1 ? C(1) : base == -1 ? C((exponent & 1) ? -1 : 1) : C(0);
        using U = std::make_unsigned_t<C>;
        U result = 1, b = static_cast<U>(base);
        for (; exponent != 0; exponent >>= 1, b *= b)
            if (exponent & 1) result *= b;
        return static_cast<C>(result);
    } else {
        return std::pow(base, exponent);
    }
}

template <typename C>
C shiftLeft(C a, C b) {
    constexpr C bits = sizeof(C) * 8;
    if (b < 0 || b >= bits) return 0;
    return static_cast<C>(static_cast<std::make_unsigned_t<C>>(a) << b);
}

template <typename C>
C shiftRight(C a, C b) {
    constexpr C bits = sizeof(C) * 8;
    if (b >= 0 && b < bits) return C(a >> b);
    // A shift by the width or more leaves the sign: all ones or zeros, zero for uint8.
    return std::is_signed_v<C> ? C(a >> (bits - 1)) : C(0);
}

/// NaN propagates through maximum/minimum as in PyTorch; of two equal values (0 and -0) the
/// first is returned.
template <typename C>
C maxOf(C a, C b) {
    return (b > a || b != b) ? b : a;
}

template <typename C>
C minOf(C a, C b) {
    return (b < a || b != b) ? b : a;
}

template <BinaryOp Op, typename C>
inline auto binaryScalar(C a, C b) {
    using enum BinaryOp;
    // clang-format off
    if constexpr (Op == Add) return wrapping(a, b, [](auto x, auto y) { return x + y; });
    else if constexpr (Op == Sub) return wrapping(a, b, [](auto x, auto y) { return x - y; });
    else if constexpr (Op == Mul) return wrapping(a, b, [](auto x, auto y) { return x * y; });
    else if constexpr (Op == Div) return C(a / b);
    else if constexpr (Op == FloorDiv) return floorDivide(a, b);
    else if constexpr (Op == TruncDiv) return truncDivide(a, b);
    else if constexpr (Op == Remainder) return remainderOf(a, b);
    else if constexpr (Op == Fmod) return fmodOf(a, b);
    else if constexpr (Op == Pow) return power(a, b);
    else if constexpr (Op == Maximum) return maxOf(a, b);
    else if constexpr (Op == Minimum) return minOf(a, b);
    else if constexpr (Op == Atan2) return C(std::atan2(a, b));
    else if constexpr (Op == Eq) return a == b;
    else if constexpr (Op == Ne) return a != b;
    else if constexpr (Op == Lt) return a < b;
    else if constexpr (Op == Le) return a <= b;
    else if constexpr (Op == Gt) return a > b;
    else if constexpr (Op == Ge) return a >= b;
    else if constexpr (Op == LogicalAnd) return a != C(0) && b != C(0);
    else if constexpr (Op == LogicalOr) return a != C(0) || b != C(0);
    else if constexpr (Op == LogicalXor) return (a != C(0)) != (b != C(0));
    else if constexpr (Op == BitwiseAnd) return C(a & b);
    else if constexpr (Op == BitwiseOr) return C(a | b);
    else if constexpr (Op == BitwiseXor) return C(a ^ b);
    else if constexpr (Op == LeftShift) return shiftLeft(a, b);
    else return shiftRight(a, b);
    // clang-format on
}

// ---------------------------------------------------------------------------------------------
// Op properties

enum class BinaryKind { Arith, TrueDiv, Compare, Logical, Bitwise, Shift };

struct BinaryInfo {
    BinaryKind kind;
    bool allowsBool;
    const char* kernel; ///< the name PyTorch's "not implemented for" message uses
};

constexpr BinaryInfo binaryInfo(BinaryOp op) {
    using enum BinaryOp;
    using K = BinaryKind;
    switch (op) {
    case Div:
    case Atan2:
        return {K::TrueDiv, true, ""};
    case FloorDiv:
        return {K::Arith, false, "div_floor_cpu"};
    case TruncDiv:
        return {K::Arith, false, "div_trunc_cpu"};
    case Remainder:
        return {K::Arith, false, "remainder_cpu"};
    case Fmod:
        return {K::Arith, false, "fmod_cpu"};
    case Pow:
        return {K::Arith, false, "pow"};
    case Eq:
    case Ne:
    case Lt:
    case Le:
    case Gt:
    case Ge:
        return {K::Compare, true, ""};
    case LogicalAnd:
    case LogicalOr:
    case LogicalXor:
        return {K::Logical, true, ""};
    case BitwiseAnd:
        return {K::Bitwise, true, "bitwise_and_cpu"};
    case BitwiseOr:
        return {K::Bitwise, true, "bitwise_or_cpu"};
    case BitwiseXor:
        return {K::Bitwise, true, "bitwise_xor_cpu"};
    case LeftShift:
        return {K::Shift, false, "lshift_cpu"};
    case RightShift:
        return {K::Shift, false, "rshift_cpu"};
    default:
        return {K::Arith, true, ""};
    }
}

template <BinaryOp Op, typename T>
constexpr bool binarySupports() {
    constexpr BinaryInfo info = binaryInfo(Op);
    if constexpr (std::is_same_v<T, bool>)
        return info.allowsBool && Op != BinaryOp::Sub && info.kind != BinaryKind::TrueDiv;
    else if constexpr (std::is_integral_v<T>)
        return info.kind != BinaryKind::TrueDiv;
    else
        return info.kind != BinaryKind::Bitwise && info.kind != BinaryKind::Shift;
}

/// The autograd node PyTorch records; Python numbers select its Scalar overloads.
std::string_view binaryGradName(BinaryOp op, const Tensor& a, const Tensor& b) {
    const bool aNumber = a.isWrappedNumber() && !b.isWrappedNumber();
    const bool bNumber = b.isWrappedNumber();
    using enum BinaryOp;
    switch (op) {
    case Add:
        return "AddBackward0";
    case Sub:
        return aNumber ? "RsubBackward1" : "SubBackward0";
    case Mul:
        return "MulBackward0";
    case Div:
        return "DivBackward0";
    case FloorDiv: // floor_divide has no derivative; PyTorch names the node so
        return "NotImplemented";
    case TruncDiv:
        return "DivBackward2";
    case Remainder:
        return bNumber ? "RemainderBackward0" : aNumber ? "NotImplemented" : "RemainderBackward1";
    case Fmod:
        return bNumber ? "FmodBackward0" : "FmodBackward1";
    case Pow:
        return bNumber ? "PowBackward0" : aNumber ? "PowBackward2" : "PowBackward1";
    case Maximum:
        return "MaximumBackward0";
    case Minimum:
        return "MinimumBackward0";
    case Atan2:
        return "Atan2Backward0";
    default:
        return {};
    }
}

// ---------------------------------------------------------------------------------------------
// Kernels

template <BinaryOp Op>
constexpr bool kUsesOpmathScalar =
    Op == BinaryOp::Add || Op == BinaryOp::Sub || Op == BinaryOp::Mul || Op == BinaryOp::Div;

template <BinaryOp Op, typename T>
void binaryTyped(const Tensor& out, const LoopInput& a, const LoopInput& b) {
    using C = ComputeType<T>;
    using R = decltype(binaryScalar<Op, C>(C{}, C{}));
    using TO = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
    if constexpr (kUsesOpmathScalar<Op> && !std::is_same_v<T, C>) {
        if (b.isScalar() && !a.isScalar()) {
            const C bv = b.scalarAsFloat();
            runUnary<TO, T>(out, a, [bv](T x) { return TO(binaryScalar<Op, C>(C(x), bv)); });
            return;
        }
    }
    runBinary<TO, T, T>(out, a, b, [](T x, T y) { return TO(binaryScalar<Op, C>(C(x), C(y))); });
}

using BinaryKernel = void (*)(const Tensor&, const LoopInput&, const LoopInput&, DType);

template <BinaryOp Op>
void binaryKernel(const Tensor& out, const LoopInput& a, const LoopInput& b, DType compute) {
    dispatchDType(compute, [&]<DType D>() {
        if constexpr (binarySupports<Op, CType<D>>())
            binaryTyped<Op, CType<D>>(out, a, b);
        else
            KILN_UNREACHABLE("binary op dtype is checked before dispatch");
    });
}

constexpr size_t kBinaryOpCount = static_cast<size_t>(BinaryOp::RightShift) + 1;

template <size_t... I>
constexpr auto makeBinaryKernels(std::index_sequence<I...>) {
    return std::array<BinaryKernel, sizeof...(I)>{&binaryKernel<static_cast<BinaryOp>(I)>...};
}

constexpr auto kBinaryKernels = makeBinaryKernels(std::make_index_sequence<kBinaryOpCount>{});

// ---------------------------------------------------------------------------------------------
// Planning: checks, compute dtype and result dtype

struct BinaryPlan {
    DType compute;
    DType result;
};

void checkSubtraction(const Tensor& a, const Tensor& b) {
    if (a.dtype() == DType::Bool && b.dtype() == DType::Bool)
        fail(ErrorKind::NotImplementedError,
             "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
             "or `logical_xor()` operator instead.");
    if (a.dtype() == DType::Bool || b.dtype() == DType::Bool)
        fail(ErrorKind::NotImplementedError,
             "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

void checkIntegerPower(const Tensor& b, DType compute) {
    if (b.isWrappedNumber() && isIntegral(compute, true) && isIntegral(b.dtype(), false) &&
        item(b).toInt() < 0)
        failRuntime("Integers to negative integer powers are not allowed.");
}

BinaryPlan planBinary(BinaryOp op, const Tensor& a, const Tensor& b) {
    if (op == BinaryOp::Sub) checkSubtraction(a, b);
    const BinaryInfo info = binaryInfo(op);
    DType common = resultType({&a, &b});
    if (common == DType::Bool && !info.allowsBool)
        detail::failNotImplementedFor(info.kernel, common);
    if ((info.kind == BinaryKind::Bitwise || info.kind == BinaryKind::Shift) && isFloating(common))
        detail::failNotImplementedFor(info.kernel, common);
    if (op == BinaryOp::Pow) checkIntegerPower(b, common);
    if (info.kind == BinaryKind::TrueDiv && !isFloating(common))
        return {defaultFloatDType(), defaultFloatDType()};
    if (info.kind == BinaryKind::Compare || info.kind == BinaryKind::Logical)
        return {common, DType::Bool};
    return {common, common};
}

void runBinaryOp(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, DType compute) {
    LoopInput la(a, compute, out.sizes());
    LoopInput lb(b, compute, out.sizes());
    kBinaryKernels[static_cast<size_t>(op)](out, la, lb, compute);
}

void recordBinaryGrad(Tensor& out, BinaryOp op, const Tensor& a, const Tensor& b) {
    std::string_view name = binaryGradName(op, a, b);
    if (name.empty()) return;
    recordGradFn(out, name, {&a, &b});
    attachDerivative(out, binaryBackward(op, name, a, b, out));
}

bool isCommutativeArith(BinaryOp op) {
    return op == BinaryOp::Add || op == BinaryOp::Mul;
}

} // namespace

Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b) {
    // Python evaluates `2 * x` as x.__rmul__(2) and `2 / x` as x.reciprocal() * 2; following
    // it keeps the number in the second slot, where 16-bit kernels read it in float.
    if (a.isWrappedNumber() && !b.isWrappedNumber()) {
        if (isCommutativeArith(op)) return binary(op, b, a);
        if (op == BinaryOp::Div) return binary(BinaryOp::Mul, unary(UnaryOp::Reciprocal, b), a);
    }
    if (op == BinaryOp::Pow && b.isWrappedNumber() && !a.isWrappedNumber()) {
        // PyTorch answers x ** 0 and x ** 1 without the pow kernel, so they work for every
        // dtype, bool included (b ** True is b).
        double exponent = item(b).toDouble();
        if (exponent == 0.0 || exponent == 1.0) {
            Tensor out = detail::allocateElementwiseOutput(a.sizes(), resultType({&a, &b}), {&a});
            if (exponent == 0.0)
                fill(out, Scalar(int64_t(1)));
            else
                copyInto(out, a);
            recordBinaryGrad(out, op, a, b);
            return out;
        }
    }
    BinaryPlan plan = planBinary(op, a, b);
    Tensor out = detail::allocateElementwiseOutput(broadcastShapes(a.sizes(), b.sizes()),
                                                   plan.result, {&a, &b});
    runBinaryOp(op, out, a, b, plan.compute);
    recordBinaryGrad(out, op, a, b);
    return out;
}

void binaryInPlace(BinaryOp op, const Tensor& a, const Tensor& b) {
    BinaryPlan plan = planBinary(op, a, b);
    detail::checkCanCastResult(plan.result, a.dtype());
    // The node keeps a copy of `a` as it was (PyTorch's original self) and leads to its old
    // history: made before the write.
    std::string_view name = binaryGradName(op, a, b);
    refreshViewGradFn(a); // a view whose base was written since may need a gradient now
    const bool recorded =
        gradModeEnabled() && !name.empty() && (a.requiresGrad() || b.requiresGrad());
    Tensor original;
    if (recorded) {
        {
            GradModeGuard noGrad(false);
            original = clone(a);
        }
        // With a's history, so a second derivative through the saved original reaches it.
        if (a.gradNode()) setGradNode(original, a.gradNode(), a.impl()->gradOutputNr);
    }
    detail::checkInPlaceTarget(a, broadcastShapes(a.sizes(), b.sizes()));
    if (plan.result == a.dtype()) {
        runBinaryOp(op, a, a, b, plan.compute);
    } else {
        Tensor result = Tensor::empty(a.sizes(), plan.result);
        runBinaryOp(op, result, a, b, plan.compute);
        copyInto(a, result);
    }
    if (!recorded) return;
    Ref<GradNode> node = binaryBackward(op, name, original, b, a);
    if (!node) node = makeRef<UnimplementedBackward>(name);
    node->next = {gradEdgeOf(a), gradEdgeOf(b)};
    Tensor target = a;
    setGradNode(target, std::move(node));
}

namespace {

void checkAlpha(Scalar alpha, DType dtype) {
    if (alpha.isBool() && dtype != DType::Bool)
        failRuntime("Boolean alpha only supported for Boolean results.");
    if (alpha.isFloat() && !isFloating(dtype))
        failRuntime("For integral input tensors, argument alpha must not be a floating point "
                    "number.");
}

template <typename T>
void addScaledTyped(const Tensor& out, const LoopInput& a, const LoopInput& b, Scalar alpha) {
    using C = ComputeType<T>;
    if constexpr (std::is_same_v<T, bool>) {
        const bool s = alpha.toBool();
        runBinary<T, T, T>(out, a, b, [s](T x, T y) { return x || (s && y); });
    } else {
        const C s = std::is_floating_point_v<C> ? C(alpha.toDouble()) : C(alpha.toInt());
        auto fn = [s](C x, C y) {
            return wrapping(x, wrapping(s, y, [](auto u, auto v) { return u * v; }),
                            [](auto u, auto v) { return u + v; });
        };
        if constexpr (!std::is_same_v<T, C>) {
            if (b.isScalar() && !a.isScalar()) {
                const C bv = b.scalarAsFloat();
                runUnary<T, T>(out, a, [fn, bv](T x) { return T(fn(C(x), bv)); });
                return;
            }
        }
        runBinary<T, T, T>(out, a, b, [fn](T x, T y) { return T(fn(C(x), C(y))); });
    }
}

} // namespace

Tensor addScaled(const Tensor& a, const Tensor& b, Scalar alpha) {
    DType common = resultType({&a, &b});
    checkAlpha(alpha, common);
    if (alpha.toDouble() == 1.0) return binary(BinaryOp::Add, a, b);
    Tensor out = Tensor::empty(broadcastShapes(a.sizes(), b.sizes()), common);
    LoopInput la(a, common, out.sizes());
    LoopInput lb(b, common, out.sizes());
    dispatchDType(common, [&]<DType D>() { addScaledTyped<CType<D>>(out, la, lb, alpha); });
    recordGradFn(out, "AddBackward0", {&a, &b});
    attachAddScaledDerivative(out, a, b, alpha);
    return out;
}

} // namespace kiln::tensor
