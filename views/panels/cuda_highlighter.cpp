// SPDX-License-Identifier: MIT
#include "cuda_highlighter.h"

#include "code_colours.h"
#include "python_highlighter.h"

#include <QEvent>
#include <QPlainTextEdit>
#include <QStringList>

namespace kiln::views {

namespace {

constexpr int kInBlockComment = 1; // block state: a /* comment left open

QString wordsPattern(const QStringList& words) {
    return QStringLiteral("\\b(?:%1)\\b").arg(words.join('|'));
}

const QStringList& keywords() {
    static const QStringList words = {"alignas",
                                      "auto",
                                      "bool",
                                      "break",
                                      "char",
                                      "const",
                                      "constexpr",
                                      "continue",
                                      "do",
                                      "double",
                                      "else",
                                      "extern",
                                      "float",
                                      "for",
                                      "if",
                                      "inline",
                                      "int",
                                      "long",
                                      "return",
                                      "short",
                                      "signed",
                                      "sizeof",
                                      "static",
                                      "struct",
                                      "template",
                                      "typedef",
                                      "typename",
                                      "unsigned",
                                      "using",
                                      "void",
                                      "while",
                                      "__global__",
                                      "__device__",
                                      "__host__",
                                      "__shared__",
                                      "__restrict__",
                                      "__forceinline__",
                                      "__launch_bounds__"};
    return words;
}

const QStringList& builtins() {
    static const QStringList words = {"threadIdx",      "blockIdx",
                                      "blockDim",       "gridDim",
                                      "warpSize",       "__syncthreads",
                                      "__syncwarp",     "__shfl_xor_sync",
                                      "__shfl_sync",    "__shfl_down_sync",
                                      "__int_as_float", "__float_as_int",
                                      "__ldg",          "expf",
                                      "logf",           "sinf",
                                      "cosf",           "sincosf",
                                      "sqrtf",          "rsqrtf",
                                      "tanhf",          "erff",
                                      "fmaf",           "fmaxf",
                                      "fminf",          "powf",
                                      "log1pf",         "expm1f"};
    return words;
}

} // namespace

CudaHighlighter::CudaHighlighter(QPlainTextEdit* view)
    : PaletteHighlighter(view->document()) {
    setColours(isDarkPalette(view->palette()));
    followPalette(view);
    m_rules = {
        {QRegularExpression(wordsPattern(keywords())), Token::Keyword},
        {QRegularExpression(wordsPattern(builtins())), Token::Builtin},
        {QRegularExpression(
             R"(\b(?:0[xX][0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?(?:[pP][+-]?\d+)?|\d+\.?\d*(?:[eE][+-]?\d+)?)[fFuUlL]*\b)"),
         Token::Number},
        {QRegularExpression(R"(^\s*#\s*\w+.*$)"), Token::Preprocessor},
    };
}

void CudaHighlighter::setColours(bool dark) {
    m_dark = dark;
    const CodeColours& c = dark ? kDarkCodeColours : kLightCodeColours;
    m_formats[int(Token::Keyword)] = makeFormat(QColor(c.keyword), true);
    m_formats[int(Token::Builtin)] = makeFormat(QColor(c.builtin));
    m_formats[int(Token::Comment)] = makeFormat(QColor(c.comment), false, true);
    m_formats[int(Token::Number)] = makeFormat(QColor(c.number));
    m_formats[int(Token::Preprocessor)] = makeFormat(QColor(c.decorator));
}

void CudaHighlighter::highlightBlock(const QString& text) {
    for (const Rule& rule : m_rules) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            QRegularExpressionMatch m = it.next();
            setFormat(m.capturedStart(), m.capturedLength(), m_formats[int(rule.token)]);
        }
    }
    // Comments last, over everything: a block comment carried over from the line before, then
    // the line's own // and /* ... */ comments.
    const QTextCharFormat& comment = m_formats[int(Token::Comment)];
    setCurrentBlockState(0);
    qsizetype from = 0;
    if (previousBlockState() == kInBlockComment) {
        qsizetype end = text.indexOf(QStringLiteral("*/"));
        if (end < 0) {
            setFormat(0, text.size(), comment);
            setCurrentBlockState(kInBlockComment);
            return;
        }
        setFormat(0, end + 2, comment);
        from = end + 2;
    }
    while (from < text.size()) {
        qsizetype line = text.indexOf(QStringLiteral("//"), from);
        qsizetype block = text.indexOf(QStringLiteral("/*"), from);
        if (line < 0 && block < 0) return;
        if (line >= 0 && (block < 0 || line < block)) {
            setFormat(line, text.size() - line, comment);
            return;
        }
        qsizetype end = text.indexOf(QStringLiteral("*/"), block + 2);
        if (end < 0) {
            setFormat(block, text.size() - block, comment);
            setCurrentBlockState(kInBlockComment);
            return;
        }
        setFormat(block, end + 2 - block, comment);
        from = end + 2;
    }
}

} // namespace kiln::views
