// SPDX-License-Identifier: MIT
// Floats to text and round(): CPython's PyOS_double_to_string and float.__round__. Digits come
// from std::to_chars, which is exact and rounds ties to even like CPython's dtoa; the layout of
// those digits (where the point goes, when an exponent appears, which zeros stay) follows
// format_float_short in Python/pystrtod.c step by step.
#include "lang/format.h"

#include "lang/format_detail.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kiln::lang {

namespace detail {
namespace {

/// A decimal digit string without leading or trailing zeros ("0" for zero) and the position of
/// the decimal point relative to its start, as _Py_dg_dtoa returns them.
struct Digits {
    std::string digits;
    int decpt = 1;
};

std::string toChars(double v, std::chars_format fmt, int precision) {
    std::string buf(size_t(precision) + 400, '\0');
    auto result = precision < 0
                      ? std::to_chars(buf.data(), buf.data() + buf.size(), v, fmt)
                      : std::to_chars(buf.data(), buf.data() + buf.size(), v, fmt, precision);
    buf.resize(size_t(result.ptr - buf.data()));
    return buf;
}

void normalize(Digits& d) {
    size_t first = d.digits.find_first_not_of('0');
    if (first == std::string::npos) {
        d = Digits{"0", 1};
        return;
    }
    d.digits.erase(0, first);
    d.decpt -= int(first);
    d.digits.erase(d.digits.find_last_not_of('0') + 1);
}

/// Digits of "d.ddde+XX" (to_chars scientific output).
Digits fromScientific(const std::string& text) {
    size_t e = text.find('e');
    Digits d;
    for (size_t i = 0; i < e; ++i)
        if (text[i] != '.') d.digits += text[i];
    int exp = std::atoi(text.c_str() + e + 1);
    d.decpt = exp + 1;
    normalize(d);
    return d;
}

/// Digits of "ddd.ddd" (to_chars fixed output).
Digits fromFixed(const std::string& text) {
    size_t point = text.find('.');
    Digits d;
    d.decpt = int(point == std::string::npos ? text.size() : point);
    for (char c : text)
        if (c != '.') d.digits += c;
    normalize(d);
    return d;
}

/// _Py_dg_dtoa: mode 0 is the shortest round-trip, mode 2 \a n significant digits, mode 3 \a n
/// digits after the point. \a v is finite and non-negative.
Digits dtoa(double v, int mode, int n) {
    if (mode == 0) return fromScientific(toChars(v, std::chars_format::scientific, -1));
    if (mode == 2) return fromScientific(toChars(v, std::chars_format::scientific, n - 1));
    return fromFixed(toChars(v, std::chars_format::fixed, n));
}

std::string nonFinite(double v, bool upper, unsigned flags) {
    std::string out;
    if (std::isinf(v) && v < 0)
        out += '-';
    else if (flags & kAlwaysSign)
        out += '+';
    if (std::isinf(v))
        out += upper ? "INF" : "inf";
    else
        out += upper ? "NAN" : "nan"; // a nan's sign bit is never shown
    return out;
}

/// The digit layout of format_float_short; \a code is 'e', 'f', 'g' or 'r'.
std::string layout(const Digits& d, char code, int precision, unsigned flags, bool upper) {
    const bool addDot0 = flags & kAddDotZero;
    const bool alt = flags & kAlternate;
    const long digitsLen = long(d.digits.size());
    long decpt = d.decpt;
    long vEnd = digitsLen;
    bool useExp = false;
    if (code == 'e') {
        useExp = true;
        vEnd = precision;
    } else if (code == 'f') {
        vEnd = decpt + precision;
    } else if (code == 'g') {
        useExp = decpt <= -4 || decpt > (addDot0 ? precision - 1 : precision);
        if (alt) vEnd = precision;
    } else {
        useExp = decpt <= -4 || decpt > 16; // repr switches to exponents at 1e16
    }
    long exp = 0;
    if (useExp) {
        exp = decpt - 1;
        decpt = 1;
    }
    const long vStart = decpt <= 0 ? decpt - 1 : 0;
    vEnd = std::max(vEnd, (!useExp && addDot0) ? decpt + 1 : decpt);

    std::string out;
    if (decpt <= 0) out.append(size_t(decpt - vStart), '0').append(".").append(size_t(-decpt), '0');
    if (0 < decpt && decpt <= digitsLen)
        out.append(d.digits, 0, size_t(decpt)).append(".").append(d.digits, size_t(decpt));
    else
        out += d.digits;
    if (digitsLen < decpt)
        out.append(size_t(decpt - digitsLen), '0').append(".").append(size_t(vEnd - decpt), '0');
    else
        out.append(size_t(std::max(0L, vEnd - digitsLen)), '0');
    if (out.back() == '.' && !alt) out.pop_back();
    if (useExp) {
        char expText[16];
        std::snprintf(expText, sizeof expText, "%c%+.02ld", upper ? 'E' : 'e', exp);
        out += expText;
    }
    return out;
}

} // namespace

std::string doubleToString(double v, char code, int precision, unsigned flags) {
    const bool upper = code == 'E' || code == 'F' || code == 'G';
    if (!std::isfinite(v)) return nonFinite(v, upper, flags);
    code = char(code | 0x20);
    int mode = 0;
    if (code == 'e') {
        mode = 2;
        precision = std::min(precision, INT_MAX - 1) + 1; // digits after the point, plus one
    } else if (code == 'f') {
        mode = 3;
    } else if (code == 'g') {
        mode = 2;
        precision = std::max(precision, 1); // precision 0 makes no sense for 'g'
    }
    Digits d = dtoa(std::fabs(v), mode, precision);
    bool negative = std::signbit(v);
    if ((flags & kNoNegativeZero) && d.digits == "0") negative = false;
    std::string sign = negative ? "-" : (flags & kAlwaysSign) ? "+" : "";
    return sign + layout(d, code, precision, flags, upper);
}

std::string integralDigits(double v) {
    return toChars(v, std::chars_format::fixed, 0);
}

std::string integerDigits(uint64_t magnitude, int base) {
    std::string reversed;
    do {
        reversed += "0123456789abcdef"[magnitude % unsigned(base)];
        magnitude /= unsigned(base);
    } while (magnitude != 0);
    return std::string(reversed.rbegin(), reversed.rend());
}

} // namespace detail

std::string floatRepr(double v) {
    return detail::doubleToString(v, 'r', 0, detail::kAddDotZero);
}

std::string intToString(int64_t v) {
    char buf[24];
    auto result = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, result.ptr);
}

namespace {

/// Rounds the decimal digits of a non-negative integer to a multiple of 10^k, ties to even;
/// \a fractionNonZero says whether the value had a fraction below these digits.
std::string roundDigitsToPower(std::string digits, size_t k, bool fractionNonZero) {
    if (digits.size() <= k) digits.insert(0, k + 1 - digits.size(), '0');
    std::string head = digits.substr(0, digits.size() - k);
    std::string_view tail = std::string_view(digits).substr(head.size());
    bool restZero = tail.find_first_not_of('0', 1) == std::string_view::npos && !fractionNonZero;
    bool up = tail[0] > '5' || (tail[0] == '5' && (!restZero || (head.back() - '0') % 2 == 1));
    for (size_t i = head.size(); up && i-- > 0;) {
        up = head[i] == '9';
        head[i] = up ? '0' : char(head[i] + 1);
    }
    return up ? "1" + head : head;
}

/// The decimal text of x rounded to ndigits (which may be negative), ready for strtod.
std::string roundedText(double x, int ndigits) {
    if (ndigits >= 0) {
        char buf[700];
        auto result = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, ndigits);
        return std::string(buf, result.ptr);
    }
    double whole = std::trunc(std::fabs(x));
    std::string head =
        roundDigitsToPower(detail::integralDigits(whole), size_t(-ndigits), whole != std::fabs(x));
    return (std::signbit(x) ? "-" : "") + head + "e" + std::to_string(-ndigits);
}

} // namespace

Expected<double> pyRound(double x, int64_t ndigits) {
    // Beyond these bounds every double rounds to itself or to zero (float___round___impl).
    constexpr int64_t kMaxDigits = 323;
    constexpr int64_t kMinDigits = -308;
    if (!std::isfinite(x) || ndigits > kMaxDigits) return x;
    if (ndigits < kMinDigits) return 0.0 * x;
    std::string text = roundedText(x, int(ndigits));
    double rounded = 0.0;
    auto result = std::from_chars(text.data(), text.data() + text.size(), rounded);
    // Only overflow is possible: the smallest nonzero result, 1e-323, is a (subnormal) double.
    if (result.ec == std::errc::result_out_of_range)
        return makeDiagnostic("OverflowError", "rounded value too large to represent");
    return rounded;
}

double pyRoundHalfEven(double x) {
    double rounded = std::round(x);
    if (std::fabs(x - rounded) == 0.5) rounded = 2.0 * std::round(x / 2.0);
    return rounded;
}

} // namespace kiln::lang
