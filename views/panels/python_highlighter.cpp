// SPDX-License-Identifier: MIT
#include "python_highlighter.h"

#include "code_colours.h"

#include <QEvent>
#include <QFont>
#include <QPlainTextEdit>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace kiln::views {

namespace {

// Block states: -1 (Qt's default) or 0 for none, else a triple-quoted string left open.
constexpr int kInTripleDouble = 1;
constexpr int kInTripleSingle = 2;

QString wordsPattern(const QStringList& words) {
    return QStringLiteral("\\b(?:%1)\\b").arg(words.join('|'));
}

const QStringList& keywords() {
    static const QStringList words = {
        "and",  "as",     "assert", "async",  "await",  "break",   "class",    "continue", "def",
        "del",  "elif",   "else",   "except", "False",  "finally", "for",      "from",     "global",
        "if",   "import", "in",     "is",     "lambda", "None",    "nonlocal", "not",      "or",
        "pass", "raise",  "return", "True",   "try",    "while",   "with",     "yield"};
    return words;
}

const QStringList& builtins() {
    static const QStringList words = {
        "abs",     "all",   "any",        "bool",  "dict", "enumerate", "float",  "getattr",
        "hasattr", "int",   "isinstance", "len",   "list", "max",       "min",    "print",
        "range",   "repr",  "reversed",   "round", "set",  "setattr",   "sorted", "str",
        "sum",     "super", "tuple",      "type",  "zip",  "self"};
    return words;
}

double linearChannel(double c) {
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

double relativeLuminance(const QColor& colour) {
    QColor rgb = colour.toRgb();
    return 0.2126 * linearChannel(rgb.redF()) + 0.7152 * linearChannel(rgb.greenF()) +
           0.0722 * linearChannel(rgb.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    double la = relativeLuminance(a);
    double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

bool isDarkPalette(const QPalette& palette) {
    // Mid grey (luminance 0.179) contrasts as much with black as with white.
    return relativeLuminance(palette.color(QPalette::Base)) < 0.179;
}

PythonHighlighter::PythonHighlighter(QPlainTextEdit* view)
    : PythonHighlighter(view->document(), view->palette()) {
    followPalette(view);
}

PythonHighlighter::PythonHighlighter(QTextDocument* document, const QPalette& palette)
    : PaletteHighlighter(document) {
    setColours(isDarkPalette(palette));
    m_rules = {
        {QRegularExpression(wordsPattern(keywords())), Token::Keyword},
        // Not after a dot: `a.sum()` calls a method, not the builtin.
        {QRegularExpression("(?<!\\.)" + wordsPattern(builtins())), Token::Builtin},
        {QRegularExpression(R"(\b(?:0[xX][0-9a-fA-F_]+|\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?j?)\b)"),
         Token::Number},
        {QRegularExpression(R"(^\s*(@[\w.]+))"), Token::Decorator, 1},
        {QRegularExpression(R"(\b(?:def|class)\s+(\w+))"), Token::Definition, 1},
    };
}

void PythonHighlighter::setColours(bool dark) {
    m_dark = dark;
    const CodeColours& c = dark ? kDarkCodeColours : kLightCodeColours;
    m_formats[int(Token::Keyword)] = makeFormat(QColor(c.keyword), true);
    m_formats[int(Token::Builtin)] = makeFormat(QColor(c.builtin));
    m_formats[int(Token::String)] = makeFormat(QColor(c.string));
    m_formats[int(Token::Comment)] = makeFormat(QColor(c.comment), false, true);
    m_formats[int(Token::Number)] = makeFormat(QColor(c.number));
    m_formats[int(Token::Decorator)] = makeFormat(QColor(c.decorator));
    m_formats[int(Token::Definition)] = makeFormat(QColor(c.definition), true);
}

QTextCharFormat PythonHighlighter::format(Token token) const {
    return m_formats[int(token)];
}

void PythonHighlighter::highlightBlock(const QString& text) {
    applyRules(text);
    applyStringsAndComments(text);
}

void PythonHighlighter::applyRules(const QString& text) {
    for (const Rule& rule : m_rules) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            QRegularExpressionMatch m = it.next();
            setFormat(m.capturedStart(rule.group), m.capturedLength(rule.group),
                      m_formats[int(rule.token)]);
        }
    }
}

int PythonHighlighter::stringEnd(const QString& text, int start, const QString& quote) {
    for (int i = start; i < text.size(); ++i) {
        if (text[i] == '\\') {
            ++i;
            continue;
        }
        if (text.mid(i, quote.size()) == quote) return i + int(quote.size());
    }
    return -1;
}

void PythonHighlighter::applyStringsAndComments(const QString& text) {
    const QTextCharFormat& stringFormat = m_formats[int(Token::String)];
    setCurrentBlockState(0);
    int pos = 0;
    int open = previousBlockState();
    if (open == kInTripleDouble || open == kInTripleSingle) {
        QString quote = open == kInTripleDouble ? "\"\"\"" : "'''";
        int end = stringEnd(text, 0, quote);
        if (end < 0) {
            setFormat(0, int(text.size()), stringFormat);
            setCurrentBlockState(open);
            return;
        }
        setFormat(0, end, stringFormat);
        pos = end;
    }
    while (pos < text.size()) {
        QChar c = text[pos];
        if (c == '#') {
            setFormat(pos, int(text.size()) - pos, m_formats[int(Token::Comment)]);
            return;
        }
        if (c != '"' && c != '\'') {
            ++pos;
            continue;
        }
        QString triple(3, c);
        bool isTriple = text.mid(pos, 3) == triple;
        QString quote = isTriple ? triple : QString(c);
        int end = stringEnd(text, pos + int(quote.size()), quote);
        if (end < 0) {
            // A single-quoted string cannot span lines: it ends with the line either way.
            setFormat(pos, int(text.size()) - pos, stringFormat);
            if (isTriple) setCurrentBlockState(c == '"' ? kInTripleDouble : kInTripleSingle);
            return;
        }
        setFormat(pos, end - pos, stringFormat);
        pos = end;
    }
}

} // namespace kiln::views
