// SPDX-License-Identifier: MIT
#include "compiler/loop_ir.h"

#include "support/assert.h"
#include "tensor/half.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <type_traits>

namespace kiln::compiler {

namespace {

Scalar make(ScalarOp op, DType dtype, std::vector<Scalar> operands) {
    auto n = std::make_shared<ScalarNode>();
    n->op = op;
    n->dtype = dtype;
    n->operands = std::move(operands);
    return n;
}

std::string formatConstant(double v, DType dtype) {
    if (!tensor::isFloating(dtype)) {
        if (dtype == DType::Bool) return v != 0 ? "True" : "False";
        return std::to_string(static_cast<int64_t>(v));
    }
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

std::vector<std::string> loopVarNames(size_t ranges, size_t reductionRanges) {
    std::vector<std::string> names;
    for (size_t i = 0; i < ranges; ++i)
        names.push_back("x" + std::to_string(i));
    for (size_t i = 0; i < reductionRanges; ++i)
        names.push_back("r" + std::to_string(i));
    return names;
}

std::string rangesText(const std::vector<Index>& ranges, const LoopProgram& p) {
    std::string s = "[";
    for (size_t i = 0; i < ranges.size(); ++i)
        s += (i ? ", " : "") + toString(ranges[i], nullptr, &p.symbolNames);
    return s + "]";
}

} // namespace

const char* scalarOpName(ScalarOp op) {
    switch (op) {
    case ScalarOp::Load:
        return "load";
    case ScalarOp::Constant:
        return "constant";
    case ScalarOp::IndexAsValue:
        return "index_expr";
    case ScalarOp::Neg:
        return "neg";
    case ScalarOp::Abs:
        return "abs";
    case ScalarOp::Exp:
        return "exp";
    case ScalarOp::Log:
        return "log";
    case ScalarOp::Sqrt:
        return "sqrt";
    case ScalarOp::Rsqrt:
        return "rsqrt";
    case ScalarOp::Sin:
        return "sin";
    case ScalarOp::Cos:
        return "cos";
    case ScalarOp::Tan:
        return "tan";
    case ScalarOp::Tanh:
        return "tanh";
    case ScalarOp::Erf:
        return "erf";
    case ScalarOp::Log1p:
        return "log1p";
    case ScalarOp::Floor:
        return "floor";
    case ScalarOp::Ceil:
        return "ceil";
    case ScalarOp::Round:
        return "round";
    case ScalarOp::Sign:
        return "sign";
    case ScalarOp::Reciprocal:
        return "reciprocal";
    case ScalarOp::LogicalNot:
        return "logical_not";
    case ScalarOp::Cast:
        return "to_dtype";
    case ScalarOp::RandUniform:
        return "rand_uniform";
    case ScalarOp::Add:
        return "add";
    case ScalarOp::Sub:
        return "sub";
    case ScalarOp::Mul:
        return "mul";
    case ScalarOp::Div:
        return "truediv";
    case ScalarOp::Mod:
        return "remainder";
    case ScalarOp::Pow:
        return "pow";
    case ScalarOp::Maximum:
        return "maximum";
    case ScalarOp::Minimum:
        return "minimum";
    case ScalarOp::Eq:
        return "eq";
    case ScalarOp::Ne:
        return "ne";
    case ScalarOp::Lt:
        return "lt";
    case ScalarOp::Le:
        return "le";
    case ScalarOp::Gt:
        return "gt";
    case ScalarOp::Ge:
        return "ge";
    case ScalarOp::LogicalAnd:
        return "logical_and";
    case ScalarOp::LogicalOr:
        return "logical_or";
    case ScalarOp::Where:
        return "where";
    }
    return "?";
}

int scalarOpArity(ScalarOp op) {
    if (op == ScalarOp::Load || op == ScalarOp::Constant || op == ScalarOp::IndexAsValue) return 0;
    if (op == ScalarOp::Where) return 3;
    return op >= ScalarOp::Add ? 2 : 1;
}

bool isComparison(ScalarOp op) {
    return op >= ScalarOp::Eq && op <= ScalarOp::Ge;
}

DType computeType(DType storage) {
    if (storage == DType::Float16 || storage == DType::BFloat16) return DType::Float32;
    return storage;
}

Scalar load(int32_t buffer, DType bufferDType, Index index) {
    auto n = std::make_shared<ScalarNode>();
    n->op = ScalarOp::Load;
    n->dtype = computeType(bufferDType);
    n->buffer = buffer;
    n->index = std::move(index);
    return n;
}

Scalar loadIndirect(int32_t buffer, DType bufferDType, Index index, Scalar position, Index stride,
                    Index bound) {
    auto n = std::make_shared<ScalarNode>();
    n->op = ScalarOp::Load;
    n->dtype = computeType(bufferDType);
    n->buffer = buffer;
    n->index = std::move(index);
    n->operands = {cast(std::move(position), DType::Int64)};
    n->indirectStride = std::move(stride);
    n->indirectBound = std::move(bound);
    return n;
}

Scalar scalarConstant(double value, DType dtype) {
    auto n = std::make_shared<ScalarNode>();
    n->op = ScalarOp::Constant;
    n->dtype = computeType(dtype);
    // A number next to a 16-bit float tensor takes that precision (bf16 0.1 is 0.10009765625),
    // though the arithmetic runs in float32.
    if (dtype == DType::BFloat16) value = float(tensor::BFloat16(static_cast<float>(value)));
    if (dtype == DType::Float16) value = float(tensor::Half(static_cast<float>(value)));
    n->constant = value;
    return n;
}

int64_t integerConstant(double value, DType dtype) {
    return tensor::dispatchDType(dtype, [&]<DType D>() -> int64_t {
        using T = tensor::CType<D>;
        if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool>) {
            return value != 0;
        } else {
            if (std::isinf(value) || std::abs(value) >= 0x1p63)
                return value < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
            if (std::isnan(value)) return 0;
            return static_cast<T>(static_cast<int64_t>(value));
        }
    });
}

Scalar indexAsValue(Index index) {
    auto n = std::make_shared<ScalarNode>();
    n->op = ScalarOp::IndexAsValue;
    n->dtype = DType::Int64;
    n->index = std::move(index);
    return n;
}

Scalar unary(ScalarOp op, Scalar a) {
    KILN_ASSERT(scalarOpArity(op) == 1 && op != ScalarOp::Cast && op != ScalarOp::RandUniform,
                "not a unary op");
    DType t = op == ScalarOp::LogicalNot ? DType::Bool : a->dtype;
    return make(op, t, {std::move(a)});
}

Scalar binary(ScalarOp op, Scalar a, Scalar b) {
    KILN_ASSERT(scalarOpArity(op) == 2, "not a binary op");
    KILN_ASSERT(a->dtype == b->dtype, "binary operands must share a dtype (cast first)");
    bool boolean = isComparison(op) || op == ScalarOp::LogicalAnd || op == ScalarOp::LogicalOr;
    DType t = boolean ? DType::Bool : a->dtype;
    return make(op, t, {std::move(a), std::move(b)});
}

Scalar where(Scalar condition, Scalar a, Scalar b) {
    KILN_ASSERT(condition->dtype == DType::Bool, "where needs a bool condition");
    KILN_ASSERT(a->dtype == b->dtype, "where branches must share a dtype");
    DType t = a->dtype;
    return make(ScalarOp::Where, t, {std::move(condition), std::move(a), std::move(b)});
}

Scalar cast(Scalar a, DType dtype) {
    DType t = computeType(dtype);
    if (a->dtype == t) return a;
    if (a->op == ScalarOp::Constant) return scalarConstant(a->constant, t);
    return make(ScalarOp::Cast, t, {std::move(a)});
}

Scalar randUniform(Index seed, int64_t stream, Scalar counter, DType dtype) {
    KILN_ASSERT(counter->dtype == DType::Int64, "a random counter is an int64");
    KILN_ASSERT(dtype == DType::Float32 || dtype == DType::Float64,
                "random values are float32 or float64");
    auto n = std::make_shared<ScalarNode>();
    n->op = ScalarOp::RandUniform;
    n->dtype = dtype;
    n->operands = {std::move(counter)};
    n->index = std::move(seed);
    n->constant = static_cast<double>(stream);
    return n;
}

int opCount(const Scalar& s) {
    int n = s->op == ScalarOp::Load || s->op == ScalarOp::Constant ? 0 : 1;
    for (const Scalar& o : s->operands)
        n += opCount(o);
    return n;
}

void collectLoads(const Scalar& s, std::vector<const ScalarNode*>& out) {
    if (s->op == ScalarOp::Load) out.push_back(s.get());
    for (const Scalar& o : s->operands)
        collectLoads(o, out);
}

Scalar substituteIndices(const Scalar& s, const std::function<Index(int32_t)>& replacement) {
    if (s->op == ScalarOp::Load || s->op == ScalarOp::IndexAsValue) {
        auto n = std::make_shared<ScalarNode>(*s);
        n->index = substitute(s->index, replacement);
        for (Scalar& o : n->operands)
            o = substituteIndices(o, replacement);
        return n;
    }
    if (s->operands.empty()) return s;
    auto n = std::make_shared<ScalarNode>(*s);
    for (Scalar& o : n->operands)
        o = substituteIndices(o, replacement);
    return n;
}

const char* reductionName(ReductionKind kind) {
    switch (kind) {
    case ReductionKind::Sum:
        return "sum";
    case ReductionKind::Prod:
        return "prod";
    case ReductionKind::Max:
        return "max";
    case ReductionKind::Min:
        return "min";
    case ReductionKind::ArgMax:
        return "argmax";
    case ReductionKind::ArgMin:
        return "argmin";
    case ReductionKind::Any:
        return "any";
    case ReductionKind::All:
        return "all";
    case ReductionKind::WelfordMean:
        return "welford_mean";
    case ReductionKind::WelfordM2:
        return "welford_m2";
    }
    return "?";
}

std::vector<int32_t> LoopNode::reads() const {
    std::set<int32_t> ids(inputs.begin(), inputs.end());
    if (body) {
        std::vector<const ScalarNode*> loads;
        collectLoads(body, loads);
        for (const ScalarNode* l : loads)
            ids.insert(l->buffer);
    }
    return {ids.begin(), ids.end()};
}

int32_t LoopProgram::addBuffer(Buffer b) {
    b.id = static_cast<int32_t>(buffers.size());
    buffers.push_back(std::move(b));
    return buffers.back().id;
}

std::string toString(const Scalar& s, const LoopProgram& p, const std::vector<std::string>* vars) {
    switch (s->op) {
    case ScalarOp::Load:
        if (!s->operands.empty())
            return "load(" + p.buffer(s->buffer).name + ", " +
                   toString(s->index, vars, &p.symbolNames) + " + [" +
                   toString(s->operands[0], p, vars) + "]*" +
                   toString(s->indirectStride, vars, &p.symbolNames) + ")";
        return "load(" + p.buffer(s->buffer).name + ", " +
               toString(s->index, vars, &p.symbolNames) + ")";
    case ScalarOp::Constant:
        return formatConstant(s->constant, s->dtype);
    case ScalarOp::IndexAsValue:
        return "index_expr(" + toString(s->index, vars, &p.symbolNames) + ")";
    case ScalarOp::Cast:
        return "to_dtype(" + toString(s->operands[0], p, vars) + ", " +
               std::string(tensor::dtypeName(s->dtype)) + ")";
    case ScalarOp::RandUniform:
        return "rand_uniform(" + toString(s->index, vars, &p.symbolNames) +
               ", stream=" + std::to_string(static_cast<int64_t>(s->constant)) + ", " +
               toString(s->operands[0], p, vars) + ", " + std::string(tensor::dtypeName(s->dtype)) +
               ")";
    default:
        break;
    }
    std::string text = std::string(scalarOpName(s->op)) + "(";
    for (size_t i = 0; i < s->operands.size(); ++i)
        text += (i ? ", " : "") + toString(s->operands[i], p, vars);
    return text + ")";
}

std::string describeNode(const LoopProgram& p, const LoopNode& n) {
    const Buffer& out = p.buffer(n.output);
    std::string head = out.name + ": ";
    std::string origins;
    for (size_t i = 0; i < n.origins.size(); ++i)
        origins += (i ? ", " : "") + n.origins[i];
    switch (n.kind) {
    case LoopNode::Kind::Pointwise: {
        auto vars = loopVarNames(n.ranges.size(), 0);
        return head + "Pointwise" + rangesText(n.ranges, p) + " " +
               std::string(tensor::dtypeName(out.dtype)) + " = " + toString(n.body, p, &vars) +
               "  # " + origins;
    }
    case LoopNode::Kind::Reduction: {
        auto vars = loopVarNames(n.ranges.size(), n.reductionRanges.size());
        return head + "Reduction" + rangesText(n.ranges, p) + rangesText(n.reductionRanges, p) +
               " " + std::string(tensor::dtypeName(out.dtype)) + " = " +
               reductionName(n.reduction) + "(" + toString(n.body, p, &vars) + ")  # " + origins;
    }
    case LoopNode::Kind::Extern:
    case LoopNode::Kind::Fallback: {
        std::string args;
        for (size_t i = 0; i < n.inputs.size(); ++i)
            args += (i ? ", " : "") + p.buffer(n.inputs[i]).name;
        std::string what = n.kind == LoopNode::Kind::Extern ? "Extern " + n.externName
                                                            : "Fallback " + n.externName;
        return head + what + "(" + args + ") -> " + rangesText(out.sizes, p) + " " +
               std::string(tensor::dtypeName(out.dtype)) + "  # " + origins;
    }
    }
    return head;
}

std::string toString(const LoopProgram& p) {
    std::string text;
    for (const Buffer& b : p.buffers) {
        if (b.origin != Buffer::Origin::Input) continue;
        text += b.name + ": Input" + rangesText(b.sizes, p) + " strides " +
                rangesText(b.strides, p) + " " + std::string(tensor::dtypeName(b.dtype)) + "\n";
    }
    for (const LoopNode& n : p.nodes)
        text += describeNode(p, n) + "\n";
    text += "outputs:";
    for (int32_t o : p.outputs)
        text += " " + (o >= 0 ? p.buffer(o).name : std::string("<non-tensor>"));
    return text + "\n";
}

std::string verify(const LoopProgram& p) {
    std::vector<bool> defined(p.buffers.size(), false);
    for (const Buffer& b : p.buffers)
        if (b.origin == Buffer::Origin::Input) defined[static_cast<size_t>(b.id)] = true;
    auto inRange = [&](int32_t id) {
        return id >= 0 && id < static_cast<int32_t>(p.buffers.size());
    };
    for (const LoopNode& n : p.nodes) {
        for (int32_t r : n.reads()) {
            if (!inRange(r))
                return "a node reads buffer id " + std::to_string(r) + " (no such buffer)";
            if (!defined[static_cast<size_t>(r)])
                return p.buffer(n.output).name + " reads " + p.buffer(r).name +
                       " before it is written";
        }
        if (!inRange(n.output)) return "a node writes no valid buffer";
        defined[static_cast<size_t>(n.output)] = true;
        for (int32_t o : n.outputs)
            if (inRange(o)) defined[static_cast<size_t>(o)] = true;
        if (n.kind == LoopNode::Kind::Pointwise || n.kind == LoopNode::Kind::Reduction) {
            if (!n.body) return p.buffer(n.output).name + " has no body";
            size_t vars = n.ranges.size() + n.reductionRanges.size();
            std::vector<const ScalarNode*> loads;
            collectLoads(n.body, loads);
            for (const ScalarNode* l : loads)
                for (size_t v = vars; v < vars + 8; ++v)
                    if (usesVar(l->index, static_cast<int32_t>(v)))
                        return p.buffer(n.output).name + " loads with loop variable " +
                               std::to_string(v) + " outside its " + std::to_string(vars) +
                               " loops";
        }
    }
    for (int32_t o : p.outputs)
        if (o >= 0 && (!inRange(o) || !defined[static_cast<size_t>(o)]))
            return "a graph output is never written";
    return {};
}

} // namespace kiln::compiler
