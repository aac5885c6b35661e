// SPDX-License-Identifier: MIT
/// \file
/// Internal to the tensor library: float math that the compiler can vectorise. libm's expf is
/// an opaque call, so a loop over it runs one element at a time; exp dominates softmax,
/// sigmoid and SiLU. expFloat is branch-free (selects are done on the bits, integer compares
/// cannot trap) and inlines into the kernels' loops, which then vectorise. Its error is within
/// 1 ulp of the exact result over the whole float range, as PyTorch's own vectorised exp
/// (Sleef, 1.0 ulp); subnormal results, overflow to inf, -inf -> 0 and NaN are handled.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace kiln::tensor::detail {

/// mask (all ones or all zeros) ? a : b, on the bits.
[[gnu::always_inline]] inline float selectFloat(int32_t mask, float a, float b) {
    return std::bit_cast<float>((mask & std::bit_cast<int32_t>(a)) |
                                (~mask & std::bit_cast<int32_t>(b)));
}

/// mask (all ones or all zeros) ? a : b, on the bits of doubles.
[[gnu::always_inline]] inline double selectDouble(int64_t mask, double a, double b) {
    return std::bit_cast<double>((mask & std::bit_cast<int64_t>(a)) |
                                 (~mask & std::bit_cast<int64_t>(b)));
}

/// exp(x) for float, evaluated in double and rounded once: x = n ln2 + r with |r| <= ln2 / 2,
/// a degree-11 Taylor polynomial for exp(r) (relative error below 1e-14), then 2^n. Rounding
/// that nearly exact double to float gives the correctly rounded result, which is what
/// PyTorch's own float exp returns for all but a handful of inputs, so printed values agree.
/// Branch-free and forced inline so the kernels' loops vectorise.
[[gnu::always_inline]] inline float expFloat(float x) {
    constexpr double kLog2e = 1.4426950408889634074;
    constexpr double kLn2Hi = 6.93147180369123816490e-01;
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    constexpr double kRound = 6755399441055744.0; // 1.5 * 2^52: adding it rounds to an integer
    const int32_t bits = std::bit_cast<int32_t>(x);
    const int32_t magnitude = bits & 0x7fffffff;
    const int64_t isNan = -int64_t(magnitude > 0x7f800000);
    const int32_t negative = bits >> 31;
    // exp underflows to 0 below -104 and overflows to inf above 89: clamp there.
    const int32_t tooLow = negative & -int32_t(magnitude > std::bit_cast<int32_t>(104.0f));
    const int32_t tooHigh = ~negative & -int32_t(magnitude > std::bit_cast<int32_t>(89.0f));
    const double c = selectFloat(tooLow, -104.0f, selectFloat(tooHigh, 89.0f, x));
    const double t = c * kLog2e + kRound;
    const int64_t n = std::bit_cast<int64_t>(t) - std::bit_cast<int64_t>(kRound);
    const double nd = t - kRound;
    const double r = (c - nd * kLn2Hi) - nd * kLn2Lo;
    double p = 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    const double scale = std::bit_cast<double>((n + 1023) << 52);
    return static_cast<float>(selectDouble(isNan, static_cast<double>(x), p * scale));
}

/// std::exp for float and double alike; float goes through the vectorisable expFloat.
template <typename C>
[[gnu::always_inline]] inline C expOf(C x) {
    if constexpr (std::is_same_v<C, float>)
        return expFloat(x);
    else
        return std::exp(x);
}

} // namespace kiln::tensor::detail
