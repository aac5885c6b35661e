// SPDX-License-Identifier: MIT
#include "codegen/cuda/reduction_patterns.h"

#include "codegen/cuda/expr_printer.h"
#include "codegen/cuda/kernel_frame.h"

#include <set>

namespace kiln::codegen::cuda {

namespace {

using compiler::LoopNode;
using compiler::ReductionKind;
using compiler::ScalarOp;

const LoopNode& nodeOf(const compiler::LoopProgram& p, const compiler::KernelStage& s) {
    return p.nodes.at(static_cast<size_t>(s.node));
}

bool sameRanges(const std::vector<compiler::Index>& a, const std::vector<compiler::Index>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!compiler::equal(a[i], b[i])) return false;
    return true;
}

bool isWelford(ReductionKind k) {
    return k == ReductionKind::WelfordMean || k == ReductionKind::WelfordM2;
}

/// sum(exp(f - amax)) where amax is `maxNode`'s result of the same f.
bool isSoftmaxSum(const compiler::LoopProgram& p, const LoopNode& maxNode, const LoopNode& sum) {
    if (sum.kind != LoopNode::Kind::Reduction || sum.reduction != ReductionKind::Sum) return false;
    if (maxNode.body->dtype != DType::Float32 || sum.body->dtype != DType::Float32) return false;
    const compiler::Scalar& e = sum.body;
    if (e->op != ScalarOp::Exp || e->operands[0]->op != ScalarOp::Sub) return false;
    const compiler::Scalar& diff = e->operands[0];
    const compiler::Scalar& m = diff->operands[1];
    (void)p;
    return m->op == ScalarOp::Load && m->operands.empty() && m->buffer == maxNode.output &&
           sameScalar(diff->operands[0], maxNode.body);
}

} // namespace

std::vector<StagePlan> planStages(const compiler::LoopProgram& p,
                                  const compiler::ScheduledKernel& k, bool onlineSoftmax) {
    std::vector<StagePlan> plan;
    std::set<size_t> taken;
    for (size_t i = 0; i < k.stages.size(); ++i) {
        if (taken.count(i)) continue;
        const LoopNode& n = nodeOf(p, k.stages[i]);
        StagePlan step;
        step.first = i;
        if (n.kind != LoopNode::Kind::Reduction) {
            step.kind = StagePlan::Kind::Pointwise;
        } else if (isWelford(n.reduction)) {
            step.kind = StagePlan::Kind::Welford;
            for (size_t j = i + 1; j < k.stages.size(); ++j) {
                const LoopNode& o = nodeOf(p, k.stages[j]);
                if (o.kind == LoopNode::Kind::Reduction && isWelford(o.reduction) &&
                    o.reduction != n.reduction && sameScalar(o.body, n.body) &&
                    sameRanges(k.stages[j].innerRanges, k.stages[i].innerRanges) &&
                    !taken.count(j)) {
                    step.second = static_cast<int>(j);
                    taken.insert(j);
                    break;
                }
            }
        } else if (n.reduction == ReductionKind::ArgMax || n.reduction == ReductionKind::ArgMin) {
            step.kind = StagePlan::Kind::Arg;
        } else if (onlineSoftmax && n.reduction == ReductionKind::Max && i + 1 < k.stages.size() &&
                   sameRanges(k.stages[i + 1].innerRanges, k.stages[i].innerRanges) &&
                   isSoftmaxSum(p, n, nodeOf(p, k.stages[i + 1]))) {
            step.kind = StagePlan::Kind::Softmax;
            step.second = static_cast<int>(i + 1);
            taken.insert(i + 1);
        } else {
            step.kind = StagePlan::Kind::Plain;
        }
        plan.push_back(step);
    }
    return plan;
}

std::string unsupportedReason(const compiler::LoopProgram& p, const compiler::ScheduledKernel& k) {
    for (const compiler::KernelStage& s : k.stages) {
        const LoopNode& n = nodeOf(p, s);
        if (!n.body) return "stage " + p.buffer(n.output).name + " has no body";
        if (n.kind != LoopNode::Kind::Reduction) continue;
        if (n.ranges.size() != k.outerRanges.size())
            return "reduction " + p.buffer(n.output).name + " keeps more ranges than the kernel";
        if (isWelford(n.reduction) && n.body->dtype == DType::Float64)
            return "float64 Welford reductions are not generated for CUDA yet";
        if ((n.reduction == ReductionKind::ArgMax || n.reduction == ReductionKind::ArgMin) &&
            n.body->dtype == DType::Bool)
            return "argmax/argmin of bool is not generated for CUDA yet";
    }
    return {};
}

std::optional<int64_t> longestRow(const compiler::LoopProgram&,
                                  const compiler::ScheduledKernel& k) {
    int64_t longest = 0;
    for (const compiler::KernelStage& s : k.stages) {
        auto n = staticValue(compiler::product(s.innerRanges));
        if (!n) return std::nullopt;
        longest = std::max(longest, *n);
    }
    return longest;
}

} // namespace kiln::codegen::cuda
