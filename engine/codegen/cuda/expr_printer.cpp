// SPDX-License-Identifier: MIT
#include "codegen/cuda/expr_printer.h"

#include "support/assert.h"

#include <climits>
#include <cmath>
#include <cstdio>

namespace kiln::codegen::cuda {

using compiler::IndexNode;
using compiler::ScalarOp;

const char* computeTypeName(DType t) {
    switch (compiler::computeType(t)) {
    case DType::Bool:
        return "bool";
    case DType::UInt8:
        return "uint8_t";
    case DType::Int8:
        return "int8_t";
    case DType::Int16:
        return "int16_t";
    case DType::Int32:
        return "int";
    case DType::Int64:
        return "long long";
    case DType::Float64:
        return "double";
    default:
        return "float";
    }
}

const char* storageTypeName(DType t) {
    switch (t) {
    case DType::Bool:
        return "unsigned char";
    case DType::BFloat16:
        return "kiln_bf16";
    case DType::Float16:
        return "kiln_f16";
    default:
        return computeTypeName(t);
    }
}

std::string narrowForStore(const std::string& value, DType t) {
    switch (t) {
    case DType::Bool:
        return "(unsigned char)(" + value + ")";
    case DType::BFloat16:
        return "kiln_f32_to_bf16(" + value + ")";
    case DType::Float16:
        return "kiln_f32_to_f16(" + value + ")";
    default:
        return value;
    }
}

std::string widenLoaded(const std::string& raw, DType t) {
    switch (t) {
    case DType::Bool:
        return "(" + raw + " != 0)";
    case DType::BFloat16:
        return "kiln_bf16_to_f32(" + raw + ")";
    case DType::Float16:
        return "kiln_f16_to_f32(" + raw + ")";
    default:
        return raw;
    }
}

std::string convertValue(const std::string& value, DType from, DType to) {
    from = compiler::computeType(from);
    to = compiler::computeType(to);
    if (from == to) return value;
    if (to == DType::Bool) return "(" + value + " != 0)";
    std::string cast = "(" + std::string(computeTypeName(to)) + ")";
    // As the eager cast (tensor::floatToInteger): uint8 through int64, int8 and int16 through
    // int32, then the low bits (a direct cvt to 8 or 16 bits would saturate instead).
    if (tensor::isFloating(from) && (to == DType::UInt8 || to == DType::Int8 || to == DType::Int16))
        cast += to == DType::UInt8 ? "(long long)" : "(int)";
    return cast + "(" + value + ")";
}

std::string literal(double value, DType dtype) {
    DType t = compiler::computeType(dtype);
    if (t == DType::Bool) return value != 0 ? "true" : "false";
    if (!tensor::isFloating(t)) {
        long long v = compiler::integerConstant(value, t);
        // The minimums have no literal of their type: 2147483648 is a long before the minus.
        if (t == DType::Int32 && v == INT_MIN) return "(-2147483647 - 1)";
        if (t != DType::Int64) return std::to_string(v);
        return v == LLONG_MIN ? "(-9223372036854775807LL - 1)" : std::to_string(v) + "LL";
    }
    bool single = t != DType::Float64;
    if (std::isnan(value))
        return single ? "__int_as_float(0x7fc00000)" : "__longlong_as_double(0x7ff8000000000000LL)";
    if (std::isinf(value)) {
        std::string inf =
            single ? "__int_as_float(0x7f800000)" : "__longlong_as_double(0x7ff0000000000000LL)";
        return value < 0 ? "(-" + inf + ")" : inf;
    }
    char text[64];
    if (single)
        std::snprintf(text, sizeof text, "%af", static_cast<double>(static_cast<float>(value)));
    else
        std::snprintf(text, sizeof text, "%a", value);
    return value < 0 ? std::string("(") + text + ")" : text;
}

bool sameScalar(const Scalar& a, const Scalar& b) {
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->op != b->op || a->dtype != b->dtype || a->buffer != b->buffer ||
        a->constant != b->constant || a->operands.size() != b->operands.size())
        return false;
    auto sameIndex = [](const Index& x, const Index& y) {
        return (!x && !y) || (x && y && compiler::equal(x, y));
    };
    if (!sameIndex(a->index, b->index) || !sameIndex(a->indirectStride, b->indirectStride) ||
        !sameIndex(a->indirectBound, b->indirectBound))
        return false;
    for (size_t i = 0; i < a->operands.size(); ++i)
        if (!sameScalar(a->operands[i], b->operands[i])) return false;
    return true;
}

std::string ExprPrinter::index(const Index& e, int lane) const {
    switch (e->kind) {
    case IndexNode::Kind::Const:
        return e->value >= INT32_MIN && e->value <= INT32_MAX
                   ? "(kiln_idx)" + std::to_string(e->value)
                   : std::to_string(e->value) + "LL";
    case IndexNode::Kind::Var:
        return m_vars(static_cast<int32_t>(e->value), lane);
    case IndexNode::Kind::Sym:
        return "(kiln_idx)" + m_program.symbolNames.at(static_cast<size_t>(e->value));
    case IndexNode::Kind::Add:
        return "(" + index(e->lhs, lane) + " + " + index(e->rhs, lane) + ")";
    case IndexNode::Kind::Mul:
        return "(" + index(e->lhs, lane) + " * " + index(e->rhs, lane) + ")";
    case IndexNode::Kind::FloorDiv:
        return "(" + index(e->lhs, lane) + " / " + index(e->rhs, lane) + ")";
    case IndexNode::Kind::Mod:
        return "(" + index(e->lhs, lane) + " % " + index(e->rhs, lane) + ")";
    }
    return "0";
}

std::string ExprPrinter::bufferName(int32_t buffer) const {
    return m_program.buffer(buffer).name;
}

std::string ExprPrinter::take() {
    std::string code = std::move(m_code);
    m_code.clear();
    return code;
}

void ExprPrinter::emit(const std::string& type, const std::string& name, const std::string& expr) {
    m_code += m_indent + "const " + type + " " + name + " = " + expr + ";\n";
}

std::string ExprPrinter::scalarLoad(const ScalarNode& s, int lane) {
    const compiler::Buffer& b = m_program.buffer(s.buffer);
    std::string at = index(s.index, lane);
    if (!s.operands.empty()) {
        // Indirect: the position is checked, as on the CPU; out of range, the status buffer
        // records it (the runtime raises IndexError) and the read goes to position 0.
        std::string pos = value(s.operands[0], lane);
        std::string bound = index(s.indirectBound, lane);
        std::string inside = fresh("k_in");
        emit("bool", inside, "(" + pos + " >= 0) && (" + pos + " < (long long)" + bound + ")");
        if (m_program.statusBuffer >= 0) {
            m_usesStatus = true;
            m_code += m_indent + "if (!" + inside + ") " + bufferName(m_program.statusBuffer) +
                      "[0] = 1;\n";
        }
        at = "(" + at + " + (kiln_idx)(" + inside + " ? " + pos + " : 0LL) * " +
             index(s.indirectStride, lane) + ")";
    }
    return widenLoaded(bufferName(s.buffer) + "[" + at + "]", b.dtype);
}

std::string ExprPrinter::value(const Scalar& s, int lane) {
    auto key = std::make_pair(s.get(), lane);
    if (auto it = m_memo.find(key); it != m_memo.end()) return it->second;
    if (m_valueHook)
        if (std::string held = m_valueHook(s, lane); !held.empty()) return m_memo[key] = held;
    std::string name;
    if (s->op == ScalarOp::Sin || s->op == ScalarOp::Cos) {
        name = sinCos(*s, lane);
    } else {
        // Operands print as names, so equal text is an equal value: distinct IR nodes for the
        // same load or subexpression (inlined twice by lowering) are computed once.
        std::string expr = op(*s, lane);
        std::string type = computeTypeName(s->dtype);
        auto [it, inserted] = m_texts.emplace(type + " " + expr, std::string());
        if (inserted) {
            it->second = fresh("t");
            emit(type, it->second, expr);
        }
        name = it->second;
    }
    m_memo[key] = name;
    return name;
}

/// sin and cos of one argument share their range reduction: both come from one sincosf, and
/// the half nobody reads is dead code after inlining.
std::string ExprPrinter::sinCos(const ScalarNode& s, int lane) {
    std::string arg = value(s.operands[0], lane);
    std::string key = "sincos " + arg;
    std::string base;
    if (auto it = m_texts.find(key); it != m_texts.end()) {
        base = it->second;
    } else {
        base = fresh("sc");
        bool single = compiler::computeType(s.dtype) != DType::Float64;
        const char* t = single ? "float" : "double";
        m_code += m_indent + t + " " + base + "_s, " + base + "_c;\n";
        m_code += m_indent + (single ? "kiln_sincosf(" : "sincos(") + arg + ", &" + base + "_s, &" +
                  base + "_c);\n";
        m_texts[key] = base;
    }
    return base + (s.op == ScalarOp::Sin ? "_s" : "_c");
}

std::string ExprPrinter::op(const ScalarNode& s, int lane) {
    bool single = compiler::computeType(s.dtype) != DType::Float64;
    auto a = [&](size_t i) { return value(s.operands.at(i), lane); };
    auto fn = [&](const char* f) { return std::string(f) + (single ? "f(" : "(") + a(0) + ")"; };
    bool fp = tensor::isFloating(compiler::computeType(s.dtype));
    switch (s.op) {
    case ScalarOp::Load: {
        if (m_hook) {
            std::string hooked = m_hook(s, lane);
            if (!hooked.empty()) return hooked;
        }
        return scalarLoad(s, lane);
    }
    case ScalarOp::Constant:
        return literal(s.constant, s.dtype);
    case ScalarOp::IndexAsValue:
        return "(long long)" + index(s.index, lane);
    case ScalarOp::Cast:
        return convertValue(a(0), s.operands[0]->dtype, s.dtype);
    case ScalarOp::RandUniform:
        // The seed is a 64-bit symbol: never through the (possibly 32-bit) index type.
        return std::string(single ? "kiln_rand_f32(" : "kiln_rand_f64(") +
               (s.index->kind == IndexNode::Kind::Sym
                    ? m_program.symbolNames.at(static_cast<size_t>(s.index->value))
                    : "(long long)" + index(s.index, lane)) +
               ", (long long)" + a(0) + ", " + std::to_string(static_cast<unsigned>(s.constant)) +
               "u)";
    case ScalarOp::Neg:
        return "(-" + a(0) + ")";
    case ScalarOp::Abs:
        return fp ? fn("fabs") : "(" + a(0) + " < 0 ? -" + a(0) + " : " + a(0) + ")";
    case ScalarOp::Exp:
        return fn("exp");
    case ScalarOp::Log:
        return fn("log");
    case ScalarOp::Sqrt:
        return fn("sqrt");
    case ScalarOp::Rsqrt:
        return fn("rsqrt");
    case ScalarOp::Tan:
        return single ? "kiln_tanf(" + a(0) + ")" : "tan(" + a(0) + ")";
    case ScalarOp::Tanh:
        return fn("tanh");
    case ScalarOp::Erf:
        return fn("erf");
    case ScalarOp::Log1p:
        return fn("log1p");
    case ScalarOp::Floor:
        return fp ? fn("floor") : a(0);
    case ScalarOp::Ceil:
        return fp ? fn("ceil") : a(0);
    case ScalarOp::Round:
        return fp ? fn("rint") : a(0); // round half to even, as torch.round
    case ScalarOp::Sign:
        return "kiln_sign(" + a(0) + ")";
    case ScalarOp::Reciprocal:
        return "(" + literal(1.0, s.dtype) + " / " + a(0) + ")";
    case ScalarOp::LogicalNot:
        return "(!" + a(0) + ")";
    case ScalarOp::Where:
        return "(" + a(0) + " ? " + a(1) + " : " + a(2) + ")";
    default:
        break;
    }
    // Binary ops compute in their operands' type (comparisons return bool).
    DType t = compiler::computeType(s.operands.at(0)->dtype);
    auto infix = [&](const char* o) { return "(" + a(0) + " " + o + " " + a(1) + ")"; };
    switch (s.op) {
    case ScalarOp::Add:
        return t == DType::Bool ? infix("||") : infix("+");
    case ScalarOp::Sub:
        return t == DType::Bool ? infix("!=") : infix("-");
    case ScalarOp::Mul:
        return t == DType::Bool ? infix("&&") : infix("*");
    case ScalarOp::Div:
        return infix("/");
    case ScalarOp::Mod:
        return "kiln_mod(" + a(0) + ", " + a(1) + ")";
    case ScalarOp::Pow:
        return std::string(t == DType::Float64 ? "pow(" : "powf(") + a(0) + ", " + a(1) + ")";
    case ScalarOp::Maximum:
        return "kiln_max(" + a(0) + ", " + a(1) + ")";
    case ScalarOp::Minimum:
        return "kiln_min(" + a(0) + ", " + a(1) + ")";
    case ScalarOp::Eq:
        return infix("==");
    case ScalarOp::Ne:
        return infix("!=");
    case ScalarOp::Lt:
        return infix("<");
    case ScalarOp::Le:
        return infix("<=");
    case ScalarOp::Gt:
        return infix(">");
    case ScalarOp::Ge:
        return infix(">=");
    case ScalarOp::LogicalAnd:
        return infix("&&");
    case ScalarOp::LogicalOr:
        return infix("||");
    default:
        break;
    }
    KILN_ASSERT(false, "scalar op without CUDA code generation");
    return {};
}

} // namespace kiln::codegen::cuda
