// SPDX-License-Identifier: MIT
#include "codegen/cuda/discarded_loads.h"

#include "codegen/cuda/expr_printer.h"

#include <set>
#include <utility>

namespace kiln::codegen::cuda {

namespace {

using compiler::Scalar;
using compiler::ScalarNode;
using compiler::ScalarOp;

bool sameLoad(const ScalarNode& a, const ScalarNode& b) {
    return a.op == ScalarOp::Load && b.op == ScalarOp::Load && a.buffer == b.buffer &&
           a.operands.empty() && b.operands.empty() && compiler::equal(a.index, b.index);
}

bool reads(const Scalar& s, const ScalarNode& load, std::set<const ScalarNode*>& seen) {
    if (!seen.insert(s.get()).second) return false;
    if (sameLoad(*s, load)) return true;
    for (const Scalar& o : s->operands)
        if (reads(o, load, seen)) return true;
    return false;
}

/// Walks the expression DAG once per (node, guard) pair: the guard is the condition of the
/// innermost `where` whose false branch holds the node (null outside any).
class GuardFinder {
public:
    explicit GuardFinder(const ScalarNode& load)
        : m_load(load) {}

    void walk(const Scalar& s, const Scalar& guard) {
        if (m_failed || !m_visited.insert({s.get(), guard.get()}).second) return;
        if (sameLoad(*s, m_load)) {
            use(guard);
            return;
        }
        if (s->op == ScalarOp::Where) {
            walk(s->operands[0], guard);
            walk(s->operands[1], guard);
            std::set<const ScalarNode*> seen;
            walk(s->operands[2], reads(s->operands[0], m_load, seen) ? guard : s->operands[0]);
            return;
        }
        for (const Scalar& o : s->operands)
            walk(o, guard);
    }

    Scalar result() const { return m_failed ? nullptr : m_guard; }

private:
    void use(const Scalar& guard) {
        if (!guard || (m_guard && !sameScalar(m_guard, guard))) {
            m_failed = true;
            return;
        }
        m_guard = guard;
    }

    const ScalarNode& m_load;
    std::set<std::pair<const ScalarNode*, const ScalarNode*>> m_visited;
    Scalar m_guard;
    bool m_failed = false;
};

} // namespace

Scalar discardingCondition(std::span<const Scalar> bodies, const ScalarNode& load) {
    if (load.op != ScalarOp::Load || !load.operands.empty()) return nullptr;
    GuardFinder finder(load);
    for (const Scalar& body : bodies)
        finder.walk(body, nullptr);
    return finder.result();
}

} // namespace kiln::codegen::cuda
