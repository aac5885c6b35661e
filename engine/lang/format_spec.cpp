// SPDX-License-Identifier: MIT
// The format-spec mini-language: parse_internal_render_format_spec and the int, float and str
// formatters of CPython's Python/formatter_unicode.c. The order of the checks matters (a spec
// can be wrong in several ways and CPython reports the first it tests), so it follows theirs.
#include "lang/format.h"
#include "lang/format_detail.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

namespace kiln::lang {

namespace {

Diagnostic valueError(std::string message) {
    return makeDiagnostic("ValueError", std::move(message));
}

bool isAlign(char c) {
    return c == '<' || c == '>' || c == '=' || c == '^';
}

/// Digits at \a pos as a Py_ssize_t; how many were read, or -1 on overflow.
int parseInteger(std::string_view text, size_t& pos, int64_t& out) {
    int consumed = 0;
    out = 0;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++consumed) {
        int digit = text[pos] - '0';
        if (out > (INT64_MAX - digit) / 10) return -1;
        out = out * 10 + digit;
    }
    return consumed;
}

/// A type character in a message: 'x' when printable ASCII, '\x1' otherwise (CPython's %c /
/// \\x%x pair).
std::string quotedType(char32_t type) {
    char buf[16];
    if (type > 32 && type < 128)
        std::snprintf(buf, sizeof buf, "'%c'", char(type));
    else
        std::snprintf(buf, sizeof buf, "'\\x%x'", unsigned(type));
    return buf;
}

Diagnostic unknownType(char32_t type, std::string_view typeName) {
    return valueError("Unknown format code " + quotedType(type) + " for object of type '" +
                      std::string(typeName) + "'");
}

Diagnostic badGroupingType(char grouping, char32_t type) {
    return valueError(std::string("Cannot specify '") + grouping + "' with " + quotedType(type) +
                      ".");
}

/// Reads `[[fill]align]`: the fill is one code point, possibly multi-byte.
void parseFillAlign(std::string_view text, FormatSpec& spec, size_t& pos) {
    size_t afterFirst = 0;
    if (!text.empty()) detail::decodeUtf8(text, afterFirst);
    if (afterFirst < text.size() && isAlign(text[afterFirst])) {
        spec.fill = std::string(text.substr(0, afterFirst));
        spec.align = text[afterFirst];
        pos = afterFirst + 1;
    } else if (!text.empty() && isAlign(text[0])) {
        spec.align = text[0];
        pos = 1;
    }
}

/// Reads `[sign][z][#][0]`.
void parseFlags(std::string_view text, FormatSpec& spec, size_t& pos) {
    auto accept = [&](char c) {
        bool found = pos < text.size() && text[pos] == c;
        pos += found;
        return found;
    };
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-' || text[pos] == ' '))
        spec.sign = text[pos++];
    spec.noNegativeZero = accept('z');
    spec.alternate = accept('#');
    // A leading '0' means zero padding only when no fill was given; otherwise it is the width.
    spec.zeroPad = spec.fill.empty() && accept('0');
}

Status parseGrouping(std::string_view text, FormatSpec& spec, size_t& pos) {
    if (pos < text.size() && text[pos] == ',') spec.grouping = text[pos++];
    if (pos < text.size() && text[pos] == '_') {
        if (spec.grouping) return valueError("Cannot specify both ',' and '_'.");
        spec.grouping = text[pos++];
    }
    if (pos < text.size() && text[pos] == ',' && spec.grouping == '_')
        return valueError("Cannot specify both ',' and '_'.");
    return Status::success();
}

Status checkGroupingType(const FormatSpec& spec) {
    if (!spec.grouping) return Status::success();
    switch (spec.type) {
    case 0:
    case 'd':
    case 'e':
    case 'f':
    case 'g':
    case 'E':
    case 'G':
    case '%':
    case 'F':
        return Status::success();
    case 'b':
    case 'o':
    case 'x':
    case 'X':
        if (spec.grouping == '_') return Status::success();
        [[fallthrough]];
    default:
        return badGroupingType(spec.grouping, spec.type);
    }
}

} // namespace

Expected<FormatSpec> parseFormatSpec(std::string_view text, std::string_view typeName) {
    FormatSpec spec;
    size_t pos = 0;
    parseFillAlign(text, spec, pos);
    parseFlags(text, spec, pos);
    const Diagnostic tooManyDigits = valueError("Too many decimal digits in format string");
    int consumed = parseInteger(text, pos, spec.width);
    if (consumed < 0) return tooManyDigits;
    if (consumed == 0) spec.width = -1;
    if (Status grouping = parseGrouping(text, spec, pos); !grouping) return grouping.error();
    if (pos < text.size() && text[pos] == '.') {
        consumed = parseInteger(text, ++pos, spec.precision);
        if (consumed < 0) return tooManyDigits;
        if (consumed == 0) return valueError("Format specifier missing precision");
    }
    std::string_view rest = text.substr(pos);
    if (detail::utf8Length(rest) > 1)
        return valueError("Invalid format specifier '" + std::string(text) +
                          "' for object of type '" + std::string(typeName) + "'");
    if (!rest.empty()) {
        size_t at = 0;
        spec.type = detail::decodeUtf8(rest, at);
    }
    if (Status grouping = checkGroupingType(spec); !grouping) return grouping.error();
    return spec;
}

// ---- laying out a number -----------------------------------------------------------------------

namespace {

/// A formatted number split the way calc_number_widths sees it.
struct NumberParts {
    bool negative = false;
    std::string prefix; ///< "0x", "0o", "0b" for '#'
    std::string digits; ///< the integer digits, which grouping and zero padding apply to
    std::string rest;   ///< the decimal point, fraction, exponent, '%', or the 'c' character
};

/// _PyUnicode_InsertThousandsGrouping: separators every \a groupSize digits (none when 0), and
/// zero padding up to \a minWidth, grouped as well ("0,001,234").
std::string groupDigits(std::string_view digits, int64_t minWidth, int64_t groupSize, char sep) {
    std::string reversed;
    int64_t remaining = int64_t(digits.size());
    bool useSep = false;
    auto emit = [&](int64_t len) {
        int64_t chars = std::max<int64_t>(0, std::min(remaining, len));
        if (useSep) reversed += sep;
        for (int64_t i = 1; i <= chars; ++i)
            reversed += digits[size_t(remaining - i)];
        reversed.append(size_t(std::max<int64_t>(0, len - remaining)), '0');
        useSep = true;
        remaining -= chars;
        minWidth -= len;
    };
    while (groupSize > 0) {
        emit(std::min(groupSize, std::max({remaining, minWidth, int64_t(1)})));
        if (remaining <= 0 && minWidth <= 0) return std::string(reversed.rbegin(), reversed.rend());
        minWidth -= 1;
    }
    emit(std::max({remaining, minWidth, int64_t(1)}));
    return std::string(reversed.rbegin(), reversed.rend());
}

int64_t groupSize(const FormatSpec& spec, char32_t type) {
    if (!spec.grouping) return 0;
    bool radix = type == 'b' || type == 'o' || type == 'x' || type == 'X';
    return spec.grouping == '_' && radix ? 4 : 3;
}

/// calc_number_widths + fill_number: sign, prefix, padding and grouping around the digits.
Expected<std::string> layoutNumber(NumberParts n, const FormatSpec& spec, int64_t groupLen) {
    if (spec.width > detail::kMaxFieldWidth) return makeDiagnostic("MemoryError", "");
    const std::string fill = !spec.fill.empty() ? spec.fill : spec.zeroPad ? "0" : " ";
    const char align = spec.align ? spec.align : spec.zeroPad ? '=' : '>';
    std::string sign = n.negative                               ? "-"
                       : (spec.sign == '+' || spec.sign == ' ') ? std::string(1, spec.sign)
                                                                : "";
    const int64_t nonDigits = int64_t(sign.size() + n.prefix.size() + detail::utf8Length(n.rest));
    const int64_t minWidth = fill == "0" && align == '=' ? spec.width - nonDigits : 0;
    std::string digits;
    if (!n.digits.empty()) digits = groupDigits(n.digits, minWidth, groupLen, spec.grouping);
    if (spec.type == 'X') {
        for (char& c : n.prefix)
            c = char(std::toupper(c));
        for (char& c : digits)
            c = char(std::toupper(c));
    }
    int64_t padding = std::max<int64_t>(0, spec.width - nonDigits - int64_t(digits.size()));
    int64_t left = align == '>' ? padding : align == '^' ? padding / 2 : 0;
    int64_t inner = align == '=' ? padding : 0;
    int64_t right = padding - left - inner;
    return detail::repeatFill(fill, left) + sign + n.prefix + detail::repeatFill(fill, inner) +
           digits + n.rest + detail::repeatFill(fill, right);
}

Expected<std::string> formatCharCode(int64_t v, const FormatSpec& spec) {
    if (spec.sign) return valueError("Sign not allowed with integer format specifier 'c'");
    if (spec.alternate)
        return valueError("Alternate form (#) not allowed with integer format specifier 'c'");
    if (v < 0 || v > 0x10ffff)
        return makeDiagnostic("OverflowError", "%c arg not in range(0x110000)");
    NumberParts n;
    detail::appendUtf8(n.rest, char32_t(v)); // copied as-is, like calc_number_widths' remainder
    return layoutNumber(n, spec, 0);
}

Expected<std::string> formatFloatAs(double v, const FormatSpec& spec);

/// format_long_internal, and the switch in _PyLong_FormatAdvancedWriter before it.
Expected<std::string> formatIntegerAs(int64_t v, const FormatSpec& spec,
                                      std::string_view typeName) {
    const char32_t type = spec.type ? spec.type : 'd';
    switch (type) {
    case 'b':
    case 'c':
    case 'd':
    case 'o':
    case 'x':
    case 'X':
    case 'n':
        break;
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
    case '%':
        return formatFloatAs(double(v), spec);
    default:
        return unknownType(type, typeName);
    }
    if (spec.precision != -1)
        return valueError("Precision not allowed in integer format specifier");
    if (spec.noNegativeZero)
        return valueError("Negative zero coercion (z) not allowed in integer format specifier");
    if (type == 'c') return formatCharCode(v, spec);
    const int base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
    NumberParts n;
    n.negative = v < 0;
    n.digits = detail::integerDigits(v < 0 ? 0 - uint64_t(v) : uint64_t(v), base);
    if (spec.alternate && base != 10) n.prefix = base == 2 ? "0b" : base == 8 ? "0o" : "0x";
    return layoutNumber(n, spec, groupSize(spec, type));
}

/// format_float_internal; ints with a float presentation type come here too.
Expected<std::string> formatFloatAs(double v, const FormatSpec& spec) {
    if (spec.precision > INT_MAX) return valueError("precision too big");
    unsigned flags = (spec.alternate ? detail::kAlternate : 0) |
                     (spec.noNegativeZero ? detail::kNoNegativeZero : 0);
    char code = char(spec.type);
    int defaultPrecision = 6;
    if (code == 0) {
        // Like repr() without a precision, else like 'g' but keeping a digit after the point.
        flags |= detail::kAddDotZero;
        code = 'r';
        defaultPrecision = 0;
    }
    code = code == 'n' ? 'g' : code;
    const bool percent = code == '%';
    if (percent) {
        code = 'f';
        v *= 100;
    }
    int precision = spec.precision < 0 ? defaultPrecision : int(spec.precision);
    if (spec.precision >= 0 && code == 'r') code = 'g';
    std::string text = detail::doubleToString(v, code, precision, flags) + (percent ? "%" : "");
    NumberParts n;
    n.negative = text[0] == '-';
    size_t start = n.negative ? 1 : 0;
    size_t end = text.find_first_not_of("0123456789", start);
    end = end == std::string::npos ? text.size() : end;
    n.digits = text.substr(start, end - start);
    n.rest = text.substr(end);
    return layoutNumber(n, spec, groupSize(spec, spec.type));
}

} // namespace

// ---- the public formatters ---------------------------------------------------------------------

Expected<std::string> formatInt(int64_t v, const FormatSpec& spec) {
    if (spec.isEmpty()) return intToString(v);
    return formatIntegerAs(v, spec, "int");
}

Expected<std::string> formatBool(bool v, const FormatSpec& spec) {
    if (spec.isEmpty()) return std::string(v ? "True" : "False");
    return formatIntegerAs(v ? 1 : 0, spec, "bool");
}

Expected<std::string> formatFloat(double v, const FormatSpec& spec) {
    if (spec.isEmpty()) return floatRepr(v);
    switch (spec.type) {
    case 0:
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
    case 'n':
    case '%':
        return formatFloatAs(v, spec);
    default:
        return unknownType(spec.type, "float");
    }
}

namespace {

/// The checks of format_string_internal, after the parser's (which saw the default type 's').
Status checkStringSpec(const FormatSpec& spec) {
    if (spec.grouping && !spec.type) return badGroupingType(spec.grouping, 's');
    if (spec.type && spec.type != 's') return unknownType(spec.type, "str");
    if (spec.sign == ' ') return valueError("Space not allowed in string format specifier");
    if (spec.sign) return valueError("Sign not allowed in string format specifier");
    if (spec.noNegativeZero)
        return valueError("Negative zero coercion (z) not allowed in string format specifier");
    if (spec.alternate)
        return valueError("Alternate form (#) not allowed in string format specifier");
    if (spec.align == '=')
        return valueError("'=' alignment not allowed in string format specifier");
    return Status::success();
}

} // namespace

Expected<std::string> formatString(std::string_view utf8, const FormatSpec& spec) {
    if (Status ok = checkStringSpec(spec); !ok) return ok.error();
    std::string_view text = utf8;
    if (spec.precision >= 0) text = detail::utf8Prefix(text, size_t(spec.precision));
    const std::string fill = !spec.fill.empty() ? spec.fill : spec.zeroPad ? "0" : " ";
    const char align = spec.align ? spec.align : '<';
    int64_t padding = std::max<int64_t>(0, spec.width - int64_t(detail::utf8Length(text)));
    int64_t left = align == '>' ? padding : align == '^' ? padding / 2 : 0;
    return detail::repeatFill(fill, left) + std::string(text) +
           detail::repeatFill(fill, padding - left);
}

} // namespace kiln::lang
