// SPDX-License-Identifier: MIT
/// \file
/// Internal: the recursive-descent Parser class shared by parser.cpp (statements),
/// parse_expr.cpp (expressions) and parse_fstring.cpp (f-string bodies).
#pragma once

#include "lang/ast.h"
#include "lang/scope.h"
#include "lang/token.h"
#include "support/expected.h"

#include <vector>

namespace kiln::lang {

/// Thrown inside the parser to unwind to parseModule with a diagnostic.
struct ParseFailure {
    Diagnostic diagnostic;
};

class Parser {
public:
    Parser(SourceFilePtr source, std::vector<Token> tokens)
        : m_source(std::move(source))
        , m_tokens(std::move(tokens)) {}

    std::shared_ptr<FunctionCode> parseFile();
    ExprPtr parseStandaloneExpression(); ///< for f-string fields: expression then EOF

    // --- statements (parser.cpp)
    Block parseBlock(const char* header, int headerLine);
    Block parseOptionalElse(); ///< the `else:` block of if/for/while/try, or empty
    void parseStatement(Block& out);
    void parseSimpleStatements(Block& out);
    StmtPtr parseSimpleStatement();
    StmtPtr parseExpressionStatement();
    StmtPtr parseIf();
    StmtPtr parseWhile();
    StmtPtr parseFor();
    StmtPtr parseTry();
    StmtPtr parseWith();
    StmtPtr parseFunctionDef(std::vector<ExprPtr> decorators);
    StmtPtr parseClassDef(std::vector<ExprPtr> decorators);
    StmtPtr parseDecorated();
    StmtPtr parseImport();
    StmtPtr parseImportFrom();
    StmtPtr parseRaise();
    std::vector<Parameter> parseParameters(const char* closer);
    Annotation parseAnnotation();
    std::string parseDottedName();

    // --- expressions (parse_expr.cpp)
    ExprPtr parseStarExpressions(); ///< tuple without parentheses allowed
    ExprPtr parseExpression();      ///< ternary / lambda level
    ExprPtr parseNamedExpression();
    ExprPtr parseLambda();
    /// `yield`, `yield x, y` or `yield from x`, at the keyword.
    ExprPtr parseYield();
    ExprPtr parseOr();
    ExprPtr parseAnd();
    ExprPtr parseNot();
    ExprPtr parseComparison();
    ExprPtr parseBinary(int level);
    ExprPtr parseUnary();
    ExprPtr parsePower();
    ExprPtr parsePrimary();
    ExprPtr parseAtom();
    ExprPtr parseParenthesized();
    ExprPtr parseListDisplay();
    ExprPtr parseBraceDisplay();
    ExprPtr parseSetRest(ExprPtr first, SourcePos begin);
    ExprPtr parseStarredItem();
    ExprPtr parseStrings();
    ExprPtr parseSubscriptIndex();
    ExprPtr parseSliceItem();
    /// A call's arguments up to the closing parenthesis (also a class statement's bases and
    /// keywords); `simple` is cleared by `*` and `**` arguments.
    void parseCallArguments(std::vector<Argument>& args, bool& simple);
    ExprPtr parseComprehension(ExprKind kind, ExprPtr element, ExprPtr value, SourcePos begin);
    ExprPtr parseStarTarget();
    ExprPtr parseTargetList(); ///< `for` targets
    void checkAssignTarget(const Expr& e, const char* context);
    /// A target inside a tuple or list (where one starred target may stand).
    void checkTargetElement(const Expr& e, const char* context);

    // --- f-strings (parse_fstring.cpp)
    std::unique_ptr<FStringExpr> parseFStringBody(const Token& token, std::string_view body,
                                                  SourcePos bodyStart, int depth);

    // --- token access
    const Token& peek(size_t ahead = 0) const {
        size_t i = std::min(m_pos + ahead, m_tokens.size() - 1);
        return m_tokens[i];
    }
    const Token& next() {
        const Token& t = m_tokens[m_pos];
        if (m_pos + 1 < m_tokens.size()) ++m_pos;
        return t;
    }
    bool atOp(const char* op) const { return peek().isOp(op); }
    bool atKeyword(const char* kw) const { return peek().isName(kw); }
    bool acceptOp(const char* op) {
        if (!atOp(op)) return false;
        next();
        return true;
    }
    bool acceptKeyword(const char* kw) {
        if (!atKeyword(kw)) return false;
        next();
        return true;
    }
    const Token& expectOp(const char* op, const char* message = nullptr);
    SourcePos endOfPrevious() const { return m_tokens[m_pos ? m_pos - 1 : 0].span.end; }
    [[noreturn]] void fail(const std::string& message, SourceSpan at,
                           const char* kind = "SyntaxError");
    [[noreturn]] void failAtToken(const std::string& message);
    [[noreturn]] void failInvalidSyntax();
    /// One level of recursive parsing (a unary operator, brackets, a call, ...).
    void enterNesting();
    void leaveNesting() { --m_depth; }
    /// A left-associative chain (a + b + ..., a.b.c...) now \a length operators long: its tree
    /// is as deep as that, though parsing it does not recurse.
    void noteChain(int length);

    template <typename T>
    std::unique_ptr<T> make(SourcePos begin) {
        auto node = std::make_unique<T>();
        node->span = {begin, endOfPrevious()};
        return node;
    }
    void finishSpan(Expr& e, SourcePos begin) { e.span = {begin, endOfPrevious()}; }
    void finishSpan(Stmt& s, SourcePos begin) { s.span = {begin, endOfPrevious()}; }

    SourceFilePtr m_source;
    std::vector<Token> m_tokens;
    size_t m_pos = 0;
    int m_depth = 0;
    int m_deepest = 0; ///< the deepest expression tree so far (nesting plus chains)
    std::vector<std::string> m_qualifiers; ///< enclosing def/class names for qualified names
    /// The innermost function being parsed (a `yield` makes it a generator); null at module
    /// level and in a class body, where `yield` is a SyntaxError.
    FunctionCode* m_function = nullptr;

    /// `name` qualified by the enclosing definitions: "Model.forward", "f.<locals>.<genexpr>".
    std::string joinQualified(const std::vector<std::string>& parts,
                              const std::string& name) const {
        std::string out;
        for (const auto& p : parts)
            out += p + ".";
        return out + name;
    }
    bool m_futureAnnotations = false; ///< `from __future__ import annotations` was seen
};

bool isKeyword(const std::string& word);

} // namespace kiln::lang
