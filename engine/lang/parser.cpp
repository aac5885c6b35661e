// SPDX-License-Identifier: MIT
#include "lang/parser.h"

#include "lang/lexer.h"
#include "lang/parser_impl.h"
#include "lang/scope.h"
#include "lang/source_text.h"

#include <algorithm>
#include <utility>

namespace kiln::lang {

namespace {

// CPython 3.11's limits, measured as Kiln counts nesting (`x = -...-1` with n operators):
// its parser's stack (MAXSTACK) overflows past 5967 prefix operators, a MemoryError without
// message; its compiler refuses trees deeper than 2998 levels (three times the recursion
// limit, less the statement around them): RecursionError. Brackets alone are limited to 200
// by the lexer (SyntaxError: too many nested parentheses).
constexpr int kMaxParserNesting = 5967;
constexpr int kMaxTreeDepth = 2998;
constexpr const char* kCompileRecursion = "maximum recursion depth exceeded during compilation";

const char* const kKeywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

} // namespace

bool isKeyword(const std::string& word) {
    return std::find_if(std::begin(kKeywords), std::end(kKeywords),
                        [&](const char* k) { return word == k; }) != std::end(kKeywords);
}

void Parser::fail(const std::string& message, SourceSpan at, const char* kind) {
    Diagnostic d;
    d.kind = kind;
    d.message = message;
    d.file = m_source->path();
    d.span = at;
    throw ParseFailure{std::move(d)};
}

void Parser::failAtToken(const std::string& message) {
    fail(message, peek().span);
}

void Parser::failInvalidSyntax() {
    const Token& t = peek();
    if (t.is(TokenKind::Indent)) fail("unexpected indent", t.span, "IndentationError");
    if (t.is(TokenKind::Name)) {
        static const char* unsupported[][2] = {
            {"async", "'async' is not supported by Kiln"},
            {"await", "'await' is not supported by Kiln"},
        };
        for (auto& u : unsupported)
            if (t.text == u[0]) failAtToken(u[1]);
    }
    failAtToken("invalid syntax");
}

const Token& Parser::expectOp(const char* op, const char* message) {
    if (!atOp(op)) {
        if (message) failAtToken(message);
        if (std::string(op) == ":") fail("expected ':'", {endOfPrevious(), endOfPrevious()});
        failInvalidSyntax();
    }
    return next();
}

void Parser::enterNesting() {
    if (++m_depth > kMaxParserNesting) fail("", {}, "MemoryError");
    m_deepest = std::max(m_deepest, m_depth);
}

void Parser::noteChain(int length) {
    m_deepest = std::max(m_deepest, m_depth + length);
    // Reported at once, unlike deep nesting: a chain's tree is built without recursion, but a
    // hundred thousand levels of it would recurse in every later pass (and in its destructor).
    if (m_deepest > kMaxTreeDepth) fail(kCompileRecursion, {}, "RecursionError");
}

std::shared_ptr<FunctionCode> Parser::parseFile() {
    auto code = std::make_shared<FunctionCode>();
    code->name = Symbol::intern("<module>");
    code->qualifiedName = "<module>";
    code->source = m_source;
    code->firstLine = 1;
    while (!peek().is(TokenKind::EndOfFile)) {
        if (peek().is(TokenKind::Newline)) {
            next();
            continue;
        }
        parseStatement(code->body);
    }
    // As CPython's compiler after its parser: a file that parses but nests too deeply.
    if (m_deepest > kMaxTreeDepth) fail(kCompileRecursion, {}, "RecursionError");
    return code;
}

Block Parser::parseBlock(const char* header, int headerLine) {
    expectOp(":");
    Block body;
    if (!peek().is(TokenKind::Newline)) {
        parseSimpleStatements(body);
        return body;
    }
    next();
    if (!peek().is(TokenKind::Indent))
        fail(std::string("expected an indented block after ") + header + " on line " +
                 std::to_string(headerLine),
             peek().span, "IndentationError");
    next();
    while (!peek().is(TokenKind::Dedent) && !peek().is(TokenKind::EndOfFile))
        parseStatement(body);
    if (peek().is(TokenKind::Dedent)) next();
    return body;
}

Block Parser::parseOptionalElse() {
    if (!atKeyword("else")) return {};
    int elseLine = next().span.begin.line;
    return parseBlock("'else' statement", elseLine);
}

void Parser::parseStatement(Block& out) {
    const Token& t = peek();
    if (t.is(TokenKind::Name)) {
        const std::string& w = t.text;
        if (w == "if") return out.push_back(parseIf());
        if (w == "while") return out.push_back(parseWhile());
        if (w == "for") return out.push_back(parseFor());
        if (w == "try") return out.push_back(parseTry());
        if (w == "with") return out.push_back(parseWith());
        if (w == "def") return out.push_back(parseFunctionDef({}));
        if (w == "class") return out.push_back(parseClassDef({}));
        if (w == "match" && peek(1).is(TokenKind::Name) && !peek(1).isName("in") &&
            !isKeyword(peek(1).text)) {
            // `match x:` is a statement only when a ':' ends the line; `match = 1` is a name.
            for (size_t i = 1; !peek(i).is(TokenKind::Newline) && !peek(i).is(TokenKind::EndOfFile);
                 ++i)
                if (peek(i).isOp(":") && peek(i + 1).is(TokenKind::Newline))
                    failAtToken("the 'match' statement is not supported by Kiln");
        }
    }
    if (t.isOp("@")) return out.push_back(parseDecorated());
    if (t.is(TokenKind::Indent)) fail("unexpected indent", t.span, "IndentationError");
    parseSimpleStatements(out);
}

void Parser::parseSimpleStatements(Block& out) {
    while (true) {
        out.push_back(parseSimpleStatement());
        if (!acceptOp(";")) break;
        if (peek().is(TokenKind::Newline)) break;
    }
    if (!peek().is(TokenKind::Newline) && !peek().is(TokenKind::EndOfFile)) failInvalidSyntax();
    if (peek().is(TokenKind::Newline)) next();
}

StmtPtr Parser::parseSimpleStatement() {
    SourcePos begin = peek().span.begin;
    const Token& t = peek();
    if (t.isName("pass") || t.isName("break") || t.isName("continue")) {
        StmtKind k = t.text == "pass"    ? StmtKind::Pass
                     : t.text == "break" ? StmtKind::Break
                                         : StmtKind::Continue;
        next();
        auto s = std::make_unique<SimpleStmt>(k);
        finishSpan(*s, begin);
        return s;
    }
    if (t.isName("return")) {
        next();
        auto s = std::make_unique<ReturnStmt>();
        if (!peek().is(TokenKind::Newline) && !atOp(";")) s->value = parseStarExpressions();
        finishSpan(*s, begin);
        return s;
    }
    if (t.isName("import")) return parseImport();
    if (t.isName("from")) return parseImportFrom();
    if (t.isName("raise")) return parseRaise();
    if (t.isName("global") || t.isName("nonlocal")) {
        auto s =
            std::make_unique<NamesStmt>(t.text == "global" ? StmtKind::Global : StmtKind::Nonlocal);
        next();
        do {
            if (!peek().is(TokenKind::Name)) failInvalidSyntax();
            s->names.push_back(Symbol::intern(next().text));
        } while (acceptOp(","));
        finishSpan(*s, begin);
        return s;
    }
    if (t.isName("assert")) {
        next();
        auto s = std::make_unique<AssertStmt>();
        s->test = parseExpression();
        if (acceptOp(",")) s->message = parseExpression();
        finishSpan(*s, begin);
        return s;
    }
    if (t.isName("del")) {
        next();
        auto s = std::make_unique<DelStmt>();
        do {
            ExprPtr target = parseBinary(0);
            checkAssignTarget(*target, "delete");
            s->targets.push_back(std::move(target));
        } while (acceptOp(",") && !peek().is(TokenKind::Newline));
        finishSpan(*s, begin);
        return s;
    }
    return parseExpressionStatement();
}

StmtPtr Parser::parseRaise() {
    SourcePos begin = next().span.begin;
    auto s = std::make_unique<RaiseStmt>();
    if (!peek().is(TokenKind::Newline) && !atOp(";")) {
        s->exception = parseExpression();
        if (acceptKeyword("from")) s->cause = parseExpression();
    }
    finishSpan(*s, begin);
    return s;
}

StmtPtr Parser::parseIf() {
    SourcePos begin = peek().span.begin;
    int line = next().span.begin.line;
    auto s = std::make_unique<IfStmt>();
    s->test = parseNamedExpression();
    s->body = parseBlock("'if' statement", line);
    if (atKeyword("elif"))
        s->orelse.push_back(parseIf()); // an elif is an if nested in the else branch
    else
        s->orelse = parseOptionalElse();
    finishSpan(*s, begin);
    s->span.end = s->test->span.end;
    return s;
}

StmtPtr Parser::parseWhile() {
    SourcePos begin = peek().span.begin;
    int line = next().span.begin.line;
    auto s = std::make_unique<WhileStmt>();
    s->test = parseNamedExpression();
    s->span = {begin, s->test->span.end};
    s->body = parseBlock("'while' statement", line);
    s->orelse = parseOptionalElse();
    return s;
}

StmtPtr Parser::parseFor() {
    SourcePos begin = peek().span.begin;
    int line = next().span.begin.line;
    auto s = std::make_unique<ForStmt>();
    s->target = parseTargetList();
    if (!acceptKeyword("in")) failInvalidSyntax();
    s->iter = parseStarExpressions();
    s->span = {begin, s->iter->span.end};
    s->body = parseBlock("'for' statement", line);
    s->orelse = parseOptionalElse();
    return s;
}

StmtPtr Parser::parseTry() {
    SourcePos begin = peek().span.begin;
    int line = next().span.begin.line;
    auto s = std::make_unique<TryStmt>();
    s->span = {begin, endOfPrevious()};
    s->body = parseBlock("'try' statement", line);
    while (atKeyword("except")) {
        ExceptHandler h;
        SourcePos hb = peek().span.begin;
        int hline = next().span.begin.line;
        if (atOp("*")) failAtToken("'except*' is not supported by Kiln");
        if (!atOp(":")) {
            h.type = parseExpression();
            if (atOp(",")) {
                // except A, B: is Python 2; Python 3 requires parentheses.
                failAtToken("multiple exception types must be parenthesized");
            }
            if (acceptKeyword("as")) {
                if (!peek().is(TokenKind::Name)) failInvalidSyntax();
                auto name = make<NameExpr>(peek().span.begin);
                name->id = Symbol::intern(peek().text);
                name->span = next().span;
                h.name = std::move(name);
            }
        }
        h.span = {hb, endOfPrevious()};
        h.body = parseBlock("'except' statement", hline);
        s->handlers.push_back(std::move(h));
    }
    if (atKeyword("else") && s->handlers.empty()) failInvalidSyntax();
    s->orelse = parseOptionalElse();
    if (atKeyword("finally")) {
        int l = next().span.begin.line;
        s->finalbody = parseBlock("'finally' statement", l);
    }
    if (s->handlers.empty() && s->finalbody.empty())
        fail("expected 'except' or 'finally' block", peek().span);
    return s;
}

StmtPtr Parser::parseWith() {
    SourcePos begin = peek().span.begin;
    int line = next().span.begin.line;
    auto s = std::make_unique<WithStmt>();
    bool parenthesized = atOp("(") && [&] {
        // `with (a as b, c):` vs `with (a):` / `with (a, b) as c:` — look for `as` at depth 1.
        int depth = 0;
        for (size_t i = 0;; ++i) {
            const Token& t = peek(i);
            if (t.is(TokenKind::EndOfFile) || t.is(TokenKind::Newline)) return false;
            if (t.isOp("(") || t.isOp("[") || t.isOp("{")) ++depth;
            if (t.isOp(")") || t.isOp("]") || t.isOp("}")) {
                if (--depth == 0) return peek(i + 1).isOp(":");
            }
            if (depth == 1 && t.isName("as")) return true;
        }
    }();
    if (parenthesized) next();
    do {
        if (parenthesized && atOp(")")) break;
        WithItem item;
        item.context = parseExpression();
        if (acceptKeyword("as")) {
            item.target = parseStarTarget();
            checkAssignTarget(*item.target, "assign");
        }
        s->items.push_back(std::move(item));
    } while (acceptOp(","));
    if (parenthesized) expectOp(")");
    s->span = {begin, endOfPrevious()};
    s->body = parseBlock("'with' statement", line);
    return s;
}

StmtPtr Parser::parseDecorated() {
    std::vector<ExprPtr> decorators;
    while (acceptOp("@")) {
        decorators.push_back(parseNamedExpression());
        if (!peek().is(TokenKind::Newline)) failInvalidSyntax();
        next();
    }
    if (atKeyword("def")) return parseFunctionDef(std::move(decorators));
    if (atKeyword("class")) return parseClassDef(std::move(decorators));
    failInvalidSyntax();
}

StmtPtr Parser::parseFunctionDef(std::vector<ExprPtr> decorators) {
    SourcePos begin = peek().span.begin;
    int line = next().span.begin.line;
    if (!peek().is(TokenKind::Name) || isKeyword(peek().text)) failInvalidSyntax();
    const Token& nameToken = next();
    auto s = std::make_unique<FunctionDefStmt>();
    s->decorators = std::move(decorators);
    auto target = std::make_unique<NameExpr>();
    target->id = Symbol::intern(nameToken.text);
    target->span = nameToken.span;
    auto code = std::make_shared<FunctionCode>();
    code->name = target->id;
    code->qualifiedName = joinQualified(m_qualifiers, nameToken.text);
    code->source = m_source;
    code->firstLine = line;
    expectOp("(");
    code->params = parseParameters(")");
    expectOp(")");
    if (acceptOp("->")) code->returns = parseAnnotation();
    s->span = {begin, endOfPrevious()};
    code->span = s->span;
    m_qualifiers.push_back(nameToken.text);
    m_qualifiers.push_back("<locals>");
    FunctionCode* enclosing = std::exchange(m_function, code.get());
    code->body = parseBlock("function definition", line);
    m_function = enclosing;
    m_qualifiers.resize(m_qualifiers.size() - 2);
    s->code = std::move(code);
    s->target = std::move(target);
    return s;
}

std::vector<Parameter> Parser::parseParameters(const char* closer) {
    std::vector<Parameter> params;
    bool sawStar = false, sawDefault = false;
    while (!atOp(closer)) {
        Parameter p;
        p.span.begin = peek().span.begin;
        if (acceptOp("/")) {
            for (auto& q : params)
                q.kind = Parameter::Kind::PositionalOnly;
            if (!acceptOp(",")) break;
            continue;
        }
        if (acceptOp("**")) {
            p.kind = Parameter::Kind::VarKeywords;
        } else if (acceptOp("*")) {
            sawStar = true;
            if (atOp(",")) { // bare `*`: what follows is keyword-only
                next();
                continue;
            }
            p.kind = Parameter::Kind::VarArgs;
        } else {
            p.kind = sawStar ? Parameter::Kind::KeywordOnly : Parameter::Kind::Positional;
        }
        if (!peek().is(TokenKind::Name) || isKeyword(peek().text)) failInvalidSyntax();
        p.name = Symbol::intern(next().text);
        for (const auto& q : params)
            if (q.name == p.name)
                fail("duplicate argument '" + p.name.str() + "' in function definition",
                     {p.span.begin, endOfPrevious()});
        if (std::string(closer) == ")" && acceptOp(":")) p.annotation = parseAnnotation();
        if (acceptOp("=")) {
            p.defaultValue = parseExpression();
            if (p.kind == Parameter::Kind::Positional) sawDefault = true;
        } else if (p.kind == Parameter::Kind::Positional && sawDefault) {
            fail("non-default argument follows default argument", {p.span.begin, endOfPrevious()});
        }
        p.span.end = endOfPrevious();
        params.push_back(std::move(p));
        if (params.back().kind == Parameter::Kind::VarKeywords && !atOp(closer) &&
            !(atOp(",") && peek(1).isOp(closer)))
            failInvalidSyntax();
        if (!acceptOp(",")) break;
    }
    return params;
}

StmtPtr Parser::parseClassDef(std::vector<ExprPtr> decorators) {
    SourcePos begin = peek().span.begin;
    int line = next().span.begin.line;
    if (!peek().is(TokenKind::Name) || isKeyword(peek().text)) failInvalidSyntax();
    const Token& nameToken = next();
    auto s = std::make_unique<ClassDefStmt>();
    s->decorators = std::move(decorators);
    if (acceptOp("(")) {
        bool simple = true;
        parseCallArguments(s->arguments, simple);
        expectOp(")");
    }
    auto target = std::make_unique<NameExpr>();
    target->id = Symbol::intern(nameToken.text);
    target->span = nameToken.span;
    auto code = std::make_shared<FunctionCode>();
    code->name = target->id;
    code->qualifiedName = joinQualified(m_qualifiers, nameToken.text);
    code->source = m_source;
    code->firstLine = line;
    s->span = {begin, endOfPrevious()};
    code->span = s->span;
    m_qualifiers.push_back(nameToken.text);
    FunctionCode* enclosing = std::exchange(m_function, nullptr);
    code->body = parseBlock("class definition", line);
    m_function = enclosing;
    m_qualifiers.pop_back();
    s->body = std::move(code);
    s->target = std::move(target);
    return s;
}

std::string Parser::parseDottedName() {
    if (!peek().is(TokenKind::Name)) failInvalidSyntax();
    std::string name = next().text;
    while (atOp(".") && peek(1).is(TokenKind::Name)) {
        next();
        name += "." + next().text;
    }
    return name;
}

StmtPtr Parser::parseImport() {
    SourcePos begin = next().span.begin;
    auto s = std::make_unique<ImportStmt>();
    do {
        ImportAlias alias;
        alias.span.begin = peek().span.begin;
        alias.name = parseDottedName();
        auto target = std::make_unique<NameExpr>();
        if (acceptKeyword("as")) {
            if (!peek().is(TokenKind::Name)) failInvalidSyntax();
            alias.asName = Symbol::intern(peek().text);
            target->span = next().span;
            target->id = alias.asName;
        } else {
            target->id = Symbol::intern(alias.name.substr(0, alias.name.find('.')));
            target->span = {alias.span.begin, endOfPrevious()};
        }
        alias.span.end = endOfPrevious();
        alias.target = std::move(target);
        s->names.push_back(std::move(alias));
    } while (acceptOp(","));
    finishSpan(*s, begin);
    return s;
}

StmtPtr Parser::parseImportFrom() {
    SourcePos begin = next().span.begin;
    auto s = std::make_unique<ImportFromStmt>();
    if (atOp(".") || atOp("..."))
        failAtToken("relative imports are not supported by Kiln (scripts are single files)");
    s->module = parseDottedName();
    if (!acceptKeyword("import")) failInvalidSyntax();
    if (atOp("*")) failAtToken("'from ... import *' is not supported by Kiln");
    bool paren = acceptOp("(");
    do {
        if (paren && atOp(")")) break;
        ImportAlias alias;
        if (!peek().is(TokenKind::Name)) failInvalidSyntax();
        alias.span = peek().span;
        alias.name = next().text;
        auto target = std::make_unique<NameExpr>();
        target->id = Symbol::intern(alias.name);
        target->span = alias.span;
        if (acceptKeyword("as")) {
            if (!peek().is(TokenKind::Name)) failInvalidSyntax();
            alias.asName = Symbol::intern(peek().text);
            target->id = alias.asName;
            target->span = next().span;
        }
        alias.target = std::move(target);
        s->names.push_back(std::move(alias));
    } while (acceptOp(","));
    if (paren) expectOp(")");
    finishSpan(*s, begin);
    if (s->module == "__future__")
        for (const auto& alias : s->names)
            m_futureAnnotations |= alias.name == "annotations";
    return s;
}

namespace {

/// The byte offset of 1-based character column \a column in \a line.
size_t byteOfColumn(std::string_view line, int32_t column) {
    size_t at = 0;
    for (int32_t c = 1; c < column && at < line.size(); ++c) {
        ++at;
        while (at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80)
            ++at;
    }
    return at;
}

/// The source text of \a span, its lines joined by single spaces (PEP 563's string; CPython
/// unparses the expression instead, which only differs in spacing).
std::string spanText(const SourceFile& source, SourceSpan span) {
    std::string out;
    for (int32_t l = span.begin.line; l <= span.end.line; ++l) {
        std::string_view line = source.line(l);
        size_t from = l == span.begin.line ? byteOfColumn(line, span.begin.column) : 0;
        size_t to = l == span.end.line ? byteOfColumn(line, span.end.column) : line.size();
        std::string_view piece = line.substr(from, to > from ? to - from : 0);
        while (!piece.empty() && (piece.front() == ' ' || piece.front() == '\t'))
            piece.remove_prefix(1);
        while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\\'))
            piece.remove_suffix(1);
        if (!out.empty() && !piece.empty()) out += ' ';
        out += piece;
    }
    return out;
}

} // namespace

Annotation Parser::parseAnnotation() {
    Annotation a;
    a.expr = parseExpression();
    if (m_futureAnnotations) {
        a.deferred = true;
        a.text = spanText(*m_source, a.expr->span);
    }
    return a;
}

Expected<Module> parseModule(SourceFilePtr source) {
    auto text = decodeSourceText(source->path(), source->text());
    if (!text.ok()) return text.error();
    // Tracebacks show lines of the text the lexer read (no BOM, \n line endings).
    if (text.value() != source->text())
        source = std::make_shared<SourceFile>(source->path(), std::move(text).value());
    auto tokens = tokenize(*source);
    if (!tokens.ok()) return tokens.error();
    Parser parser(source, std::move(tokens).value());
    Module module;
    module.source = source;
    try {
        module.code = parser.parseFile();
    } catch (ParseFailure& f) {
        return std::move(f.diagnostic);
    }
    Status resolved = resolveScopes(*module.code);
    if (!resolved.ok()) return resolved.error();
    return module;
}

} // namespace kiln::lang
