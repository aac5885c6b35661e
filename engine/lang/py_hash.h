// SPDX-License-Identifier: MIT
/// \file
/// CPython's hash values for numbers and tuples (64-bit builds), so that hash(), and anything a
/// script computes from it (bucketing by hash(x) % n), gives what Python gives. Numbers hash by
/// their value modulo the Mersenne prime P = 2**61 - 1 (the Python reference, "Hashing of
/// numeric types"): equal numbers of any type hash alike, and -1, which CPython reserves, is -2.
/// Strings are not here: CPython randomizes theirs per process.
#pragma once

#include <cmath>
#include <cstdint>

namespace kiln::lang {

inline constexpr uint64_t kHashModulus = (uint64_t(1) << 61) - 1;
inline constexpr int64_t kHashInf = 314159;

inline int64_t pyHashFinal(int64_t h) {
    return h == -1 ? -2 : h;
}

inline int64_t pyHashInt(int64_t n) {
    uint64_t magnitude = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    auto h = static_cast<int64_t>(magnitude % kHashModulus);
    return pyHashFinal(n < 0 ? -h : h);
}

/// Finite doubles only (the caller hashes NaN by identity, as CPython does since 3.10).
inline int64_t pyHashDouble(double v) {
    if (std::isinf(v)) return v > 0 ? kHashInf : -kHashInf;
    // |v| = mantissa * 2**exponent with an integer mantissa of at most 53 bits; modulo P,
    // 2**61 is 1, so multiplying by 2**e rotates the 61-bit residue by e mod 61.
    int e = 0;
    double m = std::frexp(std::fabs(v), &e);
    auto mantissa = static_cast<uint64_t>(std::ldexp(m, 53));
    int rotate = ((e - 53) % 61 + 61) % 61;
    uint64_t x = mantissa % kHashModulus;
    if (rotate) x = ((x << rotate) & kHashModulus) | (x >> (61 - rotate));
    auto h = static_cast<int64_t>(x);
    return pyHashFinal(v < 0 ? -h : h);
}

/// Tuples: CPython's xxHash-style combination of the items' hashes.
class PyTupleHash {
public:
    void add(int64_t itemHash) {
        m_acc += static_cast<uint64_t>(itemHash) * kPrime2;
        m_acc = (m_acc << 31) | (m_acc >> 33);
        m_acc *= kPrime1;
        ++m_length;
    }
    int64_t value() const {
        uint64_t acc = m_acc + (m_length ^ (kPrime5 ^ 3527539ull));
        return acc == ~uint64_t(0) ? 1546275796 : static_cast<int64_t>(acc);
    }

private:
    static constexpr uint64_t kPrime1 = 11400714785074694791ull;
    static constexpr uint64_t kPrime2 = 14029467366897019727ull;
    static constexpr uint64_t kPrime5 = 2870177450012600261ull;
    uint64_t m_acc = kPrime5;
    uint64_t m_length = 0;
};

} // namespace kiln::lang
