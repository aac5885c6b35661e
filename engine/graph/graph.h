// SPDX-License-Identifier: MIT
/// \file
/// The captured-graph IR, shaped like torch.fx: a list of nodes in execution order, each a
/// placeholder (graph input), get_attr (a module attribute such as a parameter), call_function,
/// call_method, call_module, or the single output node. Arguments are other nodes or constants
/// (interpreter values), possibly nested in tuples and lists. Every node carries the metadata
/// of the value it produces (shape with symbolic sizes, dtype, device) and the source line that
/// produced it. The capture layer builds graphs; backends and Kiln's views consume them.
#pragma once

#include "lang/value.h"
#include "support/source.h"
#include "tensor/dtype.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kiln::graph {

enum class NodeOp : uint8_t { Placeholder, GetAttr, CallFunction, CallMethod, CallModule, Output };

const char* nodeOpName(NodeOp op);
/// The dtype as FX annotates values: "f32", "bf16", "i64", "b8".
const char* shortDtype(tensor::DType dtype);

/// One dimension of a shape: a concrete size or a symbol ("s0").
struct Dim {
    int64_t value = 0;  ///< the size; for a symbol, its value in the traced example (the hint)
    std::string symbol; ///< empty for a static size
    bool isSymbolic() const { return !symbol.empty(); }
    std::string str() const { return isSymbolic() ? symbol : std::to_string(value); }
};

/// What a node produces, for printing and for the trace: tensors have sizes/strides/dtype.
struct ValueMeta {
    enum class Kind : uint8_t { None, Tensor, SymInt, Other };
    Kind kind = Kind::None;
    std::vector<Dim> sizes;
    std::vector<int64_t> strides;
    tensor::DType dtype = tensor::DType::Float32;
    std::string device = "cpu";
    bool requiresGrad = false;
    /// The traced value's grad_fn ("MulBackward0"); empty for a leaf or without grad.
    std::string gradFn;

    /// "f32[8, s0]" as PyTorch's readable graphs annotate tensors; empty for non-tensors.
    std::string shortType() const;
    /// "[8, s0]"
    std::string shapeString() const;
};

/// A node argument: another node, a constant, or a tuple/list of arguments.
struct Arg {
    /// Slice: items are start, stop and step (a slice with a symbolic bound, x[:n // 2]).
    enum class Kind : uint8_t { Node, Constant, Tuple, List, Slice };
    Kind kind = Kind::Constant;
    int32_t node = -1;      ///< Kind::Node: index into Graph::nodes
    lang::Value constant;   ///< Kind::Constant
    std::vector<Arg> items; ///< Kind::Tuple / Kind::List

    static Arg ofNode(int32_t index);
    static Arg ofConstant(lang::Value v);
    static Arg ofSequence(Kind kind, std::vector<Arg> items);
};

/// call_function nodes whose target is a Python operator run through the interpreter's
/// operator protocol rather than a callable.
enum class OperatorKind : uint8_t { None, Binary, InplaceBinary, Unary, Compare, GetItem, SetItem };

struct Node {
    NodeOp op = NodeOp::CallFunction;
    OperatorKind operatorKind = OperatorKind::None;
    uint8_t operatorCode = 0; ///< lang::BinaryOperator / UnaryOperator / CompareOperator
    std::string name;         ///< unique within the graph: "l_x_", "sin", "add_1"
    std::string target; ///< readable target: "torch.sin", "operator.add", "sum", "fc1", "l_x_"
    /// What to call when the graph runs: the native function (call_function), nothing for
    /// call_method (looked up on the receiver by `target`), the module (call_module), the
    /// attribute's value (get_attr).
    lang::Value callable;
    std::vector<Arg> args;
    std::vector<std::pair<std::string, Arg>> kwargs;
    ValueMeta meta;
    SourceSpan span; ///< where in the user's code the node came from
    std::string sourceFile;
    std::string sourceCode;     ///< that line's text, for "# File: ..., code: ..." comments
    std::string sourceFunction; ///< the function running that line (fx's stack_trace names it)
    std::string sourceName;     ///< placeholders: the guard source, "L['x']"
    std::string modulePath;     ///< call_module: the module as the code reads it, "self.net.0"
};

class Graph {
public:
    std::vector<Node> nodes;

    int32_t add(Node node);
    /// A fresh node name derived from `candidate` as torch.fx's namespace makes one: "add",
    /// then "add_1", ...; a candidate ending in _N counts on from N ("x_1" -> "x_2").
    std::string uniqueName(const std::string& candidate);
    /// Renames node `index` after the local it was stored to, as Dynamo 2.3's STORE_FAST
    /// renames a tensor's node (`y = torch.relu(x)` prints as `y = ...`). Its old name stays
    /// taken, as in fx.
    void renameNode(int32_t index, const std::string& candidate);
    /// How many renames have been made: undoRenames(mark) takes back those after it.
    size_t renameMark() const { return m_renames.size(); }
    void undoRenames(size_t mark);
    const Node* outputNode() const;
    /// The number of values the output node returns (the items of its tuple).
    size_t outputCount() const;
    /// Drops the nodes from `size` on (a trace rewound to an earlier point).
    void truncate(size_t size);
    /// Moves placeholders to the front, as fx graphs list them: those named in `inputOrder`
    /// (node indices) first in that order, then the others in graph order.
    void hoistPlaceholders(std::span<const int32_t> inputOrder = {});
    /// Drops operator.getitem nodes nothing reads, last first (so one that only such a
    /// getitem read goes too), as Dynamo's output graph does before it compiles.
    void removeUnreadGetItems();
    /// Nodes that call something (call_function, call_method, call_module).
    int32_t callCount() const;
    /// call_function nodes only: what torch._dynamo.explain counts as ops.
    int32_t functionCallCount() const;
    std::vector<int32_t> placeholders() const;
    /// Indices of the nodes that read node `index`.
    std::vector<int32_t> users(int32_t index) const;

private:
    struct Rename {
        int32_t node;
        std::string oldName;
    };
    std::vector<std::string> m_usedNames;
    std::vector<Rename> m_renames;
};

} // namespace kiln::graph
