// SPDX-License-Identifier: MIT
// repr() and ascii() of str (unicode_repr and the backslashreplace step of PyObject_ASCII in
// CPython), and the UTF-8 helpers the formatting code counts widths with: Python measures
// widths and precisions in code points, Kiln stores str as UTF-8.
#include "lang/format.h"
#include "lang/format_detail.h"

#include <cstdio>

namespace kiln::lang {

namespace detail {

char32_t decodeUtf8(std::string_view s, size_t& pos) {
    auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
    unsigned char lead = byte(pos);
    size_t extra = lead >= 0xf8 ? 0 : lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
    if (extra == 0 || pos + extra >= s.size()) {
        ++pos;
        return lead; // not UTF-8: the byte stands for itself
    }
    char32_t c = lead & (0x3f >> extra);
    for (size_t i = 1; i <= extra; ++i) {
        if ((byte(pos + i) & 0xc0) != 0x80) {
            ++pos;
            return lead;
        }
        c = (c << 6) | (byte(pos + i) & 0x3f);
    }
    pos += extra + 1;
    return c;
}

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xc0 | (c >> 6));
        out += char(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        out += char(0xe0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3f));
        out += char(0x80 | (c & 0x3f));
    } else {
        out += char(0xf0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3f));
        out += char(0x80 | ((c >> 6) & 0x3f));
        out += char(0x80 | (c & 0x3f));
    }
}

size_t utf8Length(std::string_view utf8) {
    size_t count = 0;
    for (size_t pos = 0; pos < utf8.size(); ++count)
        decodeUtf8(utf8, pos);
    return count;
}

std::string_view utf8Prefix(std::string_view utf8, size_t count) {
    size_t pos = 0;
    for (size_t i = 0; i < count && pos < utf8.size(); ++i)
        decodeUtf8(utf8, pos);
    return utf8.substr(0, pos);
}

std::string repeatFill(std::string_view fill, int64_t count) {
    std::string out;
    for (int64_t i = 0; i < count; ++i)
        out += fill;
    return out;
}

} // namespace detail

namespace {

/// \xHH, \uHHHH or \UHHHHHHHH, the shortest that holds \a c.
void appendHexEscape(std::string& out, char32_t c) {
    char buf[12];
    if (c <= 0xff)
        std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
    else if (c <= 0xffff)
        std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
    else
        std::snprintf(buf, sizeof buf, "\\U%08x", unsigned(c));
    out += buf;
}

void appendReprChar(std::string& out, char32_t c, char quote) {
    if (c == char32_t(quote) || c == '\\') {
        out += '\\';
        out += char(c);
    } else if (c == '\t') {
        out += "\\t";
    } else if (c == '\n') {
        out += "\\n";
    } else if (c == '\r') {
        out += "\\r";
    } else if (detail::isPrintable(c)) {
        detail::appendUtf8(out, c);
    } else {
        appendHexEscape(out, c);
    }
}

} // namespace

std::string pyStringRepr(std::string_view utf8) {
    const bool useDouble =
        utf8.find('\'') != std::string_view::npos && utf8.find('"') == std::string_view::npos;
    const char quote = useDouble ? '"' : '\'';
    std::string out(1, quote);
    for (size_t pos = 0; pos < utf8.size();)
        appendReprChar(out, detail::decodeUtf8(utf8, pos), quote);
    out += quote;
    return out;
}

std::string asciiEscape(std::string_view utf8) {
    std::string out;
    for (size_t pos = 0; pos < utf8.size();) {
        char32_t c = detail::decodeUtf8(utf8, pos);
        if (c < 0x80)
            out += char(c);
        else
            appendHexEscape(out, c);
    }
    return out;
}

} // namespace kiln::lang
