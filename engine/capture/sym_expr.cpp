// SPDX-License-Identifier: MIT
#include "capture/sym_expr.h"

namespace kiln::capture {

using lang::Value;

SymExprPtr SymExpr::size(SourcePtr source, int64_t dim) {
    auto e = std::make_shared<SymExpr>();
    e->m_kind = Kind::Size;
    e->m_source = std::move(source);
    e->m_value = dim;
    return e;
}

SymExprPtr SymExpr::intInput(SourcePtr source) {
    auto e = std::make_shared<SymExpr>();
    e->m_kind = Kind::IntInput;
    e->m_source = std::move(source);
    return e;
}

SymExprPtr SymExpr::constant(int64_t value) {
    auto e = std::make_shared<SymExpr>();
    e->m_kind = Kind::Constant;
    e->m_value = value;
    return e;
}

SymExprPtr SymExpr::binary(lang::BinaryOperator op, SymExprPtr a, SymExprPtr b) {
    auto e = std::make_shared<SymExpr>();
    e->m_kind = Kind::Binary;
    e->m_op = op;
    e->m_a = std::move(a);
    e->m_b = std::move(b);
    return e;
}

namespace {

/// Python's int arithmetic (floor division and modulo round towards negative infinity).
std::optional<int64_t> apply(lang::BinaryOperator op, int64_t a, int64_t b) {
    switch (op) {
    case lang::BinaryOperator::Add:
        return a + b;
    case lang::BinaryOperator::Sub:
        return a - b;
    case lang::BinaryOperator::Mul:
        return a * b;
    case lang::BinaryOperator::FloorDiv:
    case lang::BinaryOperator::Mod: {
        if (b == 0) return std::nullopt;
        int64_t q = a / b, r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) {
            q -= 1;
            r += b;
        }
        return op == lang::BinaryOperator::FloorDiv ? q : r;
    }
    default:
        return std::nullopt;
    }
}

const char* symbol(lang::BinaryOperator op) {
    switch (op) {
    case lang::BinaryOperator::Add:
        return " + ";
    case lang::BinaryOperator::Sub:
        return " - ";
    case lang::BinaryOperator::Mul:
        return " * ";
    case lang::BinaryOperator::FloorDiv:
        return " // ";
    default:
        return " % ";
    }
}

} // namespace

std::optional<int64_t> SymExpr::evaluate(lang::Interpreter& interp, const std::vector<Value>& slots,
                                         lang::ModuleObject& globals) const {
    switch (m_kind) {
    case Kind::Constant:
        return m_value;
    case Kind::IntInput: {
        Value v = m_source->fetch(interp, slots, globals);
        if (!v.isInt()) return std::nullopt;
        return v.asInt();
    }
    case Kind::Size: {
        Value v = m_source->fetch(interp, slots, globals);
        if (!v.isTensor() || m_value >= static_cast<int64_t>(v.tensorImpl()->sizes.size()))
            return std::nullopt;
        return v.tensorImpl()->sizes[static_cast<size_t>(m_value)];
    }
    case Kind::Binary: {
        auto a = m_a->evaluate(interp, slots, globals), b = m_b->evaluate(interp, slots, globals);
        if (!a || !b) return std::nullopt;
        return apply(m_op, *a, *b);
    }
    }
    return std::nullopt;
}

SourcePtr SymExpr::firstSource() const {
    if (m_source) return m_source;
    if (m_kind != Kind::Binary) return nullptr;
    SourcePtr a = m_a->firstSource();
    return a ? a : m_b->firstSource();
}

std::string SymExpr::str() const {
    switch (m_kind) {
    case Kind::Constant:
        return std::to_string(m_value);
    case Kind::IntInput:
        return m_source->str();
    case Kind::Size:
        return m_source->str() + ".size()[" + std::to_string(m_value) + "]";
    case Kind::Binary:
        return "(" + m_a->str() + symbol(m_op) + m_b->str() + ")";
    }
    return "?";
}

} // namespace kiln::capture
