// SPDX-License-Identifier: MIT
#include "lang/source_text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace kiln::lang {

namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

/// Length of the well-formed UTF-8 sequence at \a i (Unicode's table 3-7: no overlong forms, no
/// surrogates, nothing above U+10FFFF), or 0.
size_t utf8SequenceLength(std::string_view s, size_t i) {
    auto at = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
    auto continuation = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
        return at(k) >= lo && at(k) <= hi;
    };
    unsigned lead = at(i);
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return continuation(i + 1) ? 2 : 0;
    if (lead >= 0xE0 && lead <= 0xEF) {
        unsigned lo = lead == 0xE0 ? 0xA0 : 0x80, hi = lead == 0xED ? 0x9F : 0xBF;
        return continuation(i + 1, lo, hi) && continuation(i + 2) ? 3 : 0;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        unsigned lo = lead == 0xF0 ? 0x90 : 0x80, hi = lead == 0xF4 ? 0x8F : 0xBF;
        return continuation(i + 1, lo, hi) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
    }
    return 0;
}

/// The encoding named by a PEP 263 declaration on one of the first two lines, or "".
std::string declaredEncoding(std::string_view text) {
    size_t lineStart = 0;
    for (int line = 0; line < 2 && lineStart < text.size(); ++line) {
        size_t end = text.find_first_of("\r\n", lineStart);
        std::string_view l =
            text.substr(lineStart, end == std::string_view::npos ? end : end - lineStart);
        size_t i = l.find_first_not_of(" \t\f");
        if (i == std::string_view::npos) {
            lineStart = end == std::string_view::npos ? text.size() : end + 1;
            continue;
        }
        if (l[i] != '#') return ""; // the declaration must be a comment before any code
        size_t at = l.find("coding", i);
        if (at != std::string_view::npos && at + 6 < l.size() &&
            (l[at + 6] == ':' || l[at + 6] == '=')) {
            size_t b = l.find_first_not_of(" \t", at + 7);
            size_t e = b;
            while (e < l.size() && (std::isalnum(static_cast<unsigned char>(l[e])) || l[e] == '-' ||
                                    l[e] == '_' || l[e] == '.'))
                ++e;
            if (b != std::string_view::npos && e > b) return std::string(l.substr(b, e - b));
        }
        lineStart = end == std::string_view::npos ? text.size() : end + 1;
    }
    return "";
}

bool namesUtf8(std::string name) {
    for (char& c : name)
        c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name == "utf-8" || name == "utf8" || name.rfind("utf-8-", 0) == 0;
}

Diagnostic syntaxError(const std::string& path, std::string message) {
    Diagnostic d;
    d.kind = "SyntaxError";
    d.message = std::move(message);
    d.file = path;
    return d;
}

} // namespace

std::string normalizeSourceText(std::string_view bytes) {
    if (bytes.substr(0, kByteOrderMark.size()) == kByteOrderMark)
        bytes.remove_prefix(kByteOrderMark.size());
    std::string out;
    out.reserve(bytes.size());
    for (size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] != '\r') {
            out += bytes[i];
            continue;
        }
        out += '\n';
        if (i + 1 < bytes.size() && bytes[i + 1] == '\n') ++i;
    }
    return out;
}

Expected<std::string> decodeSourceText(const std::string& path, std::string_view bytes) {
    std::string text = normalizeSourceText(bytes);
    // Kiln reads every script as UTF-8: another declared encoding only agrees on ASCII text.
    const std::string encoding = declaredEncoding(text);
    const bool declaredOther = !encoding.empty() && !namesUtf8(encoding);
    int line = 1;
    for (size_t i = 0; i < text.size();) {
        if (declaredOther && static_cast<unsigned char>(text[i]) >= 0x80)
            return syntaxError(path, "encoding declaration '" + encoding +
                                         "' is not supported by Kiln: scripts are read as UTF-8");
        size_t length = utf8SequenceLength(text, i);
        if (length == 0) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "\\x%02x", static_cast<unsigned char>(text[i]));
            return syntaxError(path, "Non-UTF-8 code starting with '" + std::string(byte) +
                                         "' in file " + path + " on line " + std::to_string(line) +
                                         ", but no encoding declared; see "
                                         "https://peps.python.org/pep-0263/ for details");
        }
        if (text[i] == '\n') ++line;
        i += length;
    }
    if (size_t nul = text.find('\0'); nul != std::string::npos) {
        Diagnostic d = syntaxError(path, "source code cannot contain null bytes");
        size_t lineStart = text.rfind('\n', nul);
        lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
        int32_t column = 1;
        for (size_t k = lineStart; k < nul; ++k)
            column += (static_cast<unsigned char>(text[k]) & 0xC0) != 0x80;
        int32_t nulLine =
            1 + static_cast<int32_t>(std::count(text.begin(), text.begin() + nul, '\n'));
        d.span = {{nulLine, column}, {nulLine, column + 1}};
        return d;
    }
    return text;
}

} // namespace kiln::lang
