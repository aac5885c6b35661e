// SPDX-License-Identifier: MIT
// Atoms of the recursive-descent parser: names, literals, displays and comprehensions.
#include "lang/parser_impl.h"

namespace kiln::lang {

namespace {

std::unique_ptr<ConstantExpr> makeConstant(ConstantExpr::Type type, SourceSpan span) {
    auto c = std::make_unique<ConstantExpr>();
    c->type = type;
    c->span = span;
    return c;
}

} // namespace

ExprPtr Parser::parseAtom() {
    const Token& t = peek();
    switch (t.kind) {
    case TokenKind::Int: {
        auto c = makeConstant(ConstantExpr::Type::Int, t.span);
        c->intValue = next().intValue;
        return c;
    }
    case TokenKind::Float: {
        auto c = makeConstant(ConstantExpr::Type::Float, t.span);
        c->floatValue = next().floatValue;
        return c;
    }
    case TokenKind::String:
    case TokenKind::FString:
        return parseStrings();
    case TokenKind::Name: {
        if (t.text == "None" || t.text == "True" || t.text == "False") {
            auto c = makeConstant(
                t.text == "None" ? ConstantExpr::Type::None : ConstantExpr::Type::Bool, t.span);
            c->boolValue = t.text == "True";
            next();
            return c;
        }
        if (isKeyword(t.text)) failInvalidSyntax();
        auto n = std::make_unique<NameExpr>();
        n->id = Symbol::intern(t.text);
        n->span = next().span;
        return n;
    }
    case TokenKind::Op:
        if (t.text == "(") return parseParenthesized();
        if (t.text == "[") return parseListDisplay();
        if (t.text == "{") return parseBraceDisplay();
        if (t.text == "...") {
            auto c = makeConstant(ConstantExpr::Type::Ellipsis, t.span);
            next();
            return c;
        }
        break;
    case TokenKind::Newline:
    case TokenKind::EndOfFile:
        fail("invalid syntax", t.span);
    default:
        break;
    }
    failInvalidSyntax();
}

ExprPtr Parser::parseParenthesized() {
    SourcePos begin = next().span.begin;
    enterNesting();
    if (acceptOp(")")) {
        leaveNesting();
        auto empty = std::make_unique<SequenceExpr>(ExprKind::Tuple);
        finishSpan(*empty, begin);
        return empty;
    }
    if (atKeyword("yield")) { // `(yield x)`: a yield inside a larger expression
        ExprPtr yield = parseYield();
        leaveNesting();
        expectOp(")");
        return yield;
    }
    ExprPtr first;
    if (atOp("*")) {
        SourcePos b = next().span.begin;
        auto s = std::make_unique<StarredExpr>();
        s->value = parseBinary(0);
        finishSpan(*s, b);
        first = std::move(s);
    } else {
        first = parseNamedExpression();
    }
    if (atKeyword("for")) {
        ExprPtr gen = parseComprehension(ExprKind::GeneratorExp, std::move(first), nullptr, begin);
        expectOp(")");
        leaveNesting();
        finishSpan(*gen, begin);
        return gen;
    }
    if (acceptOp(")")) {
        leaveNesting();
        if (first->kind == ExprKind::Starred)
            fail("cannot use starred expression here", first->span);
        return first;
    }
    auto tuple = std::make_unique<SequenceExpr>(ExprKind::Tuple);
    tuple->hasStarred = first->kind == ExprKind::Starred;
    tuple->elements.push_back(std::move(first));
    while (acceptOp(",")) {
        if (atOp(")")) break;
        if (atOp("*")) {
            SourcePos b = next().span.begin;
            auto s = std::make_unique<StarredExpr>();
            s->value = parseBinary(0);
            finishSpan(*s, b);
            tuple->elements.push_back(std::move(s));
            tuple->hasStarred = true;
        } else {
            tuple->elements.push_back(parseNamedExpression());
        }
    }
    expectOp(")", "'(' was never closed");
    leaveNesting();
    finishSpan(*tuple, begin);
    return tuple;
}

ExprPtr Parser::parseListDisplay() {
    SourcePos begin = next().span.begin;
    enterNesting();
    auto list = std::make_unique<SequenceExpr>(ExprKind::List);
    while (!atOp("]")) {
        ExprPtr item;
        if (atOp("*")) {
            SourcePos b = next().span.begin;
            auto s = std::make_unique<StarredExpr>();
            s->value = parseBinary(0);
            finishSpan(*s, b);
            item = std::move(s);
            list->hasStarred = true;
        } else {
            item = parseNamedExpression();
        }
        if (list->elements.empty() && atKeyword("for")) {
            ExprPtr comp = parseComprehension(ExprKind::ListComp, std::move(item), nullptr, begin);
            expectOp("]");
            leaveNesting();
            finishSpan(*comp, begin);
            return comp;
        }
        list->elements.push_back(std::move(item));
        if (!acceptOp(",")) break;
    }
    expectOp("]");
    leaveNesting();
    finishSpan(*list, begin);
    return list;
}

ExprPtr Parser::parseBraceDisplay() {
    SourcePos begin = next().span.begin;
    enterNesting();
    auto dict = std::make_unique<DictExpr>();
    while (!atOp("}")) {
        if (acceptOp("**")) {
            dict->keys.push_back(nullptr);
            dict->values.push_back(parseBinary(0));
        } else {
            ExprPtr key = atOp("*") ? parseStarredItem() : parseNamedExpression();
            if (dict->keys.empty() && !atOp(":")) return parseSetRest(std::move(key), begin);
            if (key->kind == ExprKind::Starred || key->kind == ExprKind::NamedExpr)
                fail("invalid syntax", key->span);
            expectOp(":");
            ExprPtr value = parseExpression();
            if (dict->keys.empty() && atKeyword("for")) {
                ExprPtr comp =
                    parseComprehension(ExprKind::DictComp, std::move(key), std::move(value), begin);
                expectOp("}");
                leaveNesting();
                finishSpan(*comp, begin);
                return comp;
            }
            dict->keys.push_back(std::move(key));
            dict->values.push_back(std::move(value));
        }
        if (!acceptOp(",")) break;
    }
    expectOp("}");
    leaveNesting();
    finishSpan(*dict, begin);
    return dict;
}

/// `*expr` in a display.
ExprPtr Parser::parseStarredItem() {
    SourcePos b = next().span.begin;
    auto s = std::make_unique<StarredExpr>();
    s->value = parseBinary(0);
    finishSpan(*s, b);
    return s;
}

/// `{a, b, *c}` or `{x for ...}` after its first element.
ExprPtr Parser::parseSetRest(ExprPtr first, SourcePos begin) {
    if (atKeyword("for")) {
        if (first->kind == ExprKind::Starred)
            fail("iterable unpacking cannot be used in comprehension", first->span);
        ExprPtr comp = parseComprehension(ExprKind::SetComp, std::move(first), nullptr, begin);
        expectOp("}");
        leaveNesting();
        finishSpan(*comp, begin);
        return comp;
    }
    auto set = std::make_unique<SequenceExpr>(ExprKind::Set);
    set->elements.push_back(std::move(first));
    while (acceptOp(",") && !atOp("}"))
        set->elements.push_back(atOp("*") ? parseStarredItem() : parseNamedExpression());
    for (const ExprPtr& e : set->elements)
        set->hasStarred = set->hasStarred || e->kind == ExprKind::Starred;
    expectOp("}");
    leaveNesting();
    finishSpan(*set, begin);
    return set;
}

ExprPtr Parser::parseComprehension(ExprKind kind, ExprPtr element, ExprPtr value, SourcePos begin) {
    auto comp = std::make_unique<ComprehensionExpr>(kind);
    comp->element = std::move(element);
    comp->value = std::move(value);
    while (atKeyword("for")) {
        next();
        if (atKeyword("async"))
            failAtToken("asynchronous comprehensions are not supported by Kiln");
        Comprehension gen;
        gen.target = parseTargetList();
        if (!acceptKeyword("in")) failInvalidSyntax();
        gen.iter = parseOr();
        while (atKeyword("if")) {
            next();
            gen.ifs.push_back(parseOr());
        }
        comp->generators.push_back(std::move(gen));
    }
    auto code = std::make_shared<FunctionCode>();
    static const char* names[] = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"};
    const char* name = kind == ExprKind::ListComp   ? names[0]
                       : kind == ExprKind::DictComp ? names[1]
                       : kind == ExprKind::SetComp  ? names[2]
                                                    : names[3];
    code->name = Symbol::intern(name);
    code->qualifiedName = joinQualified(m_qualifiers, name);
    code->source = m_source;
    code->firstLine = begin.line;
    comp->code = std::move(code);
    finishSpan(*comp, begin);
    comp->code->span = comp->span;
    return comp;
}

ExprPtr Parser::parseStrings() {
    SourcePos begin = peek().span.begin;
    bool anyFormatted = false;
    for (size_t i = 0; peek(i).is(TokenKind::String) || peek(i).is(TokenKind::FString); ++i)
        anyFormatted |= peek(i).is(TokenKind::FString);
    if (!anyFormatted) {
        auto c = std::make_unique<ConstantExpr>();
        c->type = ConstantExpr::Type::Str;
        while (peek().is(TokenKind::String))
            c->strValue += next().text;
        finishSpan(*c, begin);
        return c;
    }
    auto joined = std::make_unique<FStringExpr>();
    while (peek().is(TokenKind::String) || peek().is(TokenKind::FString)) {
        const Token& t = next();
        if (t.is(TokenKind::String)) {
            FStringExpr::Part part;
            part.literal = t.text;
            joined->parts.push_back(std::move(part));
            continue;
        }
        auto inner = parseFStringBody(t, t.text, t.bodyStart, 0);
        for (auto& part : inner->parts)
            joined->parts.push_back(std::move(part));
    }
    finishSpan(*joined, begin);
    return joined;
}

} // namespace kiln::lang
