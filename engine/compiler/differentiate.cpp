// SPDX-License-Identifier: MIT
#include "compiler/differentiate.h"

#include "compiler/aten_builder.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>

namespace kiln::compiler {

namespace {

bool isTargetInput(const AtenGraph& g, const AtenNode& n) {
    if (n.op == "placeholder") return n.requiresGrad;
    if (n.op == "constant_tensor")
        return g.constants[static_cast<size_t>(n.position)].requiresGrad();
    return false;
}

/// Ops whose result carries no gradient (integers, booleans, random and constant values).
bool isConstantOp(const std::string& op) {
    static const char* const ops[] = {
        "constant", "full",   "iota",   "eye",         "sym_value",   "rand",      "randn",
        "eq",       "ne",     "lt",     "le",          "gt",          "ge",        "any",
        "all",      "argmax", "argmin", "logical_not", "logical_and", "logical_or"};
    return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}

/// Ops whose result requires grad but whose derivative is zero almost everywhere: PyTorch
/// gives zeros, so nothing flows back through them.
bool hasZeroGradient(const std::string& op) {
    return op == "floor" || op == "ceil" || op == "round" || op == "sign";
}

/// Which nodes depend on an input that requires grad through differentiable ops.
std::vector<bool> nodesNeedingGrad(const AtenGraph& g) {
    std::vector<bool> needs(g.nodes.size(), false);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const AtenNode& n = g.nodes[i];
        if (n.op == "placeholder" || n.op == "constant_tensor") {
            needs[i] = isTargetInput(g, n) && tensor::isFloating(n.dtype);
            continue;
        }
        // requiresGrad is the captured node's: false for what ran under no_grad.
        if (!n.requiresGrad || isConstantOp(n.op) || !tensor::isFloating(n.dtype)) continue;
        needs[i] = std::any_of(n.inputs.begin(), n.inputs.end(),
                               [&](int32_t in) { return needs[static_cast<size_t>(in)]; });
    }
    return needs;
}

class Differentiator {
public:
    explicit Differentiator(const AtenGraph& forward)
        : m_joint{forward, static_cast<int32_t>(forward.nodes.size()), {}, {}}
        , m_b(m_joint.graph)
        , m_needs(nodesNeedingGrad(forward))
        , m_grad(forward.nodes.size(), -1) {}

    DifferentiateResult run() {
        addTangents();
        for (int32_t i = m_joint.forwardNodes - 1; i >= 0; --i) {
            if (!m_needs[static_cast<size_t>(i)] || m_grad[static_cast<size_t>(i)] < 0) continue;
            const AtenNode n = node(i); // a copy: rules add nodes to the same vector
            if (n.op == "placeholder" || n.op == "constant_tensor" || hasZeroGradient(n.op))
                continue; // leaves, and ops that pass no gradient back
            m_b.setOrigin(n.origin, n.originOp);
            if (!backwardOf(i, n)) {
                std::string op = n.op != "fallback" ? n.op
                                 : n.drawsRandom
                                     ? n.originOp +
                                           " with dropout (an eager kernel whose mask a second run "
                                           "would not draw again)"
                                 : n.callsModule ? n.originOp + " (a module the eager kernels run)"
                                                 : n.originOp + " (an eager kernel here)";
                return {std::nullopt, "Kiln's AOT autograd has no derivative of " + op + " (from " +
                                          n.origin + ") yet"};
            }
        }
        collectGrads();
        return {std::move(m_joint), {}};
    }

private:
    const AtenNode& node(int32_t id) const { return m_b.node(id); }
    const std::vector<Index>& sizes(int32_t id) const { return m_b.sizes(id); }
    DType dtype(int32_t id) const { return m_b.dtype(id); }
    bool needs(int32_t id) const { return m_needs[static_cast<size_t>(id)]; }

    void addTangents() {
        const AtenGraph& g = m_joint.graph;
        std::vector<int32_t> outputs = g.outputs;
        for (size_t k = 0; k < outputs.size(); ++k) {
            int32_t out = outputs[k];
            const AtenNode& n = node(out);
            // A mutation's new value (running statistics) is not differentiated.
            if (!needs(out) || n.op == "placeholder" || g.isMutationOutput(k)) {
                m_joint.tangentOf.push_back(-1);
                continue;
            }
            m_b.setOrigin("tangents", "tangents");
            int32_t t = m_b.placeholder(-1, n.sizes, n.dtype);
            m_joint.tangentOf.push_back(t);
            accumulate(out, t);
        }
    }

    void collectGrads() {
        std::map<std::pair<bool, int32_t>, int32_t> byTarget;
        for (int32_t i = 0; i < m_joint.forwardNodes; ++i) {
            const AtenNode& n = node(i);
            int32_t g = m_grad[static_cast<size_t>(i)];
            if (!needs(i) || g < 0 || (n.op != "placeholder" && n.op != "constant_tensor"))
                continue;
            auto key = std::make_pair(n.op == "constant_tensor", n.position);
            auto [it, fresh] = byTarget.emplace(key, g);
            if (!fresh) it->second = m_b.binary("add", it->second, g);
        }
        for (const auto& [key, g] : byTarget)
            m_joint.grads.push_back({key.first, key.second, g});
    }

    void accumulate(int32_t input, int32_t g) {
        if (!needs(input)) return;
        int32_t& slot = m_grad[static_cast<size_t>(input)];
        if (dtype(g) != dtype(input)) g = m_b.toDtype(g, dtype(input));
        slot = slot < 0 ? g : m_b.binary("add", slot, g);
    }

    /// `g` (the gradient of a broadcast result) summed down to `target`'s sizes.
    /// (Sizes are copied: adding a node may move the graph's nodes.)
    int32_t sumTo(int32_t g, std::vector<Index> target) {
        std::vector<Index> gs = sizes(g);
        size_t lead = gs.size() - target.size();
        std::vector<int64_t> dims;
        for (size_t d = 0; d < gs.size(); ++d)
            if (d < lead || (isOne(target[d - lead]) && !isOne(gs[d])))
                dims.push_back(static_cast<int64_t>(d));
        if (dims.empty()) return g;
        int32_t summed = m_b.reduce("sum", g, dims, false);
        return sizes(summed).size() == target.size() ? summed : m_b.view(summed, target);
    }

    /// A reduction's result (or its gradient) with the reduced dims back as size 1.
    int32_t keepDims(int32_t reduced, const AtenNode& reduction, const std::vector<Index>& in) {
        if (reduction.flag) return reduced;
        std::vector<Index> s = in;
        for (const Index& d : reduction.ints) {
            int64_t dim = 0;
            isConstant(d, &dim);
            s[static_cast<size_t>(dim)] = constant(1);
        }
        return m_b.view(reduced, s);
    }

    int32_t scalar(double v, int32_t like) { return m_b.constant(v, dtype(like)); }
    int32_t mul(int32_t a, int32_t b) { return m_b.binary("mul", a, b); }
    int32_t div(int32_t a, int32_t b) { return m_b.binary("truediv", a, b); }
    int32_t sub(int32_t a, int32_t b) { return m_b.binary("sub", a, b); }
    int32_t neg(int32_t a) { return m_b.unary("neg", a); }
    int32_t zerosLike(int32_t a) { return m_b.full(sizes(a), 0, dtype(a)); }

    /// Adds the contribution of `g` to input `k` of `n`, summed down to that input's sizes.
    void flow(const AtenNode& n, size_t k, int32_t g) {
        int32_t input = n.inputs[k];
        if (needs(input)) accumulate(input, sumTo(g, sizes(input)));
    }

    bool backwardOf(int32_t id, const AtenNode& n) {
        int32_t g = m_grad[static_cast<size_t>(id)];
        if (unaryBackward(id, n, g) || binaryBackward(n, g) || shapeBackward(n, g) ||
            reductionBackward(id, n, g) || productBackward(n, g) || scatterBackward(n, g))
            return true;
        return false;
    }

    bool unaryBackward(int32_t y, const AtenNode& n, int32_t g) {
        static const std::map<std::string,
                              std::function<int32_t(Differentiator&, int32_t, int32_t, int32_t)>>
            rules = {
                {"neg", [](Differentiator& d, int32_t g, int32_t, int32_t) { return d.neg(g); }},
                {"abs", [](Differentiator& d, int32_t g, int32_t x,
                           int32_t) { return d.mul(g, d.m_b.unary("sign", x)); }},
                {"exp",
                 [](Differentiator& d, int32_t g, int32_t, int32_t y) { return d.mul(g, y); }},
                {"log",
                 [](Differentiator& d, int32_t g, int32_t x, int32_t) { return d.div(g, x); }},
                {"sqrt", [](Differentiator& d, int32_t g, int32_t,
                            int32_t y) { return d.div(g, d.mul(d.scalar(2, y), y)); }},
                {"rsqrt",
                 [](Differentiator& d, int32_t g, int32_t, int32_t y) {
                     return d.mul(d.mul(d.scalar(-0.5, y), g), d.mul(d.mul(y, y), y));
                 }},
                {"sin", [](Differentiator& d, int32_t g, int32_t x,
                           int32_t) { return d.mul(g, d.m_b.unary("cos", x)); }},
                {"cos", [](Differentiator& d, int32_t g, int32_t x,
                           int32_t) { return d.mul(g, d.neg(d.m_b.unary("sin", x))); }},
                {"tan",
                 [](Differentiator& d, int32_t g, int32_t, int32_t y) {
                     return d.mul(g, d.m_b.binary("add", d.scalar(1, y), d.mul(y, y)));
                 }},
                {"tanh", [](Differentiator& d, int32_t g, int32_t,
                            int32_t y) { return d.mul(g, d.sub(d.scalar(1, y), d.mul(y, y))); }},
                {"erf",
                 [](Differentiator& d, int32_t g, int32_t x, int32_t) {
                     int32_t e = d.m_b.unary("exp", d.neg(d.mul(x, x)));
                     return d.mul(d.mul(d.scalar(2 / std::sqrt(std::numbers::pi), x), e), g);
                 }},
                {"log1p", [](Differentiator& d, int32_t g, int32_t x,
                             int32_t) { return d.div(g, d.m_b.binary("add", x, d.scalar(1, x))); }},
                {"reciprocal", [](Differentiator& d, int32_t g, int32_t,
                                  int32_t y) { return d.mul(d.neg(g), d.mul(y, y)); }},
                {"to_dtype", [](Differentiator& d, int32_t g, int32_t x,
                                int32_t) { return d.m_b.toDtype(g, d.dtype(x)); }},
            };
        auto it = rules.find(n.op);
        if (it == rules.end()) return false;
        int32_t x = n.inputs[0];
        if (needs(x)) accumulate(x, it->second(*this, g, x, y));
        return true;
    }

    bool binaryBackward(const AtenNode& n, int32_t g) {
        if (n.op == "where") {
            int32_t c = n.inputs[0];
            flow(n, 1, m_b.where(c, g, zerosLike(g)));
            flow(n, 2, m_b.where(c, zerosLike(g), g));
            return true;
        }
        if (n.inputs.size() != 2) return false;
        int32_t a = n.inputs[0], b = n.inputs[1];
        if (n.op == "add") {
            flow(n, 0, g);
            flow(n, 1, g);
        } else if (n.op == "sub") {
            flow(n, 0, g);
            if (needs(b)) flow(n, 1, neg(g));
        } else if (n.op == "mul") {
            if (needs(a)) flow(n, 0, mul(g, b));
            if (needs(b)) flow(n, 1, mul(g, a));
        } else if (n.op == "truediv") {
            if (needs(a)) flow(n, 0, div(g, b));
            if (needs(b)) flow(n, 1, div(mul(neg(g), a), mul(b, b)));
        } else if (n.op == "remainder") {
            flow(n, 0, g);
            if (needs(b)) flow(n, 1, mul(neg(g), m_b.unary("floor", div(a, b))));
        } else if (n.op == "pow") {
            powBackward(n, g);
        } else if (n.op == "maximum" || n.op == "minimum") {
            extremumBackward(n, g);
        } else {
            return false;
        }
        return true;
    }

    void powBackward(const AtenNode& n, int32_t g) {
        int32_t a = n.inputs[0], b = n.inputs[1];
        int32_t zero = scalar(0, g);
        if (needs(a)) {
            // PyTorch masks exponent 0 (whose b * a^(b-1) would be 0 * inf at a = 0).
            int32_t d = mul(b, m_b.binary("pow", a, sub(b, scalar(1, b))));
            flow(n, 0, m_b.where(m_b.compare("eq", b, zero), zero, mul(g, d)));
        }
        if (needs(b)) {
            int32_t y = m_b.binary("pow", a, b);
            int32_t masked = m_b.binary("logical_and", m_b.compare("eq", a, zero),
                                        m_b.compare("ge", b, zero), DType::Bool);
            flow(n, 1, mul(g, m_b.where(masked, zero, mul(y, m_b.unary("log", a)))));
        }
    }

    /// relu and clamp are maximum/minimum with a number: their gradient passes where the input
    /// is strictly above zero (relu, as threshold_backward) or within the bounds (clamp);
    /// torch.maximum/minimum of two tensors split it evenly between ties.
    void extremumBackward(const AtenNode& n, int32_t g) {
        int32_t a = n.inputs[0], b = n.inputs[1];
        bool max = n.op == "maximum";
        if (node(b).op == "constant" && !needs(b)) {
            bool relu = n.originOp.find("relu") != std::string::npos;
            const char* keep = max ? (relu ? "gt" : "ge") : "le";
            flow(n, 0, m_b.where(m_b.compare(keep, a, b), g, zerosLike(g)));
            return;
        }
        int32_t tie = m_b.compare("eq", a, b);
        int32_t half = m_b.where(tie, mul(g, scalar(0.5, g)), g);
        if (needs(a))
            flow(n, 0, m_b.where(m_b.compare(max ? "lt" : "gt", a, b), zerosLike(half), half));
        if (needs(b))
            flow(n, 1, m_b.where(m_b.compare(max ? "gt" : "lt", a, b), zerosLike(half), half));
    }

    static int64_t intOf(const Index& i) {
        int64_t v = 0;
        isConstant(i, &v);
        return v;
    }

    bool shapeBackward(const AtenNode& n, int32_t g) {
        int32_t x = n.inputs.empty() ? -1 : n.inputs[0];
        if (n.op == "view") {
            accumulate(x, m_b.view(g, sizes(x)));
        } else if (n.op == "permute") {
            std::vector<int64_t> inverse(n.ints.size());
            for (size_t i = 0; i < n.ints.size(); ++i)
                inverse[static_cast<size_t>(intOf(n.ints[i]))] = static_cast<int64_t>(i);
            accumulate(x, m_b.permute(g, inverse));
        } else if (n.op == "expand") {
            accumulate(x, sumTo(g, sizes(x)));
        } else if (n.op == "slice") {
            return sliceBackward(n, g);
        } else if (n.op == "cat") {
            int64_t dim = intOf(n.ints[0]);
            Index offset = constant(0);
            for (int32_t in : n.inputs) {
                Index length = sizes(in)[static_cast<size_t>(dim)];
                if (needs(in)) accumulate(in, m_b.slice(g, dim, offset, offset + length, 1));
                offset = offset + length;
            }
        } else if (n.op == "triu" || n.op == "tril") {
            accumulate(x, m_b.triangle(g, intOf(n.ints[0]), n.op == "triu", 0));
        } else {
            return false;
        }
        return true;
    }

    /// The gradient of a slice is zeros around the slice's gradient (step 1 only).
    bool sliceBackward(const AtenNode& n, int32_t g) {
        int32_t x = n.inputs[0];
        int64_t dim = intOf(n.ints[0]);
        if (intOf(n.ints[3]) != 1) return false;
        const Index& start = n.ints[1];
        const Index& end = n.ints[2];
        Index size = sizes(x)[static_cast<size_t>(dim)];
        std::vector<int32_t> parts;
        auto zeros = [&](Index length) {
            std::vector<Index> s = sizes(g);
            s[static_cast<size_t>(dim)] = std::move(length);
            parts.push_back(m_b.full(std::move(s), 0, dtype(g)));
        };
        if (!isConstant(start) || intOf(start) != 0) zeros(start);
        parts.push_back(g);
        if (!equal(end, size)) zeros(size + constant(-1) * end);
        accumulate(x, parts.size() == 1 ? g : m_b.cat(parts, dim));
        return true;
    }

    bool reductionBackward(int32_t y, const AtenNode& n, int32_t g) {
        int32_t x = n.inputs.empty() ? -1 : n.inputs[0];
        if (n.op == "sum") {
            accumulate(x, m_b.expand(keepDims(g, n, sizes(x)), sizes(x)));
        } else if (n.op == "welford_mean") {
            std::vector<int64_t> dims;
            for (const Index& d : n.ints)
                dims.push_back(intOf(d));
            int32_t count = m_b.countOf(x, dims, dtype(g));
            accumulate(x, m_b.expand(keepDims(div(g, count), n, sizes(x)), sizes(x)));
        } else if (n.op == "welford_m2") {
            std::vector<int64_t> dims;
            for (const Index& d : n.ints)
                dims.push_back(intOf(d));
            int32_t centred = sub(x, m_b.reduce("welford_mean", x, dims, true));
            accumulate(x, mul(mul(scalar(2, g), centred), keepDims(g, n, sizes(x))));
        } else if (n.op == "amax" || n.op == "amin") {
            // As PyTorch: the gradient is shared evenly by the elements equal to the extreme.
            std::vector<int64_t> dims;
            for (const Index& d : n.ints)
                dims.push_back(intOf(d));
            int32_t mask = m_b.compare("eq", x, keepDims(y, n, sizes(x)));
            int32_t ones = m_b.toDtype(mask, dtype(g));
            int32_t count = m_b.reduce("sum", ones, dims, true);
            accumulate(x, mul(ones, div(keepDims(g, n, sizes(x)), count)));
        } else {
            return false;
        }
        return true;
    }

    int32_t transposeLast(int32_t t) {
        int64_t r = m_b.rank(t);
        return m_b.transpose(t, r - 2, r - 1);
    }

    bool productBackward(const AtenNode& n, int32_t g) {
        if (n.op == "mm" || n.op == "bmm") {
            int32_t a = n.inputs[0], b = n.inputs[1];
            auto product = [&](int32_t l, int32_t r) {
                return n.op == "mm" ? m_b.mm(l, r) : m_b.bmm(l, r);
            };
            if (needs(a)) accumulate(a, product(g, transposeLast(b)));
            if (needs(b)) accumulate(b, product(transposeLast(a), g));
            return true;
        }
        if (n.op != "addmm") return false;
        int32_t bias = n.inputs[0], a = n.inputs[1], b = n.inputs[2];
        auto scaled = [&](int32_t t, double by) { return by == 1 ? t : mul(t, scalar(by, t)); };
        if (needs(bias)) flow(n, 0, scaled(g, n.scalar));
        if (needs(a)) accumulate(a, scaled(m_b.mm(g, transposeLast(b)), n.scalar2));
        if (needs(b)) accumulate(b, scaled(m_b.mm(transposeLast(a), g), n.scalar2));
        return true;
    }

    /// The ops whose gradients scatter (embedding, gather) or are convolutions: extern kernels.
    bool scatterBackward(const AtenNode& n, int32_t g) {
        int32_t x = n.inputs.empty() ? -1 : n.inputs[0];
        if (n.op == "embedding") {
            int64_t padding = n.ints.empty() ? -1 : intOf(n.ints[0]);
            if (needs(x))
                accumulate(x, m_b.embeddingBackward(g, n.inputs[1], sizes(x)[0], padding));
        } else if (n.op == "gather") {
            if (needs(x)) accumulate(x, m_b.gatherBackward(g, n.inputs[1], sizes(x)));
        } else if (n.op == "fallback") {
            return fallbackBackward(n, g);
        } else if (n.op == "convolution") {
            int32_t w = n.inputs[1];
            if (needs(x)) accumulate(x, m_b.convolutionBackward(true, g, w, sizes(x), n));
            if (needs(w)) accumulate(w, m_b.convolutionBackward(false, g, x, sizes(w), n));
            if (n.inputs.size() > 2 && needs(n.inputs[2]))
                accumulate(n.inputs[2], m_b.reduce("sum", g, {0, 2, 3}, false));
        } else {
            return false;
        }
        return true;
    }

    /// An op the eager kernels run: its backward runs it again with the eager autograd (its
    /// inputs are saved). Not for random ops, whose second run would draw other numbers.
    bool fallbackBackward(const AtenNode& n, int32_t g) {
        static const char* const random[] = {"dropout", "rand",    "bernoulli",    "multinomial",
                                             "normal",  "uniform", "alpha_dropout"};
        for (const char* r : random)
            if (n.originOp.find(r) != std::string::npos) return false;
        if (n.drawsRandom) return false;
        if (n.callsModule) return false; // its parameters would get no gradient
        for (size_t k = 0; k < n.inputs.size(); ++k)
            if (needs(n.inputs[k]))
                accumulate(n.inputs[k], m_b.fallbackBackward(n, static_cast<int32_t>(k), g));
        return true;
    }

    JointGraph m_joint;
    AtenBuilder m_b;
    std::vector<bool> m_needs;
    std::vector<int32_t> m_grad; ///< per forward node: its gradient so far (-1: none)
};

} // namespace

bool needsBackward(const AtenGraph& graph) {
    std::vector<bool> needs = nodesNeedingGrad(graph);
    for (size_t k = 0; k < graph.outputs.size(); ++k) {
        auto o = static_cast<size_t>(graph.outputs[k]);
        if (needs[o] && graph.nodes[o].op != "placeholder" && !graph.isMutationOutput(k))
            return true;
    }
    return false;
}

DifferentiateResult differentiate(const AtenGraph& forward) {
    // Capture says which values require grad; a node it marks that no differentiable path
    // reaches here means the graph lost how (a decomposition that dropped the flag): its
    // gradients would silently be missing, so the graph runs through the eager kernels.
    // Only a captured node's result carries its flag (its decomposition's other nodes share
    // it: linear's view of an input that needs no grad is marked too).
    std::vector<bool> needs = nodesNeedingGrad(forward);
    for (int32_t i : forward.nodeOfCaptured) {
        if (i < 0) continue;
        const AtenNode& n = forward.nodes[static_cast<size_t>(i)];
        if (n.requiresGrad && !needs[static_cast<size_t>(i)] && tensor::isFloating(n.dtype) &&
            !isConstantOp(n.op) && n.op != "placeholder" && n.op != "constant_tensor")
            return {std::nullopt, "Kiln's AOT autograd cannot follow how " + n.op + " (from " +
                                      n.origin + ") requires grad"};
    }
    return Differentiator(forward).run();
}

} // namespace kiln::compiler
