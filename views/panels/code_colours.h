// SPDX-License-Identifier: MIT
/// \file
/// The colours the code views highlight with (Python source, generated CUDA C++), one set for
/// light and one for dark backgrounds. Each colour has a contrast ratio of at least 4.5 against
/// white (light) or against bases as light as #3c3f41 (dark), comments at least 3.9.
#pragma once

#include <QColor>
#include <QFont>
#include <QTextCharFormat>

namespace kiln::views {

struct CodeColours {
    QRgb keyword, builtin, string, comment, number, decorator, definition;
};
inline constexpr CodeColours kLightCodeColours{0x7a1fa2, 0x1a5fb4, 0x2e7d32, 0x6a737d,
                                               0xc25b00, 0xad1457, 0x006d77};
inline constexpr CodeColours kDarkCodeColours{0xc792ea, 0x82aaff, 0xa5d6a7, 0x9e9e9e,
                                              0xf78c6c, 0xffcb6b, 0x4dd0e1};

inline QTextCharFormat makeFormat(const QColor& colour, bool bold = false, bool italic = false) {
    QTextCharFormat f;
    f.setForeground(colour);
    if (bold) f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

} // namespace kiln::views
