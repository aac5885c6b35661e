// SPDX-License-Identifier: MIT
/// \file
/// Comparing Python numbers exactly, as CPython does: an int and a float compare by value, not
/// by converting the int to a double (2**53 + 1 > 2.0**53, 2**63 - 1 < 2.0**63).
#pragma once

#include "lang/value.h"

#include <cmath>
#include <cstdint>

namespace kiln::lang {

/// compareNumbers' result when a NaN is involved: every ordering test is false.
inline constexpr int kUnordered = 2;

/// -1, 0 or 1 as int64 `i` is below, equal to or above double `d`; kUnordered for NaN.
inline int compareIntDouble(int64_t i, double d) {
    if (std::isnan(d)) return kUnordered;
    if (d >= 9223372036854775808.0) return -1; // 2**63 and above: past every int64
    if (d < -9223372036854775808.0) return 1;
    double whole = std::floor(d); // in [-2**63, 2**63): exact as an int64
    auto w = static_cast<int64_t>(whole);
    if (i != w) return i < w ? -1 : 1;
    return d > whole ? -1 : 0;
}

/// -1, 0 or 1 (or kUnordered) for two numbers (bool, int or float).
inline int compareNumbers(const Value& a, const Value& b) {
    if (!a.isFloat() && !b.isFloat()) {
        int64_t x = a.asInt(), y = b.asInt();
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (a.isFloat() && b.isFloat()) {
        double x = a.asFloat(), y = b.asFloat();
        if (x != x || y != y) return kUnordered;
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (b.isFloat()) return compareIntDouble(a.asInt(), b.asFloat());
    int r = compareIntDouble(b.asInt(), a.asFloat());
    return r == kUnordered ? r : -r;
}

} // namespace kiln::lang
