// SPDX-License-Identifier: MIT
/// \file
/// What a decomposition rule sees of one captured call: its arguments bound to parameter names,
/// readers that turn them into graph nodes, ints and floats, and the builder to emit with.
/// Internal to the decompose pass.
#pragma once

#include "compiler/aten_builder.h"
#include "graph/graph.h"
#include "lang/interpreter.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kiln::compiler {

class OpCall {
public:
    OpCall(lang::Interpreter& interp, AtenBuilder& builder, const graph::Graph& captured,
           const graph::Node& node, const std::vector<int32_t>& tensorOf,
           const std::vector<std::optional<Index>>& symOf)
        : m_interp(interp)
        , m_b(builder)
        , m_captured(captured)
        , m_node(node)
        , m_tensorOf(tensorOf)
        , m_symOf(symOf) {}

    AtenBuilder& b() { return m_b; }
    lang::Interpreter& interp() { return m_interp; }
    const graph::Node& node() const { return m_node; }
    tensor::DType resultDtype() const { return m_node.meta.dtype; }

    /// Binds positional and keyword arguments to `params`; a name starting with '*' takes the
    /// remaining positionals (or the single sequence passed there). For call_module nodes the
    /// module is `self` and is not among the arguments.
    bool bind(std::initializer_list<const char*> params);
    bool has(const std::string& name) const;
    /// The argument as a tensor node; a Python number becomes a 0-dim constant of `numberType`.
    std::optional<int32_t> tensor(const std::string& name,
                                  tensor::DType numberType = tensor::DType::Float32);
    std::optional<int64_t> integer(const std::string& name);
    std::optional<double> number(const std::string& name);
    std::optional<bool> boolean(const std::string& name);
    std::optional<std::string> text(const std::string& name);
    /// An int or a sequence of ints (dims), normalised against `rank`.
    std::optional<std::vector<int64_t>> dims(const std::string& name, int64_t rank);
    /// A sequence of sizes (ints or symbolic sizes).
    std::optional<std::vector<Index>> sizes(const std::string& name);
    bool isNone(const std::string& name) const;
    /// The dtype= argument, when it is a dtype object.
    std::optional<tensor::DType> dtypeArg(const std::string& name);
    /// Whether the numeric argument is a Python float (for type promotion with int tensors).
    bool isFloatNumber(const std::string& name) const;

    /// The module's attribute (call_module) as a value.
    lang::Value moduleAttr(const char* name);
    /// A tensor attribute of the module (a parameter) as a constant-tensor node; nullopt if None.
    std::optional<int32_t> moduleTensor(const char* name);

    /// The captured node an argument is, or null when it is no node.
    const graph::Node* argNode(const std::string& name) const;
    /// How many captured nodes read the argument's node (0 when it is no node).
    size_t readersOf(const std::string& name) const;

    /// The value a constant argument holds, or an int list/size from symbolic nodes.
    const graph::Arg* arg(const std::string& name) const;
    /// Per captured node: the node holding its tensor (-1: none).
    const std::vector<int32_t>& tensorOf() const { return m_tensorOf; }

private:
    std::optional<Index> indexOf(const graph::Arg& a) const;
    /// The sizes of x when the argument is an x.size() node.
    std::optional<std::vector<Index>> wholeSizeOf(const graph::Arg& a) const;
    std::optional<int32_t> tensorOfArg(const graph::Arg& a, tensor::DType numberType);

    lang::Interpreter& m_interp;
    AtenBuilder& m_b;
    const graph::Graph& m_captured;
    const graph::Node& m_node;
    const std::vector<int32_t>& m_tensorOf;
    const std::vector<std::optional<Index>>& m_symOf;
    std::map<std::string, graph::Arg> m_bound;
};

/// A decomposition: emits core nodes for the call and returns the node holding its result, or
/// nullopt when it cannot (the call then falls back to the eager kernels).
using DecompositionRule = std::function<std::optional<int32_t>(OpCall&)>;

/// The rule for an op name ("sin", "layer_norm", "Linear", "add"), or null.
const DecompositionRule* findDecomposition(const std::string& opName);

/// A decomposition of an op that returns a tuple of tensors (max(dim), split, chunk): the nodes
/// holding its items, or nullopt.
using TupleDecompositionRule = std::function<std::optional<std::vector<int32_t>>(OpCall&)>;
const TupleDecompositionRule* findTupleDecomposition(const std::string& opName);

/// Whether a captured node is x.size() (a torch.Size; its items are read through getitem).
bool wholeSize(const graph::Node& n);
/// Whether a captured node is torch.Size([...]) of SymInts and ints (x.shape[-2:] passed on).
bool sizeConstruction(const graph::Node& n);

/// The registry of module tensors already turned into constant nodes (one node per tensor).
int32_t constantTensorNode(AtenBuilder& b, const tensor::Tensor& t);

} // namespace kiln::compiler
