// SPDX-License-Identifier: MIT
#include "capture/break_reason.h"

#include "lang/ast.h"

namespace kiln::capture {

const char* breakKindName(BreakKind kind) {
    switch (kind) {
    case BreakKind::SideEffect:
        return "side_effect";
    case BreakKind::Item:
        return "item";
    case BreakKind::ScalarConvert:
        return "scalar_conversion";
    case BreakKind::DataDependent:
        return "data_dependent_branch";
    case BreakKind::GraphBreakCall:
        return "graph_break";
    case BreakKind::Disabled:
        return "disabled_function";
    case BreakKind::DynamicShapeOp:
        return "dynamic_shape_op";
    case BreakKind::Unsupported:
        return "unsupported";
    case BreakKind::Mutation:
        return "mutation";
    }
    return "unsupported";
}

namespace {

std::string strip(std::string_view s) {
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return {};
    size_t e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

} // namespace

UserStack userStackOf(const lang::Frame* innermost, const lang::Frame* outermost) {
    UserStack stack;
    for (const lang::Frame* f = innermost; f; f = f->parent) {
        if (f->code && f->code->source) {
            UserFrame uf;
            uf.file = f->code->source->path();
            uf.line = f->at.begin.line;
            uf.column = f->at.begin.column;
            uf.function = f->code->name.str();
            uf.code = strip(f->code->source->line(uf.line));
            stack.insert(stack.begin(), std::move(uf));
        }
        if (f == outermost) break;
    }
    return stack;
}

std::string formatUserStack(const UserStack& stack) {
    std::string out;
    for (const UserFrame& f : stack) {
        out += "  File \"" + f.file + "\", line " + std::to_string(f.line) + ", in " + f.function +
               "\n";
        if (!f.code.empty()) out += "    " + f.code + "\n";
    }
    return out;
}

std::string variableTypeName(lang::Interpreter& interp, const lang::Value& v, bool traced) {
    using lang::ObjectKind;
    if (v.isTensor()) return traced ? "TensorVariable()" : "TensorVariable()";
    if (v.isNone() || v.isBool() || v.isInt() || v.isFloat() || v.is(ObjectKind::Str))
        return "ConstantVariable(" + interp.typeName(v) + ")";
    if (v.is(ObjectKind::List)) return "ListVariable()";
    if (v.is(ObjectKind::Tuple)) return "TupleVariable()";
    if (v.is(ObjectKind::Dict)) return "ConstDictVariable()";
    if (v.is(ObjectKind::Function)) return "UserFunctionVariable()";
    return "UserDefinedObjectVariable(" + interp.typeName(v) + ")";
}

} // namespace kiln::capture
