// SPDX-License-Identifier: MIT
// The decompositions: one rule per op name the captured graphs use (functions, methods,
// operators and nn modules), each written in core ops. A rule returning nullopt leaves the op to
// the eager kernels.
#include "compiler/decompose_context.h"
#include "lang/objects.h"
#include "lang/types.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace kiln::compiler {

namespace {

using R = std::optional<int32_t>;
using tensor::DType;

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
int32_t varianceOf(AtenBuilder& b, int32_t x, const std::vector<int64_t>& dims, bool keepdim,
                   double correction) {
    DType t = b.dtype(x);
    int32_t centred = b.binary("sub", x, meanOf(b, x, dims, true), t);
    int32_t squares = b.reduce("sum", b.binary("mul", centred, centred, t), dims, keepdim);
    int32_t count = b.countOf(x, dims, t);
    if (correction != 0) count = b.binary("sub", count, b.constant(correction, t), t);
    return b.binary("truediv", squares, count, t);
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
    DType t = b.dtype(x);
    int32_t shifted = b.binary("sub", x, b.reduce("amax", x, {dim}, true), t);
    int32_t e = b.unary("exp", shifted);
    int32_t total = b.reduce("sum", e, {dim}, true);
    if (logarithm) return b.binary("sub", shifted, b.unary("log", total), t);
    return b.binary("truediv", e, total, t);
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
    int32_t centred = b.binary("sub", x, meanOf(b, x, dims, true), t);
    int32_t var =
        b.binary("truediv", b.reduce("sum", b.binary("mul", centred, centred, t), dims, true),
                 b.countOf(x, dims, t), t);
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

/// x [..., K] @ w[N, K]^T (+ bias) as a matrix product on the flattened rows.
R linearOf(AtenBuilder& b, int32_t x, int32_t w, std::optional<int32_t> bias) {
    if (b.rank(w) != 2 || b.rank(x) < 1) return {};
    std::vector<Index> lead(b.sizes(x).begin(), b.sizes(x).end() - 1);
    Index k = b.sizes(x).back();
    int32_t rows = b.view(x, {product(lead), k});
    int32_t wt = b.permute(w, {1, 0});
    int32_t out = bias && b.rank(*bias) == 1 ? b.addmm(*bias, rows, wt, 1, 1) : b.mm(rows, wt);
    if (bias && b.rank(*bias) != 1) out = b.binary("add", out, *bias);
    lead.push_back(b.sizes(w)[0]);
    return b.view(out, lead);
}

R matmulRule(OpCall& c) {
    if (!c.bind({"input", "other"})) return {};
    auto a = c.tensor("input");
    auto m = c.tensor("other");
    if (!a || !m || !tensor::isFloating(c.b().dtype(*a)) || c.b().dtype(*a) != c.b().dtype(*m))
        return {};
    AtenBuilder& b = c.b();
    int64_t ra = b.rank(*a), rb = b.rank(*m);
    if (ra == 2 && rb == 2) return b.mm(*a, *m);
    if (ra >= 3 && rb == 2) {
        std::vector<Index> lead(b.sizes(*a).begin(), b.sizes(*a).end() - 1);
        int32_t rows = b.view(*a, {product(lead), b.sizes(*a).back()});
        lead.push_back(b.sizes(*m)[1]);
        return b.view(b.mm(rows, *m), lead);
    }
    if (ra == 3 && rb == 3) return b.bmm(*a, *m);
    if (ra == rb && ra > 3) {
        std::vector<Index> batch(b.sizes(*a).begin(), b.sizes(*a).end() - 2);
        if (!equal(product(batch),
                   product(std::vector<Index>(b.sizes(*m).begin(), b.sizes(*m).end() - 2))))
            return {};
        Index n = product(batch);
        int32_t a3 = b.view(*a, {n, b.sizes(*a)[ra - 2], b.sizes(*a)[ra - 1]});
        int32_t m3 = b.view(*m, {n, b.sizes(*m)[rb - 2], b.sizes(*m)[rb - 1]});
        batch.push_back(b.sizes(*a)[ra - 2]);
        batch.push_back(b.sizes(*m)[rb - 1]);
        return b.view(b.bmm(a3, m3), batch);
    }
    return {};
}

R viewRule(OpCall& c) {
    if (!c.bind({"input", "*shape"})) return {};
    auto x = c.tensor("input");
    auto shape = c.sizes("shape");
    if (!x || !shape) return {};
    // -1 takes what is left of the element count.
    Index known = constant(1);
    int minusOne = -1;
    for (size_t i = 0; i < shape->size(); ++i) {
        int64_t v = 0;
        if (isConstant((*shape)[i], &v) && v == -1)
            minusOne = static_cast<int>(i);
        else
            known = known * (*shape)[i];
    }
    if (minusOne >= 0)
        (*shape)[static_cast<size_t>(minusOne)] = floorDiv(product(c.b().sizes(*x)), known);
    return c.b().view(*x, *shape);
}

R permuteRule(OpCall& c) {
    if (!c.bind({"input", "*dims"})) return {};
    auto x = c.tensor("input");
    auto dims = x ? c.dims("dims", c.b().rank(*x)) : std::nullopt;
    if (!dims || static_cast<int64_t>(dims->size()) != c.b().rank(*x)) return {};
    return c.b().permute(*x, *dims);
}

R transposeRule(OpCall& c) {
    if (!c.bind({"input", "dim0", "dim1"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    int64_t rank = c.b().rank(*x);
    auto d0 = normaliseDim(c.integer("dim0").value_or(99), rank);
    auto d1 = normaliseDim(c.integer("dim1").value_or(99), rank);
    if (!d0 || !d1 || rank == 0) return {};
    return c.b().transpose(*x, *d0, *d1);
}

R tRule(OpCall& c) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    if (!x || c.b().rank(*x) > 2) return {};
    return c.b().rank(*x) < 2 ? *x : c.b().transpose(*x, 0, 1);
}

R unsqueezeRule(OpCall& c) {
    if (!c.bind({"input", "dim"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    auto d = normaliseDim(c.integer("dim").value_or(999), c.b().rank(*x) + 1);
    if (!d) return {};
    return c.b().unsqueeze(*x, *d);
}

R squeezeRule(OpCall& c) {
    if (!c.bind({"input", "dim"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    std::vector<Index> kept;
    auto d = c.isNone("dim") ? std::nullopt : c.dims("dim", c.b().rank(*x));
    if (!c.isNone("dim") && !d) return {};
    for (int64_t i = 0; i < c.b().rank(*x); ++i) {
        const Index& s = c.b().sizes(*x)[static_cast<size_t>(i)];
        int64_t v = 0;
        bool one = isConstant(s, &v) && v == 1;
        bool selected = !d || std::find(d->begin(), d->end(), i) != d->end();
        if (!(one && selected)) kept.push_back(s);
    }
    return c.b().view(*x, kept);
}

R flattenRule(OpCall& c) {
    if (!c.bind({"input", "start_dim", "end_dim"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    int64_t rank = c.b().rank(*x);
    if (rank == 0) return c.b().view(*x, {constant(1)});
    auto s = normaliseDim(c.integer("start_dim").value_or(0), rank);
    auto e = normaliseDim(c.integer("end_dim").value_or(-1), rank);
    if (!s || !e || *s > *e) return {};
    const auto& in = c.b().sizes(*x);
    std::vector<Index> out(in.begin(), in.begin() + *s);
    out.push_back(product(std::vector<Index>(in.begin() + *s, in.begin() + *e + 1)));
    out.insert(out.end(), in.begin() + *e + 1, in.end());
    return c.b().view(*x, out);
}

R expandRule(OpCall& c) {
    if (!c.bind({"input", "*sizes"})) return {};
    auto x = c.tensor("input");
    auto sizes = c.sizes("sizes");
    if (!x || !sizes || sizes->size() < static_cast<size_t>(c.b().rank(*x))) return {};
    size_t lead = sizes->size() - static_cast<size_t>(c.b().rank(*x));
    for (size_t i = lead; i < sizes->size(); ++i) {
        int64_t v = 0;
        if (isConstant((*sizes)[i], &v) && v == -1) (*sizes)[i] = c.b().sizes(*x)[i - lead];
    }
    return c.b().expand(*x, *sizes);
}

/// x[start::step] on a dim of symbolic size: a non-negative start, no stop, a positive step.
std::optional<int32_t> symbolicSlice(AtenBuilder& b, int32_t x, int64_t dim, const lang::Value& v) {
    if (!v.is(lang::ObjectKind::Slice)) return std::nullopt;
    auto* s = v.as<lang::SliceObject>();
    int64_t start = s->start.isNone() ? 0 : (s->start.isIntLike() ? s->start.asInt() : -1);
    int64_t step = s->step.isNone() ? 1 : (s->step.isIntLike() ? s->step.asInt() : 0);
    if (start < 0 || step <= 0 || !s->stop.isNone()) return std::nullopt;
    if (start == 0 && step == 1) return x;
    return b.slice(x, dim, constant(start), b.sizes(x)[static_cast<size_t>(dim)], step);
}

/// x[...] with ints, slices with constant bounds, None and one Ellipsis.
R getitemRule(OpCall& c) {
    if (!c.bind({"input", "index"})) return {};
    auto x = c.tensor("input");
    const graph::Arg* index = c.arg("index");
    if (!x || !index) return {};
    std::vector<lang::Value> items;
    if (index->kind == graph::Arg::Kind::Constant && index->constant.is(lang::ObjectKind::Tuple))
        items = index->constant.as<lang::TupleObject>()->items;
    else if (index->kind == graph::Arg::Kind::Constant)
        items = {index->constant};
    else
        return {};
    AtenBuilder& b = c.b();
    int32_t cur = *x;
    int64_t dim = 0;
    size_t specified = 0;
    for (const lang::Value& v : items)
        if (!v.isNone() && !v.identical(lang::ellipsisValue())) ++specified;
    for (const lang::Value& v : items) {
        if (v.identical(lang::ellipsisValue())) {
            dim += b.rank(cur) - dim - static_cast<int64_t>(specified);
            continue;
        }
        if (v.isNone()) {
            cur = b.unsqueeze(cur, dim++);
            continue;
        }
        if (dim >= b.rank(cur)) return {};
        int64_t size = 0;
        if (!isConstant(b.sizes(cur)[static_cast<size_t>(dim)], &size)) {
            // A symbolic size: slices from a known start to the end ("x[1:]", "x[::2]").
            auto next = symbolicSlice(b, cur, dim, v);
            if (!next) return {};
            cur = *next;
            ++dim;
            --specified;
            continue;
        }
        if (v.isIntLike()) {
            int64_t i = v.asInt() < 0 ? v.asInt() + size : v.asInt();
            if (i < 0 || i >= size) return {};
            cur = b.squeeze(b.slice(cur, dim, constant(i), constant(i + 1), 1), dim);
            --specified;
            continue;
        }
        if (!v.is(lang::ObjectKind::Slice)) return {};
        auto* s = v.as<lang::SliceObject>();
        auto bound = [&](const lang::Value& bv, int64_t dflt) -> std::optional<int64_t> {
            if (bv.isNone()) return dflt;
            if (!bv.isIntLike()) return std::nullopt;
            int64_t i = bv.asInt() < 0 ? bv.asInt() + size : bv.asInt();
            return std::clamp<int64_t>(i, 0, size);
        };
        auto step =
            s->step.isNone()
                ? std::optional<int64_t>(1)
                : (s->step.isIntLike() ? std::optional<int64_t>(s->step.asInt()) : std::nullopt);
        auto start = bound(s->start, 0), stop = bound(s->stop, size);
        if (!step || *step <= 0 || !start || !stop) return {};
        stop = std::max(*stop, *start);
        if (*start != 0 || *stop != size || *step != 1)
            cur = b.slice(cur, dim, constant(*start), constant(*stop), *step);
        ++dim;
        --specified;
    }
    return cur;
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

R identityRule(OpCall& c) {
    if (!c.bind({"input", "memory_format"})) return {};
    return c.tensor("input");
}

// --- random ops: kernel code generating from the graph's per-call seed, unless fallback_random
// leaves them to the eager kernels (a rule returning nullopt).

/// Whether a factory's device= / layout= / pin_memory= / generator= / out= arguments are ones
/// the kernels honour (CPU, strided, no generator or out tensor of the caller's).
bool plainFactoryArgs(OpCall& c) {
    if (c.has("device") && !c.isNone("device") && c.text("device").value_or("") != "cpu")
        return false;
    if (c.has("pin_memory") && c.boolean("pin_memory").value_or(true)) return false;
    return c.isNone("generator") && c.isNone("out") && c.isNone("layout");
}

/// torch.rand(*size) / torch.randn(*size), dtype= or the default float dtype.
R randomRule(OpCall& c, bool normal) {
    if (!c.b().compilesRandom()) return {};
    if (!c.bind({"*size", "generator", "out", "dtype", "layout", "device", "requires_grad",
                 "pin_memory"}))
        return {};
    auto sizes = c.sizes("size");
    DType t = c.resultDtype();
    if (!sizes || !tensor::isFloating(t) || !plainFactoryArgs(c)) return {};
    return c.b().random(normal, *sizes, t);
}

/// torch.rand_like(x) / torch.randn_like(x): x's sizes, x's dtype or dtype=.
R randomLikeRule(OpCall& c, bool normal) {
    if (!c.b().compilesRandom()) return {};
    if (!c.bind(
            {"input", "dtype", "layout", "device", "requires_grad", "memory_format", "pin_memory"}))
        return {};
    auto x = c.tensor("input");
    DType t = c.resultDtype();
    if (!x || !tensor::isFloating(t) || !plainFactoryArgs(c)) return {};
    return c.b().random(normal, c.b().sizes(*x), t);
}

/// Dropout in training: x * (1 / (1 - p)) where a uniform draw is >= p (probability 1 - p),
/// else x * 0, as eager's kernel computes it (the scale in the compute type; a dropped -x or NaN
/// gives -0 or NaN there too).
R dropoutOf(OpCall& c, int32_t x, double p, bool training, bool inplace) {
    AtenBuilder& b = c.b();
    if (!training || p == 0) return x;
    DType t = b.dtype(x);
    // Eager raises for these (p outside [0, 1], integer input); in-place dropout writes x.
    if (!(p >= 0 && p <= 1) || !tensor::isFloating(t) || inplace || !b.compilesRandom()) return {};
    if (p == 1) return b.binary("mul", x, b.constant(0, t), t); // eager's x * 0 (NaN stays NaN)
    DType draw = t == DType::Float64 ? t : DType::Float32;      // p is compared unrounded
    int32_t keep = b.compare("ge", b.random(false, b.sizes(x), draw), b.constant(p, draw));
    double scale = t == DType::Float64 ? 1.0 / (1.0 - p)
                                       : static_cast<double>(1.0f / static_cast<float>(1.0 - p));
    int32_t factor = b.where(keep, b.constant(scale, t), b.constant(0, t));
    return b.binary("mul", x, factor, t);
}

R dropoutRule(OpCall& c) {
    if (!c.bind({"input", "p", "training", "inplace"})) return {};
    auto x = c.tensor("input");
    // p and training must be constants of the graph (a value computed in it is left to eager).
    if (!x || (c.has("p") && !c.number("p")) || (c.has("training") && !c.boolean("training")))
        return {};
    return dropoutOf(c, *x, c.number("p").value_or(0.5), c.boolean("training").value_or(true),
                     c.boolean("inplace").value_or(false));
}

// --- nn modules (call_module): parameters become constant tensors

R linearModule(OpCall& c) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    auto w = c.moduleTensor("weight");
    if (!x || !w || c.b().dtype(*x) != c.b().dtype(*w)) return {};
    return linearOf(c.b(), *x, *w, c.moduleTensor("bias"));
}

R layerNormModule(OpCall& c) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    lang::Value shape = c.moduleAttr("normalized_shape");
    lang::Value eps = c.moduleAttr("eps");
    if (!x || !shape.is(lang::ObjectKind::Tuple) || !eps.isNumber()) return {};
    size_t dims = shape.as<lang::TupleObject>()->items.size();
    DType t = c.b().dtype(*x);
    DType compute = t == DType::Float64 ? t : DType::Float32;
    int32_t y = layerNormOf(c.b(), c.b().toDtype(*x, compute), dims, c.moduleTensor("weight"),
                            c.moduleTensor("bias"), eps.toDouble());
    return c.b().toDtype(y, c.resultDtype());
}

R geluRule(OpCall& c, bool module) {
    if (!c.bind({"input", "approximate"})) return {};
    auto x = c.tensor("input");
    if (!x || !tensor::isFloating(c.b().dtype(*x))) return {};
    std::string approx = c.text("approximate").value_or("none");
    if (module) {
        lang::Value a = c.moduleAttr("approximate");
        if (a.is(lang::ObjectKind::Str)) approx = a.as<lang::StrObject>()->str();
    }
    DType t = c.b().dtype(*x);
    DType compute = t == DType::Float64 ? t : DType::Float32;
    int32_t y = geluOf(c.b(), c.b().toDtype(*x, compute), approx == "tanh");
    return c.b().toDtype(y, c.resultDtype());
}

R softmaxModule(OpCall& c, bool logarithm) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    lang::Value dim = c.moduleAttr("dim");
    if (!x || !dim.isIntLike()) return {};
    auto d = normaliseDim(dim.asInt(), c.b().rank(*x));
    if (!d) return {};
    return softmaxOf(c.b(), c.b().toDtype(*x, floatOf(c.resultDtype())), *d, logarithm);
}

using Table = std::unordered_map<std::string, DecompositionRule>;

void addPointwise(Table& t) {
    for (const char* op : {"exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "erf", "abs",
                           "neg", "floor", "ceil", "round", "sign", "reciprocal"})
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
    t["gelu"] = [](OpCall& c) { return geluRule(c, false); };
    t["where"] = whereRule;
    t["masked_fill"] = maskedFillRule;
    t["clamp"] = [](OpCall& c) { return clampRule(c, true, true); };
    t["clip"] = t["clamp"];
    t["clamp_min"] = [](OpCall& c) { return clampRule(c, true, false); };
    t["clamp_max"] = [](OpCall& c) { return clampRule(c, false, true); };
}

void addReductions(Table& t) {
    for (const char* op : {"sum", "prod", "amax", "amin", "argmax", "argmin"})
        t[op] = [op](OpCall& c) { return reduceRule(c, op); };
    t["mean"] = meanRule;
    t["var"] = [](OpCall& c) { return varRule(c, false); };
    t["std"] = [](OpCall& c) { return varRule(c, true); };
    t["softmax"] = [](OpCall& c) { return softmaxRule(c, false); };
    t["log_softmax"] = [](OpCall& c) { return softmaxRule(c, true); };
    t["layer_norm"] = layerNormRule;
}

void addShapeOps(Table& t) {
    t["view"] = viewRule;
    t["reshape"] = viewRule;
    t["permute"] = permuteRule;
    t["transpose"] = transposeRule;
    t["t"] = tRule;
    t["unsqueeze"] = unsqueezeRule;
    t["squeeze"] = squeezeRule;
    t["flatten"] = flattenRule;
    t["expand"] = expandRule;
    t["getitem"] = getitemRule;
    t["contiguous"] = identityRule;
    t["clone"] = identityRule;
    t["dropout"] = dropoutRule;
    t["to"] = toRule;
    t["rand"] = [](OpCall& c) { return randomRule(c, false); };
    t["randn"] = [](OpCall& c) { return randomRule(c, true); };
    t["rand_like"] = [](OpCall& c) { return randomLikeRule(c, false); };
    t["randn_like"] = [](OpCall& c) { return randomLikeRule(c, true); };
    t["float"] = [](OpCall& c) { return castRule(c, DType::Float32); };
    t["double"] = [](OpCall& c) { return castRule(c, DType::Float64); };
    t["half"] = [](OpCall& c) { return castRule(c, DType::Float16); };
    t["bfloat16"] = [](OpCall& c) { return castRule(c, DType::BFloat16); };
    t["long"] = [](OpCall& c) { return castRule(c, DType::Int64); };
    t["int"] = [](OpCall& c) { return castRule(c, DType::Int32); };
    t["bool"] = [](OpCall& c) { return castRule(c, DType::Bool); };
}

void addMatmul(Table& t) {
    t["matmul"] = matmulRule;
    t["mm"] = matmulRule;
    t["bmm"] = matmulRule;
    t["linear"] = [](OpCall& c) -> R {
        if (!c.bind({"input", "weight", "bias"})) return {};
        auto x = c.tensor("input");
        auto w = c.tensor("weight");
        if (!x || !w || c.b().dtype(*x) != c.b().dtype(*w)) return {};
        return linearOf(c.b(), *x, *w, c.isNone("bias") ? std::nullopt : c.tensor("bias"));
    };
    t["addmm"] = [](OpCall& c) -> R {
        if (!c.bind({"input", "mat1", "mat2", "beta", "alpha"})) return {};
        auto bias = c.tensor("input");
        auto a = c.tensor("mat1");
        auto m = c.tensor("mat2");
        if (!bias || !a || !m || c.b().rank(*a) != 2 || c.b().rank(*m) != 2) return {};
        return c.b().addmm(*bias, *a, *m, c.number("beta").value_or(1),
                           c.number("alpha").value_or(1));
    };
}

void addModules(Table& t) {
    t["Linear"] = linearModule;
    t["LayerNorm"] = layerNormModule;
    t["GELU"] = [](OpCall& c) { return geluRule(c, true); };
    t["ReLU"] = t["relu"];
    t["SiLU"] = t["silu"];
    t["Sigmoid"] = t["sigmoid"];
    t["Tanh"] = t["tanh"];
    t["Identity"] = identityRule;
    t["Softmax"] = [](OpCall& c) { return softmaxModule(c, false); };
    t["LogSoftmax"] = [](OpCall& c) { return softmaxModule(c, true); };
    t["Dropout"] = [](OpCall& c) -> R {
        if (!c.bind({"input"})) return {};
        auto x = c.tensor("input");
        lang::Value training = c.moduleAttr("training");
        lang::Value p = c.moduleAttr("p");
        lang::Value inplace = c.moduleAttr("inplace");
        bool train = training.isIntLike() && training.asInt() != 0;
        if (!x || (train && !p.isNumber())) return {};
        return dropoutOf(c, *x, train ? p.toDouble() : 0, train,
                         inplace.isIntLike() && inplace.asInt() != 0);
    };
}

const Table& table() {
    static const Table t = [] {
        Table t;
        addPointwise(t);
        addReductions(t);
        addShapeOps(t);
        addMatmul(t);
        addModules(t);
        return t;
    }();
    return t;
}

} // namespace

const DecompositionRule* findDecomposition(const std::string& opName) {
    auto it = table().find(opName);
    return it == table().end() ? nullptr : &it->second;
}

} // namespace kiln::compiler
