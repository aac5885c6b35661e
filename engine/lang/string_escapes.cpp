// SPDX-License-Identifier: MIT
#include "lang/string_escapes.h"

#include "lang/format_detail.h"

#include <cstdint>

namespace kiln::lang {

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

class EscapeDecoder {
public:
    explicit EscapeDecoder(std::string_view body)
        : m_body(body) {}

    DecodedLiteral run() {
        DecodedLiteral out;
        out.text.reserve(m_body.size());
        while (m_i < m_body.size() && out.error.empty()) {
            char c = m_body[m_i];
            if (c != '\\' || m_i + 1 >= m_body.size()) {
                out.text += c;
                advance(1);
                continue;
            }
            const size_t escapeStart = m_position;
            char e = m_body[m_i + 1];
            // CPython spells a backslash before a non-ASCII character as \u005c first.
            if (static_cast<unsigned char>(e) >= 0x80) m_position += 5;
            advance(2);
            out.error = decodeOne(e, escapeStart, out.text);
        }
        return out;
    }

private:
    /// Moves past \a bytes bytes, counting positions as CPython's rewritten body does.
    void advance(size_t bytes) {
        for (size_t k = 0; k < bytes && m_i < m_body.size(); ++k, ++m_i) {
            unsigned char b = static_cast<unsigned char>(m_body[m_i]);
            if (b < 0x80)
                m_position += 1;
            else if ((b & 0xC0) != 0x80)
                m_position += 10; // a lead byte: the character became \UXXXXXXXX
        }
    }

    /// The escape whose letter is \a e (already consumed); returns an error message or "".
    std::string decodeOne(char e, size_t escapeStart, std::string& out) {
        switch (e) {
        case '\n':
            return "";
        case 'n':
            out += '\n';
            return "";
        case 't':
            out += '\t';
            return "";
        case 'r':
            out += '\r';
            return "";
        case '\\':
        case '\'':
        case '"':
            out += e;
            return "";
        case 'a':
            out += '\a';
            return "";
        case 'b':
            out += '\b';
            return "";
        case 'f':
            out += '\f';
            return "";
        case 'v':
            out += '\v';
            return "";
        case 'x':
            return decodeHex(2, "truncated \\xXX escape", escapeStart, out);
        case 'u':
            return decodeHex(4, "truncated \\uXXXX escape", escapeStart, out);
        case 'U':
            return decodeHex(8, "truncated \\UXXXXXXXX escape", escapeStart, out);
        default:
            break;
        }
        if (e >= '0' && e <= '7') {
            uint32_t cp = static_cast<uint32_t>(e - '0');
            for (int k = 0;
                 k < 2 && m_i < m_body.size() && m_body[m_i] >= '0' && m_body[m_i] <= '7'; ++k) {
                cp = cp * 8 + static_cast<uint32_t>(m_body[m_i] - '0');
                advance(1);
            }
            detail::appendUtf8(out, cp);
            return "";
        }
        out += '\\';
        // The character after the backslash stays as written (all of its UTF-8 bytes).
        size_t begin = m_i - 1;
        while (m_i < m_body.size() && (static_cast<unsigned char>(m_body[m_i]) & 0xC0) == 0x80)
            advance(1);
        out.append(m_body.substr(begin, m_i - begin));
        return "";
    }

    std::string decodeHex(int digits, const char* truncated, size_t escapeStart, std::string& out) {
        uint32_t cp = 0;
        for (int k = 0; k < digits; ++k) {
            int v = m_i < m_body.size() ? hexValue(m_body[m_i]) : -1;
            if (v < 0) return failure(escapeStart, m_position - 1, truncated);
            cp = cp * 16 + static_cast<uint32_t>(v);
            advance(1);
        }
        if (cp > 0x10FFFF) return failure(escapeStart, m_position - 1, "illegal Unicode character");
        detail::appendUtf8(out, cp);
        return "";
    }

    static std::string failure(size_t begin, size_t end, const char* reason) {
        return "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
               std::to_string(begin) + "-" + std::to_string(end) + ": " + reason;
    }

    std::string_view m_body;
    size_t m_i = 0;
    size_t m_position = 0; ///< CPython's position of m_i
};

} // namespace

DecodedLiteral decodeEscapes(std::string_view body) {
    return EscapeDecoder(body).run();
}

} // namespace kiln::lang
