// SPDX-License-Identifier: MIT
#include "compiler/choose_saved_values.h"

#include "support/min_cut.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace kiln::compiler {

namespace {

enum class OpClass : uint8_t {
    Input,          ///< a graph input: computed by nobody, saved if the backward reads it
    Free,           ///< no inputs (constants, iota, parameters): recomputed, never saved
    View,           ///< costs nothing: its base is saved instead
    Recomputable,   ///< pointwise math, sums and maxima, dtype casts: fusible
    Random,         ///< fusible, but recomputing would draw other values
    Unrecomputable, ///< compute-intensive, opaque, or not on PyTorch's recomputable list
};

bool oneOf(std::string_view op, std::initializer_list<std::string_view> ops) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
}

OpClass classify(const std::string& op) {
    if (op == "placeholder") return OpClass::Input;
    if (oneOf(op, {"constant", "full", "iota", "eye", "sym_value", "constant_tensor"}))
        return OpClass::Free;
    if (oneOf(op, {"view", "permute", "expand", "slice"})) return OpClass::View;
    if (oneOf(op, {"rand", "randn"})) return OpClass::Random;
    // PyTorch's compute-intensive ops, and everything its allowlist leaves out (var_mean,
    // prod, argmax, embedding, gather, cat, tril, ...).
    if (oneOf(op, {"mm",
                   "bmm",
                   "addmm",
                   "flash_attention",
                   "convolution",
                   "convolution_backward_input",
                   "convolution_backward_weight",
                   "embedding_backward",
                   "gather_backward",
                   "fallback",
                   "fallback_backward",
                   "prod",
                   "amin",
                   "argmax",
                   "argmin",
                   "welford_mean",
                   "welford_m2",
                   "any",
                   "all",
                   "embedding",
                   "gather",
                   "cat",
                   "tril",
                   "triu"}))
        return OpClass::Unrecomputable;
    return OpClass::Recomputable; // pointwise ops (the lowering's default too), sum, amax
}

bool fusible(OpClass c) {
    return c == OpClass::Recomputable || c == OpClass::View || c == OpClass::Random;
}

class Chooser {
public:
    Chooser(const JointGraph& joint, std::span<const int64_t> syms)
        : m_g(joint.graph)
        , m_forward(static_cast<size_t>(joint.forwardNodes))
        , m_class(m_g.nodes.size())
        , m_users(m_g.nodes.size()) {
        for (size_t i = 0; i < m_g.nodes.size(); ++i) {
            m_class[i] = classify(m_g.nodes[i].op);
            for (int32_t in : m_g.nodes[i].inputs)
                m_users[static_cast<size_t>(in)].push_back(static_cast<int32_t>(i));
        }
        m_bytes.resize(m_forward);
        for (size_t i = 0; i < m_forward; ++i) {
            const AtenNode& n = m_g.nodes[i];
            double elements = 1;
            for (const Index& s : n.sizes)
                elements *= static_cast<double>(evaluate(s, {}, syms));
            m_bytes[i] = elements * static_cast<double>(tensor::itemSize(n.dtype));
        }
        computeDistances();
    }

    std::vector<bool> recomputed() const {
        // Node i's value enters at 2i and leaves at 2i+1; cutting the edge between saves it.
        const int32_t source = static_cast<int32_t>(2 * m_forward);
        const int32_t sink = source + 1;
        FlowNetwork net(sink + 1);
        auto in = [](size_t i) { return static_cast<int32_t>(2 * i); };
        auto out = [](size_t i) { return static_cast<int32_t>(2 * i + 1); };
        for (size_t i = 0; i < m_forward; ++i) {
            if (m_class[i] == OpClass::Free) continue; // no inputs: never reached from source
            if (m_class[i] == OpClass::Input || banned(i))
                net.addEdge(source, in(i), FlowNetwork::kInfinite);
            net.addEdge(in(i), out(i), weight(i));
            for (int32_t u : m_users[i]) {
                net.addEdge(out(i), inBackward(u) ? sink : in(static_cast<size_t>(u)),
                            FlowNetwork::kInfinite);
            }
        }
        net.maxFlow(source, sink);
        std::vector<bool> computedInForward = net.sourceSide(source);
        std::vector<bool> result(m_forward);
        for (size_t i = 0; i < m_forward; ++i)
            result[i] = m_class[i] == OpClass::Free || !computedInForward[2 * i];
        return result;
    }

private:
    bool inBackward(int32_t node) const { return static_cast<size_t>(node) >= m_forward; }

    /// Steps to the nearest backward node that reads it (through forward users).
    void computeDistances() {
        constexpr int32_t kFar = 1 << 20;
        m_distance.assign(m_forward, kFar);
        for (size_t k = m_forward; k-- > 0;)
            for (int32_t u : m_users[k])
                m_distance[k] = std::min(
                    m_distance[k], inBackward(u) ? 1 : m_distance[static_cast<size_t>(u)] + 1);
    }

    /// A backward node that cannot fuse it reads it, directly or through views.
    bool materializedInBackward(size_t node) const {
        std::vector<size_t> stack{node};
        while (!stack.empty()) {
            size_t cur = stack.back();
            stack.pop_back();
            for (int32_t u : m_users[cur]) {
                OpClass c = m_class[static_cast<size_t>(u)];
                if (inBackward(u) && !fusible(c)) return true;
                if (c == OpClass::View) stack.push_back(static_cast<size_t>(u));
            }
        }
        return false;
    }

    bool banned(size_t i) const {
        OpClass c = m_class[i];
        if (c == OpClass::Unrecomputable || c == OpClass::Random) return true;
        if (c != OpClass::Recomputable) return false;
        if (materializedInBackward(i)) return true;
        double inputs = 0;
        for (int32_t in : m_g.nodes[i].inputs)
            inputs += m_bytes[static_cast<size_t>(in)];
        return m_bytes[i] * 4 < inputs; // a reduction: saving its small result is cheaper
    }

    /// A value every user would fuse costs a materialisation more when it is saved.
    bool materialized(size_t i) const {
        if (m_class[i] == OpClass::Input) return true;
        return !std::all_of(m_users[i].begin(), m_users[i].end(),
                            [&](int32_t u) { return fusible(m_class[static_cast<size_t>(u)]); });
    }

    int64_t weight(size_t i) const {
        if (m_class[i] == OpClass::View) return FlowNetwork::kInfinite;
        int32_t steps = std::clamp(m_distance[i], 1, 100);
        double w = m_bytes[i] * std::pow(1.1, steps) * (materialized(i) ? 1.0 : 2.0);
        return static_cast<int64_t>(std::min(w, 1e15));
    }

    const AtenGraph& m_g;
    size_t m_forward;
    std::vector<OpClass> m_class;
    std::vector<std::vector<int32_t>> m_users;
    std::vector<double> m_bytes;
    std::vector<int32_t> m_distance;
};

} // namespace

std::vector<bool> chooseRecomputed(const JointGraph& joint,
                                   std::span<const int64_t> exampleSymbols) {
    return Chooser(joint, exampleSymbols).recomputed();
}

} // namespace kiln::compiler
