// SPDX-License-Identifier: MIT
// Decompositions of pointwise ops: math, arithmetic with Python numbers, comparisons,
// activations, where/masked_fill/clamp and dtype conversions.
#include "compiler/decompose_rules.h"
#include "lang/objects.h"

#include <cmath>

namespace kiln::compiler::rules {

DType floatOf(DType t) {
    return tensor::isFloating(t) ? t : DType::Float32;
}

/// The dtype a Python number next to tensor `t` takes part in the op as.
DType numberTypeFor(AtenBuilder& b, std::optional<int32_t> t, bool floatNumber) {
    if (!t) return floatNumber ? DType::Float32 : DType::Int64;
    DType d = b.dtype(*t);
    if (tensor::isFloating(d)) return d;
    return floatNumber ? DType::Float32 : (d == DType::Bool ? DType::Int64 : d);
}

R unaryRule(OpCall& c, const char* op) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    return c.b().unary(op, c.b().toDtype(*x, c.resultDtype()));
}

/// The two operands of a binary op, with Python numbers typed against the tensor operand.
bool operands(OpCall& c, const char* first, const char* second, int32_t& a, int32_t& b) {
    std::optional<int32_t> ta = c.arg(first) && c.arg(first)->kind == graph::Arg::Kind::Node
                                    ? c.tensor(first)
                                    : std::nullopt;
    std::optional<int32_t> tb = c.arg(second) && c.arg(second)->kind == graph::Arg::Kind::Node
                                    ? c.tensor(second)
                                    : std::nullopt;
    if (!ta) ta = c.tensor(first, numberTypeFor(c.b(), tb, c.isFloatNumber(first)));
    if (!tb) tb = c.tensor(second, numberTypeFor(c.b(), ta, c.isFloatNumber(second)));
    if (!ta || !tb) return false;
    a = *ta;
    b = *tb;
    return true;
}

R binaryRule(OpCall& c, const char* op) {
    if (!c.bind({"input", "other", "alpha"})) return {};
    int32_t a = 0, b = 0;
    if (!operands(c, "input", "other", a, b)) return {};
    DType t = c.resultDtype();
    if (auto alpha = c.number("alpha"); alpha && *alpha != 1)
        b = c.b().binary("mul", b, c.b().constant(*alpha, t), t);
    return c.b().binary(op, a, b, t);
}

R compareRule(OpCall& c, const char* op) {
    if (!c.bind({"input", "other"})) return {};
    int32_t a = 0, b = 0;
    if (!operands(c, "input", "other", a, b)) return {};
    return c.b().compare(op, a, b);
}

R powRule(OpCall& c) {
    if (!c.bind({"input", "exponent"})) return {};
    DType t = c.resultDtype();
    if (auto e = c.number("exponent"); e && c.arg("input")->kind == graph::Arg::Kind::Node) {
        int32_t x = c.b().toDtype(*c.tensor("input"), t);
        if (*e == 2) return c.b().binary("mul", x, x, t);
        if (*e == 1) return x;
        if (*e == 0.5) return c.b().unary("sqrt", x);
        if (*e == -1) return c.b().unary("reciprocal", x);
        if (*e == 3) return c.b().binary("mul", c.b().binary("mul", x, x, t), x, t);
    }
    int32_t a = 0, b = 0;
    if (!operands(c, "input", "exponent", a, b)) return {};
    if (!tensor::isFloating(t)) return {};
    return c.b().binary("pow", a, b, t);
}

/// a % b with Python's sign rule (torch.remainder). An integer divisor that may be 0 stays
/// with the eager kernel on the CPU, which raises ZeroDivisionError where compiled code would
/// trap; CUDA's integer division by zero does not trap (the result is undefined, as in eager).
R remainderRule(OpCall& c) {
    if (!c.bind({"input", "other"})) return {};
    int32_t a = 0, b = 0;
    if (!operands(c, "input", "other", a, b)) return {};
    DType t = c.resultDtype();
    if (t == DType::Bool) return {};
    if (!tensor::isFloating(t) && !c.node().meta.device.starts_with("cuda")) {
        bool numberDivisor = !(c.arg("other") && c.arg("other")->kind == graph::Arg::Kind::Node);
        if (!numberDivisor || c.number("other").value_or(0) == 0) return {};
    }
    return c.b().binary("remainder", a, b, t);
}

/// logical_and/or (any dtypes: non-zero is true) or & and | (bools only).
R logicalRule(OpCall& c, const char* op, bool anyDtype) {
    if (!c.bind({"input", "other"})) return {};
    int32_t a = 0, b = 0;
    if (!operands(c, "input", "other", a, b)) return {};
    AtenBuilder& builder = c.b();
    auto truth = [&](int32_t x) {
        DType t = builder.dtype(x);
        return t == DType::Bool ? x : builder.compare("ne", x, builder.constant(0, t));
    };
    if (!anyDtype && (builder.dtype(a) != DType::Bool || builder.dtype(b) != DType::Bool))
        return {};
    return builder.binary(op, truth(a), truth(b), DType::Bool);
}

int32_t sigmoidOf(AtenBuilder& b, int32_t x) {
    DType t = b.dtype(x);
    int32_t e = b.unary("exp", b.unary("neg", x));
    return b.unary("reciprocal", b.binary("add", b.constant(1, t), e, t));
}

int32_t geluOf(AtenBuilder& b, int32_t x, bool tanhApprox) {
    DType t = b.dtype(x);
    auto k = [&](double v) { return b.constant(v, t); };
    int32_t inner = 0;
    if (tanhApprox) {
        int32_t cube = b.binary("mul", b.binary("mul", x, x, t), x, t);
        int32_t poly = b.binary("add", x, b.binary("mul", k(0.044715), cube, t), t);
        inner = b.unary("tanh", b.binary("mul", k(std::sqrt(2.0 / M_PI)), poly, t));
    } else {
        inner = b.unary("erf", b.binary("mul", x, k(M_SQRT1_2), t));
    }
    int32_t half = b.binary("mul", x, k(0.5), t);
    return b.binary("mul", half, b.binary("add", inner, k(1), t), t);
}

R whereRule(OpCall& c) {
    if (!c.bind({"condition", "input", "other"})) return {};
    auto cond = c.tensor("condition");
    int32_t a = 0, b = 0;
    if (!cond || c.b().dtype(*cond) != DType::Bool || !operands(c, "input", "other", a, b))
        return {};
    return c.b().toDtype(c.b().where(*cond, a, b), c.resultDtype());
}

R maskedFillRule(OpCall& c) {
    if (!c.bind({"input", "mask", "value"})) return {};
    auto x = c.tensor("input");
    auto mask = c.tensor("mask");
    if (!x || !mask || c.b().dtype(*mask) != DType::Bool) return {};
    auto v = c.tensor("value", c.b().dtype(*x));
    if (!v) return {};
    return c.b().where(*mask, c.b().toDtype(*v, c.b().dtype(*x)), *x);
}

R clampRule(OpCall& c, bool hasMin, bool hasMax) {
    if (!c.bind({"input", hasMin ? "min" : "_", hasMax ? "max" : "_"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    DType t = c.resultDtype();
    int32_t y = c.b().toDtype(*x, t);
    if (hasMin && !c.isNone("min")) {
        auto lo = c.tensor("min", t);
        if (!lo) return {};
        y = c.b().binary("maximum", y, *lo, t);
    }
    if (hasMax && !c.isNone("max")) {
        auto hi = c.tensor("max", t);
        if (!hi) return {};
        y = c.b().binary("minimum", y, *hi, t);
    }
    return y;
}

R toRule(OpCall& c) {
    // .to(dtype) / .to(dtype=...) only; device moves stay with the eager kernels.
    if (!c.bind({"input", "dtype", "non_blocking", "copy"})) return {};
    auto x = c.tensor("input");
    auto dt = c.dtypeArg("dtype");
    if (!x || !dt) return {};
    return c.b().toDtype(*x, *dt);
}

R castRule(OpCall& c, DType dtype) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    return x ? R(c.b().toDtype(*x, dtype)) : R();
}

/// addcmul / addcdiv: input + value * tensor1 * tensor2 (or / tensor2), in eager's order.
R addcRule(OpCall& c, const char* op) {
    if (!c.bind({"input", "tensor1", "tensor2", "value"})) return {};
    auto x = c.tensor("input"), t1 = c.tensor("tensor1"), t2 = c.tensor("tensor2");
    auto value = c.has("value") ? c.number("value") : std::optional<double>(1.0);
    DType t = c.resultDtype();
    if (!x || !t1 || !t2 || !value || !tensor::isFloating(t)) return {};
    AtenBuilder& b = c.b();
    int32_t scaled = b.binary("mul", b.constant(*value, t), *t1, t);
    return b.binary("add", *x, b.binary(op, scaled, *t2, t), t);
}

R identityRule(OpCall& c) {
    if (!c.bind({"input", "memory_format"})) return {};
    return c.tensor("input");
}

void addPointwiseRules(RuleTable& t) {
    for (const char* op : {"exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh",
                           "erf", "abs", "neg", "floor", "ceil", "round", "sign", "reciprocal"})
        t[op] = [op](OpCall& c) { return unaryRule(c, op); };
    t["negative"] = t["neg"];
    t["logical_not"] = [](OpCall& c) { return unaryRule(c, "logical_not"); };
    for (auto [name, op] :
         std::initializer_list<std::pair<const char*, const char*>>{{"add", "add"},
                                                                    {"sub", "sub"},
                                                                    {"subtract", "sub"},
                                                                    {"mul", "mul"},
                                                                    {"multiply", "mul"},
                                                                    {"truediv", "truediv"},
                                                                    {"div", "truediv"},
                                                                    {"divide", "truediv"},
                                                                    {"maximum", "maximum"},
                                                                    {"minimum", "minimum"}})
        t[name] = [op](OpCall& c) { return binaryRule(c, op); };
    for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"})
        t[op] = [op](OpCall& c) { return compareRule(c, op); };
    t["pow"] = powRule;
    t["addcmul"] = [](OpCall& c) { return addcRule(c, "mul"); };
    t["addcdiv"] = [](OpCall& c) { return addcRule(c, "truediv"); };
    t["mod"] = remainderRule;
    t["remainder"] = remainderRule;
    // On bools & and | are logical; on integers they are bitwise, which has no scalar op.
    for (auto [name, op] :
         std::initializer_list<std::pair<const char*, const char*>>{{"and_", "logical_and"},
                                                                    {"bitwise_and", "logical_and"},
                                                                    {"or_", "logical_or"},
                                                                    {"bitwise_or", "logical_or"}})
        t[name] = [op](OpCall& c) { return logicalRule(c, op, false); };
    t["logical_and"] = [](OpCall& c) { return logicalRule(c, "logical_and", true); };
    t["logical_or"] = [](OpCall& c) { return logicalRule(c, "logical_or", true); };
    t["sigmoid"] = [](OpCall& c) -> R {
        if (!c.bind({"input"})) return {};
        auto x = c.tensor("input");
        return x ? R(sigmoidOf(c.b(), c.b().toDtype(*x, c.resultDtype()))) : R();
    };
    t["relu"] = [](OpCall& c) -> R {
        if (!c.bind({"input", "inplace"})) return {};
        auto x = c.tensor("input");
        if (!x) return {};
        return c.b().binary("maximum", *x, c.b().constant(0, c.b().dtype(*x)), c.b().dtype(*x));
    };
    t["silu"] = [](OpCall& c) -> R {
        if (!c.bind({"input", "inplace"})) return {};
        auto x = c.tensor("input");
        if (!x || !tensor::isFloating(c.b().dtype(*x))) return {};
        return c.b().binary("mul", *x, sigmoidOf(c.b(), *x));
    };
    t["leaky_relu"] = [](OpCall& c) -> R {
        if (!c.bind({"input", "negative_slope", "inplace"})) return {};
        auto x = c.tensor("input");
        if (!x || !tensor::isFloating(c.b().dtype(*x)) || c.boolean("inplace").value_or(false))
            return {};
        DType t = c.b().dtype(*x);
        double slope = c.number("negative_slope").value_or(0.01);
        // x where x > 0, else x * slope: NaN stays NaN, -0.0 stays -0.0, as eager.
        int32_t positive = c.b().compare("gt", *x, c.b().constant(0, t));
        return c.b().where(positive, *x, c.b().binary("mul", *x, c.b().constant(slope, t), t));
    };
    t["gelu"] = [](OpCall& c) { return geluRule(c, false); };
    t["where"] = whereRule;
    t["masked_fill"] = maskedFillRule;
    t["clamp"] = [](OpCall& c) { return clampRule(c, true, true); };
    t["clip"] = t["clamp"];
    t["clamp_min"] = [](OpCall& c) { return clampRule(c, true, false); };
    t["clamp_max"] = [](OpCall& c) { return clampRule(c, false, true); };
}

} // namespace kiln::compiler::rules
