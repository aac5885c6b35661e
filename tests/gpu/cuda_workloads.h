// SPDX-License-Identifier: MIT
/// \file
/// Fused graphs for the CUDA code generation tests and the device check: each is built with
/// the compiler's own decompositions (AtenBuilder and the decompose rules' helpers), lowered
/// to loops and fused, so the emitter sees exactly what torch.compile's pipeline gives it.
#pragma once

#include "compiler/aten_builder.h"
#include "compiler/decompose_rules.h"
#include "compiler/fuse_kernels.h"
#include "compiler/lower_to_loops.h"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace kiln::testing::cuda {

using compiler::AtenBuilder;
using compiler::Index;
using tensor::DType;

struct FusedGraph {
    compiler::LoopProgram program;
    compiler::Schedule schedule;
    std::vector<compiler::OutputView> outputs;

    /// The first kernel of `kind` (every graph here has one compiled kernel).
    const compiler::ScheduledKernel& kernel() const { return schedule.kernels.front(); }
};

/// Builds the graph with `body` (inputs by placeholder, returns the outputs), then lowers and
/// fuses it. `symbols` names the graph's size symbols (s0, ...).
inline FusedGraph buildGraph(const std::function<std::vector<int32_t>(AtenBuilder&)>& body,
                             std::vector<std::string> symbols = {},
                             compiler::FusionOptions fusion = {}) {
    compiler::AtenGraph g;
    g.symbolNames = std::move(symbols);
    for (size_t i = 0; i < g.symbolNames.size(); ++i)
        g.symbolSources.push_back({0, static_cast<int32_t>(i), false, false});
    AtenBuilder b(g);
    g.outputs = body(b);
    compiler::LoweredGraph lowered = compiler::lowerToLoops(g, {});
    FusedGraph f;
    f.schedule = compiler::fuseKernels(lowered.program, fusion);
    f.program = std::move(lowered.program);
    f.outputs = std::move(lowered.outputs);
    return f;
}

inline std::vector<Index> dims(std::initializer_list<int64_t> sizes) {
    std::vector<Index> out;
    for (int64_t s : sizes)
        out.push_back(compiler::constant(s));
    return out;
}

/// sin(x) + cos(x) over n elements.
inline FusedGraph sinCos(int64_t n, DType t = DType::Float32) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin("add", "add");
        int32_t x = b.placeholder(0, dims({n}), t);
        return std::vector<int32_t>{b.binary("add", b.unary("sin", x), b.unary("cos", x))};
    });
}

/// gelu(x) (erf) over n elements, computed in float32 and stored as t (the block's MLP).
inline FusedGraph gelu(int64_t n, DType t = DType::Float32) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin("gelu", "gelu");
        int32_t x = b.placeholder(0, dims({n}), t);
        return std::vector<int32_t>{
            b.toDtype(compiler::rules::geluOf(b, b.toDtype(x, DType::Float32), false), t)};
    });
}

/// softmax(x, dim=-1) of rows x cols (computed in float32, stored as t).
inline FusedGraph softmax(int64_t rows, int64_t cols, DType t = DType::Float32) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin("softmax", "softmax");
        int32_t x = b.placeholder(0, dims({rows, cols}), t);
        int32_t y = compiler::rules::softmaxOf(b, b.toDtype(x, DType::Float32), 1, false);
        return std::vector<int32_t>{b.toDtype(y, t)};
    });
}

/// softmax over rows whose count is the size symbol s0.
inline FusedGraph dynamicSoftmax(int64_t cols) {
    return buildGraph(
        [&](AtenBuilder& b) {
            b.setOrigin("softmax", "softmax");
            int32_t x = b.placeholder(0, {compiler::sizeSymbol(0), compiler::constant(cols)},
                                      DType::Float32);
            return std::vector<int32_t>{compiler::rules::softmaxOf(b, x, 1, false)};
        },
        {"s0"});
}

/// gelu(layer_norm(x, [cols], weight, bias)) (erf GELU).
inline FusedGraph geluLayerNorm(int64_t rows, int64_t cols, DType t = DType::Float32) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin("layer_norm", "layer_norm");
        int32_t x = b.placeholder(0, dims({rows, cols}), t);
        int32_t w = b.placeholder(1, dims({cols}), t);
        int32_t bias = b.placeholder(2, dims({cols}), t);
        int32_t y = compiler::rules::layerNormOf(b, b.toDtype(x, DType::Float32), 1, w, bias, 1e-5);
        b.setOrigin("gelu", "gelu");
        return std::vector<int32_t>{b.toDtype(compiler::rules::geluOf(b, y, false), t)};
    });
}

/// The masked softmax of manual attention: softmax(where(mask == 0, -inf, scores * scale)) of
/// [batch, heads, t, t] bf16 scores and a [1, 1, t, t] mask buffer (nanoGPT's causal bias).
inline FusedGraph maskedAttentionSoftmax(int64_t batch, int64_t heads, int64_t t) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin("softmax", "softmax");
        DType bf16 = DType::BFloat16;
        int32_t scores = b.placeholder(0, dims({batch, heads, t, t}), bf16);
        int32_t mask = b.placeholder(1, dims({1, 1, t, t}), bf16);
        int32_t scaled = b.binary("mul", scores, b.constant(0.125, bf16), bf16);
        int32_t masked = b.where(b.compare("eq", mask, b.constant(0, bf16)),
                                 b.constant(-INFINITY, bf16), scaled);
        return std::vector<int32_t>{compiler::rules::softmaxOf(b, masked, 3, false)};
    });
}

/// The two products of written-out attention over heads split from one projection, merged to
/// one batch of b * h as on the CPU: q @ k^T then (the result) @ v, where q, k and v are
/// [b, h, t, d] views of a [b, t, 3 * h * d] bf16 projection. Their copies (q, k^T, v in
/// bmm's layout) are the graph's generated kernels.
inline FusedGraph headProducts(int64_t batch, int64_t t, int64_t heads, int64_t d) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin("matmul", "matmul");
        DType bf16 = DType::BFloat16;
        int64_t c = heads * d;
        int32_t qkv = b.placeholder(0, dims({batch, t, 3 * c}), bf16);
        auto head = [&](int64_t part) {
            int32_t x = b.slice(qkv, 2, compiler::constant(part * c),
                                compiler::constant((part + 1) * c), 1);
            return b.transpose(b.view(x, dims({batch, t, heads, d})), 1, 2);
        };
        auto merged = [&](int32_t x, int64_t rows, int64_t cols) {
            return b.view(x, dims({batch * heads, rows, cols}));
        };
        int32_t scores = b.bmm(merged(head(0), t, d), merged(b.transpose(head(1), 2, 3), d, t));
        return std::vector<int32_t>{b.bmm(scores, merged(head(2), t, d))};
    });
}

/// One reduction over the last dim: "sum", "amax", "mean", "var" (unbiased), "argmax".
inline FusedGraph rowReduction(const std::string& op, int64_t rows, int64_t cols) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin(op, op);
        int32_t x = b.placeholder(0, dims({rows, cols}), DType::Float32);
        if (op == "mean")
            return std::vector<int32_t>{b.binary("truediv", b.reduce("sum", x, {1}, false),
                                                 b.countOf(x, {1}, DType::Float32))};
        if (op == "var") {
            int32_t count =
                b.binary("sub", b.countOf(x, {1}, DType::Float32), b.constant(1, DType::Float32));
            return std::vector<int32_t>{
                b.binary("truediv", b.reduce("welford_m2", x, {1}, false), count)};
        }
        return std::vector<int32_t>{b.reduce(op, x, {1}, false)};
    });
}

/// x + rand_like(x): in-kernel Philox.
inline FusedGraph randomAdd(int64_t n) {
    return buildGraph([&](AtenBuilder& b) {
        b.setOrigin("add", "add");
        int32_t x = b.placeholder(0, dims({n}), DType::Float32);
        return std::vector<int32_t>{b.binary("add", x, b.random(false, dims({n}), DType::Float32))};
    });
}

} // namespace kiln::testing::cuda
