// SPDX-License-Identifier: MIT
#include "lang/ast.h"

namespace kiln::lang {

const char* binaryOperatorSymbol(BinaryOperator op) {
    switch (op) {
    case BinaryOperator::Add:
        return "+";
    case BinaryOperator::Sub:
        return "-";
    case BinaryOperator::Mul:
        return "*";
    case BinaryOperator::Div:
        return "/";
    case BinaryOperator::FloorDiv:
        return "//";
    case BinaryOperator::Mod:
        return "%";
    case BinaryOperator::Pow:
        return "** or pow()";
    case BinaryOperator::MatMul:
        return "@";
    case BinaryOperator::LShift:
        return "<<";
    case BinaryOperator::RShift:
        return ">>";
    case BinaryOperator::BitAnd:
        return "&";
    case BinaryOperator::BitOr:
        return "|";
    case BinaryOperator::BitXor:
        return "^";
    }
    return "?";
}

const char* compareOperatorSymbol(CompareOperator op) {
    switch (op) {
    case CompareOperator::Eq:
        return "==";
    case CompareOperator::NotEq:
        return "!=";
    case CompareOperator::Lt:
        return "<";
    case CompareOperator::LtE:
        return "<=";
    case CompareOperator::Gt:
        return ">";
    case CompareOperator::GtE:
        return ">=";
    case CompareOperator::Is:
        return "is";
    case CompareOperator::IsNot:
        return "is not";
    case CompareOperator::In:
        return "in";
    case CompareOperator::NotIn:
        return "not in";
    }
    return "?";
}

const std::string* docstring(const Block& body) {
    if (body.empty() || body.front()->kind != StmtKind::Expr) return nullptr;
    const Expr& e = *static_cast<const ExprStmt&>(*body.front()).value;
    if (e.kind != ExprKind::Constant) return nullptr;
    const auto& c = static_cast<const ConstantExpr&>(e);
    return c.type == ConstantExpr::Type::Str ? &c.strValue : nullptr;
}

} // namespace kiln::lang
