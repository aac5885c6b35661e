// SPDX-License-Identifier: MIT
#include "support/utf8.h"

namespace kiln {

std::optional<size_t> firstInvalidUtf8(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
        unsigned char b = byte(i);
        if (b < 0x80) {
            ++i;
            continue;
        }
        size_t length = 0;
        unsigned char low = 0x80, high = 0xbf; // the allowed range of the second byte
        if (b >= 0xc2 && b <= 0xdf) {
            length = 2;
        } else if (b >= 0xe0 && b <= 0xef) {
            length = 3;
            if (b == 0xe0) low = 0xa0;  // no overlong forms
            if (b == 0xed) high = 0x9f; // no surrogates
        } else if (b >= 0xf0 && b <= 0xf4) {
            length = 4;
            if (b == 0xf0) low = 0x90;  // no overlong forms
            if (b == 0xf4) high = 0x8f; // nothing above U+10FFFF
        } else {
            return i;
        }
        if (i + length > text.size()) return i;
        if (byte(i + 1) < low || byte(i + 1) > high) return i;
        for (size_t k = 2; k < length; ++k)
            if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return i;
        i += length;
    }
    return std::nullopt;
}

} // namespace kiln
