// SPDX-License-Identifier: MIT
#include "compiler/aten_builder.h"

#include "support/assert.h"
#include "tensor/random.h"

#include <algorithm>

namespace kiln::compiler {

std::optional<int64_t> normaliseDim(int64_t dim, int64_t rank) {
    int64_t r = std::max<int64_t>(rank, 1);
    if (dim < -r || dim >= r) return std::nullopt;
    return dim < 0 ? dim + r : dim;
}

int32_t AtenBuilder::emit(AtenNode node) {
    node.origin = m_origin;
    node.originOp = m_originOp;
    return m_graph.add(std::move(node));
}

int32_t AtenBuilder::placeholder(int32_t position, std::vector<Index> sizes, DType dtype) {
    AtenNode n;
    n.op = "placeholder";
    n.position = position;
    n.sizes = std::move(sizes);
    n.dtype = dtype;
    return emit(std::move(n));
}

int32_t AtenBuilder::constantTensor(int32_t position, std::vector<Index> sizes, DType dtype) {
    AtenNode n;
    n.op = "constant_tensor";
    n.position = position;
    n.sizes = std::move(sizes);
    n.dtype = dtype;
    return emit(std::move(n));
}

std::optional<AtenBuilder::Write> AtenBuilder::tensorWrittenBy(int32_t target) const {
    const AtenNode& n = node(target);
    if (n.op == "placeholder" || n.op == "constant_tensor")
        return Write{n.op == "constant_tensor", n.position, -1};
    for (const Write& w : m_writes)
        if (w.value == target) return w;
    return std::nullopt;
}

bool AtenBuilder::writable(int32_t target) const {
    return tensorWrittenBy(target).has_value();
}

std::optional<int32_t> AtenBuilder::writeInto(int32_t target, int32_t value) {
    std::optional<Write> into = tensorWrittenBy(target);
    if (!into) return std::nullopt;
    std::vector<Index> want = sizes(target);
    if (dtype(value) != dtype(target)) value = toDtype(value, dtype(target));
    std::vector<Index> have = sizes(value);
    bool same = have.size() == want.size() &&
                std::equal(have.begin(), have.end(), want.begin(),
                           [](const Index& a, const Index& b) { return equal(a, b); });
    if (!same) { // a broadcast value (x.copy_(row)): leading 1s, then expanded
        std::vector<Index> padded(want.size() - std::min(have.size(), want.size()),
                                  compiler::constant(1));
        padded.insert(padded.end(), have.begin(), have.end());
        value = expand(view(value, padded), want);
    }
    for (Write& w : m_writes)
        if (w.constant == into->constant && w.position == into->position) {
            w.value = value;
            return value;
        }
    m_writes.push_back({into->constant, into->position, value});
    return value;
}

std::optional<int32_t> AtenBuilder::written(bool constant, int32_t position) const {
    for (const Write& w : m_writes)
        if (w.constant == constant && w.position == position) return w.value;
    return std::nullopt;
}

void AtenBuilder::finishMutations() {
    for (const Write& w : m_writes) {
        m_graph.mutations.push_back(
            {w.constant, w.position, static_cast<int32_t>(m_graph.outputs.size())});
        m_graph.outputs.push_back(w.value);
    }
    m_writes.clear();
}

int32_t AtenBuilder::constant(double value, DType dtype) {
    AtenNode n;
    n.op = "constant";
    n.scalar = value;
    n.dtype = dtype;
    return emit(std::move(n));
}

int32_t AtenBuilder::symValue(const Index& value) {
    AtenNode n;
    n.op = "sym_value";
    n.ints = {value};
    n.dtype = DType::Int64;
    return emit(std::move(n));
}

int32_t AtenBuilder::full(std::vector<Index> sizes, double value, DType dtype) {
    AtenNode n;
    n.op = "full";
    n.scalar = value;
    n.sizes = std::move(sizes);
    n.dtype = dtype;
    return emit(std::move(n));
}

int32_t AtenBuilder::unary(const std::string& op, int32_t x) {
    AtenNode n;
    n.op = op;
    n.inputs = {x};
    n.sizes = sizes(x);
    n.dtype = op == "logical_not" ? DType::Bool : dtype(x);
    return emit(std::move(n));
}

std::vector<Index> AtenBuilder::broadcastSizes(const std::vector<Index>& a,
                                               const std::vector<Index>& b) {
    size_t rank = std::max(a.size(), b.size());
    std::vector<Index> out(rank);
    for (size_t i = 0; i < rank; ++i) {
        const Index* x = i < rank - a.size() ? nullptr : &a[i - (rank - a.size())];
        const Index* y = i < rank - b.size() ? nullptr : &b[i - (rank - b.size())];
        if (!x)
            out[i] = *y;
        else if (!y || isOne(*y))
            out[i] = *x;
        else
            out[i] = isOne(*x) ? *y : *x;
    }
    return out;
}

int32_t AtenBuilder::binary(const std::string& op, int32_t a, int32_t b, DType type) {
    a = toDtype(a, type);
    b = toDtype(b, type);
    AtenNode n;
    n.op = op;
    n.inputs = {a, b};
    n.sizes = broadcastSizes(sizes(a), sizes(b));
    n.dtype = type;
    return emit(std::move(n));
}

int32_t AtenBuilder::binary(const std::string& op, int32_t a, int32_t b) {
    return binary(op, a, b, tensor::promoteTypes(dtype(a), dtype(b)));
}

int32_t AtenBuilder::compare(const std::string& op, int32_t a, int32_t b) {
    DType t = tensor::promoteTypes(dtype(a), dtype(b));
    int32_t r = binary(op, a, b, t);
    m_graph.nodes[static_cast<size_t>(r)].dtype = DType::Bool;
    return r;
}

int32_t AtenBuilder::where(int32_t condition, int32_t a, int32_t b) {
    DType t = tensor::promoteTypes(dtype(a), dtype(b));
    a = toDtype(a, t);
    b = toDtype(b, t);
    AtenNode n;
    n.op = "where";
    n.inputs = {condition, a, b};
    n.sizes = broadcastSizes(sizes(condition), broadcastSizes(sizes(a), sizes(b)));
    n.dtype = t;
    return emit(std::move(n));
}

int32_t AtenBuilder::toDtype(int32_t x, DType type) {
    if (dtype(x) == type) return x;
    const AtenNode& src = node(x);
    if (src.op == "constant") return constant(src.scalar, type);
    AtenNode n;
    n.op = "to_dtype";
    n.inputs = {x};
    n.sizes = src.sizes;
    n.dtype = type;
    return emit(std::move(n));
}

int32_t AtenBuilder::reduce(const std::string& op, int32_t x, std::vector<int64_t> dims,
                            bool keepdim) {
    if (dims.empty())
        for (int64_t d = 0; d < rank(x); ++d)
            dims.push_back(d);
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    AtenNode n;
    n.op = op;
    n.inputs = {x};
    for (int64_t d : dims)
        n.ints.push_back(compiler::constant(d));
    n.flag = keepdim;
    const auto& in = sizes(x);
    for (int64_t d = 0; d < rank(x); ++d) {
        bool reduced = std::find(dims.begin(), dims.end(), d) != dims.end();
        if (!reduced)
            n.sizes.push_back(in[static_cast<size_t>(d)]);
        else if (keepdim)
            n.sizes.push_back(compiler::constant(1));
    }
    bool arg = op == "argmax" || op == "argmin";
    n.dtype = arg ? DType::Int64 : (op == "any" || op == "all") ? DType::Bool : dtype(x);
    if ((op == "sum" || op == "prod") && tensor::isIntegral(dtype(x), true)) n.dtype = DType::Int64;
    return emit(std::move(n));
}

int32_t AtenBuilder::countOf(int32_t x, const std::vector<int64_t>& dims, DType type) {
    Index count = compiler::constant(1);
    if (dims.empty())
        count = product(sizes(x));
    else
        for (int64_t d : dims)
            count = count * sizes(x)[static_cast<size_t>(d)];
    int64_t value = 0;
    if (isConstant(count, &value)) return constant(static_cast<double>(value), type);
    return toDtype(symValue(count), type);
}

int32_t AtenBuilder::view(int32_t x, std::vector<Index> newSizes) {
    AtenNode n;
    n.op = "view";
    n.inputs = {x};
    n.ints = newSizes;
    n.sizes = std::move(newSizes);
    n.dtype = dtype(x);
    return emit(std::move(n));
}

int32_t AtenBuilder::permute(int32_t x, std::vector<int64_t> dims) {
    bool identity = true;
    for (size_t i = 0; i < dims.size(); ++i)
        identity = identity && dims[i] == static_cast<int64_t>(i);
    if (identity) return x;
    AtenNode n;
    n.op = "permute";
    n.inputs = {x};
    for (int64_t d : dims) {
        n.ints.push_back(compiler::constant(d));
        n.sizes.push_back(sizes(x)[static_cast<size_t>(d)]);
    }
    n.dtype = dtype(x);
    return emit(std::move(n));
}

int32_t AtenBuilder::transpose(int32_t x, int64_t d0, int64_t d1) {
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < rank(x); ++d)
        dims.push_back(d);
    std::swap(dims[static_cast<size_t>(d0)], dims[static_cast<size_t>(d1)]);
    return permute(x, dims);
}

int32_t AtenBuilder::expand(int32_t x, std::vector<Index> newSizes) {
    AtenNode n;
    n.op = "expand";
    n.inputs = {x};
    n.ints = newSizes;
    n.sizes = std::move(newSizes);
    n.dtype = dtype(x);
    return emit(std::move(n));
}

int32_t AtenBuilder::slice(int32_t x, int64_t dim, Index start, Index end, int64_t step) {
    AtenNode n;
    n.op = "slice";
    n.inputs = {x};
    n.ints = {compiler::constant(dim), start, end, compiler::constant(step)};
    n.sizes = sizes(x);
    Index length = end + compiler::constant(-1) * start;
    n.sizes[static_cast<size_t>(dim)] =
        step == 1 ? length
                  : floorDiv(length + compiler::constant(step - 1), compiler::constant(step));
    n.dtype = dtype(x);
    return emit(std::move(n));
}

int32_t AtenBuilder::unsqueeze(int32_t x, int64_t dim) {
    std::vector<Index> s = sizes(x);
    s.insert(s.begin() + dim, compiler::constant(1));
    return view(x, std::move(s));
}

int32_t AtenBuilder::squeeze(int32_t x, int64_t dim) {
    std::vector<Index> s = sizes(x);
    s.erase(s.begin() + dim);
    return view(x, std::move(s));
}

int32_t AtenBuilder::iota(Index n, double start, double step, DType type) {
    AtenNode node;
    node.op = "iota";
    node.sizes = {std::move(n)};
    node.scalar = start;
    node.scalar2 = step;
    node.dtype = type;
    return emit(std::move(node));
}

int32_t AtenBuilder::triangle(int32_t x, int64_t k, bool upper, double fill) {
    AtenNode n;
    n.op = upper ? "triu" : "tril";
    n.inputs = {x};
    n.ints = {compiler::constant(k)};
    n.scalar = fill;
    n.sizes = sizes(x);
    n.dtype = dtype(x);
    return emit(std::move(n));
}

int32_t AtenBuilder::embedding(int32_t weight, int32_t indices) {
    AtenNode n;
    n.op = "embedding";
    n.inputs = {weight, indices};
    n.sizes = sizes(indices);
    n.sizes.insert(n.sizes.end(), sizes(weight).begin() + 1, sizes(weight).end());
    n.dtype = dtype(weight);
    return emit(std::move(n));
}

int32_t AtenBuilder::gatherLast(int32_t x, int32_t index) {
    AtenNode n;
    n.op = "gather";
    n.inputs = {x, index};
    n.sizes = sizes(index);
    n.dtype = dtype(x);
    return emit(std::move(n));
}

int32_t AtenBuilder::eye(Index n, Index m, DType type) {
    AtenNode node;
    node.op = "eye";
    node.sizes = {std::move(n), std::move(m)};
    node.dtype = type;
    return emit(std::move(node));
}

int32_t AtenBuilder::cat(std::vector<int32_t> inputs, int64_t dim) {
    AtenNode n;
    n.op = "cat";
    n.sizes = sizes(inputs.at(0));
    Index total = compiler::constant(0);
    for (int32_t i : inputs)
        total = total + sizes(i)[static_cast<size_t>(dim)];
    n.sizes[static_cast<size_t>(dim)] = total;
    n.ints = {compiler::constant(dim)};
    n.dtype = dtype(inputs[0]);
    n.inputs = std::move(inputs);
    return emit(std::move(n));
}

int32_t AtenBuilder::mm(int32_t a, int32_t b) {
    AtenNode n;
    n.op = "mm";
    n.inputs = {a, b};
    n.sizes = {sizes(a)[0], sizes(b)[1]};
    n.dtype = dtype(a);
    return emit(std::move(n));
}

int32_t AtenBuilder::bmm(int32_t a, int32_t b) {
    AtenNode n;
    n.op = "bmm";
    n.inputs = {a, b};
    n.sizes = {sizes(a)[0], sizes(a)[1], sizes(b)[2]};
    n.dtype = dtype(a);
    return emit(std::move(n));
}

int32_t AtenBuilder::attention(int32_t q, int32_t k, int32_t v, double scale, bool causal) {
    AtenNode n;
    n.op = "flash_attention";
    n.inputs = {q, k, v};
    n.sizes = sizes(q);
    n.sizes.back() = sizes(v).back();
    n.dtype = dtype(q);
    n.scalar = scale;
    n.scalar2 = causal ? kAttentionCausal : 0;
    return emit(std::move(n));
}

int32_t AtenBuilder::maskedAttention(int32_t q, int32_t k, int32_t v, int32_t masked,
                                     double scale) {
    int32_t out = attention(q, k, v, scale, false);
    AtenNode& n = m_graph.nodes[static_cast<size_t>(out)];
    n.inputs.push_back(masked);
    n.scalar2 = kAttentionEmptyRowsNan;
    return out;
}

bool AtenBuilder::attentionSupports(DType dtype, int64_t headDim) {
    bool half = dtype == DType::BFloat16 || dtype == DType::Float16;
    return half && headDim > 0 && headDim % 16 == 0 && headDim <= 128;
}

int32_t AtenBuilder::addmm(int32_t bias, int32_t a, int32_t b, double beta, double alpha) {
    AtenNode n;
    n.op = "addmm";
    n.inputs = {bias, a, b};
    n.sizes = {sizes(a)[0], sizes(b)[1]};
    n.dtype = dtype(a);
    n.scalar = beta;
    n.scalar2 = alpha;
    return emit(std::move(n));
}

int32_t AtenBuilder::convolution(int32_t x, int32_t w, std::optional<int32_t> bias,
                                 const tensor::ConvParams& p) {
    const std::vector<Index>& xs = sizes(x);
    const std::vector<Index>& ws = sizes(w);
    int64_t h = 0, wd = 0, kh = 0, kw = 0;
    KILN_ASSERT(isConstant(xs[2], &h) && isConstant(xs[3], &wd) && isConstant(ws[2], &kh) &&
                    isConstant(ws[3], &kw),
                "a convolution's image and kernel have static sizes");
    auto out = [&](int64_t in, int64_t k, int d) {
        return (in + 2 * p.padding[d] - p.dilation[d] * (k - 1) - 1) / p.stride[d] + 1;
    };
    AtenNode n;
    n.op = "convolution";
    n.inputs = {x, w};
    if (bias) n.inputs.push_back(*bias);
    for (int64_t v : {p.stride[0], p.stride[1], p.padding[0], p.padding[1], p.dilation[0],
                      p.dilation[1], p.groups})
        n.ints.push_back(compiler::constant(v));
    n.sizes = {xs[0], ws[0], compiler::constant(out(h, kh, 0)), compiler::constant(out(wd, kw, 1))};
    n.dtype = dtype(x);
    return emit(std::move(n));
}

int32_t AtenBuilder::embeddingBackward(int32_t grad, int32_t indices, Index rows,
                                       int64_t paddingIdx) {
    AtenNode n;
    n.op = "embedding_backward";
    n.inputs = {grad, indices};
    n.ints = {compiler::constant(paddingIdx)};
    n.sizes = {std::move(rows), sizes(grad).back()};
    n.dtype = dtype(grad);
    return emit(std::move(n));
}

int32_t AtenBuilder::gatherBackward(int32_t grad, int32_t index, std::vector<Index> resultSizes) {
    AtenNode n;
    n.op = "gather_backward";
    n.inputs = {grad, index};
    n.sizes = std::move(resultSizes);
    n.dtype = dtype(grad);
    return emit(std::move(n));
}

int32_t AtenBuilder::convolutionBackward(bool ofInput, int32_t grad, int32_t other,
                                         std::vector<Index> resultSizes, const AtenNode& forward) {
    AtenNode n;
    n.op = ofInput ? "convolution_backward_input" : "convolution_backward_weight";
    n.inputs = {grad, other};
    n.ints = forward.ints;
    n.sizes = std::move(resultSizes);
    n.dtype = dtype(grad);
    return emit(std::move(n));
}

int32_t AtenBuilder::fallbackBackward(const AtenNode& fallback, int32_t k, int32_t grad) {
    AtenNode n;
    n.op = "fallback_backward";
    n.position = fallback.position;
    n.inputs = fallback.inputs;
    n.inputs.push_back(grad);
    n.ints = {compiler::constant(k)};
    const AtenNode& input = node(fallback.inputs.at(static_cast<size_t>(k)));
    n.sizes = input.sizes;
    n.dtype = input.dtype;
    return emit(std::move(n));
}

int32_t AtenBuilder::fallback(int32_t capturedIndex, std::vector<int32_t> inputs,
                              std::vector<Index> resultSizes, DType type) {
    AtenNode n;
    n.op = "fallback";
    n.position = capturedIndex;
    n.inputs = std::move(inputs);
    n.sizes = std::move(resultSizes);
    n.dtype = type;
    return emit(std::move(n));
}

int32_t AtenBuilder::random(bool normal, std::vector<Index> resultSizes, DType type) {
    KILN_ASSERT(tensor::isFloating(type), "random values are floating");
    int32_t seed = -1, stream = 0;
    for (size_t i = 0; i < m_graph.symbolSources.size(); ++i)
        if (m_graph.symbolSources[i].seed) seed = static_cast<int32_t>(i);
    if (seed < 0) {
        AtenGraph::SymbolSource source;
        source.seed = true; // input 0, dim -1: unused (a seed is no input)
        m_graph.symbolNames.push_back("rng_seed");
        m_graph.symbolSources.push_back(source);
        seed = static_cast<int32_t>(m_graph.symbolNames.size() - 1);
    }
    for (const AtenNode& n : m_graph.nodes)
        if (n.op == "rand" || n.op == "randn") ++stream;
    AtenNode n;
    n.op = normal ? "randn" : "rand";
    n.ints = {sizeSymbol(seed), compiler::constant(stream)};
    n.sizes = std::move(resultSizes);
    n.dtype = type;
    return emit(std::move(n));
}

int64_t drawRandomSeed() {
    return static_cast<int64_t>(tensor::defaultGenerator().nextBits() >> 1);
}

} // namespace kiln::compiler
