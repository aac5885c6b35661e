// SPDX-License-Identifier: MIT
// The decompositions: one rule per op name the captured graphs use (functions, methods,
// operators and nn modules), each written in core ops. A rule returning nullopt leaves the op to
// the eager kernels. This file holds matrix products, random ops, nn modules and the table;
// the other rules are in decompose_pointwise.cpp, decompose_reductions.cpp and
// decompose_shapes.cpp.
#include "compiler/decompose_rules.h"

#include "lang/objects.h"

#include <cmath>

namespace kiln::compiler {

namespace rules {

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
    if (ra == 1 && rb == 1) return b.reduce("sum", b.binary("mul", *a, *m), {}, false);
    if (ra == 1 && rb == 2) // a vector times a matrix: a one-row product
        return b.view(b.mm(b.view(*a, {constant(1), b.sizes(*a)[0]}), *m), {b.sizes(*m)[1]});
    if (ra >= 2 && rb == 1) { // a matrix (or a batch of them) times a vector: one column
        std::vector<Index> lead(b.sizes(*a).begin(), b.sizes(*a).end() - 1);
        int32_t rows = b.view(*a, {product(lead), b.sizes(*a).back()});
        int32_t column = b.view(*m, {b.sizes(*m)[0], constant(1)});
        return b.view(b.mm(rows, column), lead);
    }
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

void addMatmulRules(RuleTable& t) {
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

void addModuleRules(RuleTable& t) {
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

// --- creation ops: constants of the node's recorded size and dtype

/// The node's own static sizes (factories' sizes come as *size or a tuple, both in the meta).
std::optional<std::vector<Index>> recordedSizes(OpCall& c) {
    std::vector<Index> sizes;
    for (const graph::Dim& d : c.node().meta.sizes) {
        if (d.isSymbolic()) return std::nullopt;
        sizes.push_back(constant(d.value));
    }
    return sizes;
}

R fullRule(OpCall& c, std::optional<double> fixed, bool like) {
    // Arguments other than the fill value (device, layout, pin_memory, ...) must be defaults.
    bool bound =
        like ? c.bind({"input", "fill_value", "dtype", "layout", "device", "pin_memory",
                       "requires_grad", "memory_format"})
        : fixed
            ? c.bind({"*size", "out", "dtype", "layout", "device", "pin_memory", "requires_grad"})
            : c.bind({"size", "fill_value", "out", "dtype", "layout", "device", "pin_memory",
                      "requires_grad"});
    if (!bound) return {};
    if (c.has("device") && !c.isNone("device") && c.text("device").value_or("") != "cpu") return {};
    if (c.has("out") && !c.isNone("out")) return {};
    std::optional<double> value = fixed ? fixed : c.number("fill_value");
    auto sizes = recordedSizes(c);
    if (!value || !sizes) return {};
    return c.b().full(*sizes, *value, c.resultDtype());
}

R arangeRule(OpCall& c) {
    if (!c.bind({"start", "end", "step", "out", "dtype", "layout", "device", "pin_memory",
                 "requires_grad"}))
        return {};
    auto sizes = recordedSizes(c);
    if (!sizes || sizes->size() != 1) return {};
    std::optional<double> a = c.number("start"), b = c.number("end");
    double start = b ? a.value_or(0) : 0;
    double step = c.number("step").value_or(1);
    if (!a || (c.has("device") && !c.isNone("device") && c.text("device").value_or("") != "cpu"))
        return {};
    return c.b().iota((*sizes)[0], start, step, c.resultDtype());
}

R eyeRule(OpCall& c) {
    if (!c.bind({"n", "m", "out", "dtype", "layout", "device", "pin_memory", "requires_grad"}))
        return {};
    auto sizes = recordedSizes(c);
    if (!sizes || sizes->size() != 2 || (c.has("out") && !c.isNone("out"))) return {};
    return c.b().eye((*sizes)[0], (*sizes)[1], c.resultDtype());
}

void addCreationRules(RuleTable& t) {
    t["eye"] = eyeRule;
    t["zeros"] = [](OpCall& c) { return fullRule(c, 0.0, false); };
    t["ones"] = [](OpCall& c) { return fullRule(c, 1.0, false); };
    t["full"] = [](OpCall& c) { return fullRule(c, std::nullopt, false); };
    t["zeros_like"] = [](OpCall& c) { return fullRule(c, 0.0, true); };
    t["ones_like"] = [](OpCall& c) { return fullRule(c, 1.0, true); };
    t["full_like"] = [](OpCall& c) { return fullRule(c, std::nullopt, true); };
    t["arange"] = arangeRule;
    // linspace stays with the eager kernels: its values come from a fused multiply-add per
    // half (exact ends), which the loop IR does not spell.
}

// --- gathers

/// An embedding's padding_idx, kept for its backward (whose row there gets no gradient).
R withPadding(AtenBuilder& b, int32_t embedding, std::optional<int64_t> padding) {
    if (padding) b.graph().nodes[static_cast<size_t>(embedding)].ints = {constant(*padding)};
    return embedding;
}

R embeddingRule(OpCall& c) {
    if (!c.bind({"input", "weight", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq",
                 "sparse"}))
        return {};
    auto indices = c.tensor("input");
    auto weight = c.tensor("weight");
    if (!indices || !weight || !c.isNone("max_norm") || c.b().rank(*weight) != 2) return {};
    if (tensor::isFloating(c.b().dtype(*indices)) || c.b().dtype(*indices) == DType::Bool)
        return {};
    int64_t rows = 0;
    std::optional<int64_t> padding = c.integer("padding_idx");
    if (padding && *padding < 0 && isConstant(c.b().sizes(*weight)[0], &rows)) *padding += rows;
    return withPadding(c.b(), c.b().embedding(*weight, *indices), padding);
}

R embeddingModule(OpCall& c) {
    if (!c.bind({"input"})) return {};
    auto indices = c.tensor("input");
    auto weight = c.moduleTensor("weight");
    lang::Value maxNorm = c.moduleAttr("max_norm");
    if (!indices || !weight || !(maxNorm.isNone() || maxNorm.isEmpty())) return {};
    if (tensor::isFloating(c.b().dtype(*indices)) || c.b().dtype(*indices) == DType::Bool)
        return {};
    lang::Value padding = c.moduleAttr("padding_idx");
    return withPadding(c.b(), c.b().embedding(*weight, *indices),
                       padding.isIntLike() ? std::optional<int64_t>(padding.asInt())
                                           : std::nullopt);
}

R gatherRule(OpCall& c) {
    if (!c.bind({"input", "dim", "index", "sparse_grad", "out"})) return {};
    auto x = c.tensor("input");
    auto index = c.tensor("index");
    if (!x || !index || c.b().rank(*x) != c.b().rank(*index) || c.b().rank(*x) == 0) return {};
    auto dim = normaliseDim(c.integer("dim").value_or(999), c.b().rank(*x));
    if (!dim || *dim != c.b().rank(*x) - 1) return {}; // the last dim only
    for (int64_t d = 0; d + 1 < c.b().rank(*x); ++d)
        if (!equal(c.b().sizes(*x)[static_cast<size_t>(d)],
                   c.b().sizes(*index)[static_cast<size_t>(d)]))
            return {};
    return c.b().gatherLast(*x, *index);
}

/// x.index_select(dim, index) for a 1-D integer index: a gather along the last dim of x with
/// `dim` moved last (a view), the index broadcast over the other dims, moved back.
R indexSelectRule(OpCall& c) {
    if (!c.bind({"input", "dim", "index", "out"}) || !c.isNone("out")) return {};
    auto x = c.tensor("input");
    auto index = c.tensor("index");
    AtenBuilder& b = c.b();
    if (!x || !index || b.rank(*x) == 0 || b.rank(*index) != 1) return {};
    DType it = b.dtype(*index);
    if (it != DType::Int64 && it != DType::Int32) return {};
    int64_t rank = b.rank(*x);
    auto dim = normaliseDim(c.integer("dim").value_or(999), rank);
    if (!dim) return {};
    std::vector<int64_t> toLast, back(static_cast<size_t>(rank));
    for (int64_t d = 0; d < rank; ++d)
        if (d != *dim) toLast.push_back(d);
    toLast.push_back(*dim);
    for (int64_t i = 0; i < rank; ++i)
        back[static_cast<size_t>(toLast[static_cast<size_t>(i)])] = i;
    int32_t moved = b.permute(*x, toLast);
    std::vector<Index> sizes = b.sizes(moved);
    sizes.back() = b.sizes(*index)[0];
    std::vector<Index> ones(static_cast<size_t>(rank), constant(1));
    ones.back() = sizes.back();
    int32_t spread = b.expand(b.view(b.toDtype(*index, DType::Int64), ones), sizes);
    return b.permute(b.gatherLast(moved, spread), back);
}

// --- attention

/// Whether attention on the GPU can be the fused kernel (what eager PyTorch runs there too):
/// half-precision q, k, v of rank 3 or 4 with equal leading sizes, one head size the kernel
/// handles, no mask. Anything else is the decomposition below.
bool fusedAttentionFits(OpCall& c, int32_t q, int32_t k, int32_t v, int64_t headDim) {
    AtenBuilder& b = c.b();
    if (!c.node().meta.device.starts_with("cuda") || !c.isNone("attn_mask")) return false;
    if (!AtenBuilder::attentionSupports(b.dtype(q), headDim)) return false;
    int64_t rank = b.rank(q);
    if (rank != 3 && rank != 4) return false;
    const std::vector<Index>&qs = b.sizes(q), &ks = b.sizes(k), &vs = b.sizes(v);
    for (int64_t i = 0; i + 2 < rank; ++i)
        if (!equal(qs[i], ks[i]) || !equal(qs[i], vs[i])) return false;
    return equal(ks[rank - 1], qs[rank - 1]) && equal(vs[rank - 1], qs[rank - 1]) &&
           equal(vs[rank - 2], ks[rank - 2]);
}

/// softmax(q @ k^T * scale + mask) @ v, with is_causal as a lower-triangle mask.
R attentionRule(OpCall& c) {
    if (!c.bind({"query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale"}))
        return {};
    auto q = c.tensor("query");
    auto k = c.tensor("key");
    auto v = c.tensor("value");
    if (!q || !k || !v || c.number("dropout_p").value_or(0) != 0) return {};
    AtenBuilder& b = c.b();
    int64_t rank = b.rank(*q);
    if (rank < 3 || b.rank(*k) != rank || b.rank(*v) != rank) return {};
    DType t = b.dtype(*q);
    if (!tensor::isFloating(t) || b.dtype(*k) != t || b.dtype(*v) != t) return {};
    int64_t d = 0;
    if (!isConstant(b.sizes(*q).back(), &d)) return {};
    double scale = c.isNone("scale")
                       ? 1.0 / std::sqrt(static_cast<double>(d))
                       : c.number("scale").value_or(1.0 / std::sqrt(static_cast<double>(d)));
    // Batched products over the leading dims, flattened to one batch dim.
    auto batched = [&](int32_t a, int32_t m) -> std::optional<int32_t> {
        std::vector<Index> lead(b.sizes(a).begin(), b.sizes(a).end() - 2);
        Index n = product(lead);
        int32_t a3 = b.view(a, {n, b.sizes(a)[static_cast<size_t>(rank - 2)], b.sizes(a).back()});
        int32_t m3 = b.view(m, {n, b.sizes(m)[static_cast<size_t>(rank - 2)], b.sizes(m).back()});
        lead.push_back(b.sizes(a)[static_cast<size_t>(rank - 2)]);
        lead.push_back(b.sizes(m).back());
        return b.view(b.bmm(a3, m3), lead);
    };
    bool causal = c.boolean("is_causal").value_or(false);
    if (fusedAttentionFits(c, *q, *k, *v, d)) return b.attention(*q, *k, *v, scale, causal);
    auto scores = batched(*q, b.transpose(*k, rank - 2, rank - 1));
    if (!scores) return {};
    int32_t s = b.binary("mul", *scores, b.constant(scale, t), t);
    if (causal) s = b.triangle(s, 0, false, -INFINITY);
    if (!c.isNone("attn_mask")) {
        auto mask = c.tensor("attn_mask");
        if (!mask) return {};
        s = b.dtype(*mask) == DType::Bool ? b.where(*mask, s, b.constant(-INFINITY, t))
                                          : b.binary("add", s, *mask, t);
    }
    int32_t p = softmaxOf(b, s, rank - 1, false);
    // A row masked out entirely attends to nothing (zeros), as eager's safe softmax. A causal
    // mask alone never empties a row (row i keeps column 0), so it needs no check.
    if (!c.isNone("attn_mask")) {
        int32_t empty =
            b.compare("eq", b.reduce("amax", s, {rank - 1}, true), b.constant(-INFINITY, t));
        p = b.where(empty, b.constant(0, t), p);
    }
    return batched(p, *v);
}

} // namespace rules

namespace {

const rules::RuleTable& table() {
    static const rules::RuleTable t = [] {
        rules::RuleTable t;
        rules::addPointwiseRules(t);
        rules::addReductionRules(t);
        rules::addShapeRules(t);
        rules::addMatmulRules(t);
        rules::addModuleRules(t);
        rules::addCreationRules(t);
        rules::addConvolutionRules(t);
        rules::addLossRules(t);
        t["scaled_dot_product_attention"] = rules::attentionRule;
        t["embedding"] = rules::embeddingRule;
        t["Embedding"] = rules::embeddingModule;
        t["gather"] = rules::gatherRule;
        t["index_select"] = rules::indexSelectRule;
        return t;
    }();
    return t;
}

const rules::TupleRuleTable& tupleTable() {
    static const rules::TupleRuleTable t = [] {
        rules::TupleRuleTable t;
        rules::addTupleShapeRules(t);
        rules::addTupleReductionRules(t);
        return t;
    }();
    return t;
}

} // namespace

const TupleDecompositionRule* findTupleDecomposition(const std::string& opName) {
    auto it = tupleTable().find(opName);
    return it == tupleTable().end() ? nullptr : &it->second;
}

const DecompositionRule* findDecomposition(const std::string& opName) {
    auto it = table().find(opName);
    return it == table().end() ? nullptr : &it->second;
}

} // namespace kiln::compiler
