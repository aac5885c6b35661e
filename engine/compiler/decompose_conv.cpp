// SPDX-License-Identifier: MIT
// Convolution as one extern kernel (Inductor's extern_kernels.convolution): F.conv2d and
// nn.Conv2d on a batch of images on the CPU, with numeric stride, padding and dilation.
// padding="same" where it pads both sides alike (an even dilation * (kernel - 1)) and
// padding="valid" are numbers too. Uneven "same" padding, a padding_mode other than zeros,
// unbatched images and GPU inputs are left to the eager kernels (a fallback).
#include "compiler/decompose_rules.h"
#include "lang/objects.h"
#include "lang/types.h"

namespace kiln::compiler::rules {

namespace {

/// An int or a sequence of two ints, as conv2d's stride, padding and dilation take them.
std::optional<tensor::Pair> pairOf(const lang::Value& v) {
    if (v.isIntLike()) return tensor::Pair{v.asInt(), v.asInt()};
    const std::vector<lang::Value>* seq = nullptr;
    if (v.is(lang::ObjectKind::Tuple)) seq = &v.as<lang::TupleObject>()->items;
    if (v.is(lang::ObjectKind::List)) seq = &v.as<lang::ListObject>()->items;
    if (!seq) return std::nullopt;
    const std::vector<lang::Value>& items = *seq;
    if (items.size() != 2 || !items[0].isIntLike() || !items[1].isIntLike()) return std::nullopt;
    return tensor::Pair{items[0].asInt(), items[1].asInt()};
}

std::optional<tensor::Pair> pairArg(OpCall& c, const char* name, int64_t absent) {
    const graph::Arg* a = c.arg(name);
    if (!a) return tensor::Pair{absent, absent};
    if (a->kind == graph::Arg::Kind::Constant) return pairOf(a->constant);
    if ((a->kind != graph::Arg::Kind::Tuple && a->kind != graph::Arg::Kind::List) ||
        a->items.size() != 2)
        return std::nullopt;
    for (const graph::Arg& item : a->items)
        if (item.kind != graph::Arg::Kind::Constant || !item.constant.isIntLike())
            return std::nullopt;
    return tensor::Pair{a->items[0].constant.asInt(), a->items[1].constant.asInt()};
}

/// "valid", or "same" where both sides get the same padding, as numbers.
std::optional<tensor::Pair> stringPadding(const lang::Value& v, AtenBuilder& b, int32_t w,
                                          const tensor::Pair& dilation) {
    if (!v.is(lang::ObjectKind::Str)) return std::nullopt;
    const std::string& text = v.as<lang::StrObject>()->str();
    if (text == "valid") return tensor::Pair{0, 0};
    if (text != "same") return std::nullopt;
    tensor::Pair padding{};
    for (int d = 0; d < 2; ++d) {
        int64_t k = 0;
        if (!isConstant(b.sizes(w)[static_cast<size_t>(2 + d)], &k)) return std::nullopt;
        const int64_t total = dilation[d] * (k - 1);
        if (total % 2 != 0) return std::nullopt; // PyTorch pads one more on the right
        padding[d] = total / 2;
    }
    return padding;
}

/// The extern node, when the operands and parameters are ones it computes.
R convolutionOf(OpCall& c, int32_t x, int32_t w, std::optional<int32_t> bias,
                const tensor::ConvParams& p) {
    AtenBuilder& b = c.b();
    const DType t = b.dtype(x);
    if (c.node().meta.device != "cpu" || !tensor::isFloating(t) || b.dtype(w) != t ||
        (bias && b.dtype(*bias) != t) || b.rank(x) != 4 || b.rank(w) != 4 || p.groups <= 0)
        return {};
    for (int d = 0; d < 2; ++d)
        if (p.stride[d] <= 0 || p.padding[d] < 0 || p.dilation[d] <= 0) return {};
    for (const std::vector<Index>* sizes : {&b.sizes(x), &b.sizes(w)})
        for (size_t d = 2; d < 4; ++d)
            if (!isConstant((*sizes)[d])) return {};
    // Sizes the kernels rely on: the captured graph's, so only static ones.
    for (const graph::Dim& d : c.node().meta.sizes)
        if (d.isSymbolic()) return {};
    return b.convolution(x, w, bias, p);
}

R conv2dRule(OpCall& c) {
    if (!c.bind({"input", "weight", "bias", "stride", "padding", "dilation", "groups"})) return {};
    auto x = c.tensor("input");
    auto w = c.tensor("weight");
    auto stride = pairArg(c, "stride", 1);
    auto padding = pairArg(c, "padding", 0);
    auto dilation = pairArg(c, "dilation", 1);
    auto groups = c.has("groups") ? c.integer("groups") : std::optional<int64_t>(1);
    const graph::Arg* paddingArg = c.arg("padding");
    if (!padding && w && dilation && paddingArg && paddingArg->kind == graph::Arg::Kind::Constant)
        padding = stringPadding(paddingArg->constant, c.b(), *w, *dilation);
    if (!x || !w || !stride || !padding || !dilation || !groups) return {};
    std::optional<int32_t> bias;
    if (c.has("bias") && !c.isNone("bias")) {
        bias = c.tensor("bias");
        if (!bias) return {};
    }
    return convolutionOf(c, *x, *w, bias,
                         tensor::ConvParams{*stride, *padding, *dilation, *groups});
}

R conv2dModule(OpCall& c) {
    if (!c.bind({"input"})) return {};
    auto x = c.tensor("input");
    auto w = c.moduleTensor("weight");
    lang::Value mode = c.moduleAttr("padding_mode");
    if (!x || !w || !mode.is(lang::ObjectKind::Str) || mode.as<lang::StrObject>()->str() != "zeros")
        return {};
    auto stride = pairOf(c.moduleAttr("stride"));
    auto dilation = pairOf(c.moduleAttr("dilation"));
    lang::Value paddingAttr = c.moduleAttr("padding");
    auto padding = pairOf(paddingAttr);
    if (!padding && dilation) padding = stringPadding(paddingAttr, c.b(), *w, *dilation);
    lang::Value groups = c.moduleAttr("groups");
    if (!stride || !padding || !dilation || !groups.isIntLike()) return {};
    return convolutionOf(c, *x, *w, c.moduleTensor("bias"),
                         tensor::ConvParams{*stride, *padding, *dilation, groups.asInt()});
}

} // namespace

void addConvolutionRules(RuleTable& t) {
    t["conv2d"] = conv2dRule;
    t["Conv2d"] = conv2dModule;
}

} // namespace kiln::compiler::rules
