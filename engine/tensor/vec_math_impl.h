// SPDX-License-Identifier: MIT
/// \file
/// The body of the vectorised elementary functions, included once per instruction set by
/// vec_math_{baseline,avx2,avx512}.cpp. Each of those defines, before including this file,
///   KILN_VEC_NAMESPACE  a namespace name of its own (the code below differs per target), and
///   struct Isa          in it: VF and VD, the target's float and double registers (vec::F16
///                       and D8, F8 and D4, F4 and D2), one static member per SLEEF function
///                       over each (KILN_VEC_SLEEF_FUNCTIONS), and fma(a, b, c) over VD
///                       (fused where the target has FMA).
/// Every function works lane by lane (SLEEF's deterministic variants, Kiln's exp, plain
/// arithmetic), so a lane computes the same on a 4-, 8- or 16-lane target given the same
/// instructions (with or without FMA); the reductions use 16 logical lanes on every target.
#pragma once

#include "tensor/half.h"
#include "tensor/vec_math.h"
#include "tensor/vec_math_targets.h"

#include <bit>
#include <cstring>
#include <limits>
#include <numbers>
#include <utility>

namespace kiln::tensor::detail::KILN_VEC_NAMESPACE {

using VF = Isa::VF; ///< the target's float register
using VD = Isa::VD; ///< the target's double register (as many bytes)
constexpr int kFloatLanes = sizeof(VF) / sizeof(float);
constexpr int kDoubleLanes = sizeof(VD) / sizeof(double);
using VI = int32_t __attribute__((vector_size(sizeof(VF))));
using VL = int64_t __attribute__((vector_size(sizeof(VD))));
using VFHalf = float __attribute__((vector_size(sizeof(VF) / 2))); ///< as many floats as VD has
static_assert(kDoubleLanes * 2 == kFloatLanes);

template <size_t... I>
VFHalf lowerHalf(VF x, std::index_sequence<I...>) {
    return __builtin_shufflevector(x, x, I...);
}
template <size_t... I>
VFHalf upperHalf(VF x, std::index_sequence<I...>) {
    return __builtin_shufflevector(x, x, (I + kDoubleLanes)...);
}
template <size_t... I>
VF joined(VFHalf lo, VFHalf hi, std::index_sequence<I...>) {
    return __builtin_shufflevector(lo, hi, I...);
}

/// exp of a half register of floats widened to double: fast_math.h's expFloat (2^n exp(r),
/// |r| <= ln2 / 2, a degree-11 polynomial) with fused multiply-adds where the target has them,
/// rounded once to float: the correctly rounded result for all but a handful of inputs, as
/// PyTorch's scalar exp (glibc) prints it. Without FMA (the baseline) these are expFloat's
/// own steps.
inline VFHalf expHalf(VFHalf clamped) {
    constexpr double kLog2e = 1.4426950408889634074;
    constexpr double kLn2Hi = 6.93147180369123816490e-01;
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    constexpr double kRound = 6755399441055744.0; // 1.5 * 2^52: adding it rounds to an integer
    const VD c = __builtin_convertvector(clamped, VD);
    const VD t = Isa::fma(c, VD{} + kLog2e, VD{} + kRound);
    const VL n = reinterpret_cast<VL>(t) - std::bit_cast<int64_t>(kRound);
    const VD nd = t - kRound;
    const VD r = Isa::fma(nd, VD{} - kLn2Lo, Isa::fma(nd, VD{} - kLn2Hi, c));
    VD p = VD{} + 1.0 / 39916800.0;
    for (double coefficient : {1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0,
                               1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0})
        p = Isa::fma(p, r, VD{} + coefficient);
    return __builtin_convertvector(p * reinterpret_cast<VD>((n + 1023) << 52), VFHalf);
}

/// exp of a register of floats: inputs clamped where exp under- or overflows, NaN passed on.
inline VF expF(VF x) {
    const VI magnitude = reinterpret_cast<VI>(x) & 0x7fffffff;
    const VI isNan = magnitude > 0x7f800000;
    const VF clamped = x < -104.0f ? VF{} - 104.0f : (x > 89.0f ? VF{} + 89.0f : x);
    constexpr auto half = std::make_index_sequence<kDoubleLanes>();
    const VF e = joined(expHalf(lowerHalf(clamped, half)), expHalf(upperHalf(clamped, half)),
                        std::make_index_sequence<kFloatLanes>());
    return isNan ? x : e;
}

/// The function itself on one vector; the operations mirror pointwise_unary.cpp's scalars.
template <VecMath Op, typename V>
inline V apply(V x) {
    constexpr bool kFloat = std::is_same_v<V, VF>;
    using C = std::conditional_t<kFloat, float, double>;
    auto exp = [](V v) {
        if constexpr (kFloat)
            return expF(v);
        else
            return Isa::exp(v);
    };
    using enum VecMath;
    if constexpr (Op == Exp)
        return exp(x);
    else if constexpr (Op == Sigmoid)
        return C(1) / (C(1) + exp(-x));
    else if constexpr (Op == Silu)
        return x / (C(1) + exp(-x));
    else if constexpr (Op == Gelu)
        return x * C(0.5) * (C(1) + Isa::erf(x * C(std::numbers::sqrt2 / 2)));
    else if constexpr (Op == GeluTanh) {
        constexpr C kBeta = C(std::numbers::sqrt2 * std::numbers::inv_sqrtpi);
        constexpr C kKappa = C(0.044715);
        V inner = kBeta * (x + kKappa * x * x * x);
        return C(0.5) * x * (C(1) + Isa::tanh(inner));
    } else if constexpr (Op == Sin)
        return Isa::sin(x);
    else if constexpr (Op == Cos)
        return Isa::cos(x);
    else if constexpr (Op == Tan)
        return Isa::tan(x);
    else if constexpr (Op == Tanh)
        return Isa::tanh(x);
    else if constexpr (Op == Erf)
        return Isa::erf(x);
    else if constexpr (Op == Erfc)
        return Isa::erfc(x);
    else if constexpr (Op == Log)
        return Isa::log(x);
    else if constexpr (Op == Log2)
        return Isa::log2(x);
    else if constexpr (Op == Log10)
        return Isa::log10(x);
    else if constexpr (Op == Log1p)
        return Isa::log1p(x);
    else if constexpr (Op == Expm1)
        return Isa::expm1(x);
    else if constexpr (Op == Exp2)
        return Isa::exp2(x);
    else if constexpr (Op == Asin)
        return Isa::asin(x);
    else if constexpr (Op == Acos)
        return Isa::acos(x);
    else if constexpr (Op == Atan)
        return Isa::atan(x);
    else if constexpr (Op == Sinh)
        return Isa::sinh(x);
    else
        return Isa::cosh(x);
}

/// Storage element <-> compute lane.
template <typename T>
inline auto load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (std::is_same_v<T, BFloat16> || std::is_same_v<T, Half>)
        return float(v);
    else
        return v;
}
template <typename T, typename C>
inline void store(char* p, C v) {
    T t = T(v);
    std::memcpy(p, &t, sizeof(T));
}

/// f over n elements: whole vectors straight from memory when both sides are dense, else
/// (strided, broadcast, 16-bit storage, the tail) through a block of one vector.
template <VecMath Op, typename T>
void run(const char* in, int64_t inStride, char* out, int64_t outStride, int64_t n) {
    constexpr bool kFloatStorage = !std::is_same_v<T, double>;
    using V = std::conditional_t<kFloatStorage, VF, VD>;
    using C = std::conditional_t<kFloatStorage, float, double>;
    constexpr int kLanes = kFloatStorage ? kFloatLanes : kDoubleLanes;
    int64_t i = 0;
    if constexpr (std::is_same_v<T, C>) {
        constexpr int64_t kItem = sizeof(C);
        if (inStride == kItem && outStride == kItem) {
            for (; i + kLanes <= n; i += kLanes) {
                V x;
                std::memcpy(&x, in + i * sizeof(C), sizeof(V));
                V y = apply<Op>(x);
                std::memcpy(out + i * sizeof(C), &y, sizeof(V));
            }
        }
    }
    for (; i < n; i += kLanes) {
        const int count = static_cast<int>(std::min<int64_t>(kLanes, n - i));
        V x{};
        for (int k = 0; k < count; ++k)
            x[k] = load<T>(in + (i + k) * inStride);
        V y = apply<Op>(x);
        for (int k = 0; k < count; ++k)
            store<T>(out + (i + k) * outStride, C(y[k]));
    }
}

template <typename T>
void kernel(VecMath op, const char* in, int64_t inStride, char* out, int64_t outStride, int64_t n) {
    switch (op) {
#define KILN_VEC_DISPATCH(E)                                                                       \
    case VecMath::E:                                                                               \
        return run<VecMath::E, T>(in, inStride, out, outStride, n);
        KILN_VEC_DISPATCH(Exp)
        KILN_VEC_DISPATCH(Sigmoid)
        KILN_VEC_DISPATCH(Silu)
        KILN_VEC_DISPATCH(Sin)
        KILN_VEC_DISPATCH(Cos)
        KILN_VEC_DISPATCH(Tan)
        KILN_VEC_DISPATCH(Tanh)
        KILN_VEC_DISPATCH(Erf)
        KILN_VEC_DISPATCH(Erfc)
        KILN_VEC_DISPATCH(Log)
        KILN_VEC_DISPATCH(Log2)
        KILN_VEC_DISPATCH(Log10)
        KILN_VEC_DISPATCH(Log1p)
        KILN_VEC_DISPATCH(Expm1)
        KILN_VEC_DISPATCH(Exp2)
        KILN_VEC_DISPATCH(Asin)
        KILN_VEC_DISPATCH(Acos)
        KILN_VEC_DISPATCH(Atan)
        KILN_VEC_DISPATCH(Sinh)
        KILN_VEC_DISPATCH(Cosh)
        KILN_VEC_DISPATCH(Gelu)
        KILN_VEC_DISPATCH(GeluTanh)
#undef KILN_VEC_DISPATCH
    }
}

inline const VecMathKernels kKernels{&kernel<float>, &kernel<double>, &kernel<BFloat16>,
                                     &kernel<Half>};

// ---- row reductions (VecReduceKernels): plain loops over fixed lanes, which the compiler
// vectorises with this target's instructions.

constexpr int kReduceLanes = 16;

template <typename T>
double sumOf(const T* x, int64_t n) {
    double lanes[kReduceLanes] = {};
    int64_t i = 0;
    for (; i + kReduceLanes <= n; i += kReduceLanes)
        for (int k = 0; k < kReduceLanes; ++k)
            lanes[k] += double(x[i + k]);
    double total = 0;
    for (double lane : lanes)
        total += lane;
    for (; i < n; ++i)
        total += double(x[i]);
    return total;
}

/// b wins over a when it is larger (smaller) or a NaN (scalars and vectors alike).
template <bool Largest, typename V>
inline V extreme(V a, V b) {
    return ((Largest ? b > a : b < a) | (b != b)) ? b : a;
}

/// max/min over 16 lanes held in vector registers (one AVX-512 register of floats, two AVX2
/// ones, ...), so the select is one instruction rather than a branch per element.
template <bool Largest, typename T>
T extremeOf(const T* x, int64_t n) {
    using V = std::conditional_t<std::is_same_v<T, float>, VF, VD>;
    constexpr int kPerVector = sizeof(V) / sizeof(T);
    constexpr int kVectors = kReduceLanes / kPerVector;
    constexpr T start =
        Largest ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    V lanes[kVectors];
    for (V& lane : lanes)
        lane = V{} + start;
    int64_t i = 0;
    for (; i + kReduceLanes <= n; i += kReduceLanes)
        for (int v = 0; v < kVectors; ++v) {
            V next;
            std::memcpy(&next, x + i + v * kPerVector, sizeof(V));
            lanes[v] = extreme<Largest>(lanes[v], next);
        }
    T result = start;
    for (const V& lane : lanes)
        for (int k = 0; k < kPerVector; ++k)
            result = extreme<Largest>(result, T(lane[k]));
    for (; i < n; ++i)
        result = extreme<Largest>(result, x[i]);
    return result;
}

template <typename T>
void accumulateInto(double* __restrict acc, const T* __restrict x, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        acc[i] += double(x[i]);
}

inline const VecReduceKernels kReduceKernels{&sumOf<float>,
                                             &sumOf<double>,
                                             &extremeOf<true, float>,
                                             &extremeOf<false, float>,
                                             &extremeOf<true, double>,
                                             &extremeOf<false, double>,
                                             &accumulateInto<float>,
                                             &accumulateInto<double>};

} // namespace kiln::tensor::detail::KILN_VEC_NAMESPACE
