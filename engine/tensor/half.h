// SPDX-License-Identifier: MIT
/// \file
/// 16-bit floating-point storage types. Arithmetic happens in float (as PyTorch does on the CPU);
/// these types only convert, with round-to-nearest-even on the way down.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace kiln::tensor {

struct Half {
    uint16_t bits = 0;

    Half() = default;
    Half(float value)
        : bits(fromFloat(value)) {}
    operator float() const { return toFloat(bits); }

    static uint16_t fromFloat(float value) {
        uint32_t x = std::bit_cast<uint32_t>(value);
        uint32_t sign = (x >> 16) & 0x8000u;
        uint32_t absx = x & 0x7FFFFFFFu;
        if (absx > 0x7F800000u) // NaN: keep it quiet
            return static_cast<uint16_t>(sign | 0x7E00u);
        if (absx >= 0x47800000u) // overflows half (>= 65536 after rounding is handled below)
            return static_cast<uint16_t>(sign | 0x7C00u);
        if (absx < 0x38800000u) { // subnormal or zero in half
            // Scale so that the half subnormal unit (2^-24) becomes 1, then round to even.
            float f = std::bit_cast<float>(absx) * 16777216.0f;
            uint32_t r = static_cast<uint32_t>(f);
            float rem = f - static_cast<float>(r);
            if (rem > 0.5f || (rem == 0.5f && (r & 1u))) ++r;
            return static_cast<uint16_t>(sign | r);
        }
        uint32_t mant = absx & 0x007FFFFFu;
        uint32_t exp = (absx >> 23) - 112u; // rebias 127 -> 15
        uint32_t h = (exp << 10) | (mant >> 13);
        uint32_t rest = mant & 0x1FFFu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
            ++h; // may carry into the exponent, which is exactly right (and may produce inf)
        return static_cast<uint16_t>(sign | h);
    }

    static float toFloat(uint16_t h) {
        uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
        uint32_t exp = (h >> 10) & 0x1Fu;
        uint32_t mant = h & 0x3FFu;
        uint32_t out;
        if (exp == 0) {
            if (mant == 0) return std::bit_cast<float>(sign);
            float f = static_cast<float>(mant) * (1.0f / 16777216.0f);
            return sign ? -f : f;
        }
        if (exp == 31)
            out = sign | 0x7F800000u | (mant << 13);
        else
            out = sign | ((exp + 112u) << 23) | (mant << 13);
        return std::bit_cast<float>(out);
    }
};

struct BFloat16 {
    uint16_t bits = 0;

    BFloat16() = default;
    BFloat16(float value)
        : bits(fromFloat(value)) {}
    operator float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

    static uint16_t fromFloat(float value) {
        uint32_t x = std::bit_cast<uint32_t>(value);
        if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);
        uint32_t roundingBias = 0x7FFFu + ((x >> 16) & 1u);
        return static_cast<uint16_t>((x + roundingBias) >> 16);
    }
};

} // namespace kiln::tensor
