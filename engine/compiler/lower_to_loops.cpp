// SPDX-License-Identifier: MIT
#include "compiler/lower_to_loops.h"

#include "compiler/reshape_index.h"
#include "compiler/view_strides.h"
#include "support/assert.h"

#include <cmath>
#include <functional>
#include <set>

namespace kiln::compiler {

namespace {

using Loader = std::function<Scalar(const std::vector<Index>&)>;

/// A value during lowering: a strided view of a buffer, or a lazy loader not yet computed.
struct Lazy {
    std::vector<Index> sizes;
    DType dtype = DType::Float32;
    Loader loader;
    int32_t buffer = -1; ///< >= 0: a strided view of this buffer
    std::vector<Index> strides;
    Index offset;
    std::set<std::string> origins; ///< captured nodes computed by the loader (not yet realized)
    std::set<std::string> ops;
    /// The view nodes (permute, slice, reshape, ...) the loader reads through: a copy made of
    /// nothing but views lists them as the nodes it fuses (Inductor's clone kernels' origins).
    std::set<std::string> viewOrigins;
    /// A reshape of a lazy value (its loader divides the flat index back into the source's
    /// dims): the source, so an op that needs the value in memory (a matrix product) realizes
    /// the source in its own shape, which fuses with the source's producer (a row reduction
    /// of the same dims), and reads it through a free view.
    std::shared_ptr<const Lazy> reshapeOf;
    /// A reshape of a strided buffer view that is not a view (heads merged with the batch):
    /// the view, so a matrix product's copy can follow the view's storage order.
    std::shared_ptr<const Lazy> reshapeOfView;
};

std::vector<Index> vars(size_t count, size_t first = 0) {
    std::vector<Index> v;
    for (size_t i = 0; i < count; ++i)
        v.push_back(loopVar(static_cast<int32_t>(first + i)));
    return v;
}

ScalarOp pointwiseOp(const std::string& name) {
    static const std::pair<const char*, ScalarOp> ops[] = {
        {"neg", ScalarOp::Neg},
        {"abs", ScalarOp::Abs},
        {"exp", ScalarOp::Exp},
        {"log", ScalarOp::Log},
        {"sqrt", ScalarOp::Sqrt},
        {"rsqrt", ScalarOp::Rsqrt},
        {"sin", ScalarOp::Sin},
        {"cos", ScalarOp::Cos},
        {"tan", ScalarOp::Tan},
        {"tanh", ScalarOp::Tanh},
        {"erf", ScalarOp::Erf},
        {"log1p", ScalarOp::Log1p},
        {"floor", ScalarOp::Floor},
        {"ceil", ScalarOp::Ceil},
        {"round", ScalarOp::Round},
        {"sign", ScalarOp::Sign},
        {"reciprocal", ScalarOp::Reciprocal},
        {"logical_not", ScalarOp::LogicalNot},
        {"add", ScalarOp::Add},
        {"sub", ScalarOp::Sub},
        {"mul", ScalarOp::Mul},
        {"truediv", ScalarOp::Div},
        {"remainder", ScalarOp::Mod},
        {"logical_and", ScalarOp::LogicalAnd},
        {"logical_or", ScalarOp::LogicalOr},
        {"pow", ScalarOp::Pow},
        {"maximum", ScalarOp::Maximum},
        {"minimum", ScalarOp::Minimum},
        {"eq", ScalarOp::Eq},
        {"ne", ScalarOp::Ne},
        {"lt", ScalarOp::Lt},
        {"le", ScalarOp::Le},
        {"gt", ScalarOp::Gt},
        {"ge", ScalarOp::Ge},
        {"where", ScalarOp::Where},
    };
    for (const auto& [n, op] : ops)
        if (name == n) return op;
    return ScalarOp::Constant;
}

ReductionKind reductionOf(const std::string& op) {
    if (op == "sum") return ReductionKind::Sum;
    if (op == "prod") return ReductionKind::Prod;
    if (op == "amax") return ReductionKind::Max;
    if (op == "amin") return ReductionKind::Min;
    if (op == "argmax") return ReductionKind::ArgMax;
    if (op == "welford_mean") return ReductionKind::WelfordMean;
    if (op == "welford_m2") return ReductionKind::WelfordM2;
    if (op == "any") return ReductionKind::Any;
    if (op == "all") return ReductionKind::All;
    return ReductionKind::ArgMin;
}

class Lowering {
public:
    Lowering(const AtenGraph& g, const LoweringOptions& options)
        : m_g(g)
        , m_options(options)
        , m_users(g.userCounts()) {
        m_out.program.symbolNames = g.symbolNames;
    }

    LoweredGraph run() {
        for (size_t i = 0; i < m_g.nodes.size(); ++i) {
            m_values.push_back(lower(m_g.nodes[i]));
            maybeRealize(m_values.back(), m_users[i]);
        }
        for (int32_t o : m_g.outputs) {
            Lazy& v = m_values[static_cast<size_t>(o)];
            if (m_options.freshOutputs && v.buffer >= 0 && !freshBuffer(v)) v.buffer = -1;
            realize(v);
            m_out.outputs.push_back({v.buffer, v.sizes, v.strides, v.offset});
            m_out.program.outputs.push_back(v.buffer);
        }
        return std::move(m_out);
    }

private:
    LoopProgram& prog() { return m_out.program; }

    /// A contiguous view of a whole buffer the program computes.
    bool freshBuffer(const Lazy& v) {
        const Buffer& b = prog().buffer(v.buffer);
        int64_t offset = -1;
        if (b.origin == Buffer::Origin::Input || !isConstant(v.offset, &offset) || offset != 0)
            return false;
        std::vector<Index> expect = contiguousStrides(v.sizes);
        for (size_t i = 0; i < v.sizes.size(); ++i)
            if (!isOne(v.sizes[i]) && !equal(expect[i], v.strides[i])) return false;
        return true;
    }

    static Loader stridedLoader(int32_t buffer, DType dtype, std::vector<Index> strides,
                                Index offset) {
        return [=](const std::vector<Index>& idx) {
            return load(buffer, dtype, linearIndex(idx, strides, offset));
        };
    }

    Lazy bufferView(int32_t buffer, std::vector<Index> sizes, std::vector<Index> strides,
                    Index offset) {
        Lazy v;
        v.sizes = std::move(sizes);
        v.dtype = prog().buffer(buffer).dtype;
        v.buffer = buffer;
        v.strides = std::move(strides);
        v.offset = std::move(offset);
        v.loader = stridedLoader(buffer, v.dtype, v.strides, v.offset);
        return v;
    }

    int32_t newBuffer(Buffer::Origin origin, DType dtype, const std::vector<Index>& sizes) {
        Buffer b;
        b.origin = origin;
        b.dtype = dtype;
        b.sizes = sizes;
        b.strides = contiguousStrides(sizes);
        b.offset = constant(0);
        b.name = "buf" + std::to_string(m_computed++);
        return prog().addBuffer(std::move(b));
    }

    void addNode(LoopNode node, const Lazy& from, const std::string& ownOrigin,
                 const std::string& ownOp) {
        std::set<std::string> origins = from.origins, ops = from.ops;
        if (!ownOrigin.empty()) origins.insert(ownOrigin);
        if (!ownOp.empty()) ops.insert(ownOp);
        node.origins.assign(origins.begin(), origins.end());
        node.originOps.assign(ops.begin(), ops.end());
        prog().nodes.push_back(std::move(node));
    }

    /// What a copy of \p v is made of: its computed nodes, and the views it reads through when
    /// it computes nothing (a pure copy).
    static Lazy copySource(const Lazy& v) {
        Lazy from = v;
        if (v.ops.empty()) from.origins.insert(v.viewOrigins.begin(), v.viewOrigins.end());
        return from;
    }

    /// Computes a lazy value into a contiguous buffer (no-op for buffer views).
    void realize(Lazy& v) {
        if (v.buffer >= 0) return;
        LoopNode n;
        n.kind = LoopNode::Kind::Pointwise;
        n.ranges = v.sizes;
        n.body = cast(v.loader(vars(v.sizes.size())), v.dtype);
        n.output = newBuffer(Buffer::Origin::Computed, v.dtype, v.sizes);
        // Only views lead here when no op computed the value: the node is a copy, which
        // Inductor names after aten.clone (kiln_poi_fused_clone_1, not kiln_poi_fused__1).
        addNode(std::move(n), copySource(v), "", v.ops.empty() ? "clone" : "");
        v = bufferView(prog().nodes.back().output, v.sizes, contiguousStrides(v.sizes),
                       constant(0));
    }

    void maybeRealize(Lazy& v, int users) {
        if (v.buffer >= 0 || v.sizes.empty()) return;
        if (users > m_options.realizeReadsThreshold) return realize(v);
        int ops = opCount(v.loader(vars(v.sizes.size())));
        if ((users > 1 && ops > m_options.realizeOpcountThreshold) || ops > 200) realize(v);
    }

    /// A matrix product's operand that reshapes a view stored transposed (k^T of attention's
    /// heads: unit stride along the rows) is copied in the view's storage order, so the copy's
    /// loads and stores both run along the unit stride, and the product reads the copy
    /// transposed. Nothing changes for any other operand.
    void realizeAsStored(Lazy& operand) {
        if (operand.buffer >= 0 || !operand.reshapeOfView) return;
        const Lazy& view = *operand.reshapeOfView;
        size_t r = view.sizes.size();
        int64_t rowStride = 0;
        if (r < 2 || !isConstant(view.strides[r - 2], &rowStride) || rowStride != 1 ||
            isOne(view.sizes[r - 1]))
            return;
        std::vector<Index> stored = view.sizes;
        std::swap(stored[r - 2], stored[r - 1]);
        std::vector<Index> strides = contiguousStrides(stored);
        std::swap(strides[r - 2], strides[r - 1]);
        std::optional<std::vector<Index>> viewed = viewStrides(view.sizes, strides, operand.sizes);
        if (!viewed) return;
        LoopNode n;
        n.kind = LoopNode::Kind::Pointwise;
        n.ranges = stored;
        std::vector<Index> index = vars(r);
        std::swap(index[r - 2], index[r - 1]);
        n.body = cast(view.loader(index), view.dtype);
        n.output = newBuffer(Buffer::Origin::Computed, view.dtype, stored);
        addNode(std::move(n), copySource(operand), "", operand.ops.empty() ? "clone" : "");
        operand = bufferView(prog().nodes.back().output, operand.sizes, *viewed, constant(0));
    }

    /// Realizes the inputs of an extern or fallback and records the views it reads them through.
    void takeOperands(const AtenNode& n, LoopNode& node) {
        bool product = n.op == "mm" || n.op == "bmm" || n.op == "addmm";
        for (int32_t input : n.inputs) {
            Lazy& operand = m_values[static_cast<size_t>(input)];
            if (product) realizeAsStored(operand);
            if (operand.buffer < 0 && operand.reshapeOf) {
                Lazy source = *operand.reshapeOf;
                realize(source);
                operand = bufferView(source.buffer, operand.sizes, contiguousStrides(operand.sizes),
                                     source.offset);
            }
            realize(operand);
            node.inputs.push_back(operand.buffer);
            node.operands.push_back(
                {operand.buffer, operand.sizes, operand.strides, operand.offset});
        }
    }

    void splitReduction(LoopNode& node, const Lazy& from, const std::string& origin,
                        const std::string& op);

    const Lazy& in(const AtenNode& n, size_t i) {
        return m_values[static_cast<size_t>(n.inputs[i])];
    }

    Lazy lower(const AtenNode& n);
    Lazy lowerPointwise(const AtenNode& n);
    Lazy lowerReduction(const AtenNode& n);
    Lazy lowerView(const AtenNode& n);
    Lazy lowerViewShape(const AtenNode& n);
    Lazy lowerIndexed(const AtenNode& n);
    Lazy lowerGather(const AtenNode& n);

    /// The status buffer indirect loads report out-of-range positions in (made on first use).
    int32_t statusBuffer() {
        if (prog().statusBuffer < 0) {
            Buffer b;
            b.origin = Buffer::Origin::Computed;
            b.dtype = DType::Int64;
            b.sizes = {constant(1)};
            b.strides = {constant(1)};
            b.offset = constant(0);
            b.name = "index_status";
            prog().statusBuffer = prog().addBuffer(std::move(b));
        }
        return prog().statusBuffer;
    }
    Lazy lowerOpaque(const AtenNode& n, LoopNode::Kind kind);
    Lazy lowerInput(const AtenNode& n);
    Lazy lowerRandom(const AtenNode& n);

    const AtenGraph& m_g;
    LoweringOptions m_options;
    std::vector<int32_t> m_users;
    std::vector<Lazy> m_values;
    LoweredGraph m_out;
    int m_computed = 0;
};

Lazy Lowering::lower(const AtenNode& n) {
    if (n.op == "placeholder" || n.op == "constant_tensor") return lowerInput(n);
    if (n.op == "constant" || n.op == "full" || n.op == "sym_value") {
        Lazy v;
        v.sizes = n.sizes;
        v.dtype = n.dtype;
        double value = n.scalar;
        DType t = n.dtype;
        if (n.op == "sym_value") {
            Index i = n.ints[0];
            v.loader = [i](const std::vector<Index>&) { return indexAsValue(i); };
        } else {
            v.loader = [value, t](const std::vector<Index>&) { return scalarConstant(value, t); };
        }
        return v;
    }
    if (n.op == "sum" || n.op == "prod" || n.op == "amax" || n.op == "amin" || n.op == "argmax" ||
        n.op == "argmin" || n.op == "welford_mean" || n.op == "welford_m2" || n.op == "any" ||
        n.op == "all")
        return lowerReduction(n);
    if (n.op == "view" || n.op == "permute" || n.op == "expand" || n.op == "slice")
        return lowerView(n);
    if (n.op == "iota" || n.op == "tril" || n.op == "triu" || n.op == "cat" || n.op == "eye")
        return lowerIndexed(n);
    if (n.op == "embedding" || n.op == "gather") return lowerGather(n);
    if (n.op == "mm" || n.op == "bmm" || n.op == "addmm" || n.op == "flash_attention" ||
        n.op == "convolution" || n.op == "embedding_backward" || n.op == "gather_backward" ||
        n.op == "convolution_backward_input" || n.op == "convolution_backward_weight")
        return lowerOpaque(n, LoopNode::Kind::Extern);
    if (n.op == "fallback" || n.op == "fallback_backward")
        return lowerOpaque(n, LoopNode::Kind::Fallback);
    if (n.op == "rand" || n.op == "randn") return lowerRandom(n);
    return lowerPointwise(n);
}

Lazy Lowering::lowerInput(const AtenNode& n) {
    Buffer b;
    b.origin = Buffer::Origin::Input;
    b.dtype = n.dtype;
    b.sizes = n.sizes;
    b.offset = constant(0);
    if (n.op == "placeholder") {
        b.inputIndex = n.position;
        b.name = "arg" + std::to_string(n.position) + "_1";
        b.strides = n.ints.size() == n.sizes.size() ? n.ints : contiguousStrides(n.sizes);
    } else {
        const tensor::Tensor& t = m_g.constants[static_cast<size_t>(n.position)];
        b.inputIndex = m_g.inputCount + n.position;
        b.name = "constant" + std::to_string(n.position);
        for (int64_t s : t.strides())
            b.strides.push_back(constant(s));
    }
    std::vector<Index> strides = b.strides;
    int32_t id = prog().addBuffer(std::move(b));
    return bufferView(id, n.sizes, strides, constant(0));
}

Lazy Lowering::lowerPointwise(const AtenNode& n) {
    std::vector<Lazy> args;
    for (size_t i = 0; i < n.inputs.size(); ++i)
        args.push_back(in(n, i));
    Lazy v;
    v.sizes = n.sizes;
    v.dtype = n.dtype;
    for (const Lazy& a : args) {
        v.origins.insert(a.origins.begin(), a.origins.end());
        v.ops.insert(a.ops.begin(), a.ops.end());
    }
    v.origins.insert(n.origin);
    v.ops.insert(n.originOp);
    size_t rank = n.sizes.size();
    // Each operand is read through broadcasting: its dims align to the right, size-1 dims read 0.
    std::vector<Loader> loaders;
    for (const Lazy& a : args) {
        std::vector<Index> sizes = a.sizes;
        Loader inner = a.loader;
        loaders.push_back([sizes, inner, rank](const std::vector<Index>& idx) {
            std::vector<Index> mapped;
            for (size_t i = 0; i < sizes.size(); ++i)
                mapped.push_back(isOne(sizes[i]) ? constant(0) : idx[rank - sizes.size() + i]);
            return inner(mapped);
        });
    }
    if (n.op == "to_dtype") {
        DType t = n.dtype;
        Loader l = loaders[0];
        v.loader = [l, t](const std::vector<Index>& idx) { return cast(l(idx), t); };
        return v;
    }
    ScalarOp op = pointwiseOp(n.op);
    KILN_ASSERT(op != ScalarOp::Constant, "decompose emitted an op lowering does not know");
    v.loader = [loaders, op](const std::vector<Index>& idx) {
        if (op == ScalarOp::Where) return where(loaders[0](idx), loaders[1](idx), loaders[2](idx));
        if (scalarOpArity(op) == 1) return unary(op, loaders[0](idx));
        return binary(op, loaders[0](idx), loaders[1](idx));
    };
    return v;
}

Lazy Lowering::lowerReduction(const AtenNode& n) {
    const Lazy& x = in(n, 0);
    std::vector<bool> reduced(x.sizes.size(), false);
    for (const Index& d : n.ints) {
        int64_t dim = 0;
        isConstant(d, &dim);
        reduced[static_cast<size_t>(dim)] = true;
    }
    LoopNode node;
    node.kind = LoopNode::Kind::Reduction;
    node.reduction = reductionOf(n.op);
    for (size_t d = 0; d < x.sizes.size(); ++d)
        (reduced[d] ? node.reductionRanges : node.ranges).push_back(x.sizes[d]);
    // Kept dims are loop variables 0..k-1, reduced dims k.., in their original order.
    std::vector<Index> idx;
    size_t kept = 0, red = node.ranges.size();
    for (size_t d = 0; d < x.sizes.size(); ++d)
        idx.push_back(loopVar(static_cast<int32_t>(reduced[d] ? red++ : kept++)));
    node.body = x.loader(idx);
    DType outType = n.dtype;
    if (node.reduction != ReductionKind::ArgMax && node.reduction != ReductionKind::ArgMin)
        node.body = cast(node.body, outType);
    if (m_options.splitReductions) splitReduction(node, x, n.origin, n.originOp);
    node.output = newBuffer(Buffer::Origin::Computed, outType, node.ranges);
    std::vector<Index> keptSizes = node.ranges;
    addNode(std::move(node), x, n.origin, n.originOp);
    int32_t buffer = prog().nodes.back().output;
    // keepdim: the reduced dims come back with size 1 (their stride never matters).
    std::vector<Index> keptStrides = contiguousStrides(keptSizes);
    std::vector<Index> sizes, strides;
    size_t k = 0;
    for (size_t d = 0; d < x.sizes.size(); ++d) {
        if (!reduced[d]) {
            sizes.push_back(keptSizes[k]);
            strides.push_back(keptStrides[k++]);
        } else if (n.flag) {
            sizes.push_back(constant(1));
            strides.push_back(constant(0));
        }
    }
    return bufferView(buffer, sizes, strides, constant(0));
}

/// A reduction of many elements to one value (per outer index, with at most one outer element)
/// runs on one thread. Split it: `kSplits` partial reductions over chunks of the flattened
/// reduction range (a parallel outer loop), then `node` reduces the partials.
void Lowering::splitReduction(LoopNode& node, const Lazy& from, const std::string& origin,
                              const std::string& op) {
    constexpr int64_t kMinElements = int64_t(1) << 15;
    int64_t outer = 0, total = 0;
    if (!isConstant(product(node.ranges), &outer) || outer != 1) return;
    if (!isConstant(product(node.reductionRanges), &total) || total < kMinElements) return;
    double identity = 0;
    switch (node.reduction) {
    case ReductionKind::Sum:
    case ReductionKind::Any:
        identity = 0;
        break;
    case ReductionKind::Prod:
    case ReductionKind::All:
        identity = 1;
        break;
    case ReductionKind::Max:
        identity = -INFINITY;
        break;
    case ReductionKind::Min:
        identity = INFINITY;
        break;
    default:
        return; // arg-reductions and Welford need more than a second reduction to combine
    }
    // As many splits as suit the thread pool and divide the range (no ragged last chunk).
    int64_t kSplits = 32;
    for (int64_t s = 64; s >= 16; --s)
        if (total % s == 0) {
            kSplits = s;
            break;
        }
    int32_t kept = static_cast<int32_t>(node.ranges.size());
    int64_t chunk = (total + kSplits - 1) / kSplits;
    bool ragged = total % kSplits != 0;
    // Element f = split * chunk + j of the flattened range, unravelled into the original vars.
    Index flat = loopVar(kept) * constant(chunk) + loopVar(kept + 1);
    std::vector<Index> strides = contiguousStrides(node.reductionRanges);
    std::vector<Index> sizes = node.reductionRanges;
    Scalar body = substituteIndices(node.body, [&](int32_t v) -> Index {
        if (v < kept) return nullptr;
        size_t i = static_cast<size_t>(v - kept);
        // One dim and whole chunks: the flat index is the element (no division per element).
        if (sizes.size() == 1 && !ragged) return flat;
        return modulo(floorDiv(flat, strides[i]), sizes[i]);
    });
    if (ragged) // the last chunk runs past the end (read wrapped round): those count as identities
        body = where(binary(ScalarOp::Lt, indexAsValue(flat),
                            scalarConstant(static_cast<double>(total), DType::Int64)),
                     body, scalarConstant(identity, body->dtype));
    LoopNode partial = node;
    partial.ranges.push_back(constant(kSplits));
    partial.reductionRanges = {constant(chunk)};
    partial.body = body;
    partial.output = newBuffer(Buffer::Origin::Computed, body->dtype, partial.ranges);
    addNode(partial, from, origin, op);
    std::vector<Index> vars;
    for (int32_t i = 0; i <= kept; ++i)
        vars.push_back(loopVar(i));
    const Buffer& partials = prog().buffer(prog().nodes.back().output);
    node.reductionRanges = {constant(kSplits)};
    node.body =
        load(partials.id, partials.dtype, linearIndex(vars, partials.strides, partials.offset));
}

/// Values that depend on their own position: arange/linspace, tril/triu, cat.
Lazy Lowering::lowerIndexed(const AtenNode& n) {
    Lazy v;
    v.sizes = n.sizes;
    v.dtype = n.dtype;
    v.origins.insert(n.origin);
    v.ops.insert(n.originOp);
    DType t = n.dtype;
    if (n.op == "iota") {
        double start = n.scalar, step = n.scalar2;
        DType compute = tensor::isFloating(t) ? DType::Float64 : DType::Int64;
        v.loader = [start, step, t, compute](const std::vector<Index>& idx) {
            Scalar i = cast(indexAsValue(idx[0]), compute);
            return cast(binary(ScalarOp::Add,
                               binary(ScalarOp::Mul, i, scalarConstant(step, compute)),
                               scalarConstant(start, compute)),
                        t);
        };
        return v;
    }
    if (n.op == "eye") {
        v.loader = [t](const std::vector<Index>& idx) {
            Scalar diagonal = binary(ScalarOp::Eq, indexAsValue(idx[0]), indexAsValue(idx[1]));
            return where(diagonal, scalarConstant(1, t), scalarConstant(0, t));
        };
        return v;
    }
    std::vector<Lazy> args;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
        args.push_back(in(n, i));
        v.origins.insert(args.back().origins.begin(), args.back().origins.end());
        v.ops.insert(args.back().ops.begin(), args.back().ops.end());
    }
    int64_t k = 0;
    isConstant(n.ints[0], &k);
    if (n.op == "tril" || n.op == "triu") {
        bool upper = n.op == "triu";
        double fill = n.scalar;
        Loader x = args[0].loader;
        v.loader = [x, k, upper, fill, t](const std::vector<Index>& idx) {
            size_t r = idx.size();
            Scalar diff = indexAsValue(idx[r - 1] + constant(-1) * idx[r - 2]);
            Scalar keep = binary(upper ? ScalarOp::Ge : ScalarOp::Le, diff,
                                 scalarConstant(static_cast<double>(k), DType::Int64));
            return where(keep, x(idx), scalarConstant(fill, t));
        };
        return v;
    }
    // cat: each input covers [offset, offset + size) of `dim`; the reads of the others wrap
    // round so they stay in bounds (their values are not selected).
    size_t dim = static_cast<size_t>(k);
    v.loader = [args, dim](const std::vector<Index>& idx) {
        Scalar result;
        Index offset = constant(0);
        std::vector<Scalar> values;
        std::vector<Index> offsets;
        for (const Lazy& a : args) {
            std::vector<Index> local = idx;
            local[dim] = modulo(idx[dim] + constant(-1) * offset, a.sizes[dim]);
            values.push_back(a.loader(local));
            offsets.push_back(offset);
            offset = offset + a.sizes[dim];
        }
        result = values.back();
        for (size_t i = values.size() - 1; i-- > 0;)
            result =
                where(binary(ScalarOp::Lt, indexAsValue(idx[dim]), indexAsValue(offsets[i + 1])),
                      values[i], result);
        return result;
    };
    return v;
}

/// embedding (rows of a table at integer positions) and gather along the last dim: loads at
/// positions read from another tensor, checked at run time.
Lazy Lowering::lowerGather(const AtenNode& n) {
    Lazy& table = m_values[static_cast<size_t>(n.inputs[0])];
    realize(table);
    const Lazy& positions = in(n, 1);
    statusBuffer();
    Lazy v;
    v.sizes = n.sizes;
    v.dtype = n.dtype;
    v.origins = positions.origins;
    v.ops = positions.ops;
    v.origins.insert(n.origin);
    v.ops.insert(n.originOp);
    int32_t buffer = table.buffer;
    DType t = prog().buffer(buffer).dtype;
    std::vector<Index> strides = table.strides, sizes = table.sizes;
    Index offset = table.offset;
    Loader at = positions.loader;
    bool embedding = n.op == "embedding";
    size_t positionRank = positions.sizes.size();
    v.loader = [=](const std::vector<Index>& idx) {
        if (embedding) {
            // out[p..., d...] = table[positions[p...], d...]
            std::vector<Index> p(idx.begin(), idx.begin() + static_cast<ptrdiff_t>(positionRank));
            Index base = offset;
            for (size_t d = 1; d < sizes.size(); ++d)
                base = base + idx[positionRank + d - 1] * strides[d];
            return loadIndirect(buffer, t, base, at(p), strides[0], sizes[0]);
        }
        // out[i..., j] = x[i..., index[i..., j]]
        Index base = offset;
        for (size_t d = 0; d + 1 < sizes.size(); ++d)
            base = base + idx[d] * strides[d];
        return loadIndirect(buffer, t, base, at(idx), strides.back(), sizes.back());
    };
    return v;
}

Lazy Lowering::lowerView(const AtenNode& n) {
    // A view computes nothing; a copy of nothing but views lists them (realize()): a clone
    // kernel of a permuted input listed no node at all.
    Lazy v = lowerViewShape(n);
    const Lazy& x = in(n, 0);
    v.origins.insert(x.origins.begin(), x.origins.end());
    v.ops.insert(x.ops.begin(), x.ops.end());
    v.viewOrigins.insert(x.viewOrigins.begin(), x.viewOrigins.end());
    v.viewOrigins.insert(n.origin);
    return v;
}

Lazy Lowering::lowerViewShape(const AtenNode& n) {
    Lazy x = in(n, 0);
    Lazy v = x; // the lazy form; buffer views are made with bufferView() below
    v.sizes = n.sizes;
    v.buffer = -1;
    v.strides.clear();
    // Only the reshape below is a plain reshape of x; a permute or slice of one is not.
    v.reshapeOf.reset();
    v.reshapeOfView.reset();
    auto intAt = [&](size_t i) {
        int64_t value = 0;
        isConstant(n.ints[i], &value);
        return value;
    };
    if (n.op == "permute") {
        std::vector<int64_t> perm;
        for (size_t i = 0; i < n.ints.size(); ++i)
            perm.push_back(intAt(i));
        if (x.buffer >= 0) {
            std::vector<Index> strides;
            for (int64_t d : perm)
                strides.push_back(x.strides[static_cast<size_t>(d)]);
            return bufferView(x.buffer, n.sizes, strides, x.offset);
        }
        Loader l = x.loader;
        v.loader = [l, perm](const std::vector<Index>& idx) {
            std::vector<Index> src(idx.size());
            for (size_t i = 0; i < perm.size(); ++i)
                src[static_cast<size_t>(perm[i])] = idx[i];
            return l(src);
        };
        return v;
    }
    if (n.op == "expand") {
        size_t lead = n.sizes.size() - x.sizes.size();
        std::vector<bool> stretched(n.sizes.size(), true);
        for (size_t i = lead; i < n.sizes.size(); ++i)
            stretched[i] = isOne(x.sizes[i - lead]) && !isOne(n.sizes[i]);
        if (x.buffer >= 0) {
            std::vector<Index> strides;
            for (size_t i = 0; i < n.sizes.size(); ++i)
                strides.push_back(i < lead || stretched[i] ? constant(0) : x.strides[i - lead]);
            return bufferView(x.buffer, n.sizes, strides, x.offset);
        }
        Loader l = x.loader;
        v.loader = [l, lead, stretched](const std::vector<Index>& idx) {
            std::vector<Index> src;
            for (size_t i = lead; i < idx.size(); ++i)
                src.push_back(stretched[i] ? constant(0) : idx[i]);
            return l(src);
        };
        return v;
    }
    if (n.op == "slice") {
        size_t dim = static_cast<size_t>(intAt(0));
        Index start = n.ints[1];
        Index step = n.ints[3];
        if (x.buffer >= 0) {
            std::vector<Index> strides = x.strides;
            Index offset = x.offset + start * strides[dim];
            strides[dim] = strides[dim] * step;
            return bufferView(x.buffer, n.sizes, strides, offset);
        }
        Loader l = x.loader;
        v.loader = [l, dim, start, step](const std::vector<Index>& idx) {
            std::vector<Index> src = idx;
            src[dim] = start + idx[dim] * step;
            return l(src);
        };
        return v;
    }
    // view/reshape
    bool contiguous = x.buffer >= 0;
    if (contiguous) {
        std::vector<Index> expect = contiguousStrides(x.sizes);
        for (size_t i = 0; i < x.sizes.size(); ++i)
            contiguous = contiguous && (isOne(x.sizes[i]) || equal(expect[i], x.strides[i]));
    }
    if (contiguous) return bufferView(x.buffer, n.sizes, contiguousStrides(n.sizes), x.offset);
    if (x.buffer >= 0)
        if (std::optional<std::vector<Index>> strides = viewStrides(x.sizes, x.strides, n.sizes))
            return bufferView(x.buffer, n.sizes, *strides, x.offset);
    // Only size-1 dims added or removed (unsqueeze, squeeze, an identity reshape): the other
    // dims map one to one, no division needed.
    std::vector<size_t> oldDims, newDims;
    for (size_t i = 0; i < x.sizes.size(); ++i)
        if (!isOne(x.sizes[i])) oldDims.push_back(i);
    for (size_t i = 0; i < n.sizes.size(); ++i)
        if (!isOne(n.sizes[i])) newDims.push_back(i);
    bool sameDims = oldDims.size() == newDims.size();
    for (size_t i = 0; sameDims && i < oldDims.size(); ++i)
        sameDims = equal(x.sizes[oldDims[i]], n.sizes[newDims[i]]);
    if (sameDims) {
        Loader l = x.loader;
        size_t oldRank = x.sizes.size();
        v.loader = [l, oldDims, newDims, oldRank](const std::vector<Index>& idx) {
            std::vector<Index> src(oldRank, constant(0));
            for (size_t i = 0; i < oldDims.size(); ++i)
                src[oldDims[i]] = idx[newDims[i]];
            return l(src);
        };
        return v;
    }
    std::vector<Index> oldSizes = x.sizes, newSizes = n.sizes;
    Loader l = x.loader;
    if (x.buffer < 0)
        v.reshapeOf = std::make_shared<const Lazy>(x);
    else
        v.reshapeOfView = std::make_shared<const Lazy>(x);
    v.loader = [l, oldSizes, newSizes](const std::vector<Index>& idx) {
        return l(reshapeSourceIndex(oldSizes, newSizes, idx));
    };
    return v;
}

/// A matrix product (BLAS) or an op left to the eager kernels: realized operands in, a fresh
/// contiguous buffer out.
Lazy Lowering::lowerOpaque(const AtenNode& n, LoopNode::Kind kind) {
    LoopNode node;
    node.kind = kind;
    bool product = kind == LoopNode::Kind::Extern;
    // A fallback is named after its op, or after its node where the op has no name (`~mask`).
    node.externName = product ? n.op : n.originOp.empty() ? n.origin : n.originOp;
    node.beta = n.scalar;
    node.alpha = n.scalar2;
    node.fxNode = product ? -1 : n.position;
    if (n.op == "fallback_backward") {
        int64_t k = 0;
        isConstant(n.ints.at(0), &k);
        node.gradOf = static_cast<int32_t>(k);
        node.externName += "_backward";
    }
    if (product && n.op != "mm" && n.op != "bmm" && n.op != "addmm")
        for (const Index& i : n.ints) {
            int64_t v = 0;
            KILN_ASSERT(isConstant(i, &v), "an extern kernel's parameters are numbers");
            node.externInts.push_back(v);
        }
    takeOperands(n, node);
    node.output =
        newBuffer(product ? Buffer::Origin::Extern : Buffer::Origin::Fallback, n.dtype, n.sizes);
    Lazy steps;
    steps.origins.insert(n.alsoComputes.begin(), n.alsoComputes.end());
    addNode(std::move(node), steps, n.origin, n.originOp);
    int32_t out = prog().nodes.back().output;
    return bufferView(out, n.sizes, contiguousStrides(n.sizes), constant(0));
}

/// rand / randn: the element at linear index i (row-major over the node's sizes, however the
/// value is later viewed or fused) is the uniform of counter i in the node's stream, or for
/// randn Box-Muller of the uniforms of counters 2i and 2i+1: sqrt(-2 log(1 - u1)) cos(2 pi u2)
/// (1 - u1 lies in (0, 1], so the log is finite). Half-precision uniforms keep as many random
/// bits as the type has digits (11, 8), as eager's do, so rounding cannot reach 1.
Lazy Lowering::lowerRandom(const AtenNode& n) {
    Lazy v;
    v.sizes = n.sizes;
    v.dtype = n.dtype;
    v.origins.insert(n.origin);
    v.ops.insert(n.originOp);
    Index seed = n.ints.at(0);
    int64_t stream = 0;
    isConstant(n.ints.at(1), &stream);
    DType t = computeType(n.dtype);
    int bits = n.dtype == DType::Float16 ? 11 : n.dtype == DType::BFloat16 ? 8 : 0;
    bool normal = n.op == "randn";
    std::vector<Index> strides = contiguousStrides(n.sizes);
    v.loader = [=](const std::vector<Index>& idx) {
        Index i = linearIndex(idx, strides, constant(0));
        auto k = [t](double value) { return scalarConstant(value, t); };
        auto uniform = [&](const Index& counter) {
            return randUniform(seed, stream, indexAsValue(counter), t);
        };
        if (!normal) {
            Scalar u = uniform(i);
            if (bits == 0) return u;
            double scale = static_cast<double>(int64_t{1} << bits);
            return binary(ScalarOp::Mul, unary(ScalarOp::Floor, binary(ScalarOp::Mul, u, k(scale))),
                          k(1 / scale));
        }
        Scalar u1 = uniform(i * constant(2));
        Scalar u2 = uniform(i * constant(2) + constant(1));
        Scalar radius =
            unary(ScalarOp::Sqrt, binary(ScalarOp::Mul, k(-2),
                                         unary(ScalarOp::Log, binary(ScalarOp::Sub, k(1), u1))));
        return binary(ScalarOp::Mul, radius,
                      unary(ScalarOp::Cos, binary(ScalarOp::Mul, k(2 * M_PI), u2)));
    };
    return v;
}

} // namespace

LoweredGraph lowerToLoops(const AtenGraph& graph, const LoweringOptions& options) {
    return Lowering(graph, options).run();
}

} // namespace kiln::compiler
