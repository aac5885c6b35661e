// SPDX-License-Identifier: MIT
#include "compiler/fuse_kernels.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace kiln::compiler {

namespace {

using Kind = ScheduledKernel::Kind;

bool sameRanges(const std::vector<Index>& a, const std::vector<Index>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!equal(a[i], b[i])) return false;
    return true;
}

bool isPrefix(const std::vector<Index>& prefix, const std::vector<Index>& of) {
    if (prefix.size() > of.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i)
        if (!equal(prefix[i], of[i])) return false;
    return true;
}

/// Every range a node loops over, outer to inner, as a stage sees them.
std::vector<Index> fullRanges(const LoopNode& n) {
    std::vector<Index> r = n.ranges;
    if (n.kind == LoopNode::Kind::Reduction)
        r.insert(r.end(), n.reductionRanges.begin(), n.reductionRanges.end());
    return r;
}

Index zeroInner(const Index& e, size_t outer) {
    return substitute(
        e, [outer](int32_t v) { return static_cast<size_t>(v) >= outer ? constant(0) : nullptr; });
}

class Scheduler {
public:
    Scheduler(const LoopProgram& p, const FusionOptions& options)
        : m_p(p)
        , m_options(options) {}

    Schedule run() {
        for (size_t i = 0; i < m_p.nodes.size(); ++i) {
            const LoopNode& n = m_p.nodes[i];
            int32_t id = static_cast<int32_t>(i);
            if (n.kind == LoopNode::Kind::Extern || n.kind == LoopNode::Kind::Fallback) {
                close();
                ScheduledKernel k;
                k.kind = n.kind == LoopNode::Kind::Extern ? Kind::Extern : Kind::Fallback;
                k.stages.push_back({id, {}});
                m_done.push_back(std::move(k));
                continue;
            }
            if (m_open && tryJoin(id)) continue;
            close();
            open(id);
        }
        close();
        name();
        return {std::move(m_done)};
    }

private:
    void open(int32_t id) {
        const LoopNode& n = m_p.nodes[static_cast<size_t>(id)];
        ScheduledKernel k;
        k.kind = n.kind == LoopNode::Kind::Reduction ? Kind::Reduction : Kind::Pointwise;
        k.outerRanges = n.ranges;
        k.stages.push_back(
            {id, n.kind == LoopNode::Kind::Reduction ? n.reductionRanges : std::vector<Index>{}});
        m_current = std::move(k);
        m_open = true;
    }

    void close() {
        if (!m_open) return;
        m_done.push_back(std::move(m_current));
        m_open = false;
    }

    void reject(int32_t id, const std::string& why) {
        if (!m_options.log) return;
        const LoopNode& first = m_p.nodes[static_cast<size_t>(m_current.stages.front().node)];
        m_options.log("cannot fuse " + m_p.buffer(m_p.nodes[static_cast<size_t>(id)].output).name +
                      " with " + m_p.buffer(first.output).name + ": " + why);
    }

    /// The outer ranges the kernel would have with node `id` in it, or nullopt.
    std::optional<std::vector<Index>> outerWith(const LoopNode& n) const {
        bool hasReduction = m_current.kind == Kind::Reduction;
        if (n.kind == LoopNode::Kind::Reduction) {
            if (hasReduction) {
                if (!sameRanges(m_current.outerRanges, n.ranges)) return std::nullopt;
                return n.ranges;
            }
            // A reduction joining pointwise stages: the kernel's outer loops shrink to its kept
            // ranges, and the pointwise stages loop over the rest inside.
            for (const KernelStage& s : m_current.stages)
                if (!isPrefix(n.ranges, fullRanges(m_p.nodes[static_cast<size_t>(s.node)])))
                    return std::nullopt;
            if (n.ranges.empty() && !m_current.outerRanges.empty()) return std::nullopt;
            return n.ranges;
        }
        if (hasReduction) {
            if (!isPrefix(m_current.outerRanges, n.ranges)) return std::nullopt;
            // A kernel without outer loops runs on one thread: loops that could be split over
            // the pool stay in a kernel of their own.
            if (m_current.outerRanges.empty() && !n.ranges.empty()) return std::nullopt;
            return m_current.outerRanges;
        }
        if (!sameRanges(m_current.outerRanges, n.ranges)) return std::nullopt;
        return n.ranges;
    }

    /// Whether every read of a buffer written in the kernel reads what the same outer iteration
    /// wrote (with `outer` outer loops).
    bool readsAreLocal(const LoopNode& n, size_t outer, std::string& why) const {
        std::map<int32_t, int32_t> producers;
        for (const KernelStage& s : m_current.stages)
            producers[m_p.nodes[static_cast<size_t>(s.node)].output] = s.node;
        std::vector<const ScalarNode*> loads;
        collectLoads(n.body, loads);
        for (const ScalarNode* l : loads) {
            auto it = producers.find(l->buffer);
            if (it == producers.end()) continue;
            const LoopNode& producer = m_p.nodes[static_cast<size_t>(it->second)];
            const Buffer& b = m_p.buffer(l->buffer);
            std::vector<Index> v;
            for (size_t i = 0; i < producer.ranges.size(); ++i)
                v.push_back(loopVar(static_cast<int32_t>(i)));
            Index store = linearIndex(v, b.strides, b.offset);
            if (!equal(zeroInner(store, outer), zeroInner(l->index, outer))) {
                why = "it reads " + b.name + " written by another outer iteration";
                return false;
            }
            if (producer.ranges.size() == outer && outer == fullRanges(n).size() &&
                !equal(store, l->index)) {
                why = "it reads " + b.name + " at another index";
                return false;
            }
        }
        return true;
    }

    /// Whether `n` reads a buffer that a stage of the kernel writes or reads.
    bool sharesData(const LoopNode& n) const {
        std::set<int32_t> touched;
        for (const KernelStage& s : m_current.stages) {
            const LoopNode& stage = m_p.nodes[static_cast<size_t>(s.node)];
            touched.insert(stage.output);
            std::vector<const ScalarNode*> loads;
            collectLoads(stage.body, loads);
            for (const ScalarNode* l : loads)
                touched.insert(l->buffer);
        }
        std::vector<const ScalarNode*> loads;
        collectLoads(n.body, loads);
        return std::any_of(loads.begin(), loads.end(),
                           [&](const ScalarNode* l) { return touched.count(l->buffer) > 0; });
    }

    bool tryJoin(int32_t id) {
        const LoopNode& n = m_p.nodes[static_cast<size_t>(id)];
        if (static_cast<int>(m_current.stages.size()) >= m_options.maxFusionSize) {
            reject(id, "the kernel reached max_fusion_size");
            return false;
        }
        if (m_options.requireSharedData && !sharesData(n)) {
            reject(id, "it shares no buffer with the kernel");
            return false;
        }
        auto outer = outerWith(n);
        if (!outer) {
            reject(id, "nodes numel incompatibility");
            return false;
        }
        std::string why;
        if (!readsAreLocal(n, outer->size(), why)) {
            reject(id, why);
            return false;
        }
        m_current.outerRanges = *outer;
        m_current.stages.push_back({id, {}});
        if (n.kind == LoopNode::Kind::Reduction) m_current.kind = Kind::Reduction;
        for (KernelStage& s : m_current.stages) {
            std::vector<Index> full = fullRanges(m_p.nodes[static_cast<size_t>(s.node)]);
            s.innerRanges.assign(full.begin() + static_cast<ptrdiff_t>(outer->size()), full.end());
        }
        if (m_options.log)
            m_options.log(
                "fusing " + m_p.buffer(n.output).name + " into the kernel of " +
                m_p.buffer(m_p.nodes[static_cast<size_t>(m_current.stages.front().node)].output)
                    .name);
        return true;
    }

    void name() {
        int index = 0;
        for (ScheduledKernel& k : m_done) {
            std::set<std::string> ops, origins;
            for (const KernelStage& s : k.stages) {
                const LoopNode& n = m_p.nodes[static_cast<size_t>(s.node)];
                ops.insert(n.originOps.begin(), n.originOps.end());
                origins.insert(n.origins.begin(), n.origins.end());
            }
            k.origins.assign(origins.begin(), origins.end());
            std::string joined;
            for (const std::string& op : ops)
                joined += (joined.empty() ? "" : "_") + op;
            const LoopNode& first = m_p.nodes[static_cast<size_t>(k.stages.front().node)];
            switch (k.kind) {
            case Kind::Pointwise:
                k.name = "kiln_poi_fused_" + joined + "_" + std::to_string(index++);
                break;
            case Kind::Reduction:
                k.name = "kiln_red_fused_" + joined + "_" + std::to_string(index++);
                break;
            case Kind::Extern:
                k.name = "extern_" + first.externName;
                break;
            case Kind::Fallback:
                k.name = "fallback_" + first.externName;
                break;
            case Kind::Template:
                k.name = "kiln_tem_fused_" + joined + "_" + std::to_string(index++);
                break;
            }
        }
    }

    const LoopProgram& m_p;
    FusionOptions m_options;
    std::vector<ScheduledKernel> m_done;
    ScheduledKernel m_current;
    bool m_open = false;
};

} // namespace

const char* kernelKindName(ScheduledKernel::Kind kind) {
    switch (kind) {
    case Kind::Pointwise:
        return "pointwise";
    case Kind::Reduction:
        return "reduction";
    case Kind::Extern:
        return "extern";
    case Kind::Fallback:
        return "fallback";
    case Kind::Template:
        return "template";
    }
    return "?";
}

std::string toString(const Schedule& schedule, const LoopProgram& p) {
    std::string text;
    auto ranges = [&](const std::vector<Index>& r) {
        std::string s = "[";
        for (size_t i = 0; i < r.size(); ++i)
            s += (i ? ", " : "") + toString(r[i], nullptr, &p.symbolNames);
        return s + "]";
    };
    for (const ScheduledKernel& k : schedule.kernels) {
        text += k.name + ": " + kernelKindName(k.kind) + " outer " + ranges(k.outerRanges) + "\n";
        for (const KernelStage& s : k.stages)
            text += "    " + describeNode(p, p.nodes[static_cast<size_t>(s.node)]) + "\n";
    }
    return text;
}

Schedule fuseKernels(const LoopProgram& program, const FusionOptions& options) {
    return Scheduler(program, options).run();
}

} // namespace kiln::compiler
