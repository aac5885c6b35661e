// SPDX-License-Identifier: MIT
// printf-style `str % args`: PyUnicode_Format in CPython's Objects/unicodeobject.c. The argument
// bookkeeping (argidx/arglen, with -1/-2 for a single operand) is kept as CPython keeps it,
// because which error a bad format reports ("not enough arguments", "not all arguments
// converted", "incomplete format") depends on exactly when arguments are consumed.
#include "lang/format.h"
#include "lang/format_detail.h"

#include <climits>
#include <cmath>
#include <cstdio>

namespace kiln::lang {

namespace {

Diagnostic typeError(std::string message) {
    return makeDiagnostic("TypeError", std::move(message));
}

Diagnostic valueError(std::string message) {
    return makeDiagnostic("ValueError", std::move(message));
}

/// One `%[(key)][flags][width][.precision][length]conversion`.
struct Conversion {
    bool leftJustify = false; ///< '-'
    bool plus = false;        ///< '+'
    bool blank = false;       ///< ' '
    bool alternate = false;   ///< '#'
    bool zero = false;        ///< '0'
    int64_t width = -1;
    int64_t precision = -1;
    char32_t code = 0;
    size_t codeIndex = 0; ///< in code points, for "unsupported format character"
};

class PercentFormatter {
public:
    PercentFormatter(std::string_view format, PercentArgs& args);
    Expected<std::string> run();

private:
    bool take(char32_t& c);
    Expected<size_t> nextArg();
    Status parseKey();
    Status parseNumber(char32_t& c, int64_t& out, int64_t limit, const char* tooBig);
    Status parseStar(char32_t& c, int64_t& out, bool isWidth, Conversion& conv);
    Status parseConversion(Conversion& conv);
    Status formatOne();
    Expected<std::string> convert(const Conversion& conv, size_t id, bool& numeric);
    Expected<std::string> convertInteger(const Conversion& conv, size_t id);
    Expected<std::string> convertFloat(const Conversion& conv, size_t id);
    Expected<std::string> convertChar(size_t id);
    void emit(std::string_view text, const Conversion& conv, bool numeric);

    std::string_view m_format;
    size_t m_pos = 0;
    bool m_exhausted = false; ///< a conversion ran past the end of the format
    PercentArgs& m_args;
    bool m_mapping = false;
    int64_t m_argLen = 0;
    int64_t m_argIdx = 0;
    size_t m_single = 0; ///< the argument id while m_argLen is -1
    std::string m_out;
};

PercentFormatter::PercentFormatter(std::string_view format, PercentArgs& args)
    : m_format(format)
    , m_args(args)
    , m_mapping(args.isMapping()) {
    if (m_mapping) {
        m_argLen = -1;
        m_argIdx = -2;
    } else {
        m_argLen = int64_t(args.count());
    }
}

bool PercentFormatter::take(char32_t& c) {
    if (m_pos >= m_format.size()) {
        m_exhausted = true;
        return false;
    }
    c = detail::decodeUtf8(m_format, m_pos);
    return true;
}

Expected<size_t> PercentFormatter::nextArg() {
    if (m_argIdx >= m_argLen) return typeError("not enough arguments for format string");
    ++m_argIdx;
    return m_argLen < 0 ? m_single : size_t(m_argIdx - 1);
}

/// `(key)`, with balanced parentheses inside the key; the key's value becomes the only argument.
Status PercentFormatter::parseKey() {
    if (!m_mapping) return typeError("format requires a mapping");
    size_t start = ++m_pos;
    int depth = 1;
    for (; depth > 0 && m_pos < m_format.size(); ++m_pos)
        depth += m_format[m_pos] == '(' ? 1 : m_format[m_pos] == ')' ? -1 : 0;
    if (depth > 0) return valueError("incomplete format key");
    Expected<size_t> value = m_args.lookupKey(m_format.substr(start, m_pos - 1 - start));
    if (!value) return value.error();
    m_single = *value;
    m_argLen = -1;
    m_argIdx = -2;
    return Status::success();
}

/// Digits starting with \a c (already read); leaves the first non-digit in \a c.
Status PercentFormatter::parseNumber(char32_t& c, int64_t& out, int64_t limit, const char* tooBig) {
    out = c - '0';
    while (take(c) && c >= '0' && c <= '9') {
        if (out > (limit - int64_t(c - '0')) / 10) return valueError(tooBig);
        out = out * 10 + (c - '0');
    }
    return Status::success();
}

/// A `*` width or precision: the next argument, which must be an int.
Status PercentFormatter::parseStar(char32_t& c, int64_t& out, bool isWidth, Conversion& conv) {
    Expected<size_t> id = nextArg();
    if (!id) return id.error();
    if (!m_args.isInt(*id)) return typeError("* wants int");
    out = m_args.asInt(*id);
    if (isWidth && out < 0) {
        conv.leftJustify = true;
        out = -out;
    }
    if (!isWidth && (out > INT_MAX || out < INT_MIN))
        return makeDiagnostic("OverflowError", "Python int too large to convert to C int");
    if (!isWidth && out < 0) out = 0;
    take(c);
    return Status::success();
}

bool setFlag(Conversion& conv, char32_t c) {
    bool* flag = c == '-'   ? &conv.leftJustify
                 : c == '+' ? &conv.plus
                 : c == ' ' ? &conv.blank
                 : c == '#' ? &conv.alternate
                 : c == '0' ? &conv.zero
                            : nullptr;
    if (flag) *flag = true;
    return flag != nullptr;
}

bool isDigit(char32_t c) {
    return c >= '0' && c <= '9';
}

/// unicode_format_arg_parse: from the character after '%' through the conversion character.
Status PercentFormatter::parseConversion(Conversion& conv) {
    if (m_pos < m_format.size() && m_format[m_pos] == '(')
        if (Status key = parseKey(); !key) return key;
    char32_t c = 0;
    while (take(c) && setFlag(conv, c))
        continue; // flags repeat freely, in any order
    Status ok;
    if (!m_exhausted && c == '*')
        ok = parseStar(c, conv.width, true, conv);
    else if (!m_exhausted && isDigit(c))
        ok = parseNumber(c, conv.width, INT64_MAX, "width too big");
    if (ok && !m_exhausted && c == '.') {
        conv.precision = 0;
        if (take(c) && c == '*')
            ok = parseStar(c, conv.precision, false, conv);
        else if (!m_exhausted && isDigit(c))
            ok = parseNumber(c, conv.precision, INT_MAX, "precision too big");
    }
    if (!ok) return ok;
    if (!m_exhausted && (c == 'h' || c == 'l' || c == 'L'))
        take(c); // length modifiers are accepted and ignored
    if (m_exhausted) return valueError("incomplete format");
    conv.code = c;
    conv.codeIndex = detail::utf8Length(m_format.substr(0, m_pos)) - 1;
    return Status::success();
}

Diagnostic unsupported(const Conversion& conv) {
    char buf[96];
    char shown = conv.code >= 31 && conv.code <= 126 ? char(conv.code) : '?';
    std::snprintf(buf, sizeof buf, "unsupported format character '%c' (0x%x) at index %zu", shown,
                  unsigned(conv.code), conv.codeIndex);
    return valueError(buf);
}

Expected<std::string> PercentFormatter::convert(const Conversion& conv, size_t id, bool& numeric) {
    switch (conv.code) {
    case 's':
        return m_args.str(id);
    case 'r':
        return m_args.repr(id);
    case 'a':
        return asciiEscape(m_args.repr(id));
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
        numeric = true;
        return convertInteger(conv, id);
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
        numeric = true;
        return convertFloat(conv, id);
    case 'c':
        return convertChar(id);
    default:
        return unsupported(conv);
    }
}

/// mainformatlong + _PyUnicode_FormatLong: sign, '#' prefix, zeros up to the precision, digits.
Expected<std::string> PercentFormatter::convertInteger(const Conversion& conv, size_t id) {
    const char code = char(conv.code);
    const bool radix = code == 'o' || code == 'x' || code == 'X';
    bool negative = false;
    std::string digits;
    if (m_args.isInt(id)) {
        int64_t v = m_args.asInt(id);
        negative = v < 0;
        digits = detail::integerDigits(negative ? 0 - uint64_t(v) : uint64_t(v), code == 'o' ? 8
                                                                                 : radix     ? 16
                                                                                             : 10);
    } else if (!radix && m_args.isNumber(id)) {
        double v = m_args.asFloat(id); // int(v): truncation toward zero
        if (std::isnan(v)) return valueError("cannot convert float NaN to integer");
        if (std::isinf(v))
            return makeDiagnostic("OverflowError", "cannot convert float infinity to integer");
        negative = v <= -1.0;
        digits = detail::integralDigits(std::trunc(std::fabs(v)));
    } else {
        return typeError(std::string("%") + code + " format: " +
                         (radix ? "an integer is required" : "a real number is required") +
                         ", not " + m_args.typeName(id));
    }
    std::string text = negative ? "-" : "";
    if (conv.alternate && radix) text += code == 'o' ? "0o" : "0x";
    if (conv.precision > int64_t(digits.size()))
        text.append(size_t(conv.precision) - digits.size(), '0');
    text += digits;
    if (code == 'X')
        for (char& ch : text)
            ch = char(std::toupper(ch));
    return text;
}

Expected<std::string> PercentFormatter::convertFloat(const Conversion& conv, size_t id) {
    if (!m_args.isNumber(id)) return typeError("must be real number, not " + m_args.typeName(id));
    int precision = conv.precision < 0 ? 6 : int(conv.precision);
    return detail::doubleToString(m_args.asFloat(id), char(conv.code), precision,
                                  conv.alternate ? detail::kAlternate : 0);
}

/// formatchar: a one-character str, or an int code point.
Expected<std::string> PercentFormatter::convertChar(size_t id) {
    if (m_args.isStr(id)) {
        std::string s = m_args.str(id);
        if (detail::utf8Length(s) == 1) return s;
    } else if (m_args.isInt(id)) {
        int64_t v = m_args.asInt(id);
        if (v < 0 || v > 0x10ffff)
            return makeDiagnostic("OverflowError", "%c arg not in range(0x110000)");
        std::string s;
        detail::appendUtf8(s, char32_t(v));
        return s;
    }
    return typeError("%c requires int or char");
}

/// unicode_format_arg_output: precision truncation for s/r/a, then sign, '#' prefix and padding.
/// Only numbers are zero-filled, and then the sign and prefix go before the zeros.
void PercentFormatter::emit(std::string_view text, const Conversion& conv, bool numeric) {
    const char fill = numeric && conv.zero ? '0' : ' ';
    const char code = char(conv.code);
    if ((code == 's' || code == 'r' || code == 'a') && conv.precision >= 0)
        text = detail::utf8Prefix(text, size_t(conv.precision));
    char sign = 0;
    if (numeric && !text.empty() && (text[0] == '-' || text[0] == '+')) {
        sign = text[0];
        text.remove_prefix(1);
    } else if (numeric) {
        sign = conv.plus ? '+' : conv.blank ? ' ' : 0;
    }
    std::string_view prefix;
    if (conv.alternate && (code == 'x' || code == 'X' || code == 'o')) {
        prefix = text.substr(0, 2);
        text.remove_prefix(2);
    }
    int64_t len = int64_t(detail::utf8Length(text) + prefix.size());
    int64_t width = std::max(conv.width, len);
    if (sign && width > len) --width;
    if (!prefix.empty()) {
        width = std::max<int64_t>(0, width - 2);
        len -= 2;
    }
    std::string head;
    if (sign) head += sign;
    head += prefix;
    if (fill != ' ') m_out += head;
    if (width > len && !conv.leftJustify) {
        m_out.append(size_t(width - len), fill);
        width = len;
    }
    if (fill == ' ') m_out += head;
    m_out += text;
    if (width > len) m_out.append(size_t(width - len), ' ');
}

Status PercentFormatter::formatOne() {
    Conversion conv;
    if (Status parsed = parseConversion(conv); !parsed) return parsed;
    Expected<size_t> id = nextArg();
    if (!id) return id.error();
    bool numeric = false;
    Expected<std::string> text = convert(conv, *id, numeric);
    if (!text) return text.error();
    if (conv.width > detail::kMaxFieldWidth) return makeDiagnostic("MemoryError", "");
    emit(*text, conv, numeric);
    if (m_mapping && m_argIdx < m_argLen)
        return typeError("not all arguments converted during string formatting");
    return Status::success();
}

Expected<std::string> PercentFormatter::run() {
    while (m_pos < m_format.size()) {
        size_t percent = m_format.find('%', m_pos);
        m_out.append(m_format.substr(m_pos, percent - m_pos));
        if (percent == std::string_view::npos) break;
        m_pos = percent + 1;
        if (m_pos < m_format.size() && m_format[m_pos] == '%') {
            m_out += '%';
            ++m_pos;
            continue;
        }
        if (Status ok = formatOne(); !ok) return ok.error();
    }
    if (m_argIdx < m_argLen && !m_mapping)
        return typeError("not all arguments converted during string formatting");
    return std::move(m_out);
}

} // namespace

Expected<std::string> percentFormat(std::string_view format, PercentArgs& args) {
    return PercentFormatter(format, args).run();
}

} // namespace kiln::lang
