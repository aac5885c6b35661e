// SPDX-License-Identifier: MIT
// Expressions and expression statements of the recursive-descent parser.
#include "lang/parser_impl.h"

#include <cstring>
#include <utility>

namespace kiln::lang {

namespace {

struct BinaryLevel {
    const char* ops[4];
    BinaryOperator kinds[4];
};

// From loosest to tightest binding; the unary and power levels come after these.
const BinaryLevel kBinaryLevels[] = {
    {{"|"}, {BinaryOperator::BitOr}},
    {{"^"}, {BinaryOperator::BitXor}},
    {{"&"}, {BinaryOperator::BitAnd}},
    {{"<<", ">>"}, {BinaryOperator::LShift, BinaryOperator::RShift}},
    {{"+", "-"}, {BinaryOperator::Add, BinaryOperator::Sub}},
    {{"*", "/", "//", "%"},
     {BinaryOperator::Mul, BinaryOperator::Div, BinaryOperator::FloorDiv, BinaryOperator::Mod}},
};
constexpr int kBinaryLevelCount = sizeof(kBinaryLevels) / sizeof(kBinaryLevels[0]);

struct AugOp {
    const char* spelling;
    BinaryOperator op;
};
const AugOp kAugOps[] = {
    {"+=", BinaryOperator::Add},       {"-=", BinaryOperator::Sub},
    {"*=", BinaryOperator::Mul},       {"/=", BinaryOperator::Div},
    {"//=", BinaryOperator::FloorDiv}, {"%=", BinaryOperator::Mod},
    {"**=", BinaryOperator::Pow},      {"@=", BinaryOperator::MatMul},
    {"<<=", BinaryOperator::LShift},   {">>=", BinaryOperator::RShift},
    {"&=", BinaryOperator::BitAnd},    {"|=", BinaryOperator::BitOr},
    {"^=", BinaryOperator::BitXor},
};

bool isExpressionEnd(const Token& t) {
    if (t.is(TokenKind::Newline) || t.is(TokenKind::EndOfFile)) return true;
    if (t.kind != TokenKind::Op)
        return t.isName("for") || t.isName("in") || t.isName("if") || t.isName("else");
    static const char* enders[] = {")",   "]",  "}",   "=",  ":",   ";",   "+=", "-=", "*=", "/=",
                                   "//=", "%=", "**=", "@=", "<<=", ">>=", "&=", "|=", "^="};
    for (const char* e : enders)
        if (t.text == e) return true;
    return false;
}

const char* describeTarget(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Call:
        return "function call";
    case ExprKind::Constant:
        switch (static_cast<const ConstantExpr&>(e).type) {
        case ConstantExpr::Type::None:
            return "None";
        case ConstantExpr::Type::Ellipsis:
            return "ellipsis";
        default:
            return "literal";
        }
    case ExprKind::FString:
        return "f-string expression";
    case ExprKind::BinOp:
    case ExprKind::UnaryOp:
        return "expression";
    case ExprKind::Compare:
        return "comparison";
    case ExprKind::BoolOp:
        return "expression";
    case ExprKind::Lambda:
        return "lambda";
    case ExprKind::IfExp:
        return "conditional expression";
    case ExprKind::Dict:
        return "dict literal";
    case ExprKind::ListComp:
        return "list comprehension";
    case ExprKind::DictComp:
        return "dict comprehension";
    case ExprKind::GeneratorExp:
        return "generator expression";
    case ExprKind::NamedExpr:
        return "named expression";
    case ExprKind::Tuple:
        return "tuple";
    case ExprKind::List:
        return "list";
    case ExprKind::Starred:
        return "starred";
    default:
        return "expression";
    }
}

} // namespace

void Parser::checkAssignTarget(const Expr& e, const char* context) {
    bool deleting = std::strcmp(context, "delete") == 0;
    // CPython's compiler rejects these (its parser admits them): a starred target stands only
    // inside a tuple or list, once per level.
    if (e.kind == ExprKind::Starred)
        fail(deleting ? "cannot delete starred"
                      : "starred assignment target must be in a list or tuple",
             e.span);
    checkTargetElement(e, context);
}

void Parser::checkTargetElement(const Expr& e, const char* context) {
    switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Attribute:
    case ExprKind::Subscript:
        return;
    case ExprKind::Starred:
        if (std::strcmp(context, "delete") == 0) fail("cannot delete starred", e.span);
        checkAssignTarget(*static_cast<const StarredExpr&>(e).value, context);
        return;
    case ExprKind::Tuple:
    case ExprKind::List: {
        const Expr* starred = nullptr;
        for (const auto& el : static_cast<const SequenceExpr&>(e).elements) {
            if (el->kind == ExprKind::Starred) {
                if (starred) fail("multiple starred expressions in assignment", e.span);
                starred = el.get();
            }
            checkTargetElement(*el, context);
        }
        return;
    }
    default:
        break;
    }
    std::string what = describeTarget(e);
    if (std::strcmp(context, "delete") == 0) fail("cannot delete " + what, e.span);
    std::string msg = "cannot assign to " + what;
    if (e.kind != ExprKind::Constant || what != "None")
        msg += " here. Maybe you meant '==' instead of '='?";
    fail(msg, e.span);
}

StmtPtr Parser::parseExpressionStatement() {
    SourcePos begin = peek().span.begin;
    if (peek().is(TokenKind::Name) && peek(1).isOp(":=")) {
        next(); // an unparenthesized walrus cannot start a statement
        failInvalidSyntax();
    }
    ExprPtr first = atKeyword("yield") ? parseYield() : parseStarExpressions();
    if (atOp("=")) {
        auto s = std::make_unique<AssignStmt>();
        s->targets.push_back(std::move(first));
        while (acceptOp("=")) {
            ExprPtr value = atKeyword("yield") ? parseYield() : parseStarExpressions();
            s->targets.push_back(std::move(value));
        }
        s->value = std::move(s->targets.back());
        s->targets.pop_back();
        for (const auto& t : s->targets)
            checkAssignTarget(*t, "assign");
        finishSpan(*s, begin);
        return s;
    }
    for (const AugOp& aug : kAugOps) {
        if (!atOp(aug.spelling)) continue;
        ExprKind k = first->kind;
        if (k != ExprKind::Name && k != ExprKind::Attribute && k != ExprKind::Subscript)
            fail(std::string("'") + describeTarget(*first) +
                     "' is an illegal expression for augmented assignment",
                 first->span);
        next();
        auto s = std::make_unique<AugAssignStmt>();
        s->target = std::move(first);
        s->op = aug.op;
        s->value = atKeyword("yield") ? parseYield() : parseStarExpressions();
        finishSpan(*s, begin);
        return s;
    }
    if (atOp(":")) {
        ExprKind k = first->kind;
        if (k != ExprKind::Name && k != ExprKind::Attribute && k != ExprKind::Subscript)
            fail("only single target (not tuple) can be annotated", first->span);
        next();
        auto s = std::make_unique<AnnAssignStmt>();
        s->simple = k == ExprKind::Name && first->span.begin.column == begin.column &&
                    first->span.begin.line == begin.line; // `(x): int` is not simple
        s->target = std::move(first);
        s->annotation = parseAnnotation();
        if (acceptOp("=")) s->value = atKeyword("yield") ? parseYield() : parseStarExpressions();
        finishSpan(*s, begin);
        return s;
    }
    auto s = std::make_unique<ExprStmt>();
    s->value = std::move(first);
    finishSpan(*s, begin);
    return s;
}

ExprPtr Parser::parseStarTarget() {
    SourcePos begin = peek().span.begin;
    if (acceptOp("*")) {
        auto s = std::make_unique<StarredExpr>();
        s->value = parseBinary(0);
        finishSpan(*s, begin);
        return s;
    }
    return parseBinary(0);
}

ExprPtr Parser::parseTargetList() {
    SourcePos begin = peek().span.begin;
    ExprPtr first = parseStarTarget();
    if (!atOp(",")) {
        checkAssignTarget(*first, "assign");
        return first;
    }
    auto tuple = std::make_unique<SequenceExpr>(ExprKind::Tuple);
    tuple->hasStarred = first->kind == ExprKind::Starred;
    tuple->elements.push_back(std::move(first));
    while (acceptOp(",") && !atKeyword("in") && !atOp("=")) {
        tuple->elements.push_back(parseStarTarget());
        tuple->hasStarred |= tuple->elements.back()->kind == ExprKind::Starred;
    }
    finishSpan(*tuple, begin);
    checkAssignTarget(*tuple, "assign");
    return tuple;
}

ExprPtr Parser::parseStarExpressions() {
    SourcePos begin = peek().span.begin;
    auto parseItem = [&]() -> ExprPtr {
        if (atOp("*")) {
            SourcePos b = next().span.begin;
            auto s = std::make_unique<StarredExpr>();
            s->value = parseBinary(0);
            finishSpan(*s, b);
            return s;
        }
        return parseNamedExpression();
    };
    ExprPtr first = parseItem();
    if (!atOp(",")) return first;
    auto tuple = std::make_unique<SequenceExpr>(ExprKind::Tuple);
    tuple->hasStarred = first->kind == ExprKind::Starred;
    tuple->elements.push_back(std::move(first));
    while (acceptOp(",")) {
        if (isExpressionEnd(peek())) break;
        tuple->elements.push_back(parseItem());
        tuple->hasStarred |= tuple->elements.back()->kind == ExprKind::Starred;
    }
    finishSpan(*tuple, begin);
    return tuple;
}

ExprPtr Parser::parseNamedExpression() {
    if (peek().is(TokenKind::Name) && peek(1).isOp(":=")) {
        SourcePos begin = peek().span.begin;
        auto target = std::make_unique<NameExpr>();
        target->id = Symbol::intern(peek().text);
        target->span = next().span;
        next();
        auto e = std::make_unique<NamedExpr>();
        e->target = std::move(target);
        e->value = parseExpression();
        finishSpan(*e, begin);
        return e;
    }
    return parseExpression();
}

ExprPtr Parser::parseExpression() {
    if (atKeyword("lambda")) return parseLambda();
    SourcePos begin = peek().span.begin;
    ExprPtr body = parseOr();
    if (!atKeyword("if")) return body;
    next();
    auto e = std::make_unique<IfExpExpr>();
    e->body = std::move(body);
    e->test = parseOr();
    if (!acceptKeyword("else"))
        fail("expected 'else' after 'if' expression", {begin, endOfPrevious()});
    enterNesting();
    e->orelse = parseExpression();
    leaveNesting();
    finishSpan(*e, begin);
    return e;
}

ExprPtr Parser::parseYield() {
    const Token& keyword = next();
    if (!m_function) fail("'yield' outside function", keyword.span);
    m_function->isGenerator = true;
    auto e = std::make_unique<YieldExpr>();
    if (acceptKeyword("from")) {
        e->from = true;
        e->value = parseExpression();
    } else if (!isExpressionEnd(peek()) && !atOp("=")) {
        e->value = parseStarExpressions();
    }
    finishSpan(*e, keyword.span.begin);
    return e;
}

ExprPtr Parser::parseLambda() {
    SourcePos begin = next().span.begin;
    auto code = std::make_shared<FunctionCode>();
    code->name = Symbol::intern("<lambda>");
    code->qualifiedName = joinQualified(m_qualifiers, "<lambda>");
    code->source = m_source;
    code->firstLine = begin.line;
    code->isLambda = true;
    code->params = parseParameters(":");
    expectOp(":");
    auto ret = std::make_unique<ReturnStmt>();
    SourcePos bodyBegin = peek().span.begin;
    enterNesting();
    FunctionCode* enclosing = std::exchange(m_function, code.get());
    ret->value = parseExpression();
    m_function = enclosing;
    leaveNesting();
    finishSpan(*ret, bodyBegin);
    code->body.push_back(std::move(ret));
    auto e = std::make_unique<LambdaExpr>();
    finishSpan(*e, begin);
    code->span = e->span;
    e->code = std::move(code);
    return e;
}

ExprPtr Parser::parseOr() {
    SourcePos begin = peek().span.begin;
    ExprPtr first = parseAnd();
    if (!atKeyword("or")) return first;
    auto e = std::make_unique<BoolOpExpr>();
    e->isAnd = false;
    e->values.push_back(std::move(first));
    while (acceptKeyword("or"))
        e->values.push_back(parseAnd());
    finishSpan(*e, begin);
    return e;
}

ExprPtr Parser::parseAnd() {
    SourcePos begin = peek().span.begin;
    ExprPtr first = parseNot();
    if (!atKeyword("and")) return first;
    auto e = std::make_unique<BoolOpExpr>();
    e->isAnd = true;
    e->values.push_back(std::move(first));
    while (acceptKeyword("and"))
        e->values.push_back(parseNot());
    finishSpan(*e, begin);
    return e;
}

ExprPtr Parser::parseNot() {
    if (!atKeyword("not")) return parseComparison();
    SourcePos begin = next().span.begin;
    enterNesting();
    auto e = std::make_unique<UnaryOpExpr>();
    e->op = UnaryOperator::Not;
    e->operand = parseNot();
    leaveNesting();
    finishSpan(*e, begin);
    return e;
}

ExprPtr Parser::parseComparison() {
    SourcePos begin = peek().span.begin;
    ExprPtr left = parseBinary(0);
    std::unique_ptr<CompareExpr> cmp;
    while (true) {
        CompareOperator op;
        const Token& t = peek();
        if (t.isOp("=="))
            op = CompareOperator::Eq;
        else if (t.isOp("!="))
            op = CompareOperator::NotEq;
        else if (t.isOp("<"))
            op = CompareOperator::Lt;
        else if (t.isOp("<="))
            op = CompareOperator::LtE;
        else if (t.isOp(">"))
            op = CompareOperator::Gt;
        else if (t.isOp(">="))
            op = CompareOperator::GtE;
        else if (t.isName("in"))
            op = CompareOperator::In;
        else if (t.isName("not") && peek(1).isName("in")) {
            next();
            op = CompareOperator::NotIn;
        } else if (t.isName("is")) {
            op = peek(1).isName("not") ? (next(), CompareOperator::IsNot) : CompareOperator::Is;
        } else
            break;
        next();
        if (!cmp) {
            cmp = std::make_unique<CompareExpr>();
            cmp->left = std::move(left);
        }
        cmp->ops.push_back(op);
        cmp->comparators.push_back(parseBinary(0));
    }
    if (!cmp) return left;
    finishSpan(*cmp, begin);
    return cmp;
}

ExprPtr Parser::parseBinary(int level) {
    if (level == kBinaryLevelCount) return parseUnary();
    SourcePos begin = peek().span.begin;
    ExprPtr left = parseBinary(level + 1);
    const BinaryLevel& L = kBinaryLevels[level];
    for (int chain = 1;; ++chain) {
        int found = -1;
        for (int i = 0; i < 4 && L.ops[i]; ++i)
            if (atOp(L.ops[i])) found = i;
        // '@' shares the multiplicative level.
        bool matmul = level == kBinaryLevelCount - 1 && atOp("@");
        if (found < 0 && !matmul) break;
        noteChain(chain); // each operator nests the tree one level deeper
        SourceSpan opSpan = next().span;
        auto e = std::make_unique<BinOpExpr>();
        e->op = matmul ? BinaryOperator::MatMul : L.kinds[found];
        e->opSpan = opSpan;
        e->left = std::move(left);
        e->right = parseBinary(level + 1);
        finishSpan(*e, begin);
        left = std::move(e);
    }
    return left;
}

ExprPtr Parser::parseUnary() {
    SourcePos begin = peek().span.begin;
    UnaryOperator op;
    if (atOp("-"))
        op = UnaryOperator::Neg;
    else if (atOp("+"))
        op = UnaryOperator::Pos;
    else if (atOp("~"))
        op = UnaryOperator::Invert;
    else
        return parsePower();
    next();
    enterNesting();
    auto e = std::make_unique<UnaryOpExpr>();
    e->op = op;
    e->operand = parseUnary();
    leaveNesting();
    finishSpan(*e, begin);
    return e;
}

ExprPtr Parser::parsePower() {
    SourcePos begin = peek().span.begin;
    ExprPtr base = parsePrimary();
    if (!atOp("**")) return base;
    SourceSpan opSpan = next().span;
    auto e = std::make_unique<BinOpExpr>();
    e->op = BinaryOperator::Pow;
    e->opSpan = opSpan;
    e->left = std::move(base);
    enterNesting();
    e->right = parseUnary(); // right-associative, and -x binds looser on the right: 2**-1
    leaveNesting();
    finishSpan(*e, begin);
    return e;
}

ExprPtr Parser::parsePrimary() {
    SourcePos begin = peek().span.begin;
    ExprPtr e = parseAtom();
    int trailers = 0;
    while (true) {
        if (atOp(".")) {
            next();
            if (!peek().is(TokenKind::Name)) failInvalidSyntax();
            auto a = std::make_unique<AttributeExpr>();
            a->value = std::move(e);
            a->attr = Symbol::intern(next().text);
            finishSpan(*a, begin);
            e = std::move(a);
        } else if (atOp("(")) {
            next();
            enterNesting();
            auto c = std::make_unique<CallExpr>();
            c->func = std::move(e);
            parseCallArguments(c->args, c->simple);
            expectOp(")");
            leaveNesting();
            finishSpan(*c, begin);
            e = std::move(c);
        } else if (atOp("[")) {
            next();
            enterNesting();
            auto s = std::make_unique<SubscriptExpr>();
            s->value = std::move(e);
            s->index = parseSubscriptIndex();
            expectOp("]");
            leaveNesting();
            finishSpan(*s, begin);
            e = std::move(s);
        } else {
            break;
        }
        noteChain(++trailers); // each trailer nests the tree one level deeper
    }
    return e;
}

void Parser::parseCallArguments(std::vector<Argument>& args, bool& simple) {
    bool sawKeyword = false;
    while (!atOp(")")) {
        Argument arg;
        SourcePos begin = peek().span.begin;
        if (acceptOp("**")) {
            arg.kind = Argument::Kind::DoubleStar;
            arg.value = parseExpression();
            sawKeyword = true;
            simple = false;
        } else if (acceptOp("*")) {
            arg.kind = Argument::Kind::Star;
            arg.value = parseExpression();
            simple = false;
        } else if (peek().is(TokenKind::Name) && peek(1).isOp("=")) {
            arg.kind = Argument::Kind::Keyword;
            arg.name = Symbol::intern(next().text);
            next();
            arg.value = parseExpression();
            for (const auto& other : args)
                if (other.kind == Argument::Kind::Keyword && other.name == arg.name)
                    fail("keyword argument repeated: " + arg.name.str(), {begin, endOfPrevious()});
            sawKeyword = true;
        } else {
            ExprPtr value = parseNamedExpression();
            if (atKeyword("for")) {
                value =
                    parseComprehension(ExprKind::GeneratorExp, std::move(value), nullptr, begin);
                if (!args.empty() || !atOp(")"))
                    fail("Generator expression must be parenthesized", value->span);
            }
            if (sawKeyword)
                fail(args.back().kind == Argument::Kind::DoubleStar
                         ? "positional argument follows keyword argument unpacking"
                         : "positional argument follows keyword argument",
                     value->span);
            arg.value = std::move(value);
        }
        args.push_back(std::move(arg));
        if (!acceptOp(",")) break;
    }
}

ExprPtr Parser::parseSliceItem() {
    SourcePos begin = peek().span.begin;
    ExprPtr lower;
    if (!atOp(":")) {
        if (atOp("*")) {
            next();
            auto s = std::make_unique<StarredExpr>();
            s->value = parseBinary(0);
            finishSpan(*s, begin);
            return s;
        }
        lower = parseNamedExpression();
        if (!atOp(":")) return lower;
    }
    auto slice = std::make_unique<SliceExpr>();
    slice->lower = std::move(lower);
    next(); // ':'
    if (!atOp(":") && !atOp("]") && !atOp(",")) slice->upper = parseExpression();
    if (acceptOp(":") && !atOp("]") && !atOp(",")) slice->step = parseExpression();
    finishSpan(*slice, begin);
    return slice;
}

ExprPtr Parser::parseSubscriptIndex() {
    SourcePos begin = peek().span.begin;
    ExprPtr first = parseSliceItem();
    if (!atOp(",")) return first;
    auto tuple = std::make_unique<SequenceExpr>(ExprKind::Tuple);
    tuple->hasStarred = first->kind == ExprKind::Starred;
    tuple->elements.push_back(std::move(first));
    while (acceptOp(",") && !atOp("]")) {
        tuple->elements.push_back(parseSliceItem());
        tuple->hasStarred |= tuple->elements.back()->kind == ExprKind::Starred;
    }
    finishSpan(*tuple, begin);
    return tuple;
}

ExprPtr Parser::parseStandaloneExpression() {
    ExprPtr e = parseStarExpressions();
    if (!peek().is(TokenKind::Newline) && !peek().is(TokenKind::EndOfFile)) failInvalidSyntax();
    return e;
}

} // namespace kiln::lang
