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

/// exp(x) as Cephes' expf: x = n ln2 + r with |r| <= ln2 / 2 (ln2 split in two so r is exact),
/// a degree-6 polynomial for exp(r), and 2^n applied in two halves so that results near the
/// subnormal and overflow limits round once. Forced inline: a kernel's loop vectorises only
/// with the body inlined, which GCC's size heuristics alone do not do in the larger kernels.
[[gnu::always_inline]] inline float expFloat(float x) {
    constexpr float kLog2e = 1.44269504088896341f;
    constexpr float kLn2Hi = 0.693359375f;
    constexpr float kLn2Lo = -2.12194440e-4f;
    constexpr float kRound = 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
    const int32_t bits = std::bit_cast<int32_t>(x);
    const int32_t magnitude = bits & 0x7fffffff;
    const int32_t isNan = -int32_t(magnitude > 0x7f800000);
    const int32_t negative = bits >> 31;
    // exp underflows to 0 below -104 and overflows to inf above 89: clamp there.
    const int32_t tooLow = negative & -int32_t(magnitude > std::bit_cast<int32_t>(104.0f));
    const int32_t tooHigh = ~negative & -int32_t(magnitude > std::bit_cast<int32_t>(89.0f));
    const float c = selectFloat(tooLow, -104.0f, selectFloat(tooHigh, 89.0f, x));
    const float t = c * kLog2e + kRound;
    const int32_t n = std::bit_cast<int32_t>(t) - std::bit_cast<int32_t>(kRound);
    const float nf = t - kRound;
    const float r = (c - nf * kLn2Hi) - nf * kLn2Lo;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float expR = p * (r * r) + r + 1.0f;
    const int32_t half = n >> 1;
    const float scaleA = std::bit_cast<float>((half + 127) << 23);
    const float scaleB = std::bit_cast<float>((n - half + 127) << 23);
    return selectFloat(isNan, x, expR * scaleA * scaleB);
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
