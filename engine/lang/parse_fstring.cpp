// SPDX-License-Identifier: MIT
// f-string bodies: literal text with {expression!conversion:spec} fields. Each field's
// expression is tokenized on its own and parsed by a nested Parser; its token positions are
// shifted so that spans point into the original file.
#include "lang/lexer.h"
#include "lang/parser_impl.h"
#include "lang/string_escapes.h"

#include <algorithm>

namespace kiln::lang {

namespace {

SourcePos advancePos(SourcePos pos, std::string_view text) {
    for (unsigned char c : text) {
        if (c == '\n') {
            ++pos.line;
            pos.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++pos.column;
        }
    }
    return pos;
}

SourcePos shift(SourcePos p, SourcePos origin) {
    // Token positions come from "(" + text + ")": column 2 of line 1 is the origin.
    if (p.line == 1) return {origin.line, origin.column + p.column - 2};
    return {origin.line + p.line - 1, p.column};
}

// Index just past the expression part of a field starting at `i`, honouring brackets and
// nested string literals.
size_t scanFieldExpression(std::string_view body, size_t i) {
    int depth = 0;
    char quote = 0;
    for (; i < body.size(); ++i) {
        char c = body[i];
        if (quote) {
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if (c == ')' || c == ']' || (c == '}' && depth > 0)) {
            --depth;
        } else if (depth == 0) {
            if (c == '}' || c == ':') return i;
            if (c == '!' && i + 1 < body.size() && body[i + 1] != '=') return i;
            if (c == '=' && i + 1 < body.size() && i > 0 &&
                std::string_view("=!<>").find(body[i - 1]) == std::string_view::npos &&
                body[i + 1] != '=') {
                size_t k = i + 1;
                while (k < body.size() && body[k] == ' ')
                    ++k;
                if (k < body.size() && (body[k] == '}' || body[k] == '!' || body[k] == ':'))
                    return i;
            }
        }
    }
    return i;
}

// Index of the '}' that closes a format spec starting at `i` (nested fields allowed).
size_t scanSpec(std::string_view body, size_t i) {
    int depth = 0;
    for (; i < body.size(); ++i) {
        if (body[i] == '{')
            ++depth;
        else if (body[i] == '}') {
            if (depth == 0) return i;
            --depth;
        }
    }
    return i;
}

} // namespace

std::unique_ptr<FStringExpr> Parser::parseFStringBody(const Token& token, std::string_view body,
                                                      SourcePos bodyStart, int depth) {
    auto result = std::make_unique<FStringExpr>();
    result->span = token.span;
    std::string literal;
    auto flushLiteral = [&] {
        if (literal.empty()) return;
        FStringExpr::Part part;
        if (token.rawString) {
            part.literal = literal;
        } else {
            DecodedLiteral decoded = decodeEscapes(literal);
            // CPython points just past the literal.
            if (!decoded.error.empty())
                fail(decoded.error,
                     {token.span.end, {token.span.end.line, token.span.end.column + 1}});
            part.literal = std::move(decoded.text);
        }
        result->parts.push_back(std::move(part));
        literal.clear();
    };
    auto failAt = [&](const std::string& message, size_t index) {
        SourcePos p = advancePos(bodyStart, body.substr(0, index));
        fail(message, {p, {p.line, p.column + 1}});
    };
    size_t i = 0;
    while (i < body.size()) {
        char c = body[i];
        if (c == '}') {
            if (i + 1 < body.size() && body[i + 1] == '}') {
                literal += '}';
                i += 2;
                continue;
            }
            failAt("f-string: single '}' is not allowed", i);
        }
        if (c != '{') {
            literal += c;
            ++i;
            continue;
        }
        if (i + 1 < body.size() && body[i + 1] == '{') {
            literal += '{';
            i += 2;
            continue;
        }
        flushLiteral();
        size_t exprBegin = i + 1;
        size_t exprEnd = scanFieldExpression(body, exprBegin);
        std::string_view exprText = body.substr(exprBegin, exprEnd - exprBegin);
        if (exprText.find_first_not_of(" \t\n") == std::string_view::npos)
            failAt("f-string: empty expression not allowed", i);
        if (exprEnd >= body.size()) failAt("f-string: expecting '}'", i);
        FStringExpr::Part part;
        SourcePos exprPos = advancePos(bodyStart, body.substr(0, exprBegin));
        SourceFile sub(m_source->path(), "(" + std::string(exprText) + ")");
        auto tokens = tokenize(sub);
        if (!tokens.ok()) failAt("f-string: " + tokens.error().message, exprBegin);
        for (Token& t : tokens.value())
            t.span = {shift(t.span.begin, exprPos), shift(t.span.end, exprPos)};
        Parser nested(m_source, std::move(tokens).value());
        nested.m_depth = m_depth;
        part.expr = nested.parseStandaloneExpression();
        m_deepest = std::max(m_deepest, nested.m_deepest);
        size_t j = exprEnd;
        if (body[j] == '=') {
            part.debugText = std::string(exprText) + "=";
            ++j;
            while (j < body.size() && body[j] == ' ')
                part.debugText += body[j++];
        }
        if (j < body.size() && body[j] == '!') {
            if (j + 1 >= body.size() ||
                std::string_view("rsa").find(body[j + 1]) == std::string_view::npos)
                failAt("f-string: invalid conversion character: expected 's', 'r', or 'a'", j);
            part.conversion = body[j + 1];
            j += 2;
        }
        if (j < body.size() && body[j] == ':') {
            if (depth >= 1) failAt("f-string: expressions nested too deeply", j);
            size_t specEnd = scanSpec(body, j + 1);
            SourcePos specPos = advancePos(bodyStart, body.substr(0, j + 1));
            part.spec =
                parseFStringBody(token, body.substr(j + 1, specEnd - j - 1), specPos, depth + 1);
            j = specEnd;
        }
        if (!part.debugText.empty() && !part.conversion && !part.spec) part.conversion = 'r';
        if (j >= body.size() || body[j] != '}') failAt("f-string: expecting '}'", j);
        result->parts.push_back(std::move(part));
        i = j + 1;
    }
    flushLiteral();
    return result;
}

} // namespace kiln::lang
