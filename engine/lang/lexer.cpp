// SPDX-License-Identifier: MIT
#include "lang/lexer.h"

#include "lang/string_escapes.h"
#include "lang/unicode.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace kiln::lang {

namespace {

// Whether a literal body uses \N{name}; Kiln has no Unicode name database.
bool hasNamedEscape(std::string_view body) {
    for (size_t i = 0; i + 1 < body.size(); ++i) {
        if (body[i] != '\\') continue;
        if (body[i + 1] == 'N') return true;
        ++i; // skip the escaped character (also a second backslash)
    }
    return false;
}

bool isIdentStart(unsigned char c) {
    return std::isalpha(c) || c == '_' || c >= 0x80;
}

bool isIdentChar(unsigned char c) {
    return std::isalnum(c) || c == '_' || c >= 0x80;
}

// Operators longest first so that a prefix never wins over the full spelling.
constexpr std::array<const char*, 48> kOperators = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=",
    ">=",  "==",  "!=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "@=",
    "+",   "-",   "*",   "/",   "%",   "@",  "&",  "|",  "^",  "~",  "<",  ">",
    "(",   ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  ";",  "=",  "!",
};

class Lexer {
public:
    explicit Lexer(const SourceFile& source)
        : m_src(source)
        , m_text(source.text()) {}

    Expected<std::vector<Token>> run();

private:
    struct Failure {
        Diagnostic diagnostic;
    };

    char peek(size_t ahead = 0) const {
        return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0';
    }
    bool atEnd() const { return m_pos >= m_text.size(); }
    void advance() {
        if (m_text[m_pos] == '\n') {
            ++m_line;
            m_col = 1;
        } else if ((static_cast<unsigned char>(m_text[m_pos]) & 0xC0) != 0x80) {
            ++m_col;
        }
        ++m_pos;
    }
    SourcePos here() const { return {m_line, m_col}; }
    /// The code point at byte \a pos (the text is valid UTF-8: decodeSourceText checked it).
    char32_t codePointAt(size_t pos, size_t& length) const {
        unsigned char lead = static_cast<unsigned char>(m_text[pos]);
        length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        char32_t cp = length == 1 ? lead : lead & (0x7F >> length);
        for (size_t i = 1; i < length && pos + i < m_text.size(); ++i)
            cp = (cp << 6) | (static_cast<unsigned char>(m_text[pos + i]) & 0x3F);
        return cp;
    }

    [[noreturn]] void error(const std::string& message, SourcePos at,
                            const char* kind = "SyntaxError") {
        Diagnostic d;
        d.kind = kind;
        d.message = message;
        d.file = m_src.path();
        d.span = {at, {at.line, at.column + 1}};
        throw Failure{std::move(d)};
    }

    void push(TokenKind kind, std::string text, SourcePos begin) {
        Token t;
        t.kind = kind;
        t.text = std::move(text);
        t.span = {begin, here()};
        m_tokens.push_back(std::move(t));
    }

    void lexLineStart();
    void lexToken();
    void lexNumber();
    void lexName();
    void lexString(size_t prefixLength, SourcePos begin);
    void lexOperator();
    void closeBracket(char c, SourcePos at);
    void finish();

    const SourceFile& m_src;
    const std::string& m_text;
    size_t m_pos = 0;
    int32_t m_line = 1;
    int32_t m_col = 1;
    std::vector<Token> m_tokens;
    std::vector<int> m_indents{0};
    std::vector<int> m_altIndents{0}; ///< the same levels with a tab counted as one column
    struct OpenBracket {
        char c;
        SourcePos at;
    };
    std::vector<OpenBracket> m_brackets;
    bool m_atLineStart = true;
};

Expected<std::vector<Token>> Lexer::run() {
    try {
        while (!atEnd()) {
            if (m_atLineStart && m_brackets.empty())
                lexLineStart();
            else
                lexToken();
        }
        finish();
    } catch (Failure& f) {
        return std::move(f.diagnostic);
    }
    return std::move(m_tokens);
}

void Lexer::lexLineStart() {
    m_atLineStart = false;
    // CPython measures indentation twice, with tabs to multiples of 8 and as single columns;
    // lines whose order differs between the two mix tabs and spaces ambiguously (TabError).
    int width = 0;
    int altWidth = 0;
    while (peek() == ' ' || peek() == '\t' || peek() == '\f') {
        width = peek() == '\t' ? (width / 8 + 1) * 8 : peek() == ' ' ? width + 1 : 0;
        altWidth = peek() == '\f' ? 0 : altWidth + 1;
        advance();
    }
    // Blank lines and comment-only lines do not affect indentation.
    if (atEnd() || peek() == '\n' || peek() == '#' || (peek() == '\r' && peek(1) == '\n')) {
        while (!atEnd() && peek() != '\n')
            advance();
        if (!atEnd()) advance();
        m_atLineStart = true;
        return;
    }
    if (peek() == '\\' && (peek(1) == '\n'))
        return; // a continuation right at the start: treat as part of this logical line
    auto inconsistentTabs = [&] {
        error("inconsistent use of tabs and spaces in indentation", here(), "TabError");
    };
    if (width > m_indents.back()) {
        if (m_indents.size() >= 100) // CPython's tokenizer limit (MAXINDENT)
            error("too many levels of indentation", here(), "IndentationError");
        if (altWidth <= m_altIndents.back()) inconsistentTabs();
        m_indents.push_back(width);
        m_altIndents.push_back(altWidth);
        push(TokenKind::Indent, "", here());
        return;
    }
    while (width < m_indents.back()) {
        m_indents.pop_back();
        m_altIndents.pop_back();
        push(TokenKind::Dedent, "", here());
    }
    if (width != m_indents.back())
        error("unindent does not match any outer indentation level", here(), "IndentationError");
    if (altWidth != m_altIndents.back()) inconsistentTabs();
}

void Lexer::lexToken() {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        advance();
        return;
    }
    if (c == '#') {
        while (!atEnd() && peek() != '\n')
            advance();
        return;
    }
    if (c == '\\') {
        SourcePos at = here();
        advance();
        if (peek() == '\r') advance();
        if (peek() != '\n') error("unexpected character after line continuation character", at);
        advance();
        return;
    }
    if (c == '\n') {
        SourcePos at = here();
        advance();
        if (m_brackets.empty()) {
            if (!m_tokens.empty() && !m_tokens.back().is(TokenKind::Newline) &&
                !m_tokens.back().is(TokenKind::Indent) && !m_tokens.back().is(TokenKind::Dedent)) {
                Token t;
                t.kind = TokenKind::Newline;
                t.span = {at, {at.line, at.column + 1}};
                m_tokens.push_back(std::move(t));
            }
            m_atLineStart = true;
        }
        return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
        lexNumber();
        return;
    }
    if (isIdentStart(static_cast<unsigned char>(c))) {
        lexName();
        return;
    }
    if (c == '"' || c == '\'') {
        lexString(0, here());
        return;
    }
    lexOperator();
}

void Lexer::lexName() {
    SourcePos begin = here();
    size_t start = m_pos;
    // PEP 3131: an identifier starts with an XID_Start character (or '_') and continues with
    // XID_Continue ones. A character that cannot go on ends the name; the next token reports it
    // ("invalid character '€' (U+20AC)", as CPython).
    while (!atEnd()) {
        unsigned char c = static_cast<unsigned char>(peek());
        if (c < 0x80) {
            if (!isIdentChar(c)) break;
            advance();
            continue;
        }
        size_t length = 0;
        char32_t cp = codePointAt(m_pos, length);
        if (!(m_pos == start ? unicode::isIdStart(cp) : unicode::isIdContinue(cp))) break;
        if (unicode::changesUnderNfkc(cp)) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(cp));
            error("identifier character '" + m_text.substr(m_pos, length) + "' (" + hex +
                      ") is not in NFKC normal form; CPython would normalize the name, Kiln "
                      "does not: spell it normalized",
                  here());
        }
        for (size_t i = 0; i < length; ++i)
            advance();
    }
    if (m_pos == start) {
        lexOperator(); // not an identifier character at all
        return;
    }
    std::string word = m_text.substr(start, m_pos - start);
    // String prefixes: r, u, f, b and their combinations directly followed by a quote.
    if (word.size() <= 2 && (peek() == '"' || peek() == '\'')) {
        std::string lower;
        for (char ch : word)
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        static const char* prefixes[] = {"r", "u", "f", "b", "rf", "fr", "br", "rb"};
        for (const char* p : prefixes) {
            if (lower == p) {
                lexString(word.size(), begin);
                return;
            }
        }
    }
    push(TokenKind::Name, std::move(word), begin);
}

void Lexer::lexNumber() {
    SourcePos begin = here();
    size_t start = m_pos;
    auto digitsOf = [&](auto pred) {
        while (!atEnd() && (pred(static_cast<unsigned char>(peek())) || peek() == '_'))
            advance();
    };
    bool isFloat = false;
    int base = 10;
    if (peek() == '0' && std::strchr("xXoObB", peek(1)) && peek(1) != '\0') {
        char p = static_cast<char>(std::tolower(peek(1)));
        base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        advance();
        advance();
        digitsOf([](unsigned char ch) { return std::isxdigit(ch) != 0; });
    } else {
        digitsOf([](unsigned char ch) { return std::isdigit(ch) != 0; });
        if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
            isFloat = true;
            advance();
            digitsOf([](unsigned char ch) { return std::isdigit(ch) != 0; });
        }
        if (peek() == 'e' || peek() == 'E') {
            char sign = peek(1);
            bool hasDigits =
                std::isdigit(static_cast<unsigned char>(sign)) ||
                ((sign == '+' || sign == '-') && std::isdigit(static_cast<unsigned char>(peek(2))));
            if (hasDigits) {
                isFloat = true;
                advance();
                if (peek() == '+' || peek() == '-') advance();
                digitsOf([](unsigned char ch) { return std::isdigit(ch) != 0; });
            }
        }
    }
    if (peek() == 'j' || peek() == 'J')
        error("complex number literals are not supported by Kiln", begin);
    if (isIdentChar(static_cast<unsigned char>(peek())))
        error(base == 10 ? "invalid decimal literal" : "invalid digit in number literal", here());
    std::string spelled;
    for (size_t i = start; i < m_pos; ++i)
        if (m_text[i] != '_') spelled += m_text[i];
    // Python 3 has no C-style octal: 007 is an error, 000 and 0_0 are zero.
    if (base == 10 && !isFloat && spelled.size() > 1 && spelled[0] == '0' &&
        spelled.find_first_not_of('0') != std::string::npos)
        error("leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
              "octal integers",
              begin);
    Token t;
    t.span = {begin, here()};
    t.text = m_text.substr(start, m_pos - start);
    if (isFloat) {
        t.kind = TokenKind::Float;
        t.floatValue = std::strtod(spelled.c_str(), nullptr);
    } else {
        t.kind = TokenKind::Int;
        const char* first = spelled.c_str() + (base == 10 ? 0 : 2);
        const char* last = spelled.c_str() + spelled.size();
        uint64_t value = 0;
        auto result = std::from_chars(first, last, value, base);
        if (result.ec != std::errc() || result.ptr != last ||
            value > static_cast<uint64_t>(INT64_MAX))
            error("integer literal too large: Kiln integers are 64-bit", begin);
        t.intValue = static_cast<int64_t>(value);
    }
    m_tokens.push_back(std::move(t));
}

void Lexer::lexString(size_t prefixLength, SourcePos begin) {
    std::string prefix;
    for (size_t i = m_pos - prefixLength; i < m_pos; ++i)
        prefix += static_cast<char>(std::tolower(static_cast<unsigned char>(m_text[i])));
    if (prefix.find('b') != std::string::npos)
        error("bytes literals are not supported by Kiln", begin);
    bool raw = prefix.find('r') != std::string::npos;
    bool formatted = prefix.find('f') != std::string::npos;
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    for (int i = 0; i < (triple ? 3 : 1); ++i)
        advance();
    SourcePos bodyStart = here();
    size_t start = m_pos;
    while (true) {
        if (atEnd() || (!triple && peek() == '\n')) {
            if (triple)
                error("unterminated triple-quoted string literal (detected at line " +
                          std::to_string(m_line - (m_pos > 0 && m_text[m_pos - 1] == '\n')) + ")",
                      begin);
            error("unterminated string literal (detected at line " + std::to_string(m_line) + ")",
                  begin);
        }
        if (peek() == '\\') {
            advance();
            if (!atEnd()) advance();
            continue;
        }
        if (peek() == quote && (!triple || (peek(1) == quote && peek(2) == quote))) break;
        advance();
    }
    std::string body = m_text.substr(start, m_pos - start);
    if (!raw && hasNamedEscape(body))
        error("\\N{...} escapes (Unicode character names) are not supported by Kiln", begin);
    for (int i = 0; i < (triple ? 3 : 1); ++i)
        advance();
    Token t;
    t.span = {begin, here()};
    if (formatted) {
        t.kind = TokenKind::FString;
        t.text = std::move(body);
        t.rawString = raw;
        t.bodyStart = bodyStart;
    } else {
        t.kind = TokenKind::String;
        if (raw) {
            t.text = std::move(body);
        } else {
            DecodedLiteral decoded = decodeEscapes(body);
            // CPython points just past the literal.
            if (!decoded.error.empty()) error(decoded.error, here());
            t.text = std::move(decoded.text);
        }
    }
    m_tokens.push_back(std::move(t));
}

void Lexer::lexOperator() {
    SourcePos begin = here();
    for (const char* op : kOperators) {
        size_t n = std::strlen(op);
        if (m_text.compare(m_pos, n, op) != 0) continue;
        if (n == 1 && op[0] == '!') break; // '!' only exists as part of '!='
        char c = op[0];
        if (n == 1 && (c == '(' || c == '[' || c == '{')) {
            if (m_brackets.size() >= 200) // CPython's tokenizer limit (MAXLEVEL)
                error("too many nested parentheses", begin);
            m_brackets.push_back({c, begin});
        }
        if (n == 1 && (c == ')' || c == ']' || c == '}')) closeBracket(c, begin);
        for (size_t i = 0; i < n; ++i)
            advance();
        push(TokenKind::Op, op, begin);
        return;
    }
    unsigned char c = static_cast<unsigned char>(peek());
    if (c >= 0x80) {
        size_t len = 0;
        char32_t cp = codePointAt(m_pos, len);
        char hex[16];
        std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(cp));
        error("invalid character '" + m_text.substr(m_pos, len) + "' (" + hex + ")", begin);
    }
    if (c == '$' || c == '?' || c == '`') error(std::string("invalid syntax"), begin);
    error("invalid non-printable character U+" + std::to_string(c), begin);
}

void Lexer::closeBracket(char c, SourcePos at) {
    if (m_brackets.empty()) error(std::string("unmatched '") + c + "'", at);
    char open = m_brackets.back().c;
    char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
    if (c != expected) {
        error(std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" +
                  open + "'" +
                  (m_brackets.back().at.line != at.line
                       ? " on line " + std::to_string(m_brackets.back().at.line)
                       : ""),
              at);
    }
    m_brackets.pop_back();
}

void Lexer::finish() {
    if (!m_brackets.empty())
        error(std::string("'") + m_brackets.back().c + "' was never closed", m_brackets.back().at);
    SourcePos end = here();
    if (!m_tokens.empty() && !m_tokens.back().is(TokenKind::Newline) &&
        !m_tokens.back().is(TokenKind::Dedent)) {
        Token t;
        t.kind = TokenKind::Newline;
        t.span = {end, end};
        m_tokens.push_back(std::move(t));
    }
    while (m_indents.size() > 1) {
        m_indents.pop_back();
        push(TokenKind::Dedent, "", end);
    }
    push(TokenKind::EndOfFile, "", end);
}

} // namespace

Expected<std::vector<Token>> tokenize(const SourceFile& source) {
    return Lexer(source).run();
}

} // namespace kiln::lang
