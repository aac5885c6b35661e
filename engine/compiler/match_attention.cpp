// SPDX-License-Identifier: MIT
#include "compiler/match_attention.h"

#include "compiler/aten_builder.h"
#include "compiler/decompose_ops.h"

#include <cmath>
#include <optional>

namespace kiln::compiler {

namespace {

using graph::Arg;
using graph::Node;

class Matcher {
public:
    Matcher(lang::Interpreter& interp, const graph::Graph& g)
        : m_interp(interp)
        , m_g(g) {}

    std::optional<WrittenAttention> at(int32_t result) {
        WrittenAttention m;
        m.result = result;
        const Node& r = node(result);
        if (op(r) != "matmul" || !r.kwargs.empty()) return std::nullopt;
        std::optional<int32_t> probs = nodeArg(r, 0, nullptr), v = nodeArg(r, 1, nullptr);
        if (!probs || !v || !onlyUser(*probs, result)) return std::nullopt;
        if (std::optional<int32_t> kept = identityDropout(*probs)) {
            m.replaced.push_back(*probs);
            int32_t through = *probs;
            probs = kept;
            if (!onlyUser(*probs, through)) return std::nullopt;
        }
        if (!softmaxOverRows(*probs)) return std::nullopt;
        m.v = *v;
        m.replaced.push_back(*probs);
        std::optional<int32_t> scores = nodeArg(node(*probs), 0, "input");
        if (!scores || !onlyUser(*scores, *probs)) return std::nullopt;
        if (op(node(*scores)) == "masked_fill") {
            const Node& fill = node(*scores);
            std::optional<int32_t> masked = nodeArg(fill, 1, "mask");
            std::optional<double> value = number(fill, 2, "value");
            if (!masked || !value || !std::isinf(*value) || *value > 0) return std::nullopt;
            m.masked = *masked;
            m.replaced.push_back(*scores);
            int32_t through = *scores;
            scores = nodeArg(fill, 0, "input");
            if (!scores || !onlyUser(*scores, through)) return std::nullopt;
        }
        if (std::optional<int32_t> unscaled = scaled(*scores, m.scale)) {
            m.replaced.push_back(*scores);
            int32_t through = *scores;
            scores = unscaled;
            if (!onlyUser(*scores, through)) return std::nullopt;
        }
        const Node& product = node(*scores);
        if (op(product) != "matmul" || !product.kwargs.empty()) return std::nullopt;
        m.replaced.push_back(*scores);
        std::optional<int32_t> q = nodeArg(product, 0, nullptr), kt = nodeArg(product, 1, nullptr);
        if (!q || !kt || !lastTwoSwapped(*kt)) return std::nullopt;
        std::optional<int32_t> k = nodeArg(node(*kt), 0, "input");
        if (!k) return std::nullopt;
        if (onlyUser(*kt, *scores)) m.replaced.push_back(*kt);
        m.q = *q;
        m.k = *k;
        if (!kernelFits(m)) return std::nullopt;
        // The dead dropouts onlyUser let pass read replaced values: they go with them.
        for (size_t i = 0, n = m.replaced.size(); i < n; ++i)
            for (int32_t u : m_g.users(m.replaced[i]))
                if (identityDropout(u) && m_g.users(u).empty()) m.replaced.push_back(u);
        return m;
    }

private:
    const Node& node(int32_t i) const { return m_g.nodes.at(static_cast<size_t>(i)); }
    std::string op(const Node& n) const { return capturedOpName(m_interp, n); }

    const Arg* arg(const Node& n, size_t position, const char* name) const {
        if (position < n.args.size()) return &n.args[position];
        if (name)
            for (const auto& [key, value] : n.kwargs)
                if (key == name) return &value;
        return nullptr;
    }
    std::optional<int32_t> nodeArg(const Node& n, size_t position, const char* name) const {
        const Arg* a = arg(n, position, name);
        if (!a || a->kind != Arg::Kind::Node) return std::nullopt;
        return a->node;
    }
    std::optional<double> number(const Node& n, size_t position, const char* name) const {
        const Arg* a = arg(n, position, name);
        if (!a || a->kind != Arg::Kind::Constant || !a->constant.isNumber()) return std::nullopt;
        return a->constant.toDouble();
    }
    std::optional<int64_t> integer(const Node& n, size_t position, const char* name) const {
        const Arg* a = arg(n, position, name);
        if (!a || a->kind != Arg::Kind::Constant || !a->constant.isInt()) return std::nullopt;
        return a->constant.asInt();
    }

    /// Whether `user` is the one node that reads `value`. A dropout that keeps everything and
    /// whose result nobody reads does not count: the tracer maps such a call's result to its
    /// input (the same tensor), so the graph reads the input and leaves the call dead.
    bool onlyUser(int32_t value, int32_t user) const {
        bool found = false;
        for (int32_t u : m_g.users(value)) {
            if (u == user)
                found = true;
            else if (!(identityDropout(u) && m_g.users(u).empty()))
                return false;
        }
        return found;
    }

    int64_t rank(int32_t i) const { return static_cast<int64_t>(node(i).meta.sizes.size()); }

    /// softmax(x, dim=-1) (or the last dim by number), no dtype= argument.
    bool softmaxOverRows(int32_t i) const {
        const Node& n = node(i);
        if (op(n) != "softmax") return false;
        for (const auto& [key, value] : n.kwargs)
            if (key != "dim" && key != "_stacklevel" &&
                !(key == "dtype" && value.kind == Arg::Kind::Constant && value.constant.isNone()))
                return false;
        std::optional<int64_t> dim = integer(n, 1, "dim");
        return dim && (*dim == -1 || *dim == rank(i) - 1);
    }

    /// Dropout that keeps every value (nanoGPT's attn_dropout with p = 0, or any dropout in
    /// eval mode): its input's node. An nn.Dropout module (the rules read training and p
    /// from it, as decompose does) or F.dropout with constant p and training.
    std::optional<int32_t> identityDropout(int32_t i) const {
        const Node& n = node(i);
        std::string name = op(n);
        if (n.op == graph::NodeOp::CallModule && name == "Dropout") {
            lang::Value training =
                m_interp.tryGetAttr(n.callable, lang::Symbol::intern("training"));
            lang::Value p = m_interp.tryGetAttr(n.callable, lang::Symbol::intern("p"));
            lang::Value inplace = m_interp.tryGetAttr(n.callable, lang::Symbol::intern("inplace"));
            bool train = training.isIntLike() && training.asInt() != 0;
            if (inplace.isIntLike() && inplace.asInt() != 0) return std::nullopt;
            if (train && !(p.isNumber() && p.toDouble() == 0)) return std::nullopt;
            return nodeArg(n, 0, "input");
        }
        if (n.op == graph::NodeOp::CallFunction && name == "dropout") {
            std::optional<double> p = number(n, 1, "p");
            const Arg* training = arg(n, 2, "training");
            const Arg* inplace = arg(n, 3, "inplace");
            bool train =
                !training || (training->kind == Arg::Kind::Constant &&
                              training->constant.isIntLike() && training->constant.asInt() != 0);
            if (training && training->kind != Arg::Kind::Constant) return std::nullopt;
            if (inplace && !(inplace->kind == Arg::Kind::Constant &&
                             inplace->constant.isIntLike() && inplace->constant.asInt() == 0))
                return std::nullopt;
            if (train && !(p && *p == 0)) return std::nullopt;
            return nodeArg(n, 0, "input");
        }
        return std::nullopt;
    }

    /// x * c, c * x or x / c with a Python number c: x's node, with `scale` set to the factor.
    std::optional<int32_t> scaled(int32_t i, double& scale) const {
        const Node& n = node(i);
        std::string name = op(n);
        if (!n.kwargs.empty()) return std::nullopt;
        if (name == "mul") {
            for (size_t side : {0u, 1u}) {
                std::optional<int32_t> x = nodeArg(n, side, nullptr);
                std::optional<double> c = number(n, 1 - side, nullptr);
                if (x && c) {
                    scale = *c;
                    return x;
                }
            }
        }
        if (name == "truediv" || name == "div") {
            std::optional<int32_t> x = nodeArg(n, 0, nullptr);
            std::optional<double> c = number(n, 1, nullptr);
            if (x && c && *c != 0) {
                scale = 1.0 / *c;
                return x;
            }
        }
        return std::nullopt;
    }

    /// k.transpose(-2, -1) (either order, or the dims by number).
    bool lastTwoSwapped(int32_t i) const {
        const Node& n = node(i);
        if (op(n) != "transpose") return false;
        std::optional<int64_t> a = integer(n, 1, "dim0"), b = integer(n, 2, "dim1");
        if (!a || !b) return false;
        int64_t r = rank(i);
        auto norm = [r](int64_t d) { return d < 0 ? d + r : d; };
        return std::min(norm(*a), norm(*b)) == r - 2 && std::max(norm(*a), norm(*b)) == r - 1;
    }

    /// What flash_attention computes: rank-4 q, k, v on a CUDA device with equal batch and head
    /// sizes, one head size the kernel supports, and a boolean mask broadcastable to the scores.
    bool kernelFits(const WrittenAttention& m) const {
        const graph::ValueMeta &q = node(m.q).meta, &k = node(m.k).meta, &v = node(m.v).meta;
        for (const graph::ValueMeta* t : {&q, &k, &v})
            if (t->kind != graph::ValueMeta::Kind::Tensor || t->sizes.size() != 4 ||
                t->dtype != q.dtype || !t->device.starts_with("cuda"))
                return false;
        const graph::Dim& d = q.sizes[3];
        if (d.isSymbolic() || !AtenBuilder::attentionSupports(q.dtype, d.value)) return false;
        auto same = [](const graph::Dim& a, const graph::Dim& b) { return a.str() == b.str(); };
        for (size_t i = 0; i < 2; ++i)
            if (!same(q.sizes[i], k.sizes[i]) || !same(q.sizes[i], v.sizes[i])) return false;
        if (!same(k.sizes[3], d) || !same(v.sizes[3], d) || !same(k.sizes[2], v.sizes[2]))
            return false;
        if (m.masked < 0) return true;
        const graph::ValueMeta& mask = node(m.masked).meta;
        if (mask.kind != graph::ValueMeta::Kind::Tensor || mask.dtype != tensor::DType::Bool ||
            mask.sizes.empty() || mask.sizes.size() > 4 || !mask.device.starts_with("cuda"))
            return false;
        // The kernel reads a row of the mask per query row: one byte per key.
        if (!same(mask.sizes.back(), k.sizes[2])) return false;
        // Aligned to the right of [batch, heads, tq, tk]: each dim 1 or the scores' size.
        const graph::Dim* scores[4] = {&q.sizes[0], &q.sizes[1], &q.sizes[2], &k.sizes[2]};
        for (size_t i = 0; i < mask.sizes.size(); ++i) {
            const graph::Dim& md = mask.sizes[mask.sizes.size() - 1 - i];
            const graph::Dim& sd = *scores[3 - i];
            if (!(md.value == 1 && !md.isSymbolic()) && !same(md, sd)) return false;
        }
        return true;
    }

    lang::Interpreter& m_interp;
    const graph::Graph& m_g;
};

} // namespace

std::vector<WrittenAttention> findWrittenAttention(lang::Interpreter& interp,
                                                   const graph::Graph& g) {
    std::vector<WrittenAttention> found;
    Matcher matcher(interp, g);
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (std::optional<WrittenAttention> m = matcher.at(static_cast<int32_t>(i)))
            found.push_back(std::move(*m));
    return found;
}

} // namespace kiln::compiler
