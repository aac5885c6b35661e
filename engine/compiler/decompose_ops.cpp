// SPDX-License-Identifier: MIT
#include "compiler/decompose_ops.h"

#include "compiler/decompose_context.h"
#include "compiler/match_attention.h"
#include "lang/native_types.h"
#include "lang/objects.h"

#include <algorithm>
#include <map>

namespace kiln::compiler {

using graph::Arg;
using graph::NodeOp;
using graph::OperatorKind;
using lang::Value;

// --- OpCall

bool OpCall::bind(std::initializer_list<const char*> params) {
    m_bound.clear();
    std::vector<std::string> names(params.begin(), params.end());
    size_t p = 0;
    const auto& args = m_node.args;
    for (size_t i = 0; i < args.size(); ++i) {
        if (p >= names.size()) return false;
        if (names[p][0] == '*') {
            std::string name = names[p].substr(1);
            bool single = args.size() - i == 1 &&
                          (args[i].kind == Arg::Kind::Tuple || args[i].kind == Arg::Kind::List);
            bool singleConstSeq = args.size() - i == 1 && args[i].kind == Arg::Kind::Constant &&
                                  (args[i].constant.is(lang::ObjectKind::Tuple) ||
                                   args[i].constant.is(lang::ObjectKind::List));
            if (single || singleConstSeq) {
                m_bound[name] = args[i];
            } else {
                std::vector<Arg> rest(args.begin() + static_cast<ptrdiff_t>(i), args.end());
                m_bound[name] = Arg::ofSequence(Arg::Kind::Tuple, std::move(rest));
            }
            ++p;
            break;
        }
        m_bound[names[p++]] = args[i];
    }
    for (const auto& [key, value] : m_node.kwargs) {
        bool known = false;
        for (const std::string& n : names)
            known = known || n == key || (n[0] == '*' && n.substr(1) == key);
        if (!known) return false;
        m_bound[key] = value;
    }
    return true;
}

bool OpCall::has(const std::string& name) const {
    return m_bound.count(name) != 0;
}

const Arg* OpCall::arg(const std::string& name) const {
    auto it = m_bound.find(name);
    return it == m_bound.end() ? nullptr : &it->second;
}

const graph::Node* OpCall::argNode(const std::string& name) const {
    const Arg* a = arg(name);
    if (!a || a->kind != Arg::Kind::Node) return nullptr;
    return &m_captured.nodes.at(static_cast<size_t>(a->node));
}

size_t OpCall::readersOf(const std::string& name) const {
    const Arg* a = arg(name);
    return a && a->kind == Arg::Kind::Node ? m_captured.users(a->node).size() : 0;
}

bool OpCall::isNone(const std::string& name) const {
    const Arg* a = arg(name);
    return !a || (a->kind == Arg::Kind::Constant && a->constant.isNone());
}

std::optional<Index> OpCall::indexOf(const Arg& a) const {
    if (a.kind == Arg::Kind::Constant && a.constant.isIntLike())
        return constant(a.constant.asInt());
    if (a.kind == Arg::Kind::Node) return m_symOf[static_cast<size_t>(a.node)];
    return std::nullopt;
}

std::optional<int32_t> OpCall::tensorOfArg(const Arg& a, tensor::DType numberType) {
    if (a.kind == Arg::Kind::Node) {
        int32_t t = m_tensorOf[static_cast<size_t>(a.node)];
        if (t >= 0) return t;
        if (auto sym = m_symOf[static_cast<size_t>(a.node)]) return m_b.symValue(*sym);
        return std::nullopt;
    }
    if (a.kind != Arg::Kind::Constant) return std::nullopt;
    const Value& v = a.constant;
    if (v.isBool()) return m_b.constant(v.asInt() != 0, tensor::DType::Bool);
    if (v.isInt()) return m_b.constant(static_cast<double>(v.asInt()), numberType);
    if (v.isFloat()) return m_b.constant(v.asFloat(), numberType);
    if (v.isTensor()) {
        tensor::Tensor t = v.asTensor();
        if (t.dim() == 0 && t.numel() == 1) return constantTensorNode(m_b, t);
        return constantTensorNode(m_b, t);
    }
    return std::nullopt;
}

std::optional<int32_t> OpCall::tensor(const std::string& name, tensor::DType numberType) {
    const Arg* a = arg(name);
    return a ? tensorOfArg(*a, numberType) : std::nullopt;
}

std::optional<int64_t> OpCall::integer(const std::string& name) {
    const Arg* a = arg(name);
    if (!a || a->kind != Arg::Kind::Constant || !a->constant.isIntLike()) return std::nullopt;
    return a->constant.asInt();
}

std::optional<double> OpCall::number(const std::string& name) {
    const Arg* a = arg(name);
    if (!a || a->kind != Arg::Kind::Constant || !a->constant.isNumber()) return std::nullopt;
    return a->constant.toDouble();
}

bool OpCall::isFloatNumber(const std::string& name) const {
    const Arg* a = arg(name);
    return a && a->kind == Arg::Kind::Constant && a->constant.isFloat();
}

std::optional<bool> OpCall::boolean(const std::string& name) {
    const Arg* a = arg(name);
    if (!a || a->kind != Arg::Kind::Constant || !a->constant.isIntLike()) return std::nullopt;
    return a->constant.asInt() != 0;
}

std::optional<std::string> OpCall::text(const std::string& name) {
    const Arg* a = arg(name);
    if (!a || a->kind != Arg::Kind::Constant || !a->constant.is(lang::ObjectKind::Str))
        return std::nullopt;
    return a->constant.as<lang::StrObject>()->str();
}

std::optional<std::vector<int64_t>> OpCall::dims(const std::string& name, int64_t rank) {
    const Arg* a = arg(name);
    if (!a) return std::nullopt;
    std::vector<Value> items;
    if (a->kind == Arg::Kind::Constant && a->constant.isIntLike()) {
        items.push_back(a->constant);
    } else if (a->kind == Arg::Kind::Constant && a->constant.is(lang::ObjectKind::Tuple)) {
        items = a->constant.as<lang::TupleObject>()->items;
    } else if (a->kind == Arg::Kind::Constant && a->constant.is(lang::ObjectKind::List)) {
        items = a->constant.as<lang::ListObject>()->items;
    } else if (a->kind == Arg::Kind::Tuple || a->kind == Arg::Kind::List) {
        for (const Arg& item : a->items) {
            if (item.kind != Arg::Kind::Constant) return std::nullopt;
            items.push_back(item.constant);
        }
    } else {
        return std::nullopt;
    }
    std::vector<int64_t> out;
    for (const Value& v : items) {
        if (!v.isIntLike()) return std::nullopt;
        auto d = normaliseDim(v.asInt(), rank);
        if (!d) return std::nullopt;
        out.push_back(*d);
    }
    return out;
}

/// x.size() as a captured node: a torch.Size, passed whole (x.reshape(y.shape)) or read item
/// by item through getitem nodes.
bool wholeSize(const graph::Node& n) {
    return n.op == NodeOp::CallMethod && n.target == "size" && n.args.size() == 1 &&
           n.args[0].kind == Arg::Kind::Node && n.meta.kind == graph::ValueMeta::Kind::Other;
}

bool sizeConstruction(const graph::Node& n) {
    return n.op == NodeOp::CallFunction && n.target == "torch.Size" && n.args.size() == 1 &&
           n.args[0].kind == Arg::Kind::List;
}

std::optional<std::vector<Index>> OpCall::wholeSizeOf(const Arg& a) const {
    if (a.kind != Arg::Kind::Node) return std::nullopt;
    const graph::Node& n = m_captured.nodes.at(static_cast<size_t>(a.node));
    if (sizeConstruction(n)) {
        std::vector<Index> out;
        for (const Arg& item : n.args[0].items) {
            auto i = indexOf(item);
            if (!i) return std::nullopt;
            out.push_back(*i);
        }
        return out;
    }
    if (!wholeSize(n)) return std::nullopt;
    int32_t t = m_tensorOf.at(static_cast<size_t>(n.args[0].node));
    if (t < 0) return std::nullopt;
    return m_b.sizes(t);
}

std::optional<std::vector<Index>> OpCall::sizes(const std::string& name) {
    const Arg* a = arg(name);
    if (!a) return std::nullopt;
    if (auto whole = wholeSizeOf(*a)) return whole;
    if ((a->kind == Arg::Kind::Tuple || a->kind == Arg::Kind::List) && a->items.size() == 1)
        if (auto whole = wholeSizeOf(a->items[0])) return whole; // view(*x.shape) bound to *size
    std::vector<Index> out;
    auto addValue = [&](const Value& v) {
        if (!v.isIntLike()) return false;
        out.push_back(constant(v.asInt()));
        return true;
    };
    if (a->kind == Arg::Kind::Constant) {
        const Value& v = a->constant;
        if (v.isIntLike()) return std::vector<Index>{constant(v.asInt())};
        const std::vector<Value>* items = nullptr;
        if (v.is(lang::ObjectKind::Tuple)) items = &v.as<lang::TupleObject>()->items;
        if (v.is(lang::ObjectKind::List)) items = &v.as<lang::ListObject>()->items;
        if (!items) return std::nullopt;
        for (const Value& item : *items)
            if (!addValue(item)) return std::nullopt;
        return out;
    }
    if (a->kind == Arg::Kind::Node) {
        auto i = indexOf(*a);
        if (!i) return std::nullopt;
        return std::vector<Index>{*i};
    }
    if (a->kind != Arg::Kind::Tuple && a->kind != Arg::Kind::List) return std::nullopt;
    for (const Arg& item : a->items) {
        auto i = indexOf(item);
        if (!i) return std::nullopt;
        out.push_back(*i);
    }
    return out;
}

std::optional<tensor::DType> OpCall::dtypeArg(const std::string& name) {
    const Arg* a = arg(name);
    if (!a || a->kind != Arg::Kind::Constant) return std::nullopt;
    return lang::dtypeOfValue(a->constant);
}

Value OpCall::moduleAttr(const char* name) {
    return m_interp.tryGetAttr(m_node.callable, lang::Symbol::intern(name));
}

std::optional<int32_t> OpCall::moduleTensor(const char* name) {
    Value v = moduleAttr(name);
    if (!v.isTensor()) return std::nullopt;
    size_t before = m_b.graph().nodes.size();
    int32_t node = constantTensorNode(m_b, v.asTensor());
    // Named as Dynamo names the attribute's get_attr node (l__self___fc_weight), for printing.
    if (m_b.graph().nodes.size() > before)
        m_b.graph().nodes[static_cast<size_t>(node)].origin = m_node.name + "_" + name;
    return node;
}

int32_t constantTensorNode(AtenBuilder& b, const tensor::Tensor& t) {
    AtenGraph& g = b.graph();
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const AtenNode& n = g.nodes[i];
        if (n.op == "constant_tensor" && g.constants[static_cast<size_t>(n.position)].sameImpl(t))
            return b.written(true, n.position).value_or(static_cast<int32_t>(i));
    }
    g.constants.push_back(t);
    std::vector<Index> sizes;
    for (int64_t s : t.sizes())
        sizes.push_back(constant(s));
    return b.constantTensor(static_cast<int32_t>(g.constants.size() - 1), std::move(sizes),
                            t.dtype());
}

// --- the pass

namespace {

const char* binaryOpName(lang::BinaryOperator op) {
    switch (op) {
    case lang::BinaryOperator::Add:
        return "add";
    case lang::BinaryOperator::Sub:
        return "sub";
    case lang::BinaryOperator::Mul:
        return "mul";
    case lang::BinaryOperator::Div:
        return "truediv";
    case lang::BinaryOperator::FloorDiv:
        return "floordiv";
    case lang::BinaryOperator::Mod:
        return "mod";
    case lang::BinaryOperator::Pow:
        return "pow";
    case lang::BinaryOperator::MatMul:
        return "matmul";
    case lang::BinaryOperator::BitAnd:
        return "and_";
    case lang::BinaryOperator::BitOr:
        return "or_";
    default:
        return "";
    }
}

const char* compareOpName(lang::CompareOperator op) {
    switch (op) {
    case lang::CompareOperator::Eq:
        return "eq";
    case lang::CompareOperator::NotEq:
        return "ne";
    case lang::CompareOperator::Lt:
        return "lt";
    case lang::CompareOperator::LtE:
        return "le";
    case lang::CompareOperator::Gt:
        return "gt";
    case lang::CompareOperator::GtE:
        return "ge";
    default:
        return "";
    }
}

std::string opNameOf(lang::Interpreter& interp, const graph::Node& n) {
    switch (n.op) {
    case NodeOp::CallMethod:
        return n.target;
    case NodeOp::CallModule:
        return interp.typeName(n.callable); // the rules are keyed by class name ("GELU")
    case NodeOp::CallFunction:
        break;
    default:
        return "";
    }
    switch (n.operatorKind) {
    case OperatorKind::Binary:
        return binaryOpName(static_cast<lang::BinaryOperator>(n.operatorCode));
    case OperatorKind::Compare:
        return compareOpName(static_cast<lang::CompareOperator>(n.operatorCode));
    case OperatorKind::Unary:
        return static_cast<lang::UnaryOperator>(n.operatorCode) == lang::UnaryOperator::Neg ? "neg"
                                                                                            : "";
    case OperatorKind::GetItem:
        return "getitem";
    case OperatorKind::InplaceBinary:
    case OperatorKind::SetItem:
        return "";
    case OperatorKind::None:
        break;
    }
    size_t dot = n.target.rfind('.');
    return dot == std::string::npos ? n.target : n.target.substr(dot + 1);
}

bool mutates(const graph::Node& n) {
    if (n.operatorKind == OperatorKind::InplaceBinary || n.operatorKind == OperatorKind::SetItem)
        return true;
    if (n.op == NodeOp::CallMethod && !n.target.empty() && n.target.back() == '_' &&
        n.target.front() != '_')
        return true;
    return n.target == "copy_";
}

class Decomposer {
public:
    Decomposer(lang::Interpreter& interp, const graph::Graph& captured,
               const DecomposeOptions& options)
        : m_interp(interp)
        , m_captured(captured)
        , m_b(m_graph)
        , m_tensorOf(captured.nodes.size(), -1)
        , m_symOf(captured.nodes.size())
        , m_tupleOf(captured.nodes.size())
        , m_attentionOf(captured.nodes.size(), -1) {
        m_b.setCompilesRandom(!options.fallbackRandom);
        m_b.setFreezing(options.freezing);
        if (options.matchAttention) m_attention = findWrittenAttention(interp, captured);
        for (size_t i = 0; i < m_attention.size(); ++i)
            for (int32_t replaced : m_attention[i].replaced)
                m_attentionOf[static_cast<size_t>(replaced)] = kReplaced;
        for (size_t i = 0; i < m_attention.size(); ++i)
            m_attentionOf[static_cast<size_t>(m_attention[i].result)] = static_cast<int32_t>(i);
    }

    DecomposeResult run() {
        for (size_t i = 0; i < m_captured.nodes.size(); ++i) {
            std::string why = visit(static_cast<int32_t>(i));
            if (!why.empty()) return {std::nullopt, why};
        }
        m_b.finishMutations();
        m_graph.nodeOfCaptured = m_tensorOf;
        m_graph.removeUnread(m_b.replaced());
        return {std::move(m_graph), {}};
    }

private:
    Index symbol(const std::string& name, int32_t input, int32_t dim, bool stride = false) {
        for (size_t i = 0; i < m_graph.symbolNames.size(); ++i)
            if (m_graph.symbolNames[i] == name && !m_graph.symbolSources[i].seed)
                return sizeSymbol(static_cast<int32_t>(i));
        m_graph.symbolNames.push_back(name);
        m_graph.symbolSources.push_back({input, dim, stride});
        return sizeSymbol(static_cast<int32_t>(m_graph.symbolNames.size() - 1));
    }

    std::string visit(int32_t index) {
        const graph::Node& n = m_captured.nodes[static_cast<size_t>(index)];
        // Steps of a written-out attention: the fused node at its last product computes them.
        if (m_attentionOf[static_cast<size_t>(index)] == kReplaced) return {};
        std::string op = opNameOf(m_interp, n);
        if (n.op == NodeOp::CallModule)
            std::transform(op.begin(), op.end(), op.begin(),
                           [](unsigned char c) { return std::tolower(c); });
        m_b.setOrigin(n.name, op); // kernel names use lower-case op names: "gelu", "linear"
        switch (n.op) {
        case NodeOp::Placeholder:
            return placeholder(index, n);
        case NodeOp::GetAttr:
            if (!n.callable.isTensor()) return "get_attr " + n.target + " is not a tensor";
            m_tensorOf[static_cast<size_t>(index)] = constantTensorNode(m_b, n.callable.asTensor());
            return {};
        case NodeOp::Output:
            return output(n);
        default:
            return call(index, n);
        }
    }

    std::string placeholder(int32_t index, const graph::Node& n) {
        int32_t position = m_graph.inputCount++;
        if (n.meta.kind == graph::ValueMeta::Kind::SymInt && !n.meta.sizes.empty()) {
            m_symOf[static_cast<size_t>(index)] = symbol(
                n.meta.sizes[0].symbol.empty() ? n.name : n.meta.sizes[0].symbol, position, -1);
            return {};
        }
        if (n.meta.kind != graph::ValueMeta::Kind::Tensor)
            return "graph input " + n.name + " is not a tensor or a SymInt";
        std::vector<Index> sizes;
        for (size_t d = 0; d < n.meta.sizes.size(); ++d) {
            const graph::Dim& dim = n.meta.sizes[d];
            sizes.push_back(dim.isSymbolic() ? symbol(dim.symbol, position, static_cast<int32_t>(d))
                                             : constant(dim.value));
        }
        m_tensorOf[static_cast<size_t>(index)] = m_b.placeholder(position, sizes, n.meta.dtype);
        m_graph.nodes.back().requiresGrad = n.meta.requiresGrad;
        m_graph.nodes.back().ints = inputStrides(n.meta, sizes);
        bool dynamic =
            std::any_of(sizes.begin(), sizes.end(), [](const Index& s) { return !isConstant(s); });
        if (dynamic && !equalLists(m_graph.nodes.back().ints, contiguousStrides(sizes))) {
            // A non-contiguous input with dynamic sizes: its strides depend on sizes the graph
            // cannot see (the tensor it was sliced from), so the kernels read them at run time.
            std::vector<Index> strides;
            for (size_t d = 0; d < sizes.size(); ++d)
                strides.push_back(symbol("stride_" + n.name + "_" + std::to_string(d), position,
                                         static_cast<int32_t>(d), true));
            m_graph.nodes.back().ints = strides;
        }
        return {};
    }

    /// The strides compiled code assumes for an input: the example's, written in terms of the
    /// symbolic sizes when the example was contiguous (so a dynamic dim keeps them valid).
    static bool equalLists(const std::vector<Index>& a, const std::vector<Index>& b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!equal(a[i], b[i])) return false;
        return true;
    }

    static std::vector<Index> inputStrides(const graph::ValueMeta& meta,
                                           const std::vector<Index>& sizes) {
        std::vector<int64_t> example = meta.strides;
        std::vector<Index> symbolic = contiguousStrides(sizes);
        int64_t expected = 1;
        bool contiguous = example.size() == sizes.size();
        for (size_t d = example.size(); contiguous && d-- > 0;) {
            if (meta.sizes[d].value != 1 && example[d] != expected) contiguous = false;
            expected *= meta.sizes[d].value;
        }
        if (contiguous || example.size() != sizes.size()) return symbolic;
        std::vector<Index> out;
        for (int64_t s : example)
            out.push_back(constant(s));
        return out;
    }

    std::string output(const graph::Node& n) {
        if (n.args.empty()) return {};
        const Arg& result = n.args[0];
        std::vector<Arg> items = result.kind == Arg::Kind::Tuple || result.kind == Arg::Kind::List
                                     ? result.items
                                     : std::vector<Arg>{result};
        for (const Arg& a : items) {
            if (a.kind != Arg::Kind::Node || m_tensorOf[static_cast<size_t>(a.node)] < 0)
                return "the graph returns a value that is not a tensor";
            m_graph.outputs.push_back(m_tensorOf[static_cast<size_t>(a.node)]);
        }
        return {};
    }

    /// A call flagged inplace (F.relu(x, inplace=True), nn.ReLU(inplace=True)) whose tensor is
    /// a graph input: the caller sees the write, which a computed copy would lose. (On an
    /// intermediate the capture layer has made later uses read the call's node instead.)
    bool writesGraphInput(const graph::Node& n) const {
        if (n.args.empty() || n.args[0].kind != graph::Arg::Kind::Node) return false;
        graph::NodeOp source = m_captured.nodes[static_cast<size_t>(n.args[0].node)].op;
        if (source != NodeOp::Placeholder && source != NodeOp::GetAttr) return false;
        auto truthy = [](const lang::Value& v) {
            return (v.isBool() || v.isInt()) && v.asInt() != 0;
        };
        for (const auto& [name, arg] : n.kwargs)
            if (name == "inplace" && arg.kind == graph::Arg::Kind::Constant && truthy(arg.constant))
                return true;
        return n.op == NodeOp::CallModule && !n.callable.isEmpty() &&
               truthy(m_interp.tryGetAttr(n.callable, lang::Symbol::intern("inplace")));
    }

    std::string call(int32_t index, const graph::Node& n) {
        // `with torch.no_grad():` inside the frame: the grad mode is already in each node's
        // requiresGrad; the switch itself computes nothing.
        if (n.target == "torch._C._set_grad_enabled") return {};
        if (writesGraphInput(n) || (mutates(n) && !functionalizes(index, n)))
            return "the graph mutates a tensor in place (" + n.name + ")";
        if (mutates(n)) return functionalized(index, n);
        if (int32_t a = m_attentionOf[static_cast<size_t>(index)]; a >= 0)
            return writtenAttention(index, m_attention[static_cast<size_t>(a)]);
        std::string op = opNameOf(m_interp, n);
        if (n.meta.kind == graph::ValueMeta::Kind::SymInt) return symbolic(index, n, op);
        if (op == "getitem" && tupleItem(index, n)) return {};
        if (n.meta.kind == graph::ValueMeta::Kind::Other)
            if (const TupleDecompositionRule* rule = findTupleDecomposition(op)) {
                OpCall c(m_interp, m_b, m_captured, n, m_tensorOf, m_symOf);
                size_t mark = m_graph.nodes.size();
                if (auto items = (*rule)(c)) {
                    m_tupleOf[static_cast<size_t>(index)] = *items;
                    bool grad = n.meta.requiresGrad || itemsRequireGrad(index);
                    for (size_t i = mark; i < m_graph.nodes.size(); ++i)
                        m_graph.nodes[i].requiresGrad = grad;
                    return {};
                }
                m_graph.nodes.resize(mark);
            }
        // A torch.Size: its items are read through getitem nodes, or it is passed whole.
        if (wholeSize(n) || sizeConstruction(n)) return {};
        if (n.meta.kind != graph::ValueMeta::Kind::Tensor)
            return "node " + n.name + " produces a " +
                   std::string(n.meta.kind == graph::ValueMeta::Kind::None ? "None"
                                                                           : "non-tensor") +
                   " value";
        if (const DecompositionRule* rule = findDecomposition(op)) {
            OpCall c(m_interp, m_b, m_captured, n, m_tensorOf, m_symOf);
            size_t mark = m_graph.nodes.size();
            if (auto result = (*rule)(c)) {
                m_tensorOf[static_cast<size_t>(index)] = *result;
                for (size_t i = mark; i < m_graph.nodes.size(); ++i)
                    m_graph.nodes[i].requiresGrad = n.meta.requiresGrad;
                return {};
            }
            m_graph.nodes.resize(mark); // the rule gave up part-way: drop what it emitted
        }
        return fallback(index, n);
    }

    std::string writtenAttention(int32_t index, const WrittenAttention& m) {
        auto t = [&](int32_t captured) { return m_tensorOf[static_cast<size_t>(captured)]; };
        if (t(m.q) < 0 || t(m.k) < 0 || t(m.v) < 0 || (m.masked >= 0 && t(m.masked) < 0))
            return "node " + m_captured.nodes[static_cast<size_t>(index)].name +
                   " reads a non-tensor value of the graph";
        m_tensorOf[static_cast<size_t>(index)] =
            m.masked >= 0 ? m_b.maskedAttention(t(m.q), t(m.k), t(m.v), t(m.masked), m.scale)
                          : m_b.attention(t(m.q), t(m.k), t(m.v), m.scale, false);
        AtenNode& fused = m_graph.nodes.back();
        fused.requiresGrad = m_captured.nodes[static_cast<size_t>(index)].meta.requiresGrad;
        for (int32_t step : m.replaced)
            fused.alsoComputes.push_back(m_captured.nodes[static_cast<size_t>(step)].name);
        return {};
    }

    /// t[i] of a tuple an earlier op decomposed into (values, indices = x.max(1)).
    /// The out-of-place op an in-place one computes: `out += x` (operator.iadd) is add,
    /// `x.mul_(2)` is mul; empty for in-place ops that are not one (setitem, copy_).
    std::string outOfPlaceName(const graph::Node& n) const {
        if (n.operatorKind == OperatorKind::InplaceBinary)
            return binaryOpName(static_cast<lang::BinaryOperator>(n.operatorCode));
        if (n.op == NodeOp::CallMethod && n.target.size() > 1 && n.target.back() == '_' &&
            n.target.front() != '_' && n.target != "copy_")
            return n.target.substr(0, n.target.size() - 1);
        return {};
    }

    static bool isViewOp(const std::string& op) {
        return op == "view" || op == "permute" || op == "expand" || op == "slice" ||
               op == "placeholder" || op == "constant_tensor";
    }

    static bool reads(const graph::Arg& a, int32_t node) {
        if (a.kind == Arg::Kind::Node && a.node == node) return true;
        for (const Arg& item : a.items)
            if (reads(item, node)) return true;
        return false;
    }

    /// Whether an in-place op can be computed out of place, as AOTAutograd's functionalization
    /// does: its target is a fresh intermediate, a graph input or a module tensor (not a view)
    /// of which no view was taken before (a view would see the write). A write into an input
    /// becomes a mutation of the graph (AtenGraph::mutations) unless autograd records the
    /// write (the result has a grad_fn): that needs AOTAutograd's handling of a mutated
    /// differentiable input, which Kiln does not build. (A leaf that requires grad is written
    /// under no_grad, as optimizers do, or eager raises and there is no graph.)
    bool functionalizes(int32_t index, const graph::Node& n) const {
        if (outOfPlaceName(n).empty() || n.args.empty() || n.args[0].kind != Arg::Kind::Node)
            return false;
        int32_t target = n.args[0].node;
        int32_t value = m_tensorOf[static_cast<size_t>(target)];
        if (value < 0) return false;
        bool input = m_b.writable(value);
        if (input && !n.meta.gradFn.empty()) return false;
        if (!input && isViewOp(m_graph.nodes[static_cast<size_t>(value)].op)) return false;
        for (int32_t u = target + 1; u < index; ++u) {
            const graph::Node& user = m_captured.nodes[static_cast<size_t>(u)];
            bool readsTarget = false;
            for (const Arg& a : user.args)
                readsTarget = readsTarget || reads(a, target);
            for (const auto& kv : user.kwargs)
                readsTarget = readsTarget || reads(kv.second, target);
            if (!readsTarget || user.meta.kind == graph::ValueMeta::Kind::SymInt) continue;
            int32_t read = m_tensorOf[static_cast<size_t>(u)];
            if (read < 0 || isViewOp(m_graph.nodes[static_cast<size_t>(read)].op)) return false;
        }
        return true;
    }

    /// The in-place op decomposed as its out-of-place one, in the target's dtype (an in-place
    /// op keeps it: a float32 += a float64 stays float32).
    std::string functionalized(int32_t index, const graph::Node& n) {
        const DecompositionRule* rule = findDecomposition(outOfPlaceName(n));
        if (!rule) return "the graph mutates a tensor in place (" + n.name + ")";
        OpCall c(m_interp, m_b, m_captured, n, m_tensorOf, m_symOf);
        size_t mark = m_graph.nodes.size();
        auto result = (*rule)(c);
        if (!result) {
            m_graph.nodes.resize(mark);
            return "the graph mutates a tensor in place (" + n.name + ")";
        }
        // The graph reads the target after the write through its own node (FX records
        // `out += x` as `out += x; iadd = out` and reads `out` on): both now name the result.
        int32_t& target = m_tensorOf[static_cast<size_t>(n.args[0].node)];
        int32_t written = m_b.toDtype(*result, m_b.dtype(target));
        if (m_b.writable(target)) written = *m_b.writeInto(target, written); // an input's
        target = written;
        m_tensorOf[static_cast<size_t>(index)] = written;
        for (size_t i = mark; i < m_graph.nodes.size(); ++i)
            m_graph.nodes[i].requiresGrad = n.meta.requiresGrad;
        return {};
    }

    /// Whether a called module has a parameter that requires grad (pooling has none).
    bool hasTrainableParameters(const graph::Node& n) {
        if (n.callable.isEmpty()) return true;
        lang::Value parameters =
            m_interp.tryGetAttr(n.callable, lang::Symbol::intern("parameters"));
        if (parameters.isEmpty()) return true;
        for (const lang::Value& p : m_interp.toVector(m_interp.call(parameters, {})))
            if (p.isTensor() && p.asTensor().requiresGrad()) return true;
        return false;
    }

    /// A tuple's own meta says nothing of grad; its items' (the getitem nodes reading it) do.
    bool itemsRequireGrad(int32_t tuple) const {
        for (const graph::Node& user : m_captured.nodes)
            if (!user.args.empty() && user.args[0].kind == Arg::Kind::Node &&
                user.args[0].node == tuple && user.meta.requiresGrad)
                return true;
        return false;
    }

    bool tupleItem(int32_t index, const graph::Node& n) {
        if (n.args.size() != 2 || n.args[0].kind != Arg::Kind::Node) return false;
        const auto& items = m_tupleOf[static_cast<size_t>(n.args[0].node)];
        const Arg& key = n.args[1];
        if (!items || key.kind != Arg::Kind::Constant || !key.constant.isIntLike()) return false;
        int64_t i = key.constant.asInt();
        if (i < 0) i += static_cast<int64_t>(items->size());
        if (i < 0 || i >= static_cast<int64_t>(items->size())) return false;
        m_tensorOf[static_cast<size_t>(index)] = (*items)[static_cast<size_t>(i)];
        return true;
    }

    std::string fallback(int32_t index, const graph::Node& n) {
        std::vector<int32_t> inputs;
        std::string problem;
        auto scan = [&](const Arg& a, auto& self) -> void {
            if (a.kind == Arg::Kind::Node) {
                int32_t t = m_tensorOf[static_cast<size_t>(a.node)];
                if (t < 0) problem = "node " + n.name + " reads a non-tensor value of the graph";
                inputs.push_back(t);
            }
            for (const Arg& item : a.items)
                self(item, self);
        };
        for (const Arg& a : n.args)
            scan(a, scan);
        for (const auto& kv : n.kwargs)
            scan(kv.second, scan);
        if (!problem.empty()) return problem;
        // Captured graphs record a derived shape by its example sizes: with symbols about, the
        // result of an op left to the eager kernels has no size the kernels could rely on.
        bool dynamic = std::any_of(m_graph.symbolSources.begin(), m_graph.symbolSources.end(),
                                   [](const AtenGraph::SymbolSource& s) { return !s.seed; });
        if (dynamic)
            return "node " + n.name + " has no decomposition and the graph has dynamic sizes";
        std::vector<Index> sizes;
        for (const graph::Dim& d : n.meta.sizes) {
            if (d.isSymbolic()) return "fallback " + n.name + " has a symbolic result size";
            sizes.push_back(constant(d.value));
        }
        m_tensorOf[static_cast<size_t>(index)] =
            m_b.fallback(index, std::move(inputs), std::move(sizes), n.meta.dtype);
        m_graph.nodes.back().requiresGrad = n.meta.requiresGrad;
        m_graph.nodes.back().callsModule = n.op == NodeOp::CallModule && hasTrainableParameters(n);
        m_graph.nodes.back().drawsRandom = attentionDropout(n);
        return {};
    }

    /// scaled_dot_product_attention with a dropout_p that is not a constant 0: the eager
    /// kernel draws a dropout mask, which a second run (its backward) would not draw again.
    bool attentionDropout(const graph::Node& n) const {
        if (opNameOf(m_interp, n) != "scaled_dot_product_attention") return false;
        const Arg* p = n.args.size() > 4 ? &n.args[4] : nullptr;
        for (const auto& [name, arg] : n.kwargs)
            if (name == "dropout_p") p = &arg;
        if (!p) return false;
        return !(p->kind == Arg::Kind::Constant && p->constant.isNumber() &&
                 p->constant.toDouble() == 0.0);
    }

    std::string symbolic(int32_t index, const graph::Node& n, const std::string& op) {
        auto symArg = [&](size_t i) -> std::optional<Index> {
            if (i >= n.args.size()) return std::nullopt;
            const Arg& a = n.args[i];
            if (a.kind == Arg::Kind::Constant && a.constant.isIntLike())
                return constant(a.constant.asInt());
            if (a.kind == Arg::Kind::Node) return m_symOf[static_cast<size_t>(a.node)];
            return std::nullopt;
        };
        // x.size(d), or x.size()[d] (Dynamo's getitem of a torch.Size node).
        auto sizeOf = [&](const Arg& tensor, const Arg& d) -> std::optional<Index> {
            if (tensor.kind != Arg::Kind::Node) return std::nullopt;
            int32_t t = m_tensorOf[static_cast<size_t>(tensor.node)];
            auto dim = d.kind == Arg::Kind::Constant && d.constant.isIntLike() && t >= 0
                           ? normaliseDim(d.constant.asInt(), m_b.rank(t))
                           : std::nullopt;
            if (!dim) return std::nullopt;
            return m_b.sizes(t)[static_cast<size_t>(*dim)];
        };
        std::optional<Index> result;
        if (op == "size" && n.args.size() == 2) {
            result = sizeOf(n.args[0], n.args[1]);
        } else if (op == "getitem" && n.args.size() == 2 && n.args[0].kind == Arg::Kind::Node) {
            const graph::Node& whole = m_captured.nodes[static_cast<size_t>(n.args[0].node)];
            if (wholeSize(whole)) result = sizeOf(whole.args[0], n.args[1]);
        } else if (auto a = symArg(0), b = symArg(1); a && b) {
            if (op == "add") result = *a + *b;
            if (op == "sub") result = *a + constant(-1) * *b;
            if (op == "mul") result = *a * *b;
            if (op == "floordiv") result = floorDiv(*a, *b);
            if (op == "mod") result = modulo(*a, *b);
        }
        if (!result) return "cannot follow the symbolic value " + n.name + " (" + op + ")";
        m_symOf[static_cast<size_t>(index)] = *result;
        return {};
    }

    lang::Interpreter& m_interp;
    const graph::Graph& m_captured;
    AtenGraph m_graph;
    AtenBuilder m_b;
    std::vector<int32_t> m_tensorOf;
    std::vector<std::optional<Index>> m_symOf;
    std::vector<std::optional<std::vector<int32_t>>> m_tupleOf; ///< items of tuple-valued ops
    /// Written-out attention (match_attention.h): per captured node, the match it ends
    /// (its index in m_attention), kReplaced for the steps it stands for, else -1.
    static constexpr int32_t kReplaced = -2;
    std::vector<WrittenAttention> m_attention;
    std::vector<int32_t> m_attentionOf;
};

} // namespace

std::string capturedOpName(lang::Interpreter& interp, const graph::Node& n) {
    return opNameOf(interp, n);
}

DecomposeResult decomposeGraph(lang::Interpreter& interp, const graph::Graph& captured,
                               const DecomposeOptions& options) {
    return Decomposer(interp, captured, options).run();
}

} // namespace kiln::compiler
