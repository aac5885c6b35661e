// SPDX-License-Identifier: MIT
// Pointwise ops that select or compare values rather than compute them: where, clamp,
// masked_fill, isclose/allclose/equal, and lerp.
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <cmath>
#include <limits>

namespace kiln::tensor {

using detail::LoopInput;

namespace {

/// The value of a scalar of `dtype`, as its storage type.
template <typename T>
T scalarAs(Scalar value) {
    if (value.isFloat()) return castValue<T>(value.toDouble());
    if (value.isBool()) return castValue<T>(value.toBool());
    return castValue<T>(value.toInt());
}

/// A 0-dim tensor holding the lowest (or highest) value of `dtype`: an absent clamp bound.
Tensor extremeValue(DType dtype, bool highest) {
    Tensor out = Tensor::empty({}, dtype);
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        using C = ComputeType<T>;
        if constexpr (std::is_floating_point_v<C>)
            *out.data<T>() = T(highest ? std::numeric_limits<C>::infinity()
                                       : -std::numeric_limits<C>::infinity());
        else
            *out.data<T>() =
                highest ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    });
    return out;
}

template <typename C>
C clampValue(C x, C lo, C hi) {
    if constexpr (std::is_floating_point_v<C>) {
        if (lo != lo || hi != hi) return std::numeric_limits<C>::quiet_NaN();
    }
    C low = x < lo ? lo : x; // NaN in x stays NaN
    return hi < low ? hi : low;
}

/// PyTorch's lerp: the two formulas keep the result exact at weight 0 and weight 1.
template <typename C>
C lerpValue(C start, C end, C weight) {
    return std::abs(weight) < C(0.5) ? start + weight * (end - start)
                                     : end - (end - start) * (C(1) - weight);
}

} // namespace

Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b) {
    // A uint8 condition reads as its truth (PyTorch 2.3 accepts it with a deprecation warning,
    // which the bindings give).
    if (condition.dtype() != DType::Bool && condition.dtype() != DType::UInt8)
        failRuntime(
            "where expected condition to be a boolean tensor, but got a tensor with dtype " +
            std::string(dtypeLegacyName(condition.dtype())));
    DType dtype = resultType({&a, &b});
    DimVector shape = broadcastShapes(broadcastShapes(condition.sizes(), a.sizes()), b.sizes());
    Tensor out = detail::allocateElementwiseOutput(shape, dtype, {&condition, &a, &b});
    LoopInput lc(condition, DType::Bool, shape);
    LoopInput la(a, dtype, shape);
    LoopInput lb(b, dtype, shape);
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        runTernary<T, bool, T, T>(out, lc, la, lb, [](bool c, T x, T y) { return c ? x : y; });
    });
    recordGradFn(out, "WhereBackward0", {&a, &b});
    attachWhereDerivative(out, condition, a, b);
    return out;
}

Tensor clamp(const Tensor& a, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
    if (!min && !max) failRuntime("torch.clamp: At least one of 'min' or 'max' must not be None");
    const Tensor* lo = min ? &*min : nullptr;
    const Tensor* hi = max ? &*max : nullptr;
    const bool tensorBounds = (lo && !lo->isWrappedNumber()) || (hi && !hi->isWrappedNumber());
    DType dtype = resultType({&a, lo, hi});
    if (dtype == DType::Bool && !tensorBounds)
        detail::failNotImplementedFor("clamp_scalar_cpu", dtype);
    DimVector shape = a.sizes();
    for (const Tensor* bound : {lo, hi})
        if (bound) shape = broadcastShapes(shape, bound->sizes());
    Tensor loValue = lo ? *lo : extremeValue(dtype, false);
    Tensor hiValue = hi ? *hi : extremeValue(dtype, true);
    Tensor out = detail::allocateElementwiseOutput(shape, dtype, {&a});
    LoopInput la(a, dtype, shape);
    LoopInput llo(loValue, dtype, shape);
    LoopInput lhi(hiValue, dtype, shape);
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        using C = ComputeType<T>;
        runTernary<T, T, T, T>(out, la, llo, lhi,
                               [](T x, T l, T h) { return T(clampValue(C(x), C(l), C(h))); });
    });
    recordGradFn(out, tensorBounds ? "ClampBackward0" : "ClampBackward1", {&a, lo, hi});
    attachClampDerivative(out, a, min, max);
    return out;
}

Tensor maskedFill(const Tensor& a, const Tensor& mask, const Tensor& value) {
    if (mask.dtype() != DType::Bool)
        failRuntime("masked_fill_ only supports boolean masks, but got mask with dtype " +
                    std::string(detail::typeMetaName(mask.dtype())));
    if (value.dim() != 0)
        failRuntime(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with " +
            std::to_string(value.dim()) + " dimension(s).");
    DimVector shape = broadcastShapes(mask.sizes(), a.sizes());
    Tensor out = Tensor::empty(shape, a.dtype());
    LoopInput la(a, a.dtype(), shape);
    LoopInput lm(mask, DType::Bool, shape);
    Scalar fillValue = item(value);
    if (value.isWrappedNumber()) checkScalarFits(fillValue, a.dtype());
    dispatchDType(a.dtype(), [&]<DType D>() {
        using T = CType<D>;
        const T v = scalarAs<T>(fillValue);
        runBinary<T, T, bool>(out, la, lm, [v](T x, bool m) { return m ? v : x; });
    });
    recordGradFn(out, value.isWrappedNumber() ? "MaskedFillBackward0" : "MaskedFillBackward1",
                 {&a, &value});
    attachMaskedFillDerivative(out, a, mask, value);
    return out;
}

namespace {

/// One element of torch.isclose, evaluated as PyTorch's composite does it: op by op in the
/// tensor's dtype (16-bit floats round after each op), integers measuring the error in their
/// own type against a tolerance in the default float type F.
template <typename T, typename F>
bool closeValues(T x, T y, double rtol, double atol, bool equalNan, bool exactOnly) {
    using C = ComputeType<T>;
    const C a = C(x), b = C(y);
    if (a == b) return true;
    if constexpr (std::is_floating_point_v<C>) {
        if (equalNan && a != a && b != b) return true;
        if (exactOnly) return false;
        const C scaled = std::abs(C(T(C(rtol) * b)));
        const C allowed = C(T(scaled + C(atol)));
        const C actual = std::abs(C(T(a - b)));
        return std::isfinite(actual) && actual <= allowed;
    } else {
        if (exactOnly) return false;
        auto minus = [](auto a, auto b) { return a - b; };
        const T diff = detail::wrapping(x, y, minus);
        const T actual = diff < 0 ? detail::wrapping(T(0), diff, minus) : diff;
        const F allowed = F(atol) + std::abs(F(rtol) * F(y));
        return F(actual) <= allowed;
    }
}

void checkTolerance(const char* name, double value) {
    if (value < 0)
        failRuntime(std::string(name) + " must be greater than or equal to zero, but got " +
                    detail::formatDouble(value));
}

} // namespace

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan) {
    if (a.dtype() != b.dtype())
        failRuntime(std::string(dtypeLegacyName(a.dtype())) + " did not match " +
                    std::string(dtypeLegacyName(b.dtype())));
    checkTolerance("rtol", rtol);
    checkTolerance("atol", atol);
    // PyTorch measures bool errors in the default float type.
    DType dtype = a.dtype() == DType::Bool ? defaultFloatDType() : a.dtype();
    DimVector shape = broadcastShapes(a.sizes(), b.sizes());
    Tensor out = Tensor::empty(shape, DType::Bool);
    LoopInput la(a, dtype, shape);
    LoopInput lb(b, dtype, shape);
    const bool exactOnly = rtol == 0 && atol == 0;
    const bool doubleTolerance = defaultFloatDType() == DType::Float64;
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        if constexpr (!std::is_same_v<T, bool>) {
            runBinary<bool, T, T>(out, la, lb, [=](T x, T y) {
                return doubleTolerance
                           ? closeValues<T, double>(x, y, rtol, atol, equalNan, exactOnly)
                           : closeValues<T, float>(x, y, rtol, atol, equalNan, exactOnly);
            });
        }
    });
    return out;
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan) {
    return item(all(isclose(a, b, rtol, atol, equalNan), std::nullopt, false)).toBool();
}

bool equal(const Tensor& a, const Tensor& b) {
    if (!(a.sizes() == b.sizes())) return false;
    return item(all(binary(BinaryOp::Eq, a, b), std::nullopt, false)).toBool();
}

namespace {

void checkLerpOperand(const Tensor& start, const Tensor& other, const char* name) {
    if (other.dtype() != start.dtype())
        failRuntime("expected dtype " + std::string(detail::typeMetaName(start.dtype())) +
                    " for `" + name + "` but got dtype " +
                    std::string(detail::typeMetaName(other.dtype())));
}

} // namespace

Tensor lerp(const Tensor& a, const Tensor& b, const Tensor& weight) {
    const bool scalarWeight = weight.isWrappedNumber();
    checkLerpOperand(a, b, "end");
    if (!scalarWeight) checkLerpOperand(a, weight, "weight");
    if (!isFloating(a.dtype()))
        detail::failNotImplementedFor(scalarWeight ? "lerp_kernel_scalar" : "lerp_kernel_tensor",
                                      a.dtype());
    DimVector shape = broadcastShapes(broadcastShapes(a.sizes(), b.sizes()), weight.sizes());
    Tensor out = Tensor::empty(shape, a.dtype());
    LoopInput la(a, a.dtype(), shape);
    LoopInput lb(b, a.dtype(), shape);
    LoopInput lw(weight, a.dtype(), shape);
    dispatchDType(a.dtype(), [&]<DType D>() {
        using T = CType<D>;
        using C = ComputeType<T>;
        if constexpr (std::is_floating_point_v<C>) {
            if (scalarWeight) {
                const C w = C(item(weight).toDouble());
                runBinary<T, T, T>(out, la, lb,
                                   [w](T x, T y) { return T(lerpValue(C(x), C(y), w)); });
            } else {
                runTernary<T, T, T, T>(
                    out, la, lb, lw, [](T x, T y, T w) { return T(lerpValue(C(x), C(y), C(w))); });
            }
        }
    });
    recordGradFn(out, scalarWeight ? "LerpBackward0" : "LerpBackward1", {&a, &b, &weight});
    attachLerpDerivative(out, a, b, weight);
    return out;
}

} // namespace kiln::tensor
