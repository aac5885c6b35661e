// SPDX-License-Identifier: MIT
/// \file
/// The part the code views' highlighters share: a colour set for light and one for dark
/// backgrounds, chosen from the palette of the view highlighted and chosen again when that
/// palette changes (a dark theme, or the view moving into a panel).
#pragma once

#include <QSyntaxHighlighter>

class QPlainTextEdit;

namespace kiln::views {

class PaletteHighlighter : public QSyntaxHighlighter {
public:
    /// Picks the colour set for \p palette; rehighlights when that changes the set.
    void usePalette(const QPalette& palette);
    bool usesDarkColours() const { return m_dark; }

protected:
    explicit PaletteHighlighter(QTextDocument* document)
        : QSyntaxHighlighter(document) {}
    /// Sets the formats for the dark or light set; derived constructors call it once.
    virtual void setColours(bool dark) = 0;
    /// Follows \p view's palette changes from now on.
    void followPalette(QPlainTextEdit* view);
    bool eventFilter(QObject* watched, QEvent* event) override;

    bool m_dark = false;
};

} // namespace kiln::views
