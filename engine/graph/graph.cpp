// SPDX-License-Identifier: MIT
#include "graph/graph.h"

#include <algorithm>
#include <set>

namespace kiln::graph {

const char* nodeOpName(NodeOp op) {
    switch (op) {
    case NodeOp::Placeholder:
        return "placeholder";
    case NodeOp::GetAttr:
        return "get_attr";
    case NodeOp::CallFunction:
        return "call_function";
    case NodeOp::CallMethod:
        return "call_method";
    case NodeOp::CallModule:
        return "call_module";
    case NodeOp::Output:
        return "output";
    }
    return "call_function";
}

const char* shortDtype(tensor::DType d) {
    switch (d) {
    case tensor::DType::Bool:
        return "b8";
    case tensor::DType::UInt8:
        return "u8";
    case tensor::DType::Int8:
        return "i8";
    case tensor::DType::Int16:
        return "i16";
    case tensor::DType::Int32:
        return "i32";
    case tensor::DType::Int64:
        return "i64";
    case tensor::DType::Float16:
        return "f16";
    case tensor::DType::BFloat16:
        return "bf16";
    case tensor::DType::Float32:
        return "f32";
    case tensor::DType::Float64:
        return "f64";
    }
    return "f32";
}

std::string ValueMeta::shapeString() const {
    std::string out = "[";
    for (size_t i = 0; i < sizes.size(); ++i)
        out += (i ? ", " : "") + sizes[i].str();
    return out + "]";
}

std::string ValueMeta::shortType() const {
    if (kind == Kind::SymInt)
        return "Sym(" + (sizes.empty() ? std::string("s") : sizes[0].str()) + ")";
    if (kind != Kind::Tensor) return "";
    return std::string(shortDtype(dtype)) + shapeString();
}

Arg Arg::ofNode(int32_t index) {
    Arg a;
    a.kind = Kind::Node;
    a.node = index;
    return a;
}

Arg Arg::ofConstant(lang::Value v) {
    Arg a;
    a.kind = Kind::Constant;
    a.constant = std::move(v);
    return a;
}

Arg Arg::ofSequence(Kind kind, std::vector<Arg> items) {
    Arg a;
    a.kind = kind;
    a.items = std::move(items);
    return a;
}

int32_t Graph::add(Node node) {
    nodes.push_back(std::move(node));
    return static_cast<int32_t>(nodes.size() - 1);
}

namespace {

/// Names a generated forward() cannot bind without shadowing: Python's keywords and builtins,
/// and the globals fx's code refers to. fx renames such nodes (sum -> sum_1).
bool illegalName(const std::string& name) {
    static const std::set<std::string> names = {
        "False",      "None",    "True",     "and",       "as",           "assert",   "async",
        "await",      "break",   "class",    "continue",  "def",          "del",      "elif",
        "else",       "except",  "finally",  "for",       "from",         "global",   "if",
        "import",     "in",      "is",       "lambda",    "nonlocal",     "not",      "or",
        "pass",       "raise",   "return",   "try",       "while",        "with",     "yield",
        "abs",        "all",     "any",      "ascii",     "bin",          "bool",     "breakpoint",
        "bytearray",  "bytes",   "callable", "chr",       "classmethod",  "compile",  "complex",
        "delattr",    "dict",    "dir",      "divmod",    "enumerate",    "eval",     "exec",
        "filter",     "float",   "format",   "frozenset", "getattr",      "globals",  "hasattr",
        "hash",       "help",    "hex",      "id",        "input",        "int",      "isinstance",
        "issubclass", "iter",    "len",      "list",      "locals",       "map",      "max",
        "memoryview", "min",     "next",     "object",    "oct",          "open",     "ord",
        "pow",        "print",   "property", "range",     "repr",         "reversed", "round",
        "set",        "setattr", "slice",    "sorted",    "staticmethod", "str",      "sum",
        "super",      "tuple",   "type",     "vars",      "zip",          "inf",      "nan",
        "NoneType",   "torch",   "device",   "fx_pytree", "pytree"};
    return names.count(name) > 0;
}

} // namespace

std::string Graph::uniqueName(const std::string& candidate) {
    // torch.fx appends _1, _2, ... to repeated names (add, add_1) and to names that would
    // shadow a builtin (sum_1); a trailing _N is a count to go on from.
    std::string base = candidate;
    int64_t n = 0;
    bool numbered = false;
    const size_t underscore = candidate.rfind('_');
    if (underscore != std::string::npos && underscore > 0 && underscore + 1 < candidate.size() &&
        candidate.size() - underscore <= 10 &&
        std::all_of(candidate.begin() + static_cast<std::ptrdiff_t>(underscore) + 1,
                    candidate.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        base = candidate.substr(0, underscore);
        n = std::stoll(candidate.substr(underscore + 1));
        numbered = true;
    }
    auto taken = [&](const std::string& name) {
        return illegalName(name) ||
               std::find(m_usedNames.begin(), m_usedNames.end(), name) != m_usedNames.end();
    };
    std::string name = numbered ? base + "_" + std::to_string(n) : base;
    while (taken(name))
        name = base + "_" + std::to_string(++n);
    m_usedNames.push_back(name);
    return name;
}

void Graph::renameNode(int32_t index, const std::string& candidate) {
    Node& node = nodes.at(static_cast<size_t>(index));
    if (node.name == candidate) return;
    m_renames.push_back({index, node.name});
    node.name = uniqueName(candidate);
}

void Graph::undoRenames(size_t mark) {
    while (m_renames.size() > mark) {
        const Rename& r = m_renames.back();
        if (static_cast<size_t>(r.node) < nodes.size()) {
            std::string& name = nodes[static_cast<size_t>(r.node)].name;
            std::erase(m_usedNames, name);
            name = r.oldName;
        }
        m_renames.pop_back();
    }
}

void Graph::truncate(size_t size) {
    if (size >= nodes.size()) return;
    for (size_t i = size; i < nodes.size(); ++i)
        std::erase(m_usedNames, nodes[i].name);
    // A dropped node's earlier names are free again too.
    std::erase_if(m_renames, [&](const Rename& r) {
        if (static_cast<size_t>(r.node) < size) return false;
        std::erase(m_usedNames, r.oldName);
        return true;
    });
    nodes.resize(size);
}

namespace {

void remapArg(Arg& a, const std::vector<int32_t>& newIndex) {
    if (a.kind == Arg::Kind::Node) a.node = newIndex[static_cast<size_t>(a.node)];
    for (Arg& item : a.items)
        remapArg(item, newIndex);
}

/// The nodes at `order` (indices into `nodes`), in that order, with the nodes they read
/// renumbered; a node left out is read by none of those kept.
std::vector<Node> takeInOrder(std::vector<Node>& nodes, const std::vector<size_t>& order) {
    std::vector<int32_t> newIndex(nodes.size(), -1);
    for (size_t k = 0; k < order.size(); ++k)
        newIndex[order[k]] = static_cast<int32_t>(k);
    std::vector<Node> taken;
    taken.reserve(order.size());
    for (size_t k : order)
        taken.push_back(std::move(nodes[k]));
    for (Node& n : taken) {
        for (Arg& a : n.args)
            remapArg(a, newIndex);
        for (auto& kw : n.kwargs)
            remapArg(kw.second, newIndex);
    }
    return taken;
}

} // namespace

void Graph::hoistPlaceholders(std::span<const int32_t> inputOrder) {
    m_renames.clear(); // the trace is over: nothing will be taken back, and indices move
    std::vector<size_t> order;
    std::vector<bool> placed(nodes.size(), false);
    for (int32_t i : inputOrder)
        if (i >= 0 && static_cast<size_t>(i) < nodes.size() && !placed[static_cast<size_t>(i)]) {
            order.push_back(static_cast<size_t>(i));
            placed[static_cast<size_t>(i)] = true;
        }
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].op == NodeOp::Placeholder && !placed[i]) order.push_back(i);
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].op != NodeOp::Placeholder) order.push_back(i);
    nodes = takeInOrder(nodes, order);
}

size_t Graph::outputCount() const {
    const Node* out = outputNode();
    if (!out || out->args.empty()) return 0;
    const Arg& result = out->args[0];
    return result.kind == Arg::Kind::Tuple || result.kind == Arg::Kind::List ? result.items.size()
                                                                             : 1;
}

const Node* Graph::outputNode() const {
    for (const Node& n : nodes)
        if (n.op == NodeOp::Output) return &n;
    return nullptr;
}

int32_t Graph::callCount() const {
    return static_cast<int32_t>(std::count_if(nodes.begin(), nodes.end(), [](const Node& n) {
        return n.op == NodeOp::CallFunction || n.op == NodeOp::CallMethod ||
               n.op == NodeOp::CallModule;
    }));
}

int32_t Graph::functionCallCount() const {
    return static_cast<int32_t>(std::count_if(
        nodes.begin(), nodes.end(), [](const Node& n) { return n.op == NodeOp::CallFunction; }));
}

std::vector<int32_t> Graph::placeholders() const {
    std::vector<int32_t> out;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].op == NodeOp::Placeholder) out.push_back(static_cast<int32_t>(i));
    return out;
}

namespace {

bool argUses(const Arg& a, int32_t index) {
    if (a.kind == Arg::Kind::Node) return a.node == index;
    return std::any_of(a.items.begin(), a.items.end(),
                       [&](const Arg& item) { return argUses(item, index); });
}

} // namespace

void Graph::removeUnreadGetItems() {
    m_renames.clear();
    std::vector<int32_t> readers(nodes.size(), 0);
    auto count = [&](const Arg& a, int32_t delta, auto& self) -> void {
        if (a.kind == Arg::Kind::Node) readers[static_cast<size_t>(a.node)] += delta;
        for (const Arg& item : a.items)
            self(item, delta, self);
    };
    auto countAll = [&](const Node& n, int32_t delta) {
        for (const Arg& a : n.args)
            count(a, delta, count);
        for (const auto& kw : n.kwargs)
            count(kw.second, delta, count);
    };
    for (const Node& n : nodes)
        countAll(n, 1);
    std::vector<bool> removed(nodes.size(), false);
    for (size_t i = nodes.size(); i-- > 0;) {
        const Node& n = nodes[i];
        if (readers[i] != 0 || n.op != NodeOp::CallFunction ||
            n.operatorKind != OperatorKind::GetItem)
            continue;
        removed[i] = true;
        countAll(n, -1);
    }
    std::vector<size_t> kept;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (!removed[i]) kept.push_back(i);
    nodes = takeInOrder(nodes, kept);
}

std::vector<int32_t> Graph::users(int32_t index) const {
    std::vector<int32_t> out;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const Node& n = nodes[i];
        bool uses = std::any_of(n.args.begin(), n.args.end(),
                                [&](const Arg& a) { return argUses(a, index); }) ||
                    std::any_of(n.kwargs.begin(), n.kwargs.end(),
                                [&](const auto& kw) { return argUses(kw.second, index); });
        if (uses) out.push_back(static_cast<int32_t>(i));
    }
    return out;
}

} // namespace kiln::graph
