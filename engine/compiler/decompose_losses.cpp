// SPDX-License-Identifier: MIT
// Decompositions of the losses, called as functions (F.mse_loss, F.cross_entropy, ...) or as
// modules (nn.MSELoss, nn.CrossEntropyLoss, ...): the same formulas, the module's settings
// (reduction, ignore_index, ...) read from its attributes. Weighted forms and the deprecated
// size_average/reduce flags run eagerly (a fallback).
#include "compiler/decompose_rules.h"

namespace kiln::compiler::rules {

namespace {

/// An elementwise loss reduced by `reduction` ("mean", "sum" or "none").
R reducedLoss(AtenBuilder& b, int32_t loss, const std::string& reduction) {
    std::vector<int64_t> all;
    for (int64_t i = 0; i < b.rank(loss); ++i)
        all.push_back(i);
    if (reduction == "none") return loss;
    if (reduction == "sum") return b.reduce("sum", loss, all, false);
    if (reduction == "mean") return meanOf(b, loss, all, false);
    return {};
}

/// The input and target have the same sizes (eager broadcasts others, with a warning).
bool sameSizes(AtenBuilder& b, int32_t x, int32_t y) {
    const std::vector<Index>& sx = b.sizes(x);
    const std::vector<Index>& sy = b.sizes(y);
    if (sx.size() != sy.size()) return false;
    for (size_t i = 0; i < sx.size(); ++i)
        if (!equal(sx[i], sy[i])) return false;
    return true;
}

/// (input - target)^2.
R mseLossOf(OpCall& c, int32_t x, int32_t y, const std::string& reduction) {
    AtenBuilder& b = c.b();
    DType t = c.resultDtype();
    if (!tensor::isFloating(t) || !sameSizes(b, x, y)) return {};
    int32_t d = b.binary("sub", b.toDtype(x, t), b.toDtype(y, t), t);
    return reducedLoss(b, b.binary("mul", d, d, t), reduction);
}

/// -(t log p + (1 - t) log(1 - p)), each log clamped at -100 as eager (and Inductor's
/// decomposition) does. Eager checks 0 <= p <= 1 first: the compiled code cannot raise, so p
/// outside [0, 1] gives nan here (as Inductor's does).
R binaryCrossEntropyOf(OpCall& c, int32_t p, int32_t y, const std::string& reduction) {
    AtenBuilder& b = c.b();
    DType t = c.resultDtype();
    if (!tensor::isFloating(t) || !sameSizes(b, p, y)) return {};
    const int32_t pt = b.toDtype(p, t), yt = b.toDtype(y, t);
    const int32_t one = b.constant(1, t), floor = b.constant(-100, t);
    auto clampedLog = [&](int32_t x) { return b.binary("maximum", b.unary("log", x), floor, t); };
    const int32_t pos = b.binary("mul", yt, clampedLog(pt), t);
    const int32_t neg =
        b.binary("mul", b.binary("sub", one, yt, t), clampedLog(b.binary("sub", one, pt, t)), t);
    return reducedLoss(b, b.unary("neg", b.binary("add", pos, neg, t)), reduction);
}

/// (1 - t) x + log1p(exp(-|x|)) + max(-x, 0), as eager computes it (no exp overflows).
R binaryCrossEntropyWithLogitsOf(OpCall& c, int32_t x, int32_t y, const std::string& reduction) {
    AtenBuilder& b = c.b();
    DType t = c.resultDtype();
    if (!tensor::isFloating(t) || !sameSizes(b, x, y)) return {};
    const int32_t xt = b.toDtype(x, t), yt = b.toDtype(y, t);
    const int32_t one = b.constant(1, t), zero = b.constant(0, t);
    const int32_t softplusOfNeg =
        b.binary("add", b.unary("log1p", b.unary("exp", b.unary("neg", b.unary("abs", xt)))),
                 b.binary("maximum", b.unary("neg", xt), zero, t), t);
    const int32_t linear = b.binary("mul", b.binary("sub", one, yt, t), xt, t);
    return reducedLoss(b, b.binary("add", linear, softplusOfNeg, t), reduction);
}

/// cross_entropy of [N, C] logits and [N] class indices: logsumexp(x_i) - x_i[t_i], averaged
/// (or summed) over the targets that are not ignore_index.
R crossEntropyOf(OpCall& c, int32_t x, int32_t target, int64_t ignore,
                 const std::string& reduction) {
    AtenBuilder& b = c.b();
    if (b.rank(x) != 2 || b.rank(target) != 1 || tensor::isFloating(b.dtype(target))) return {};
    if (reduction != "mean" && reduction != "sum" && reduction != "none") return {};
    DType t = floatOf(b.dtype(x));
    int32_t xf = b.toDtype(x, t);
    int32_t valid =
        b.compare("ne", target, b.constant(static_cast<double>(ignore), b.dtype(target)));
    // Ignored targets gather position 0 (in range) and are masked out after.
    int32_t position = b.where(valid, target, b.constant(0, b.dtype(target)));
    int32_t m = b.reduce("amax", xf, {1}, true);
    int32_t lse = b.binary(
        "add",
        b.unary("log", b.reduce("sum", b.unary("exp", b.binary("sub", xf, m, t)), {1}, true)), m,
        t);
    int32_t picked = b.gatherLast(xf, b.unsqueeze(position, 1));
    int32_t loss = b.squeeze(b.binary("sub", lse, picked, t), 1);
    loss = b.where(valid, loss, b.constant(0, t));
    if (reduction == "none") return loss;
    int32_t total = b.reduce("sum", loss, {}, false);
    if (reduction == "sum") return total;
    int32_t count = b.reduce("sum", b.toDtype(valid, t), {}, false);
    return b.binary("truediv", total, count, t);
}

using LossOf = R (*)(OpCall&, int32_t, int32_t, const std::string&);

/// F.<loss>(input, target, [weight,] size_average, reduce, reduction[, pos_weight]).
R lossFunction(OpCall& c, std::initializer_list<const char*> params, LossOf loss) {
    if (!c.bind(params)) return {};
    auto x = c.tensor("input");
    auto y = c.tensor("target");
    for (const char* optional : {"weight", "size_average", "reduce", "pos_weight"})
        if (c.has(optional) && !c.isNone(optional)) return {};
    if (!x || !y) return {};
    return loss(c, *x, *y, c.text("reduction").value_or("mean"));
}

/// nn.<Loss>()(input, target): the reduction is the module's; weight buffers run eagerly.
R lossModule(OpCall& c, LossOf loss) {
    if (!c.bind({"input", "target"})) return {};
    auto x = c.tensor("input");
    auto y = c.tensor("target");
    lang::Value reduction = c.moduleAttr("reduction");
    for (const char* buffer : {"weight", "pos_weight"})
        if (c.moduleAttr(buffer).isTensor()) return {};
    if (!x || !y || !reduction.is(lang::ObjectKind::Str)) return {};
    return loss(c, *x, *y, reduction.as<lang::StrObject>()->str());
}

R crossEntropyFunction(OpCall& c) {
    if (!c.bind({"input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction",
                 "label_smoothing"}))
        return {};
    auto x = c.tensor("input");
    auto target = c.tensor("target");
    if (!x || !target || !c.isNone("weight") || c.number("label_smoothing").value_or(0) != 0)
        return {};
    return crossEntropyOf(c, *x, *target, c.integer("ignore_index").value_or(-100),
                          c.text("reduction").value_or("mean"));
}

R crossEntropyModule(OpCall& c) {
    if (!c.bind({"input", "target"})) return {};
    auto x = c.tensor("input");
    auto target = c.tensor("target");
    lang::Value reduction = c.moduleAttr("reduction");
    lang::Value ignore = c.moduleAttr("ignore_index");
    lang::Value smoothing = c.moduleAttr("label_smoothing");
    if (!x || !target || c.moduleAttr("weight").isTensor() || !ignore.isIntLike() ||
        !reduction.is(lang::ObjectKind::Str) || !smoothing.isNumber() || smoothing.toDouble() != 0)
        return {};
    return crossEntropyOf(c, *x, *target, ignore.asInt(), reduction.as<lang::StrObject>()->str());
}

} // namespace

void addLossRules(RuleTable& t) {
    static const std::initializer_list<const char*> plain = {"input", "target", "size_average",
                                                             "reduce", "reduction"};
    static const std::initializer_list<const char*> weighted = {
        "input", "target", "weight", "size_average", "reduce", "reduction"};
    t["mse_loss"] = [](OpCall& c) { return lossFunction(c, plain, mseLossOf); };
    t["binary_cross_entropy"] = [](OpCall& c) {
        return lossFunction(c, weighted, binaryCrossEntropyOf);
    };
    t["binary_cross_entropy_with_logits"] = [](OpCall& c) {
        return lossFunction(
            c, {"input", "target", "weight", "size_average", "reduce", "reduction", "pos_weight"},
            binaryCrossEntropyWithLogitsOf);
    };
    t["cross_entropy"] = crossEntropyFunction;
    t["MSELoss"] = [](OpCall& c) { return lossModule(c, mseLossOf); };
    t["BCELoss"] = [](OpCall& c) { return lossModule(c, binaryCrossEntropyOf); };
    t["BCEWithLogitsLoss"] = [](OpCall& c) {
        return lossModule(c, binaryCrossEntropyWithLogitsOf);
    };
    t["CrossEntropyLoss"] = crossEntropyModule;
}

} // namespace kiln::compiler::rules
