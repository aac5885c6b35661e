// SPDX-License-Identifier: MIT
/// \file
/// Internals shared by the formatting files (format.cpp, format_spec.cpp, percent_format.cpp,
/// format_string.cpp, py_repr.cpp): CPython's float-to-text core and small UTF-8 helpers. Not
/// for use outside engine/lang's formatting code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kiln::lang::detail {

// PyOS_double_to_string's flags.
constexpr unsigned kAlwaysSign = 1;     ///< '+' before non-negative values
constexpr unsigned kAddDotZero = 2;     ///< "1.0", not "1", for integral values in 'r' and 'g'
constexpr unsigned kAlternate = 4;      ///< '#': keep the decimal point and trailing zeros
constexpr unsigned kNoNegativeZero = 8; ///< 'z': values that print as zero lose their '-'

/// Field widths beyond this fail with MemoryError (as CPython fails to allocate the result)
/// instead of exhausting Kiln's memory.
constexpr int64_t kMaxFieldWidth = int64_t(1) << 31;

/// CPython's PyOS_double_to_string: \a code is one of "eEfFgGr" ('r' is repr, precision 0).
std::string doubleToString(double v, char code, int precision, unsigned flags);

/// The decimal digits of a positive integer-valued double (exact, no exponent).
std::string integralDigits(double v);
/// \a magnitude in base 2, 8, 10 or 16, lower-case, without prefix.
std::string integerDigits(uint64_t magnitude, int base);

size_t utf8Length(std::string_view utf8);
/// The first \a count code points of \a utf8.
std::string_view utf8Prefix(std::string_view utf8, size_t count);
/// Decodes the code point at \a pos and advances \a pos; invalid bytes decode as themselves.
char32_t decodeUtf8(std::string_view utf8, size_t& pos);
void appendUtf8(std::string& out, char32_t c);
/// \a count copies of \a fill (a UTF-8 character).
std::string repeatFill(std::string_view fill, int64_t count);

/// Python's unicodedata-based str.isprintable() for one code point (Unicode 14.0, as 3.11).
bool isPrintable(char32_t c);

} // namespace kiln::lang::detail
