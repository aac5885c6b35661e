// SPDX-License-Identifier: MIT
/// \file
/// The abstract syntax tree of the workload language: Python's statements and expressions,
/// every node with its source span. The parser builds it, the scope resolver annotates names
/// with where they live (local slot, cell, global), and the interpreter walks it. Later the
/// capture layer evaluates the same tree symbolically, so nodes carry no evaluation state.
#pragma once

#include "lang/symbol.h"
#include "lang/value.h"
#include "support/source.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln::lang {

struct Scope;

// ---------------------------------------------------------------------------------------------
// Expressions

enum class ExprKind : uint8_t {
    Constant,
    FString,
    Name,
    Attribute,
    Subscript,
    Slice,
    Call,
    BinOp,
    UnaryOp,
    BoolOp,
    Compare,
    IfExp,
    Lambda,
    List,
    Tuple,
    Dict,
    Set,
    ListComp,
    DictComp,
    SetComp,
    GeneratorExp,
    Starred,
    NamedExpr,
    Yield ///< `yield x`, `yield`, `yield from x` (the function is a generator)
};

enum class BinaryOperator : uint8_t {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    LShift,
    RShift,
    BitAnd,
    BitOr,
    BitXor
};
enum class UnaryOperator : uint8_t { Neg, Pos, Not, Invert };
enum class CompareOperator : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

const char* binaryOperatorSymbol(BinaryOperator op);
const char* compareOperatorSymbol(CompareOperator op);

struct Expr {
    explicit Expr(ExprKind k)
        : kind(k) {}
    virtual ~Expr() = default;
    ExprKind kind;
    SourceSpan span;
};
using ExprPtr = std::unique_ptr<Expr>;

struct ConstantExpr : Expr {
    enum class Type : uint8_t { None, Bool, Int, Float, Str, Ellipsis };
    ConstantExpr()
        : Expr(ExprKind::Constant) {}
    Type type = Type::None;
    bool boolValue = false;
    int64_t intValue = 0;
    double floatValue = 0.0;
    std::string strValue;
    /// The interpreter's value for this literal, made on first use (literals are immutable).
    mutable Value cached;
};

struct FStringExpr : Expr {
    struct Part {
        std::string literal; ///< used when expr is null
        ExprPtr expr;
        char conversion = 0; ///< 0, 'r', 's' or 'a'
        std::unique_ptr<FStringExpr> spec;
        std::string debugText; ///< "x=" for f"{x=}"
    };
    FStringExpr()
        : Expr(ExprKind::FString) {}
    std::vector<Part> parts;
};

/// Where a resolved name lives. Set by the scope resolver.
enum class NameScope : uint8_t { Unresolved, Local, Cell, Free, Global, ClassBody };

struct NameExpr : Expr {
    NameExpr()
        : Expr(ExprKind::Name) {}
    Symbol id;
    NameScope scope = NameScope::Unresolved;
    int32_t slot = -1; ///< Local/Cell: frame slot; Free: closure index
};

struct AttributeExpr : Expr {
    AttributeExpr()
        : Expr(ExprKind::Attribute) {}
    ExprPtr value;
    Symbol attr;
};

struct SubscriptExpr : Expr {
    SubscriptExpr()
        : Expr(ExprKind::Subscript) {}
    ExprPtr value;
    ExprPtr index; ///< a SliceExpr, a TupleExpr of items, or any expression
};

struct SliceExpr : Expr {
    SliceExpr()
        : Expr(ExprKind::Slice) {}
    ExprPtr lower, upper, step; ///< each may be null
};

struct Argument {
    enum class Kind : uint8_t { Positional, Star, Keyword, DoubleStar };
    Kind kind = Kind::Positional;
    Symbol name; ///< Keyword only
    ExprPtr value;
};

struct CallExpr : Expr {
    CallExpr()
        : Expr(ExprKind::Call) {}
    ExprPtr func;
    std::vector<Argument> args;
    bool simple = true; ///< only positional and keyword arguments (no * or **)
};

struct BinOpExpr : Expr {
    BinOpExpr()
        : Expr(ExprKind::BinOp) {}
    BinaryOperator op{};
    ExprPtr left, right;
    SourceSpan opSpan;
};

struct UnaryOpExpr : Expr {
    UnaryOpExpr()
        : Expr(ExprKind::UnaryOp) {}
    UnaryOperator op{};
    ExprPtr operand;
};

struct BoolOpExpr : Expr {
    BoolOpExpr()
        : Expr(ExprKind::BoolOp) {}
    bool isAnd = true;
    std::vector<ExprPtr> values;
};

struct CompareExpr : Expr {
    CompareExpr()
        : Expr(ExprKind::Compare) {}
    ExprPtr left;
    std::vector<CompareOperator> ops;
    std::vector<ExprPtr> comparators;
};

struct IfExpExpr : Expr {
    IfExpExpr()
        : Expr(ExprKind::IfExp) {}
    ExprPtr test, body, orelse;
};

/// A parameter's, return value's or variable's annotation. Under `from __future__ import
/// annotations` (PEP 563) it is kept as its source text instead of being evaluated.
struct Annotation {
    ExprPtr expr;     ///< null when there is none
    std::string text; ///< set only under the future import: the value is this string
    bool deferred = false;
    explicit operator bool() const { return expr != nullptr; }
};

struct Parameter {
    enum class Kind : uint8_t { Positional, PositionalOnly, VarArgs, KeywordOnly, VarKeywords };
    Kind kind = Kind::Positional;
    Symbol name;
    ExprPtr defaultValue; ///< may be null
    Annotation annotation;
    SourceSpan span;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

/// What a function-like body needs at run time: parameters, the body, and its scope (slot
/// layout). Shared by `def`, `lambda` and comprehensions.
struct FunctionCode {
    Symbol name;
    std::string qualifiedName; ///< "Model.forward", "outer.<locals>.inner", "<lambda>"
    std::vector<Parameter> params;
    Annotation returns; ///< `-> T`
    Block body;         ///< for lambdas: one Return statement
    std::unique_ptr<Scope> scope;
    SourceFilePtr source;
    SourceSpan span;
    int32_t firstLine = 0;
    bool isLambda = false;
    bool isGenerator = false; ///< its body has a `yield`: calling it makes a generator
};

struct LambdaExpr : Expr {
    LambdaExpr()
        : Expr(ExprKind::Lambda) {}
    std::shared_ptr<FunctionCode> code;
};

struct SequenceExpr : Expr { // List, Tuple, Set
    explicit SequenceExpr(ExprKind k)
        : Expr(k) {}
    std::vector<ExprPtr> elements; ///< may contain StarredExpr
    bool hasStarred = false;
};

struct DictExpr : Expr {
    DictExpr()
        : Expr(ExprKind::Dict) {}
    std::vector<ExprPtr> keys; ///< null key: `**value` unpacking
    std::vector<ExprPtr> values;
};

struct Comprehension {
    ExprPtr target;
    ExprPtr iter;
    std::vector<ExprPtr> ifs;
};

/// List/dict/set comprehensions and generator expressions. Like Python 3 they run in their own
/// scope; the first iterable is evaluated in the enclosing scope.
struct ComprehensionExpr : Expr {
    explicit ComprehensionExpr(ExprKind k)
        : Expr(k) {}
    ExprPtr element; ///< for DictComp: the key
    ExprPtr value;   ///< DictComp only
    std::vector<Comprehension> generators;
    std::shared_ptr<FunctionCode> code; ///< scope holder; its body is empty
};

struct StarredExpr : Expr {
    StarredExpr()
        : Expr(ExprKind::Starred) {}
    ExprPtr value;
};

struct NamedExpr : Expr {
    NamedExpr()
        : Expr(ExprKind::NamedExpr) {}
    ExprPtr target; ///< a NameExpr
    ExprPtr value;
};

struct YieldExpr : Expr {
    YieldExpr()
        : Expr(ExprKind::Yield) {}
    ExprPtr value;     ///< null for a bare `yield`
    bool from = false; ///< `yield from value`
};

// ---------------------------------------------------------------------------------------------
// Statements

enum class StmtKind : uint8_t {
    Expr,
    Assign,
    AugAssign,
    AnnAssign,
    If,
    For,
    While,
    Break,
    Continue,
    Return,
    Pass,
    FunctionDef,
    ClassDef,
    Import,
    ImportFrom,
    Global,
    Nonlocal,
    Assert,
    Raise,
    Try,
    With,
    Del
};

struct Stmt {
    explicit Stmt(StmtKind k)
        : kind(k) {}
    virtual ~Stmt() = default;
    StmtKind kind;
    SourceSpan span;
};

struct ExprStmt : Stmt {
    ExprStmt()
        : Stmt(StmtKind::Expr) {}
    ExprPtr value;
};

struct AssignStmt : Stmt {
    AssignStmt()
        : Stmt(StmtKind::Assign) {}
    std::vector<ExprPtr> targets; ///< a = b = value has two targets
    ExprPtr value;
};

struct AugAssignStmt : Stmt {
    AugAssignStmt()
        : Stmt(StmtKind::AugAssign) {}
    ExprPtr target;
    BinaryOperator op{};
    ExprPtr value;
};

struct AnnAssignStmt : Stmt {
    AnnAssignStmt()
        : Stmt(StmtKind::AnnAssign) {}
    ExprPtr target;
    Annotation annotation; ///< evaluated in module and class bodies only, as CPython does
    ExprPtr value;         ///< may be null
    bool simple = true;    ///< a bare name, not `(x): int` (only those are recorded)
};

struct IfStmt : Stmt {
    IfStmt()
        : Stmt(StmtKind::If) {}
    ExprPtr test;
    Block body, orelse;
};

struct ForStmt : Stmt {
    ForStmt()
        : Stmt(StmtKind::For) {}
    ExprPtr target, iter;
    Block body, orelse;
};

struct WhileStmt : Stmt {
    WhileStmt()
        : Stmt(StmtKind::While) {}
    ExprPtr test;
    Block body, orelse;
};

struct ReturnStmt : Stmt {
    ReturnStmt()
        : Stmt(StmtKind::Return) {}
    ExprPtr value; ///< may be null
};

struct SimpleStmt : Stmt { // Break, Continue, Pass
    explicit SimpleStmt(StmtKind k)
        : Stmt(k) {}
};

struct FunctionDefStmt : Stmt {
    FunctionDefStmt()
        : Stmt(StmtKind::FunctionDef) {}
    std::vector<ExprPtr> decorators;
    std::shared_ptr<FunctionCode> code;
    ExprPtr target; ///< the NameExpr the function is bound to
};

struct ClassDefStmt : Stmt {
    ClassDefStmt()
        : Stmt(StmtKind::ClassDef) {}
    std::vector<ExprPtr> decorators;
    /// Bases and keywords as in a call (`*bases`, `metaclass=M`, `key=1`, `**kw`).
    std::vector<Argument> arguments;
    std::shared_ptr<FunctionCode> body; ///< the class body runs like a function body
    ExprPtr target;
};

struct ImportAlias {
    std::string name; ///< dotted module name, or the imported name for `from`
    Symbol asName;    ///< invalid when absent
    ExprPtr target;   ///< NameExpr bound by the import
    SourceSpan span;
};

struct ImportStmt : Stmt {
    ImportStmt()
        : Stmt(StmtKind::Import) {}
    std::vector<ImportAlias> names;
};

struct ImportFromStmt : Stmt {
    ImportFromStmt()
        : Stmt(StmtKind::ImportFrom) {}
    std::string module;
    std::vector<ImportAlias> names;
};

struct NamesStmt : Stmt { // Global, Nonlocal
    explicit NamesStmt(StmtKind k)
        : Stmt(k) {}
    std::vector<Symbol> names;
};

struct AssertStmt : Stmt {
    AssertStmt()
        : Stmt(StmtKind::Assert) {}
    ExprPtr test, message;
};

struct RaiseStmt : Stmt {
    RaiseStmt()
        : Stmt(StmtKind::Raise) {}
    ExprPtr exception, cause; ///< both may be null (bare `raise`)
};

struct ExceptHandler {
    ExprPtr type; ///< null: bare `except:`
    ExprPtr name; ///< NameExpr or null
    Block body;
    SourceSpan span;
};

struct TryStmt : Stmt {
    TryStmt()
        : Stmt(StmtKind::Try) {}
    Block body;
    std::vector<ExceptHandler> handlers;
    Block orelse, finalbody;
};

struct WithItem {
    ExprPtr context;
    ExprPtr target; ///< may be null
};

struct WithStmt : Stmt {
    WithStmt()
        : Stmt(StmtKind::With) {}
    std::vector<WithItem> items;
    Block body;
};

struct DelStmt : Stmt {
    DelStmt()
        : Stmt(StmtKind::Del) {}
    std::vector<ExprPtr> targets;
};

/// The docstring of a function, class or module body (its first statement, a string literal).
const std::string* docstring(const Block& body);

/// A parsed file: its module-level code (a FunctionCode whose scope is the module scope).
struct Module {
    SourceFilePtr source;
    std::shared_ptr<FunctionCode> code;
};

} // namespace kiln::lang
