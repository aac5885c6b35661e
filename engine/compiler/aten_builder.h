// SPDX-License-Identifier: MIT
/// \file
/// Builds AtenGraph nodes with their result sizes and dtypes worked out (broadcasting,
/// reductions, views). The decompositions are written against it.
#pragma once

#include "compiler/aten_graph.h"
#include "tensor/conv.h"

#include <optional>

namespace kiln::compiler {

using tensor::DType;

class AtenBuilder {
public:
    explicit AtenBuilder(AtenGraph& graph)
        : m_graph(graph) {}

    AtenGraph& graph() { return m_graph; }
    const AtenNode& node(int32_t id) const { return m_graph.nodes.at(static_cast<size_t>(id)); }
    const std::vector<Index>& sizes(int32_t id) const { return node(id).sizes; }
    DType dtype(int32_t id) const { return node(id).dtype; }
    int64_t rank(int32_t id) const { return static_cast<int64_t>(sizes(id).size()); }

    /// The captured node the next nodes come from (names kernels and comments).
    void setOrigin(std::string origin, std::string originOp) {
        m_origin = std::move(origin);
        m_originOp = std::move(originOp);
    }

    int32_t placeholder(int32_t position, std::vector<Index> sizes, DType dtype);
    int32_t constantTensor(int32_t position, std::vector<Index> sizes, DType dtype);
    int32_t constant(double value, DType dtype);
    /// An index expression (a symbolic size) as an int64 0-dim value.
    int32_t symValue(const Index& value);
    int32_t full(std::vector<Index> sizes, double value, DType dtype);

    int32_t unary(const std::string& op, int32_t x);
    /// Broadcasting binary op computing in `dtype` (operands are converted to it first).
    int32_t binary(const std::string& op, int32_t a, int32_t b, DType dtype);
    int32_t binary(const std::string& op, int32_t a, int32_t b);
    int32_t compare(const std::string& op, int32_t a, int32_t b);
    int32_t where(int32_t condition, int32_t a, int32_t b);
    int32_t toDtype(int32_t x, DType dtype);

    /// sum/prod/amax/amin/argmax/argmin over `dims` (normalised, may be empty = all).
    int32_t reduce(const std::string& op, int32_t x, std::vector<int64_t> dims, bool keepdim);
    /// The element count of `dims` of x as a float value of `dtype`.
    int32_t countOf(int32_t x, const std::vector<int64_t>& dims, DType dtype);

    int32_t view(int32_t x, std::vector<Index> sizes);
    int32_t permute(int32_t x, std::vector<int64_t> dims);
    int32_t transpose(int32_t x, int64_t d0, int64_t d1);
    int32_t expand(int32_t x, std::vector<Index> sizes);
    int32_t slice(int32_t x, int64_t dim, Index start, Index end, int64_t step);
    int32_t unsqueeze(int32_t x, int64_t dim);
    /// Drops dimension `dim` (which must have size 1).
    int32_t squeeze(int32_t x, int64_t dim);

    /// start + i * step for i in [0, n), as `dtype` (arange, linspace).
    int32_t iota(Index n, double start, double step, DType dtype);
    /// x where (col - row) <= k (lower) or >= k (upper) over the last two dims, else `fill`.
    int32_t triangle(int32_t x, int64_t k, bool upper, double fill);
    /// weight[indices] along dim 0: indices.sizes ++ weight.sizes[1:].
    int32_t embedding(int32_t weight, int32_t indices);
    /// x gathered along its last dim at `index` (same rank, same leading sizes).
    int32_t gatherLast(int32_t x, int32_t index);
    /// The n x m identity matrix.
    int32_t eye(Index n, Index m, DType dtype);
    /// The inputs joined along `dim` (their other sizes equal).
    int32_t cat(std::vector<int32_t> inputs, int64_t dim);

    int32_t mm(int32_t a, int32_t b);
    int32_t bmm(int32_t a, int32_t b);
    int32_t addmm(int32_t bias, int32_t a, int32_t b, double beta, double alpha);
    /// conv2d of an (N, C, H, W) image with (O, C / groups, kH, kW) weights and an optional
    /// bias, as one extern kernel; ints hold stride, padding, dilation (two each) and groups.
    int32_t convolution(int32_t x, int32_t w, std::optional<int32_t> bias,
                        const tensor::ConvParams& p);
    /// softmax(q @ k^T * scale) @ v over the last two dims (causal: key j only for query
    /// i >= j), as one extern kernel (flash_attention; GPU graphs only, see attentionRule).
    int32_t attention(int32_t q, int32_t k, int32_t v, double scale, bool causal);
    /// The same with a boolean mask (true: the score is masked out, -inf) broadcastable to the
    /// scores; a row masked out entirely is NaN, as softmax of a row of -inf gives (attention
    /// written out by hand, see match_attention.h). flash_attention's fourth input.
    int32_t maskedAttention(int32_t q, int32_t k, int32_t v, int32_t masked, double scale);
    /// The inputs flash_attention takes: bf16 or fp16, a head size that is a multiple of 16 up
    /// to 128 (what codegen/cuda/attention_kernel.h generates).
    static bool attentionSupports(DType dtype, int64_t headDim);

    /// Backward ops of AOT autograd that run as extern kernels through the eager ones:
    /// embedding's weight gradient (rows of `grad` added at `indices` into `rows` zero rows,
    /// none at `paddingIdx`, -1 for none), gatherLast's input gradient (`grad` added at `index`
    /// into zeros of `sizes`), and conv2d's input and weight gradients (`forward` is the
    /// convolution node: its parameters).
    int32_t embeddingBackward(int32_t grad, int32_t indices, Index rows, int64_t paddingIdx);
    int32_t gatherBackward(int32_t grad, int32_t index, std::vector<Index> sizes);
    int32_t convolutionBackward(bool ofInput, int32_t grad, int32_t other, std::vector<Index> sizes,
                                const AtenNode& forward);

    /// The gradient of input `k` of `fallback` (a node the eager kernels run) given `grad`, its
    /// result's: the eager op run again with autograd in the backward graph.
    int32_t fallbackBackward(const AtenNode& fallback, int32_t k, int32_t grad);

    int32_t fallback(int32_t capturedIndex, std::vector<int32_t> inputs, std::vector<Index> sizes,
                     DType dtype);

    /// Random values computed in the kernels: uniform in [0, 1) (rand) or standard normal
    /// (randn) of a floating `dtype`. Each call is a new stream of the graph's per-call seed
    /// (the seed symbol is added on first use).
    int32_t random(bool normal, std::vector<Index> sizes, DType dtype);
    /// Whether random ops become kernel code (random()) or run through the eager kernels
    /// (Inductor's fallback_random, bit-exact with eager).
    bool compilesRandom() const { return m_compilesRandom; }
    void setCompilesRandom(bool on) { m_compilesRandom = on; }
    /// Inductor's freezing: parameters are constants of the compiled graph, so what is
    /// computed from them alone may be computed once, at compile time (fold_batch_norm.h).
    bool freezing() const { return m_freezing; }
    void setFreezing(bool on) { m_freezing = on; }
    /// A node a later one stands for (a convolution whose batch norm was folded into a copy of
    /// it): dropped at the end of decomposition if nothing else reads it.
    void markReplaced(int32_t node) { m_replaced.push_back(node); }
    const std::vector<int32_t>& replaced() const { return m_replaced; }

    /// An in-place write of `value` into the graph input or module tensor `target` reads (a
    /// placeholder or constant_tensor node, or a value written into one before), recorded as a
    /// mutation of the graph (finishMutations). A later write to the same tensor replaces the
    /// value. Returns the value as recorded (in the tensor's dtype and sizes), or none,
    /// recording nothing, when `target` is none of these.
    std::optional<int32_t> writeInto(int32_t target, int32_t value);
    /// Whether writeInto(target, ...) would record a write.
    bool writable(int32_t target) const;
    /// The value last written into a graph input (or module tensor), if any: reads after the
    /// write see it.
    std::optional<int32_t> written(bool constant, int32_t position) const;
    /// Appends the written values to the graph's outputs and records them as its mutations;
    /// the end of decomposition.
    void finishMutations();

    /// Broadcast sizes of two shapes (PyTorch's rules, size 1 stretches).
    static std::vector<Index> broadcastSizes(const std::vector<Index>& a,
                                             const std::vector<Index>& b);

private:
    int32_t emit(AtenNode node);
    struct Write {
        bool constant = false;
        int32_t position = 0;
        int32_t value = -1;
    };
    /// The tensor a write into `target` goes to (value unset for a placeholder or
    /// constant_tensor node), or none.
    std::optional<Write> tensorWrittenBy(int32_t target) const;

    AtenGraph& m_graph;
    std::string m_origin, m_originOp;
    bool m_compilesRandom = true;
    bool m_freezing = false;
    std::vector<int32_t> m_replaced;
    std::vector<Write> m_writes;
};

/// Normalises a possibly negative dim for a rank; nullopt when out of range.
std::optional<int64_t> normaliseDim(int64_t dim, int64_t rank);

} // namespace kiln::compiler
