// SPDX-License-Identifier: MIT
/// \file
/// Python syntax highlighting for the Source panel and the graph code of a break: keywords,
/// builtins, strings (triple-quoted ones across lines), comments, numbers, decorators and the
/// names that def/class introduce. It has two colour sets, one for light and one for dark
/// backgrounds, and picks the one that reads on the palette of the view it highlights.
#pragma once

#include "palette_highlighter.h"

#include <QPalette>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPlainTextEdit;

namespace kiln::views {

/// WCAG relative luminance of \p colour (0 black .. 1 white).
double relativeLuminance(const QColor& colour);
/// WCAG contrast ratio of two colours (1 .. 21); text wants at least 4.5, large or bold text 3.
double contrastRatio(const QColor& a, const QColor& b);
/// Whether text on \p palette's base (the background code is drawn on) reads better light than
/// dark: its luminance is below mid grey's, where black and white text contrast equally.
bool isDarkPalette(const QPalette& palette);

class PythonHighlighter final : public PaletteHighlighter {
    Q_OBJECT

public:
    enum class Token { Keyword, Builtin, String, Comment, Number, Decorator, Definition };

    /// Highlights \p view's document in the colours that read on \p view's palette, and follows
    /// the view's palette when it changes (a dark theme, or the view moving into a panel).
    explicit PythonHighlighter(QPlainTextEdit* view);
    /// Highlights a document that no view shows, in the colours for \p palette (by default the
    /// application's).
    explicit PythonHighlighter(QTextDocument* document, const QPalette& palette = QPalette());

    /// The format a token kind is drawn with (tests compare these with the block layouts).
    QTextCharFormat format(Token token) const;

protected:
    void highlightBlock(const QString& text) override;
    void setColours(bool dark) override;

private:
    struct Rule {
        QRegularExpression pattern;
        Token token;
        int group = 0; ///< the capture group that gets the format
    };

    /// Formats the rules' matches, then strings and comments over them.
    void applyRules(const QString& text);
    /// Strings and comments, left to right, so a '#' inside a string is not a comment; a
    /// triple-quoted string left open continues in the next block (block state = its quote).
    void applyStringsAndComments(const QString& text);
    /// Where the string opened at `start` with `quote` ends (past its closing quote), or -1 when
    /// it runs past the end of the block.
    static int stringEnd(const QString& text, int start, const QString& quote);

    std::vector<Rule> m_rules;
    QTextCharFormat m_formats[7];
};

} // namespace kiln::views
