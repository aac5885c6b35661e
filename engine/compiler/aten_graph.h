// SPDX-License-Identifier: MIT
/// \file
/// The decomposed graph: what the decompose pass makes of a captured graph. Every node is one
/// core op (pointwise math, a reduction over dims, a view, a matrix product, a constant) with
/// its result sizes (possibly symbolic) and dtype, or a fallback that runs one captured node
/// through the eager kernels. Composite ops (layer_norm, gelu, softmax, linear, var, ...) are
/// spelled out in core ops here, so lowering to loops knows only the core set.
#pragma once

#include "compiler/index_expr.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace kiln::compiler {

/// flash_attention's flags (AtenNode::scalar2, then LoopNode::alpha).
enum AttentionFlags : int {
    kAttentionCausal = 1,       ///< key j attends to query i only if j <= i
    kAttentionEmptyRowsNan = 2, ///< a row with every score masked out is NaN, not zeros
};

struct AtenNode {
    /// placeholder, constant, full, iota, the pointwise ops of ScalarOp by name ("sin", "add",
    /// "where", "to_dtype"), sum/prod/amax/amin/argmax/argmin, view, permute, expand, slice,
    /// mm, bmm, addmm, flash_attention (q, k, v, and a boolean mask), fallback; rand and randn
    /// (random values computed in the kernels: ints holds the seed symbol and the random stream).
    std::string op;
    std::vector<int32_t> inputs; ///< other nodes, by index
    std::vector<Index> ints;     ///< dims, sizes, slice bounds: what the op needs
    double scalar = 0;           ///< constant/full value; addmm's beta; attention's scale
    double scalar2 = 1;          ///< addmm's alpha; attention: AttentionFlags
    bool flag = false;           ///< keepdim
    tensor::DType dtype = tensor::DType::Float32;
    std::vector<Index> sizes;
    std::string origin;   ///< the captured node it came from ("layer_norm")
    std::string originOp; ///< that node's op, for kernel names ("layer_norm", "add")
    /// Other captured nodes this node computes: the steps of attention written out by hand
    /// that one flash_attention node stands for (match_attention.h), shown as fused nodes.
    std::vector<std::string> alsoComputes;
    int32_t position = -1; ///< placeholder: graph input position; fallback: captured node index
    bool requiresGrad = false;
    /// fallback of a call to a module with trainable parameters: they are inside the call, not
    /// inputs of the node, so AOT autograd cannot give them gradients.
    bool callsModule = false;
    /// fallback of an op that draws random numbers beyond what its name says (attention with
    /// dropout): its backward cannot run it again.
    bool drawsRandom = false;
};

struct AtenGraph {
    std::vector<AtenNode> nodes;
    /// Per graph output: the node that computes it.
    std::vector<int32_t> outputs;
    std::vector<std::string> symbolNames;
    /// Per captured node index: the node holding its tensor value (-1: none).
    std::vector<int32_t> nodeOfCaptured;
    /// Tensors the graph reads that are not inputs (module parameters, get_attr values); the
    /// "constant_tensor" nodes refer to them by position.
    std::vector<tensor::Tensor> constants;
    /// Where each size symbol's value comes from when the graph runs: a dim of a tensor input,
    /// an int input (dim -1), or the random generator (seed).
    struct SymbolSource {
        int32_t input = 0;
        int32_t dim = -1;
        bool stride = false; ///< the stride of that dim rather than its size
        /// Not an input: a fresh 63-bit seed drawn from the eager generator at each call, which
        /// the random ops compiled into kernels (rand, randn, dropout) generate from.
        bool seed = false;
    };
    std::vector<SymbolSource> symbolSources;
    int32_t inputCount = 0;
    /// A tensor the graph writes in place (x.add_(1) on an input, a batch norm's running
    /// statistics, an optimizer's update of a parameter). As AOTAutograd's functionalization
    /// does, the graph computes the new value out of place and returns it as output `output`
    /// (after the user's outputs); the compiled graph copies it into the tensor after each call.
    struct Mutation {
        bool constant = false; ///< a module tensor (constants[position]), else graph input
        int32_t position = 0;
        int32_t output = 0;
    };
    std::vector<Mutation> mutations;

    /// Whether output k is a mutation's new value rather than one the caller sees.
    bool isMutationOutput(size_t k) const;

    int32_t add(AtenNode node);
    std::vector<int32_t> userCounts() const;
    /// Removes those of `candidates` that nothing reads, and the constant_tensor nodes only
    /// they read; later nodes are renumbered (nodeOfCaptured of a removed node becomes -1).
    void removeUnread(const std::vector<int32_t>& candidates);
};

/// The value of a seed symbol for one call of a graph: 63 random bits drawn from the eager
/// generator (so torch.manual_seed makes compiled random results reproducible, and each call
/// draws new ones).
int64_t drawRandomSeed();

/// One line per node, "%3 = sum(%2, dims=[1], keepdim=True) : f32[8, 1]  # layer_norm".
std::string toString(const AtenGraph& graph);

} // namespace kiln::compiler
