// SPDX-License-Identifier: MIT
// Decompositions of reductions and normalisations: sum/mean/amax/..., var/std (two
// passes), softmax/log_softmax, layer_norm.
#include "compiler/decompose_rules.h"
#include "compiler/fold_batch_norm.h"

#include <algorithm>
#include <cmath>

namespace kiln::compiler::rules {

/// dims of a reduction argument; every dim when it is None or missing.
std::optional<std::vector<int64_t>> reductionDims(OpCall& c, int32_t x) {
    if (c.isNone("dim")) return std::vector<int64_t>{};
    return c.dims("dim", c.b().rank(x));
}

R reduceRule(OpCall& c, const char* op) {
    if (!c.bind({"input", "dim", "keepdim", "dtype"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    auto dims = reductionDims(c, *x);
    if (!dims) return {};
    if (auto dt = c.dtypeArg("dtype")) x = c.b().toDtype(*x, *dt);
    if (c.b().rank(*x) == 0) return c.b().toDtype(*x, c.resultDtype());
    int32_t r = c.b().reduce(op, *x, *dims, c.boolean("keepdim").value_or(false));
    return c.b().toDtype(r, c.resultDtype());
}

int32_t meanOf(AtenBuilder& b, int32_t x, const std::vector<int64_t>& dims, bool keepdim) {
    DType t = b.dtype(x);
    return b.binary("truediv", b.reduce("sum", x, dims, keepdim), b.countOf(x, dims, t), t);
}

R meanRule(OpCall& c) {
    if (!c.bind({"input", "dim", "keepdim", "dtype"})) return {};
    auto x = c.tensor("input");
    auto dims = x ? reductionDims(c, *x) : std::nullopt;
    if (!dims || !tensor::isFloating(c.resultDtype())) return {};
    int32_t xf = c.b().toDtype(*x, c.resultDtype());
    if (c.b().rank(xf) == 0) return xf;
    return meanOf(c.b(), xf, *dims, c.boolean("keepdim").value_or(false));
}

/// Variance over dims with a correction (two passes: the mean, then squared deviations).
/// Variance over dims with a correction: Welford's m2 (one pass, stable) over the count.
int32_t varianceOf(AtenBuilder& b, int32_t x, const std::vector<int64_t>& dims, bool keepdim,
                   double correction) {
    DType t = b.dtype(x);
    int32_t m2 = b.reduce("welford_m2", x, dims, keepdim);
    int32_t count = b.countOf(x, dims, t);
    // max(0, n - correction): no elements (or correction >= n) gives inf or nan, as eager.
    if (correction != 0)
        count = b.binary("maximum", b.binary("sub", count, b.constant(correction, t), t),
                         b.constant(0, t), t);
    return b.binary("truediv", m2, count, t);
}

R varRule(OpCall& c, bool sqrtOfIt) {
    if (!c.bind({"input", "dim", "unbiased", "keepdim", "correction"})) return {};
    auto x = c.tensor("input");
    auto dims = x ? reductionDims(c, *x) : std::nullopt;
    if (!dims || !tensor::isFloating(c.b().dtype(*x))) return {};
    if (c.arg("unbiased") && !c.boolean("unbiased"))
        return {}; // var(x, [dims]) form: dims in unbiased
    double correction = c.boolean("unbiased").value_or(true) ? 1 : 0;
    if (auto k = c.number("correction")) correction = *k;
    int32_t v = varianceOf(c.b(), *x, *dims, c.boolean("keepdim").value_or(false), correction);
    return sqrtOfIt ? c.b().unary("sqrt", v) : v;
}

int32_t softmaxOf(AtenBuilder& b, int32_t x, int64_t dim, bool logarithm) {
    // Half-precision inputs compute in float32 (the row max and sum are never rounded), as
    // PyTorch's decomposition and its eager kernels do; the result is rounded once.
    DType result = b.dtype(x);
    bool half = result == DType::BFloat16 || result == DType::Float16;
    DType t = half ? DType::Float32 : result;
    if (half) x = b.toDtype(x, t);
    int32_t shifted = b.binary("sub", x, b.reduce("amax", x, {dim}, true), t);
    int32_t e = b.unary("exp", shifted);
    int32_t total = b.reduce("sum", e, {dim}, true);
    int32_t out = logarithm ? b.binary("sub", shifted, b.unary("log", total), t)
                            : b.binary("truediv", e, total, t);
    return half ? b.toDtype(out, result) : out;
}

R softmaxRule(OpCall& c, bool logarithm) {
    if (!c.bind({"input", "dim", "_stacklevel", "dtype"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    auto dim = c.dims("dim", c.b().rank(*x));
    if (!dim || dim->size() != 1) return {};
    int32_t xf = c.b().toDtype(*x, floatOf(c.resultDtype()));
    if (c.b().rank(xf) == 0) return {};
    return softmaxOf(c.b(), xf, (*dim)[0], logarithm);
}

int32_t layerNormOf(AtenBuilder& b, int32_t x, size_t normalizedDims, std::optional<int32_t> w,
                    std::optional<int32_t> bias, double eps) {
    DType t = b.dtype(x);
    std::vector<int64_t> dims;
    for (int64_t d = b.rank(x) - static_cast<int64_t>(normalizedDims); d < b.rank(x); ++d)
        dims.push_back(d);
    // Mean and m2 by Welford's update, as Inductor's var_mean: one pass each, and stable.
    int32_t centred = b.binary("sub", x, b.reduce("welford_mean", x, dims, true), t);
    int32_t var =
        b.binary("truediv", b.reduce("welford_m2", x, dims, true), b.countOf(x, dims, t), t);
    int32_t inv = b.unary("rsqrt", b.binary("add", var, b.constant(eps, t), t));
    int32_t y = b.binary("mul", centred, inv, t);
    if (w) y = b.binary("mul", y, b.toDtype(*w, t), t);
    if (bias) y = b.binary("add", y, b.toDtype(*bias, t), t);
    return y;
}

R layerNormRule(OpCall& c) {
    if (!c.bind({"input", "normalized_shape", "weight", "bias", "eps"})) return {};
    auto x = c.tensor("input");
    auto shape = c.sizes("normalized_shape");
    if (!x || !shape || shape->empty() || !tensor::isFloating(c.b().dtype(*x))) return {};
    std::optional<int32_t> w = c.isNone("weight") ? std::nullopt : c.tensor("weight");
    std::optional<int32_t> bias = c.isNone("bias") ? std::nullopt : c.tensor("bias");
    if ((!c.isNone("weight") && !w) || (!c.isNone("bias") && !bias)) return {};
    DType t = floatOf(c.b().dtype(*x));
    DType compute = t == DType::Float64 ? t : DType::Float32;
    int32_t y = layerNormOf(c.b(), c.b().toDtype(*x, compute), shape->size(), w, bias,
                            c.number("eps").value_or(1e-5));
    return c.b().toDtype(y, c.resultDtype());
}

R logsumexpRule(OpCall& c) {
    if (!c.bind({"input", "dim", "keepdim"})) return {};
    auto x = c.tensor("input");
    auto dims = x ? c.dims("dim", c.b().rank(*x)) : std::nullopt;
    if (!dims || dims->empty()) return {};
    AtenBuilder& b = c.b();
    int32_t xf = b.toDtype(*x, floatOf(c.resultDtype()));
    DType t = b.dtype(xf);
    // max + log(sum(exp(x - max))), with an infinite max taken as 0 so -inf rows give -inf.
    int32_t m = b.reduce("amax", xf, *dims, true);
    int32_t finite = b.compare("lt", b.unary("abs", m), b.constant(INFINITY, t));
    int32_t shift = b.where(finite, m, b.constant(0, t));
    int32_t total = b.reduce("sum", b.unary("exp", b.binary("sub", xf, shift, t)), *dims, true);
    int32_t out = b.binary("add", b.unary("log", total), shift, t);
    if (!c.boolean("keepdim").value_or(false)) {
        std::vector<int64_t> sorted = *dims;
        std::sort(sorted.rbegin(), sorted.rend());
        for (int64_t d : sorted)
            out = b.squeeze(out, d);
    }
    return out;
}

/// torch.max(x) / torch.min(x) (a tensor), or the elementwise form with a second tensor.
R extremeRule(OpCall& c, bool isMax) {
    if (!c.bind({"input", "other"})) return {};
    if (c.has("other") && !c.isNone("other")) {
        int32_t a = 0, b = 0;
        if (!operands(c, "input", "other", a, b)) return {};
        return c.b().binary(isMax ? "maximum" : "minimum", a, b, c.resultDtype());
    }
    auto x = c.tensor("input");
    if (!x || c.b().rank(*x) == 0) return x;
    return c.b().reduce(isMax ? "amax" : "amin", *x, {}, false);
}

/// x.max(dim) / x.min(dim): (values, indices).
std::optional<std::vector<int32_t>> extremeWithIndices(OpCall& c, bool isMax) {
    if (!c.bind({"input", "dim", "keepdim"})) return {};
    auto x = c.tensor("input");
    auto dim = x ? c.dims("dim", c.b().rank(*x)) : std::nullopt;
    if (!dim || dim->size() != 1 || c.b().rank(*x) == 0) return {};
    bool keep = c.boolean("keepdim").value_or(false);
    int32_t values = c.b().reduce(isMax ? "amax" : "amin", *x, *dim, keep);
    int32_t indices = c.b().reduce(isMax ? "argmax" : "argmin", *x, *dim, keep);
    return std::vector<int32_t>{values, indices};
}

void addTupleReductionRules(TupleRuleTable& t) {
    t["max"] = [](OpCall& c) { return extremeWithIndices(c, true); };
    t["min"] = [](OpCall& c) { return extremeWithIndices(c, false); };
}

/// any/all: the truth of every element, reduced with or/and.
R truthRule(OpCall& c, const char* op) {
    if (!c.bind({"input", "dim", "keepdim"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    auto dims = reductionDims(c, *x);
    if (!dims) return {};
    int32_t truth = c.b().toDtype(*x, DType::Bool);
    int32_t r = c.b().rank(truth) == 0
                    ? truth
                    : c.b().reduce(op, truth, *dims, c.boolean("keepdim").value_or(false));
    // Of a uint8 tensor the result is uint8, as eager's (tensor::any).
    return c.b().dtype(*x) == DType::UInt8 ? c.b().toDtype(r, DType::UInt8) : r;
}

/// torch.norm / Tensor.norm over dims: p = 2 ("fro", the default), 1, inf, -inf or another
/// positive p, accumulated in float32 for half-precision inputs.
R normRule(OpCall& c) {
    if (!c.bind({"input", "p", "dim", "keepdim", "out", "dtype"}) || !c.isNone("out")) return {};
    auto x = c.tensor("input");
    auto dims = x ? reductionDims(c, *x) : std::nullopt;
    DType result = c.resultDtype();
    if (!dims || !tensor::isFloating(result) || (c.has("dtype") && !c.isNone("dtype"))) return {};
    double p = 2;
    if (c.has("p") && !c.isNone("p")) {
        std::optional<std::string> name = c.text("p");
        std::optional<double> value = c.number("p");
        if (name && *name == "fro")
            p = 2;
        else if (value)
            p = *value;
        else
            return {};
    }
    if (!(p > 0) && p != -INFINITY) return {}; // p = 0 counts; negative p: rarely used
    AtenBuilder& b = c.b();
    DType t = result == DType::Float64 ? DType::Float64 : DType::Float32;
    bool keepdim = c.boolean("keepdim").value_or(false);
    int32_t magnitude = b.unary("abs", b.toDtype(*x, t));
    if (b.rank(*x) == 0) return b.toDtype(magnitude, result);
    int32_t r = 0;
    if (p == INFINITY || p == -INFINITY) {
        r = b.reduce(p > 0 ? "amax" : "amin", magnitude, *dims, keepdim);
    } else if (p == 1) {
        r = b.reduce("sum", magnitude, *dims, keepdim);
    } else if (p == 2) {
        r = b.unary("sqrt",
                    b.reduce("sum", b.binary("mul", magnitude, magnitude, t), *dims, keepdim));
    } else {
        int32_t powered = b.binary("pow", magnitude, b.constant(p, t), t);
        r = b.binary("pow", b.reduce("sum", powered, *dims, keepdim), b.constant(1 / p, t), t);
    }
    return b.toDtype(r, result);
}

/// batch_norm from running statistics (eval mode): per channel (dim 1),
/// (x - mean) * rsqrt(var + eps) * weight + bias. Pointwise, so it fuses with the ReLU or the
/// residual add around it (Inductor's default decomposition too); under freezing, folded into
/// the convolution before it where it can be (fold_batch_norm.h).
R batchNormEvalOf(OpCall& c, int32_t x, int32_t mean, int32_t var, std::optional<int32_t> weight,
                  std::optional<int32_t> bias, double eps) {
    AtenBuilder& b = c.b();
    int64_t rank = b.rank(x);
    if (rank < 2 || !tensor::isFloating(b.dtype(x))) return {};
    if (auto folded = foldBatchNormIntoConvolution(c, {x, mean, var, weight, bias, eps}))
        return folded;
    DType t = b.dtype(x) == DType::Float64 ? DType::Float64 : DType::Float32;
    std::vector<Index> channel(static_cast<size_t>(rank), constant(1));
    channel[1] = b.sizes(x)[1];
    auto perChannel = [&](int32_t v) { return b.view(b.toDtype(v, t), channel); };
    int32_t inv = b.unary("rsqrt", b.binary("add", perChannel(var), b.constant(eps, t), t));
    int32_t y = b.binary("mul", b.binary("sub", b.toDtype(x, t), perChannel(mean), t), inv, t);
    if (weight) y = b.binary("mul", y, perChannel(*weight), t);
    if (bias) y = b.binary("add", y, perChannel(*bias), t);
    return b.toDtype(y, c.resultDtype());
}

/// The running statistics a batch norm in training mode updates in place, and by how much.
struct RunningStatistics {
    int32_t mean = -1, var = -1;
    /// PyTorch's momentum; none: the cumulative average, 1 / num_batches_tracked.
    std::optional<double> momentum;
    std::optional<int32_t> batchesTracked; ///< num_batches_tracked, incremented first
};

/// running = (1 - factor) * running + factor * batch, as PyTorch's kernel computes it, written
/// into the running tensor (a graph mutation, AtenGraph::mutations).
void updateRunning(AtenBuilder& b, int32_t running, int32_t batch, int32_t factor) {
    DType t = b.dtype(running);
    int32_t keep = b.binary("sub", b.constant(1, t), factor, t);
    int32_t next = b.binary("add", b.binary("mul", factor, b.toDtype(batch, t), t),
                            b.binary("mul", keep, running, t), t);
    b.writeInto(running, next);
}

/// batch_norm in training mode (or without running statistics): normalised by the batch's
/// statistics over every dim but the channels (dim 1), with the biased variance. The running
/// statistics, when given, are updated with the unbiased one (n / (n - 1)), as PyTorch does.
R batchNormTrainingOf(OpCall& c, int32_t x, const std::optional<RunningStatistics>& running,
                      std::optional<int32_t> weight, std::optional<int32_t> bias, double eps) {
    AtenBuilder& b = c.b();
    int64_t rank = b.rank(x);
    if (rank < 2 || !tensor::isFloating(b.dtype(x))) return {};
    std::vector<int64_t> dims{0};
    for (int64_t d = 2; d < rank; ++d)
        dims.push_back(d);
    DType t = b.dtype(x) == DType::Float64 ? DType::Float64 : DType::Float32;
    int32_t xt = b.toDtype(x, t);
    int32_t count = b.countOf(xt, dims, t);
    // Eager raises "Expected more than 1 value per channel when training": so does the fallback.
    if (const AtenNode& n = b.node(count); n.op == "constant" && n.scalar <= 1) return {};
    int32_t mean = b.reduce("welford_mean", xt, dims, true);
    int32_t m2 = b.reduce("welford_m2", xt, dims, true);
    int32_t inv =
        b.unary("rsqrt", b.binary("add", b.binary("truediv", m2, count, t), b.constant(eps, t), t));
    int32_t y = b.binary("mul", b.binary("sub", xt, mean, t), inv, t);
    std::vector<Index> channel(static_cast<size_t>(rank), constant(1));
    channel[1] = b.sizes(x)[1];
    auto perChannel = [&](int32_t v) { return b.view(b.toDtype(v, t), channel); };
    if (weight) y = b.binary("mul", y, perChannel(*weight), t);
    if (bias) y = b.binary("add", y, perChannel(*bias), t);
    int32_t result = b.toDtype(y, c.resultDtype());
    if (!running) return result;
    if (!b.writable(running->mean) || !b.writable(running->var) ||
        (running->batchesTracked && !b.writable(*running->batchesTracked)))
        return {}; // statistics computed in the graph: nothing to write them into

    std::vector<Index> flat{b.sizes(x)[1]};
    int32_t factor = -1;
    DType statType = b.dtype(running->mean);
    if (running->batchesTracked) {
        int32_t tracked = *running->batchesTracked;
        int32_t next = b.binary("add", tracked, b.constant(1, b.dtype(tracked)), b.dtype(tracked));
        b.writeInto(tracked, next);
        if (!running->momentum) // 1.0 / float(num_batches_tracked), in double as PyTorch's
            factor = b.toDtype(b.binary("truediv", b.constant(1, DType::Float64),
                                        b.toDtype(next, DType::Float64), DType::Float64),
                               statType);
    }
    if (factor < 0) factor = b.constant(running->momentum.value_or(0), statType);
    int32_t unbiased = b.binary("truediv", m2, b.binary("sub", count, b.constant(1, t), t), t);
    updateRunning(b, running->mean, b.view(mean, flat), factor);
    updateRunning(b, running->var, b.view(unbiased, flat), factor);
    return result;
}

R batchNormModule(OpCall& c) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    lang::Value training = c.moduleAttr("training");
    lang::Value eps = c.moduleAttr("eps");
    lang::Value momentum = c.moduleAttr("momentum");
    auto mean = c.moduleTensor("running_mean");
    auto var = c.moduleTensor("running_var");
    if (!x || !eps.isNumber() || !training.isIntLike() ||
        (!momentum.isNumber() && !momentum.isNone()))
        return {};
    auto weight = c.moduleTensor("weight");
    auto bias = c.moduleTensor("bias");
    if (training.asInt() == 0 && mean && var)
        return batchNormEvalOf(c, *x, *mean, *var, weight, bias, eps.toDouble());
    std::optional<RunningStatistics> running;
    if (training.asInt() != 0 && mean && var) {
        running =
            RunningStatistics{*mean, *var, std::nullopt, c.moduleTensor("num_batches_tracked")};
        if (momentum.isNumber()) running->momentum = momentum.toDouble();
        if (!running->momentum && !running->batchesTracked)
            return {}; // PyTorch's factor is then 0.0; too rare to spell out
    }
    return batchNormTrainingOf(c, *x, running, weight, bias, eps.toDouble());
}

R batchNormRule(OpCall& c) {
    if (!c.bind({"input", "running_mean", "running_var", "weight", "bias", "training", "momentum",
                 "eps"}))
        return {};
    auto x = c.tensor("input");
    auto mean = c.tensor("running_mean");
    auto var = c.tensor("running_var");
    auto weight = c.tensor("weight");
    auto bias = c.tensor("bias");
    double eps = c.number("eps").value_or(1e-5);
    if (!x) return {};
    bool training = c.boolean("training").value_or(false);
    if (!training) {
        if (!mean || !var) return {};
        return batchNormEvalOf(c, *x, *mean, *var, weight, bias, eps);
    }
    std::optional<RunningStatistics> running;
    if ((!c.isNone("running_mean") && !mean) || (!c.isNone("running_var") && !var) ||
        (mean.has_value() != var.has_value()))
        return {};
    if (mean) {
        auto momentum = c.number("momentum");
        if (!momentum) return {}; // None: PyTorch's factor is then 0.0; too rare to spell out
        running = RunningStatistics{*mean, *var, *momentum, {}};
    }
    return batchNormTrainingOf(c, *x, running, weight, bias, eps);
}

void addReductionRules(RuleTable& t) {
    t["batch_norm"] = batchNormRule;
    t["BatchNorm1d"] = batchNormModule;
    t["BatchNorm2d"] = batchNormModule;
    t["norm"] = normRule;
    t["any"] = [](OpCall& c) { return truthRule(c, "any"); };
    t["all"] = [](OpCall& c) { return truthRule(c, "all"); };
    t["logsumexp"] = logsumexpRule;
    t["max"] = [](OpCall& c) { return extremeRule(c, true); };
    t["min"] = [](OpCall& c) { return extremeRule(c, false); };
    for (const char* op : {"sum", "prod", "amax", "amin", "argmax", "argmin"})
        t[op] = [op](OpCall& c) { return reduceRule(c, op); };
    t["mean"] = meanRule;
    t["var"] = [](OpCall& c) { return varRule(c, false); };
    t["std"] = [](OpCall& c) { return varRule(c, true); };
    t["softmax"] = [](OpCall& c) { return softmaxRule(c, false); };
    t["log_softmax"] = [](OpCall& c) { return softmaxRule(c, true); };
    t["layer_norm"] = layerNormRule;
}

} // namespace kiln::compiler::rules
