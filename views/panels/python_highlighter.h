// SPDX-License-Identifier: MIT
/// \file
/// Python syntax highlighting for the Source panel and the graph code of a break: keywords,
/// builtins, strings (triple-quoted ones across lines), comments, numbers, decorators and the
/// names that def/class introduce. The colours are chosen to stay readable on a light and a dark
/// palette.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace kiln::views {

class PythonHighlighter final : public QSyntaxHighlighter {
    Q_OBJECT

public:
    enum class Token { Keyword, Builtin, String, Comment, Number, Decorator, Definition };

    explicit PythonHighlighter(QTextDocument* document);

    /// The format a token kind is drawn with (tests compare these with the block layouts).
    QTextCharFormat format(Token token) const;

protected:
    void highlightBlock(const QString& text) override;

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
