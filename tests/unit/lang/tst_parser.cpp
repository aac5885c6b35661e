// SPDX-License-Identifier: MIT
// The parser and the scope resolver: constructs Kiln does not support fail at parse time with a
// SyntaxError that names the construct and points at it (CPython would accept these scripts,
// so they cannot be golden tests); node spans; where names resolve (local, cell, free, global).
#include "lang/parser.h"
#include "lang/scope.h"

namespace {

// Qt defines `slots` as a keyword macro; read Scope::slots before <QtTest> is included.
const std::vector<kiln::lang::Symbol>& slotNames(const kiln::lang::Scope& scope) {
    return scope.slots;
}

} // namespace

#include <QtTest>

using namespace kiln;
using namespace kiln::lang;

namespace {

Expected<Module> parse(const std::string& text) {
    return parseModule(std::make_shared<SourceFile>("script.py", text));
}

Module parseOk(const std::string& text) {
    Expected<Module> m = parse(text);
    if (!m.ok()) qFatal("unexpected parse failure: %s", m.error().render().c_str());
    return std::move(m.value());
}

/// The script is a SyntaxError whose message contains `message`.
void parseFails(const std::string& text, const std::string& message) {
    Expected<Module> m = parse(text);
    if (m.ok()) qFatal("expected a parse failure: %s", text.c_str());
    if (m.error().message.find(message) == std::string::npos)
        qFatal("parse failure '%s' lacks '%s'", m.error().message.c_str(), message.c_str());
}

const FunctionDefStmt& functionAt(const Block& block, size_t index) {
    const Stmt& s = *block.at(index);
    if (s.kind != StmtKind::FunctionDef) qFatal("statement %zu is not a def", index);
    return static_cast<const FunctionDefStmt&>(s);
}

const Expr& returnedExpr(const FunctionCode& code, size_t index) {
    const Stmt& s = *code.body.at(index);
    if (s.kind != StmtKind::Return) qFatal("statement %zu is not a return", index);
    return *static_cast<const ReturnStmt&>(s).value;
}

const NameExpr& asName(const Expr& e) {
    if (e.kind != ExprKind::Name) qFatal("expression is not a name");
    return static_cast<const NameExpr&>(e);
}

} // namespace

class ParserTest : public QObject {
    Q_OBJECT

private slots:
    void unsupportedConstruct_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expectedWords");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("async def") << "async def f():\n    pass\n"
                                   << "'async'" << 1 << 1;
        QTest::newRow("await") << "def f(x):\n    return await x\n"
                               << "'await'" << 2 << 12;
        QTest::newRow("async for") << "def f(x):\n    async for i in x:\n        pass\n"
                                   << "'async'" << 2 << 5;
        QTest::newRow("match") << "x = 1\nmatch x:\n    case 1:\n        pass\n"
                               << "'match' statement" << 2 << 1;
        QTest::newRow("bytes literal") << "x = 1\ndata = b'abc'\n"
                                       << "bytes literals" << 2 << 8;
        QTest::newRow("complex literal") << "z = 1 + 2j\n"
                                         << "complex number literals" << 1 << 9;
        QTest::newRow("relative import") << "from . import helpers\n"
                                         << "relative imports" << 1 << 6;
        QTest::newRow("star import") << "from math import *\n"
                                     << "'from ... import *'" << 1 << 18;
        QTest::newRow("named unicode escape") << "s = '\\N{BULLET}'\n"
                                              << "\\N{...} escapes" << 1 << 5;
        QTest::newRow("except star") << "try:\n    pass\nexcept* ValueError:\n    pass\n"
                                     << "'except*'" << 3 << 7;
    }

    void yieldMakesItsFunctionAGenerator() {
        Module m = parseOk("def g(z):\n"
                           "    x = yield 1\n"
                           "    yield\n"
                           "    y = (yield from z)\n"
                           "    w = yield x, y\n"
                           "def h():\n"
                           "    f = lambda: (yield)\n"
                           "    return [i for i in range(3)]\n");
        const FunctionCode& g = *functionAt(m.code->body, 0).code;
        QVERIFY(g.isGenerator);
        QVERIFY(!functionAt(m.code->body, 1).code->isGenerator); // the lambda is, h is not
        const auto& assign = static_cast<const AssignStmt&>(*g.body[0]);
        QCOMPARE(assign.value->kind, ExprKind::Yield);
        const auto& from =
            static_cast<const YieldExpr&>(*static_cast<const AssignStmt&>(*g.body[2]).value);
        QVERIFY(from.from);
        const auto& bare =
            static_cast<const YieldExpr&>(*static_cast<const ExprStmt&>(*g.body[1]).value);
        QVERIFY(!bare.value);
        for (const char* outside : {"yield 1\n", "class A:\n    yield 1\n"}) {
            Expected<Module> bad = parse(outside);
            QVERIFY(!bad.ok());
            QCOMPARE(QString::fromStdString(bad.error().message),
                     QString("'yield' outside function"));
        }
    }

    void unsupportedConstruct() {
        QFETCH(QString, source);
        QFETCH(QString, expectedWords);
        QFETCH(int, line);
        QFETCH(int, column);
        Expected<Module> m = parse(source.toStdString());
        QVERIFY2(!m.ok(), "the parser accepted an unsupported construct");
        const Diagnostic& d = m.error();
        QCOMPARE(QString::fromStdString(d.kind), QString("SyntaxError"));
        QVERIFY2(QString::fromStdString(d.message).contains(expectedWords), d.message.c_str());
        QVERIFY2(QString::fromStdString(d.message).contains("not supported by Kiln"),
                 d.message.c_str());
        QCOMPARE(d.file, std::string("script.py"));
        QCOMPARE(d.span.begin.line, line);
        QCOMPARE(d.span.begin.column, column);
    }

    void syntaxErrorsAsCPython_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("break outside loop") << "if True:\n    break\n"
                                            << "SyntaxError"
                                            << "'break' outside loop" << 2;
        QTest::newRow("continue in def in loop")
            << "for i in range(3):\n    def f():\n        continue\n"
            << "SyntaxError"
            << "'continue' not properly in loop" << 3;
        QTest::newRow("return outside function") << "return 1\n"
                                                 << "SyntaxError"
                                                 << "'return' outside function" << 1;
        QTest::newRow("nonlocal without binding") << "def f():\n    nonlocal q\n"
                                                  << "SyntaxError"
                                                  << "no binding for nonlocal 'q' found" << 2;
        QTest::newRow("unexpected indent") << "x = 1\n  y = 2\n"
                                           << "IndentationError"
                                           << "unexpected indent" << 2;
    }

    void syntaxErrorsAsCPython() {
        QFETCH(QString, source);
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QFETCH(int, line);
        Expected<Module> m = parse(source.toStdString());
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.error().kind), kind);
        QCOMPARE(QString::fromStdString(m.error().message), message);
        QCOMPARE(m.error().span.begin.line, line);
    }

    void pathologicalNestingIsACleanError() {
        // Deep trees would make evaluation recurse arbitrarily deep: they are refused up front,
        // with CPython 3.11's errors at its limits.
        auto expectNoPosition = [](const Expected<Module>& m, const char* kind,
                                   const char* message) {
            QVERIFY(!m.ok());
            QCOMPARE(QString::fromStdString(m.error().kind), QString(kind));
            QCOMPARE(QString::fromStdString(m.error().message), QString(message));
            QVERIFY(!m.error().span.known()); // CPython prints no File line for these
        };
        const char* compileRecursion = "maximum recursion depth exceeded during compilation";
        std::string chain = "x = 1";
        for (int i = 0; i < 100001; ++i)
            chain += "+1";
        expectNoPosition(parse(chain + "\n"), "RecursionError", compileRecursion);
        // Prefix operators: the parser's stack gives out first (MemoryError, no message), a
        // shallower tree is still refused by the compiler's limit, 2998 levels are fine.
        expectNoPosition(parse("print(" + std::string(100000, '-') + "1)\n"), "MemoryError", "");
        expectNoPosition(parse("x = " + std::string(5968, '~') + "1\n"), "MemoryError", "");
        expectNoPosition(parse("x = " + std::string(5967, '-') + "1\n"), "RecursionError",
                         compileRecursion);
        expectNoPosition(parse("x = " + std::string(2999, '-') + "1\n"), "RecursionError",
                         compileRecursion);
        parseOk("x = " + std::string(2998, '-') + "1\n");
        std::string attributes = "x = a";
        for (int i = 0; i < 3000; ++i)
            attributes += ".b";
        expectNoPosition(parse(attributes + "\n"), "RecursionError", compileRecursion);
        // Brackets: CPython's tokenizer allows 200 levels.
        parseOk("x = " + std::string(200, '(') + "1" + std::string(200, ')') + "\n");
        std::string parens = "x = " + std::string(201, '[') + "1" + std::string(201, ']') + "\n";
        Expected<Module> m = parse(parens);
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.error().message), QString("too many nested parentheses"));
        QCOMPARE(m.error().span.begin.column, 205);
        std::string blocks;
        for (int i = 0; i < 120; ++i)
            blocks += std::string(i, ' ') + "if True:\n";
        m = parse(blocks + std::string(120, ' ') + "pass\n");
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.error().kind), QString("IndentationError"));
        QCOMPARE(QString::fromStdString(m.error().message),
                 QString("too many levels of indentation"));
    }

    void loopControlInsideLoopsIsAccepted() {
        parseOk("for i in range(3):\n    try:\n        continue\n    finally:\n        break\n"
                "while True:\n    if 1:\n        break\n");
    }

    void spans() {
        Module m = parseOk("x = 1\n"
                           "def f(a, b):\n"
                           "    return a  +  b[0]\n");
        const Stmt& assign = *m.code->body.at(0);
        QCOMPARE(assign.span.begin.line, 1);
        QCOMPARE(assign.span.begin.column, 1);
        QCOMPARE(assign.span.end.column, 6);
        const FunctionDefStmt& def = functionAt(m.code->body, 1);
        QCOMPARE(def.span.begin.line, 2);
        QCOMPARE(def.code->qualifiedName, std::string("f"));
        QCOMPARE(def.code->params.size(), size_t(2));
        QCOMPARE(def.code->params[1].span.begin.column, 10);
        const Expr& sum = returnedExpr(*def.code, 0);
        QCOMPARE(sum.kind, ExprKind::BinOp);
        QCOMPARE(sum.span.begin.line, 3);
        QCOMPARE(sum.span.begin.column, 12);
        QCOMPARE(sum.span.end.column, 22);
        const auto& bin = static_cast<const BinOpExpr&>(sum);
        QCOMPARE(bin.opSpan.begin.column, 15);
        QCOMPARE(bin.right->kind, ExprKind::Subscript);
        QCOMPARE(bin.right->span.begin.column, 18);
    }

    void qualifiedNames() {
        Module m = parseOk("class A:\n"
                           "    def m(self):\n"
                           "        def inner():\n"
                           "            return lambda: 0\n"
                           "        return inner\n");
        const auto& cls = static_cast<const ClassDefStmt&>(*m.code->body.at(0));
        QCOMPARE(cls.body->qualifiedName, std::string("A"));
        const FunctionDefStmt& method = functionAt(cls.body->body, 0);
        QCOMPARE(method.code->qualifiedName, std::string("A.m"));
        const FunctionDefStmt& inner = functionAt(method.code->body, 0);
        QCOMPARE(inner.code->qualifiedName, std::string("A.m.<locals>.inner"));
    }

    void scopeResolution() {
        Module m = parseOk("g = 0\n"
                           "def outer(p):\n"
                           "    local = 1\n"
                           "    shared = 2\n"
                           "    def inner():\n"
                           "        global g\n"
                           "        g = shared\n"
                           "        return len\n"
                           "    return p, local, shared\n");
        QCOMPARE(m.code->scope->kind, ScopeKind::Module);
        const FunctionDefStmt& outer = functionAt(m.code->body, 1);
        const Scope& scope = *outer.code->scope;
        QCOMPARE(scope.kind, ScopeKind::Function);
        // Parameters come first, then the other bound names in order.
        QCOMPARE(slotNames(scope).size(), size_t(4));
        QCOMPARE(slotNames(scope)[0].str(), std::string("p"));
        QCOMPARE(scope.slotOf(Symbol::intern("shared")), 2);
        QVERIFY(scope.isCellSlot(2));
        QVERIFY(!scope.isCellSlot(1));

        const auto& tuple = static_cast<const SequenceExpr&>(returnedExpr(*outer.code, 3));
        QCOMPARE(asName(*tuple.elements[0]).scope, NameScope::Local);
        QCOMPARE(asName(*tuple.elements[0]).slot, 0);
        QCOMPARE(asName(*tuple.elements[1]).scope, NameScope::Local);
        QCOMPARE(asName(*tuple.elements[2]).scope, NameScope::Cell);
        QCOMPARE(asName(*tuple.elements[2]).slot, 2);

        const FunctionDefStmt& inner = functionAt(outer.code->body, 2);
        const Scope& innerScope = *inner.code->scope;
        QCOMPARE(innerScope.freeNames.size(), size_t(1));
        QCOMPARE(innerScope.freeNames[0].str(), std::string("shared"));
        QVERIFY(innerScope.freeSources[0].fromCellSlot);
        QCOMPARE(innerScope.freeSources[0].index, 2);
        const auto& assign = static_cast<const AssignStmt&>(*inner.code->body.at(1));
        QCOMPARE(asName(*assign.targets[0]).scope, NameScope::Global);
        QCOMPARE(asName(*assign.value).scope, NameScope::Free);
        QCOMPARE(asName(*assign.value).slot, 0);
        // Unbound names are looked up in globals, then builtins.
        QCOMPARE(asName(returnedExpr(*inner.code, 2)).scope, NameScope::Global);
    }

    void classArgumentsAreCallArguments() {
        // Bases and keywords parse as a call's arguments; their names resolve in the enclosing
        // scope, not the class body's.
        Module m = parseOk("def f(meta, extra):\n"
                           "    class A(object, *more, metaclass=meta, key=1, **extra):\n"
                           "        pass\n"
                           "    return A\n");
        const FunctionDefStmt& def = functionAt(m.code->body, 0);
        const auto& cls = static_cast<const ClassDefStmt&>(*def.code->body.at(0));
        QCOMPARE(cls.arguments.size(), size_t(5));
        QCOMPARE(cls.arguments[0].kind, Argument::Kind::Positional);
        QCOMPARE(cls.arguments[1].kind, Argument::Kind::Star);
        QCOMPARE(cls.arguments[2].kind, Argument::Kind::Keyword);
        QCOMPARE(cls.arguments[2].name.str(), std::string("metaclass"));
        QCOMPARE(asName(*cls.arguments[2].value).scope, NameScope::Local);
        QCOMPARE(cls.arguments[4].kind, Argument::Kind::DoubleStar);
        parseFails("class A(key=1, key=2):\n    pass\n", "keyword argument repeated: key");
        parseFails("class A(key=1, B):\n    pass\n",
                   "positional argument follows keyword argument");
    }

    void classBodiesAndMangling() {
        Module m = parseOk("class A:\n"
                           "    x = 1\n"
                           "    def m(self):\n"
                           "        return x, self.__secret\n");
        const auto& cls = static_cast<const ClassDefStmt&>(*m.code->body.at(0));
        QCOMPARE(cls.body->scope->kind, ScopeKind::Class);
        const auto& assign = static_cast<const AssignStmt&>(*cls.body->body.at(0));
        QCOMPARE(asName(*assign.targets[0]).scope, NameScope::ClassBody);
        const FunctionDefStmt& method = functionAt(cls.body->body, 1);
        const auto& tuple = static_cast<const SequenceExpr&>(returnedExpr(*method.code, 0));
        // Methods do not see class-body names.
        QCOMPARE(asName(*tuple.elements[0]).scope, NameScope::Global);
        const auto& attr = static_cast<const AttributeExpr&>(*tuple.elements[1]);
        QCOMPARE(attr.attr.str(), std::string("_A__secret"));
    }

    void comprehensionsHaveTheirOwnScope() {
        Module m = parseOk("def f(n):\n"
                           "    return [i * n for i in range(n)]\n");
        const FunctionDefStmt& def = functionAt(m.code->body, 0);
        const auto& comp = static_cast<const ComprehensionExpr&>(returnedExpr(*def.code, 0));
        QCOMPARE(comp.code->scope->kind, ScopeKind::Comprehension);
        QCOMPARE(comp.code->scope->slotOf(Symbol::intern("i")), 0);
        QVERIFY(def.code->scope->isCellSlot(def.code->scope->slotOf(Symbol::intern("n"))));
        const auto& product = static_cast<const BinOpExpr&>(*comp.element);
        QCOMPARE(asName(*product.left).scope, NameScope::Local);
        QCOMPARE(asName(*product.right).scope, NameScope::Free);
    }
};

QTEST_APPLESS_MAIN(ParserTest)
#include "tst_parser.moc"
