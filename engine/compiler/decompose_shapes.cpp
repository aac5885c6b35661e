// SPDX-License-Identifier: MIT
// Decompositions of views and indexing: view/reshape, permute, transpose, unsqueeze,
// squeeze, flatten, expand, basic indexing.
#include "compiler/decompose_rules.h"
#include "lang/objects.h"
#include "lang/types.h"

#include <algorithm>

namespace kiln::compiler::rules {

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

/// Tensor properties Dynamo records as getattr(x, name): x.T reverses every dim, x.mT swaps the
/// last two. Other attributes fall back.
R getattrRule(OpCall& c) {
    if (!c.bind({"input", "name"})) return {};
    auto x = c.tensor("input");
    auto name = c.text("name");
    if (!x || !name) return {};
    const int64_t rank = c.b().rank(*x);
    if (*name == "T") {
        if (rank < 2) return *x;
        std::vector<int64_t> dims;
        for (int64_t d = rank - 1; d >= 0; --d)
            dims.push_back(d);
        return c.b().permute(*x, std::move(dims));
    }
    if (*name == "mT" && rank >= 2) return c.b().transpose(*x, rank - 2, rank - 1);
    return {};
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
        if (!s->step.isNone() && !s->step.isIntLike()) return {};
        int64_t step = s->step.isNone() ? 1 : s->step.asInt();
        auto start = bound(s->start, 0), stop = bound(s->stop, size);
        if (step <= 0 || !start || !stop) return {};
        stop = std::max(*stop, *start);
        if (*start != 0 || *stop != size || step != 1)
            cur = b.slice(cur, dim, constant(*start), constant(*stop), step);
        ++dim;
        --specified;
    }
    return cur;
}

R narrowRule(OpCall& c) {
    if (!c.bind({"input", "dim", "start", "length"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    auto dim = normaliseDim(c.integer("dim").value_or(999), c.b().rank(*x));
    auto start = c.integer("start");
    auto length = c.integer("length");
    if (!dim || !start || !length || *start < 0) return {};
    return c.b().slice(*x, *dim, constant(*start), constant(*start + *length), 1);
}

/// The tensors of a list argument, converted to the result's dtype.
std::optional<std::vector<int32_t>> tensorList(OpCall& c, const char* name) {
    const graph::Arg* a = c.arg(name);
    if (!a || (a->kind != graph::Arg::Kind::List && a->kind != graph::Arg::Kind::Tuple)) return {};
    std::vector<int32_t> out;
    for (const graph::Arg& item : a->items) {
        if (item.kind != graph::Arg::Kind::Node) return {};
        const std::vector<int32_t>& of = c.tensorOf();
        int32_t t = of[static_cast<size_t>(item.node)];
        if (t < 0) return {};
        out.push_back(c.b().toDtype(t, c.resultDtype()));
    }
    if (out.empty()) return {};
    return out;
}

R catRule(OpCall& c, bool stack) {
    if (!c.bind({"tensors", "dim"})) return {};
    auto items = tensorList(c, "tensors");
    if (!items) return {};
    int64_t rank = c.b().rank((*items)[0]) + (stack ? 1 : 0);
    auto dim = normaliseDim(c.integer("dim").value_or(0), rank);
    if (!dim) return {};
    if (stack)
        for (int32_t& i : *items)
            i = c.b().unsqueeze(i, *dim);
    for (int32_t i : *items)
        if (c.b().rank(i) != rank) return {};
    if (items->size() == 1) return (*items)[0];
    return c.b().cat(*items, *dim);
}

/// hstack / vstack / dstack / column_stack: each input raised to the rank the stacking needs
/// (unsqueezes, as atleast_1d/2d/3d), then one cat.
R stackFamilyRule(OpCall& c, char kind) {
    if (!c.bind({"tensors"})) return {};
    auto items = tensorList(c, "tensors");
    if (!items || items->empty()) return {};
    AtenBuilder& b = c.b();
    for (int32_t& i : *items) {
        const int64_t r = b.rank(i);
        if (kind == 'h' && r == 0) i = b.unsqueeze(i, 0);
        if (kind == 'v' && r <= 1) i = b.unsqueeze(r == 0 ? b.unsqueeze(i, 0) : i, 0);
        if (kind == 'c' && r <= 1) i = b.unsqueeze(r == 0 ? b.unsqueeze(i, 0) : i, 1);
        if (kind == 'd') {
            if (r == 0) i = b.unsqueeze(b.unsqueeze(b.unsqueeze(i, 0), 0), 0);
            if (r == 1) i = b.unsqueeze(b.unsqueeze(i, 0), 2);
            if (r == 2) i = b.unsqueeze(i, 2);
        }
    }
    const int64_t rank = b.rank((*items)[0]);
    for (int32_t i : *items)
        if (b.rank(i) != rank) return {};
    int64_t dim = kind == 'v' ? 0 : kind == 'd' ? 2 : 1;
    if (kind == 'h' && rank == 1) dim = 0;
    if (items->size() == 1) return (*items)[0];
    return b.cat(*items, dim);
}

R triangleRule(OpCall& c, bool upper) {
    if (!c.bind({"input", "diagonal"})) return {};
    auto x = c.tensor("input");
    if (!x || c.b().rank(*x) < 2) return {};
    return c.b().triangle(*x, c.integer("diagonal").value_or(0), upper, 0);
}

/// split / chunk: slices along a dim (a tuple of views).
std::optional<std::vector<int32_t>> pieces(OpCall& c, bool chunk) {
    if (!c.bind({"input", chunk ? "chunks" : "split_size_or_sections", "dim"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    auto dim = normaliseDim(c.integer("dim").value_or(0), c.b().rank(*x));
    int64_t size = 0;
    if (!dim || !isConstant(c.b().sizes(*x)[static_cast<size_t>(*dim)], &size)) return {};
    std::vector<int64_t> lengths;
    if (chunk) {
        auto n = c.integer("chunks");
        if (!n || *n <= 0) return {};
        int64_t each = (size + *n - 1) / *n;
        for (int64_t at = 0; at < size; at += each)
            lengths.push_back(std::min(each, size - at));
    } else if (auto each = c.integer("split_size_or_sections")) {
        if (*each <= 0) return {};
        for (int64_t at = 0; at < size; at += *each)
            lengths.push_back(std::min(*each, size - at));
    } else if (auto sections = c.dims("split_size_or_sections", INT64_MAX)) {
        lengths = *sections;
    } else {
        return {};
    }
    std::vector<int32_t> out;
    int64_t at = 0;
    for (int64_t l : lengths) {
        out.push_back(c.b().slice(*x, *dim, constant(at), constant(at + l), 1));
        at += l;
    }
    if (at != size) return {};
    return out;
}

/// unbind(dim): one slice per index along a dim of static size, with that dim dropped.
std::optional<std::vector<int32_t>> unbindRule(OpCall& c) {
    if (!c.bind({"input", "dim"})) return {};
    auto x = c.tensor("input");
    if (!x) return {};
    auto dim = normaliseDim(c.integer("dim").value_or(0), c.b().rank(*x));
    int64_t size = 0;
    if (!dim || c.b().rank(*x) == 0 ||
        !isConstant(c.b().sizes(*x)[static_cast<size_t>(*dim)], &size))
        return {};
    std::vector<int32_t> out;
    for (int64_t i = 0; i < size; ++i)
        out.push_back(c.b().squeeze(c.b().slice(*x, *dim, constant(i), constant(i + 1), 1), *dim));
    return out;
}

void addShapeRules(RuleTable& t) {
    t["narrow"] = narrowRule;
    t["cat"] = [](OpCall& c) { return catRule(c, false); };
    t["concat"] = t["cat"];
    t["concatenate"] = t["cat"];
    t["stack"] = [](OpCall& c) { return catRule(c, true); };
    t["hstack"] = [](OpCall& c) { return stackFamilyRule(c, 'h'); };
    t["vstack"] = [](OpCall& c) { return stackFamilyRule(c, 'v'); };
    t["row_stack"] = t["vstack"];
    t["dstack"] = [](OpCall& c) { return stackFamilyRule(c, 'd'); };
    t["column_stack"] = [](OpCall& c) { return stackFamilyRule(c, 'c'); };
    t["tril"] = [](OpCall& c) { return triangleRule(c, false); };
    t["triu"] = [](OpCall& c) { return triangleRule(c, true); };
    t["view"] = viewRule;
    t["reshape"] = viewRule;
    t["permute"] = permuteRule;
    t["transpose"] = transposeRule;
    t["t"] = tRule;
    t["getattr"] = getattrRule;
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
    t["byte"] = [](OpCall& c) { return castRule(c, DType::UInt8); };
    t["char"] = [](OpCall& c) { return castRule(c, DType::Int8); };
    t["short"] = [](OpCall& c) { return castRule(c, DType::Int16); };
}

void addTupleShapeRules(TupleRuleTable& t) {
    t["split"] = [](OpCall& c) { return pieces(c, false); };
    t["chunk"] = [](OpCall& c) { return pieces(c, true); };
    t["unbind"] = unbindRule;
}

} // namespace kiln::compiler::rules
