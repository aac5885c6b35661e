// SPDX-License-Identifier: MIT
#include "codegen/cuda/kernel_frame.h"

#include "codegen/cuda/expr_printer.h"

#include <algorithm>

namespace kiln::codegen::cuda {

using compiler::Index;
using compiler::IndexNode;

std::vector<KernelArg> kernelArgs(const compiler::LoopProgram& p,
                                  const compiler::ScheduledKernel& k) {
    std::vector<KernelArg> args;
    auto note = [&](int32_t id, bool written) {
        for (KernelArg& a : args)
            if (a.id == id) {
                a.written = a.written || written;
                return;
            }
        const compiler::Buffer& b = p.buffer(id);
        args.push_back({KernelArg::Kind::Buffer, id, b.name, b.dtype, written});
    };
    for (const compiler::KernelStage& s : k.stages) {
        const compiler::LoopNode& n = p.nodes.at(static_cast<size_t>(s.node));
        for (int32_t r : n.reads())
            note(r, false);
        note(n.output, true);
        std::vector<const compiler::ScalarNode*> loads;
        if (n.body) compiler::collectLoads(n.body, loads);
        for (const compiler::ScalarNode* l : loads)
            if (!l->operands.empty() && p.statusBuffer >= 0) note(p.statusBuffer, true);
    }
    for (size_t i = 0; i < p.symbolNames.size(); ++i)
        args.push_back({KernelArg::Kind::Symbol, static_cast<int32_t>(i), p.symbolNames[i],
                        tensor::DType::Int64, false});
    return args;
}

std::string kernelSignature(const std::string& name, const std::vector<KernelArg>& args,
                            int threads) {
    std::string s = "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(threads) +
                    ") " + name + "(";
    for (size_t i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        s += i ? ",\n    " : "\n    ";
        if (a.kind == KernelArg::Kind::Symbol)
            s += "long long " + a.name;
        else
            s += std::string(a.written ? "" : "const ") + storageTypeName(a.dtype) +
                 "* __restrict__ " + a.name;
    }
    return s + ")";
}

std::optional<int64_t> staticValue(const Index& e) {
    int64_t v = 0;
    if (compiler::isConstant(e, &v)) return v;
    return std::nullopt;
}

bool needs64BitIndex(const compiler::LoopProgram& p, const compiler::ScheduledKernel& k) {
    constexpr int64_t kLimit = int64_t(1) << 31;
    // The largest element offset a buffer reaches, or none when it has symbolic sizes.
    auto extent = [](const compiler::Buffer& b) -> std::optional<int64_t> {
        int64_t last = 0;
        for (size_t d = 0; d < b.sizes.size(); ++d) {
            auto size = staticValue(b.sizes[d]), stride = staticValue(b.strides[d]);
            if (!size || !stride) return std::nullopt;
            last += (*size - 1) * std::max<int64_t>(*stride, 0);
        }
        return last + 1;
    };
    for (const KernelArg& a : kernelArgs(p, k)) {
        if (a.kind != KernelArg::Kind::Buffer) continue;
        auto e = extent(p.buffer(a.id));
        if (!e || *e >= kLimit) return true;
    }
    int64_t iterations = 1;
    for (const Index& r : k.outerRanges) {
        auto v = staticValue(r);
        if (!v) return true;
        iterations *= *v;
    }
    for (const compiler::KernelStage& s : k.stages) {
        int64_t inner = iterations;
        for (const Index& r : s.innerRanges) {
            auto v = staticValue(r);
            if (!v) return true;
            inner *= *v;
        }
        if (inner >= kLimit) return true;
    }
    return false;
}

namespace {

/// Whether e is a multiple of `width` for every value of the loop variables; size symbols it
/// needs to be multiples become conditions.
bool divisible(const Index& e, int width, VectorPathCondition& conditions) {
    switch (e->kind) {
    case IndexNode::Kind::Const:
        return e->value % width == 0;
    case IndexNode::Kind::Var:
        return width == 1;
    case IndexNode::Kind::Sym:
        conditions.requireMultiple(e, width);
        return true;
    case IndexNode::Kind::Add:
        return divisible(e->lhs, width, conditions) && divisible(e->rhs, width, conditions);
    case IndexNode::Kind::Mul: {
        // Either factor divisible will do; prefer one that needs no condition.
        VectorPathCondition left, right;
        bool l = divisible(e->lhs, width, left), r = divisible(e->rhs, width, right);
        if ((l && left.multiples.empty()) || (r && right.multiples.empty())) return true;
        for (const VectorPathCondition::Multiple& m : (l ? left : right).multiples)
            conditions.requireMultiple(m.value, m.of);
        return l || r;
    }
    default:
        return false;
    }
}

} // namespace

AccessKind classifyAccess(const Index& index, int32_t var, int width,
                          VectorPathCondition* conditions) {
    if (!compiler::usesVar(index, var)) return AccessKind::Invariant;
    Index c = compiler::coefficientOf(index, var);
    int64_t one = 0;
    if (!c || !compiler::isConstant(c, &one) || one != 1) return AccessKind::Gather;
    Index rest = compiler::substitute(
        index, [&](int32_t v) -> Index { return v == var ? compiler::constant(0) : nullptr; });
    VectorPathCondition extra;
    if (!divisible(rest, width, extra)) return AccessKind::Gather;
    if (conditions)
        for (const VectorPathCondition::Multiple& m : extra.multiples)
            conditions->requireMultiple(m.value, m.of);
    return AccessKind::Vector;
}

std::string conditionText(const VectorPathCondition& c, const compiler::LoopProgram& p,
                          const ExprPrinter& printer) {
    std::string text;
    auto add = [&](const std::string& term) { text += (text.empty() ? "" : " && ") + term; };
    for (const VectorPathCondition::Multiple& m : c.multiples)
        add("(" + printer.index(m.value) + " % " + std::to_string(m.of) + " == 0)");
    for (const VectorPathCondition::Aligned& a : c.aligned)
        add("kiln_aligned(" + p.buffer(a.buffer).name + ", " + std::to_string(a.bytes) + ")");
    return text.empty() ? "true" : text;
}

std::string twoPaths(const std::string& condition, const std::string& vectorPath,
                     const std::string& scalarPath) {
    return "#ifndef KILN_SCALAR_PATH_ONLY\n    if (" + condition + ") {\n" + vectorPath +
           "    return;\n    }\n#endif\n"
           "#ifdef KILN_VECTOR_PATH_ONLY\n"
           "    __trap(); // the host launches this image only where the condition holds\n"
           "#else\n" +
           scalarPath + "#endif\n";
}

std::vector<const compiler::ScalarNode*> distinctLoads(const compiler::Scalar& body) {
    std::vector<const compiler::ScalarNode*> all, out;
    compiler::collectLoads(body, all);
    for (const compiler::ScalarNode* l : all) {
        bool seen = false;
        for (const compiler::ScalarNode* o : out)
            seen = seen || (o->buffer == l->buffer && compiler::equal(o->index, l->index) &&
                            o->operands.empty() && l->operands.empty());
        if (!seen) out.push_back(l);
    }
    return out;
}

int vectorWidthFor(const std::vector<tensor::DType>& dtypes) {
    int64_t smallest = 8;
    for (tensor::DType t : dtypes)
        smallest = std::min(smallest, tensor::itemSize(t));
    if (dtypes.empty()) return 1;
    return static_cast<int>(std::clamp<int64_t>(16 / smallest, 1, 8));
}

} // namespace kiln::codegen::cuda
