// SPDX-License-Identifier: MIT
#include "capture/sym_ints.h"

#include "capture/tracer.h"
#include "lang/signature.h"

namespace kiln::capture {

using lang::Value;

namespace {

lang::Symbol sym(const char* name) {
    return lang::Symbol::intern(name);
}

lang::TypeObject* symClass(lang::Interpreter& interp, const char* name) {
    Ref<lang::ModuleObject> m = interp.importModule("torch._dynamo.sym_int");
    const Value* cls = m->globals.find(sym(name));
    KILN_ASSERT(cls && cls->is(lang::ObjectKind::Type), "torch._dynamo.sym_int lacks a class");
    return cls->as<lang::TypeObject>();
}

struct Natives {
    std::function<Tracer*()> activeTracer;
};

/// The value of `v` for arithmetic: a SymInt's hint, or `v` itself.
Value operandValue(lang::Interpreter& interp, const Value& v) {
    if (auto s = symIntOf(interp, v)) return s->value;
    return v;
}

lang::BinaryOperator binaryOperator(const std::string& op) {
    if (op == "add") return lang::BinaryOperator::Add;
    if (op == "sub") return lang::BinaryOperator::Sub;
    if (op == "mul") return lang::BinaryOperator::Mul;
    if (op == "floordiv") return lang::BinaryOperator::FloorDiv;
    return lang::BinaryOperator::Mod;
}

/// _kiln_sym_binary(op, a, b): the result of int arithmetic with a SymInt, recorded as a graph
/// node while its trace records (a SymInt again), else a plain int.
Value symBinary(lang::Interpreter& interp, const lang::CallArgs& args, void* data) {
    static const lang::Signature sig("_kiln_sym_binary(op, a, b)");
    lang::BoundArgs a = sig.bind(interp, args);
    const std::string op = interp.str(a[0]);
    const lang::BinaryOperator code = binaryOperator(op);
    Value result = interp.binaryOp(code, operandValue(interp, a[1]), operandValue(interp, a[2]));
    Tracer* tracer = static_cast<Natives*>(data)->activeTracer();
    if (!tracer || !(result.isInt() || result.isFloat())) return result;
    int32_t node = tracer->recordSymArithmetic(code, op, a[1], a[2], result);
    if (node < 0) return result;
    return makeSymNumber(interp, tracer->serial(), node, result);
}

/// _kiln_sym_value(s, why): a SymInt's Python value. Inside a recorded tensor op (the op's
/// arguments being converted) the value stays symbolic in the graph; anywhere else the trace
/// specialises the sizes it comes from.
Value symValue(lang::Interpreter& interp, const lang::CallArgs& args, void* data) {
    static const lang::Signature sig("_kiln_sym_value(s, why)");
    lang::BoundArgs a = sig.bind(interp, args);
    auto s = symIntOf(interp, a[0]);
    if (!s) interp.raiseTypeError("_kiln_sym_value expects a SymInt");
    Tracer* tracer = static_cast<Natives*>(data)->activeTracer();
    if (tracer && tracer->serial() == s->trace && !tracer->insideRecordedOp())
        tracer->needSymValue(s->node, interp.str(a[1]));
    return s->value;
}

lang::CompareOperator compareOperator(const std::string& op) {
    if (op == "==") return lang::CompareOperator::Eq;
    if (op == "!=") return lang::CompareOperator::NotEq;
    if (op == "<") return lang::CompareOperator::Lt;
    if (op == "<=") return lang::CompareOperator::LtE;
    if (op == ">") return lang::CompareOperator::Gt;
    return lang::CompareOperator::GtE;
}

/// _kiln_sym_compare(op, s, other): a comparison with a SymInt. Against an int it becomes a
/// guard on the symbols it comes from (the entry holds for every size that compares the
/// same); anything else needs the value (sizes specialise, data-dependent values break).
Value symCompare(lang::Interpreter& interp, const lang::CallArgs& args, void* data) {
    static const lang::Signature sig("_kiln_sym_compare(op, a, b)");
    lang::BoundArgs a = sig.bind(interp, args);
    const std::string op = interp.str(a[0]);
    const lang::CompareOperator code = compareOperator(op);
    Value result = interp.compare(code, operandValue(interp, a[1]), operandValue(interp, a[2]));
    Tracer* tracer = static_cast<Natives*>(data)->activeTracer();
    auto s = symIntOf(interp, a[1]);
    if (!tracer || !s || s->trace != tracer->serial() || tracer->insideRecordedOp()) return result;
    auto otherSym = symIntOf(interp, a[2]);
    if (!otherSym && !tracer->isUnbacked(s->node) && a[2].isInt() && result.isBool() &&
        tracer->guardSymCompare(code, a[1], a[2], result.asBool()))
        return result;
    tracer->needSymValue(s->node, op);
    if (otherSym && otherSym->trace == tracer->serial()) tracer->needSymValue(otherSym->node, op);
    return result;
}

} // namespace

std::optional<SymIntView> symIntOf(lang::Interpreter& interp, const Value& v) {
    if (!v.is(lang::ObjectKind::Instance)) return std::nullopt;
    const lang::TypeObject* type = interp.typeOf(v);
    if (type->moduleName != "torch._dynamo.sym_int" ||
        (type->name != "SymInt" && type->name != "SymFloat" && type->name != "GraphInputSymInt"))
        return std::nullopt;
    const auto& attrs = v.as<lang::InstanceObject>()->attrs;
    const Value* trace = attrs.find(sym("_kiln_trace"));
    const Value* node = attrs.find(sym("_kiln_node"));
    const Value* hint = attrs.find(sym("_kiln_hint"));
    if (!trace || !node || !hint) return std::nullopt;
    return SymIntView{static_cast<uint64_t>(trace->asInt()), static_cast<int32_t>(node->asInt()),
                      hint->isInt() ? hint->asInt() : 0, *hint};
}

Value makeSymInt(lang::Interpreter& interp, uint64_t trace, int32_t node, int64_t hint) {
    return makeSymNumber(interp, trace, node, Value::fromInt(hint));
}

Value makeGraphInputSymInt(lang::Interpreter& interp, int32_t node, int64_t value,
                           const std::string& expr) {
    return interp.call(Value(symClass(interp, "GraphInputSymInt")),
                       {Value::fromInt(0), Value::fromInt(node), Value::fromInt(value),
                        expr.empty() ? Value::none() : lang::strValue(expr)});
}

Value makeSymNumber(lang::Interpreter& interp, uint64_t trace, int32_t node, const Value& value) {
    return interp.call(Value(symClass(interp, value.isFloat() ? "SymFloat" : "SymInt")),
                       {Value::fromInt(static_cast<int64_t>(trace)), Value::fromInt(node), value});
}

Value concreteValue(lang::Interpreter& interp, const Value& v) {
    if (auto s = symIntOf(interp, v)) return s->value;
    if (v.is(lang::ObjectKind::List)) {
        for (Value& item : v.as<lang::ListObject>()->items)
            item = concreteValue(interp, item); // the frame's own list: changed in place
        return v;
    }
    if (!v.is(lang::ObjectKind::Tuple)) return v;
    const auto* tuple = v.as<lang::TupleObject>();
    std::vector<Value> items;
    bool changed = false;
    for (const Value& item : tuple->items) {
        items.push_back(concreteValue(interp, item));
        changed |= !items.back().identical(item);
    }
    if (!changed) return v;
    return Value(makeRef<lang::TupleObject>(std::move(items), tuple->type()));
}

void installSymIntNatives(lang::Interpreter& interp, lang::ModuleObject& dynamo,
                          std::function<Tracer*()> activeTracer) {
    static std::vector<std::unique_ptr<Natives>> keep; // natives outlive their interpreter
    keep.push_back(std::make_unique<Natives>(Natives{std::move(activeTracer)}));
    interp.defineNative(dynamo.globals, "_kiln_sym_binary", symBinary, keep.back().get());
    interp.defineNative(dynamo.globals, "_kiln_sym_value", symValue, keep.back().get());
    interp.defineNative(dynamo.globals, "_kiln_sym_compare", symCompare, keep.back().get());
}

} // namespace kiln::capture
