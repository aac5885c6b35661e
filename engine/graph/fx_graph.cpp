// SPDX-License-Identifier: MIT
// torch.fx.Graph over a captured graph: .nodes, str(graph) (fx 2.3's Graph.__str__ and
// Node.format_node, character for character) and print_tabular() (fx prints it through the
// tabulate package's "simple" format, reproduced here).
#include "graph/fx_objects.h"
#include "lang/signature.h"

#include <algorithm>

namespace kiln::graph::fx {

using namespace kiln::lang;

GraphStatePtr makeGraphState(std::shared_ptr<const Graph> graph) {
    auto state = std::make_shared<GraphState>();
    state->nodes.resize(graph->nodes.size(), nullptr);
    state->users.resize(graph->nodes.size());
    for (size_t i = 0; i < graph->nodes.size(); ++i)
        state->users[i] = graph->users(static_cast<int32_t>(i));
    state->graph = std::move(graph);
    return state;
}

GraphObject::GraphObject(GraphStatePtr state)
    : NativeObject(graphType())
    , state(std::move(state)) {
    this->state->graphObject = this;
    for (size_t i = 0; i < this->state->nodes.size(); ++i)
        nodes.push_back(nodeObject(this->state, static_cast<int32_t>(i)));
}

GraphObject::~GraphObject() {
    if (state->graphObject == this) state->graphObject = nullptr;
}

Ref<GraphObject> graphObject(const GraphStatePtr& state) {
    if (state->graphObject) return Ref<GraphObject>(state->graphObject);
    return makeRef<GraphObject>(state);
}

Ref<TypeObject> makeType(const char* name, const char* moduleName) {
    auto t = makeRef<TypeObject>(name, std::vector<Ref<TypeObject>>{builtinTypes().object},
                                 ObjectKind::Native);
    t->setType(builtinTypes().type.get());
    t->moduleName = moduleName;
    t->computeMro();
    return t;
}

void addMethod(TypeObject& type, const char* name, NativeFn fn) {
    type.dict.set(Symbol::intern(name), Value(makeRef<NativeFunctionObject>(name, fn)));
}

void addProperty(TypeObject& type, const char* name, NativeFn getter) {
    Value get(makeRef<NativeFunctionObject>(name, getter));
    type.dict.set(Symbol::intern(name), Value(makeRef<PropertyObject>(get, Value())));
}

namespace {

/// fx's _format_arg: nodes as %name, other values through str(), dict keys unquoted.
std::string formatArg(Interpreter& interp, const Graph& g, const Arg& a) {
    switch (a.kind) {
    case Arg::Kind::Node:
        return "%" + g.nodes[static_cast<size_t>(a.node)].name;
    case Arg::Kind::Constant:
        return interp.str(a.constant.isEmpty() ? Value::none() : a.constant);
    case Arg::Kind::Slice:
        return "slice(" + formatArg(interp, g, a.items.at(0)) + ", " +
               formatArg(interp, g, a.items.at(1)) + ", " + formatArg(interp, g, a.items.at(2)) +
               ")";
    case Arg::Kind::Tuple:
    case Arg::Kind::List: {
        bool tuple = a.kind == Arg::Kind::Tuple;
        std::string out = tuple ? "(" : "[";
        for (size_t i = 0; i < a.items.size(); ++i)
            out += (i ? ", " : "") + formatArg(interp, g, a.items[i]);
        if (tuple && a.items.size() == 1) out += ",";
        return out + (tuple ? ")" : "]");
    }
    }
    return "";
}

std::string formatCallArgs(Interpreter& interp, const Graph& g, const Node& n) {
    Arg args = Arg::ofSequence(Arg::Kind::Tuple, n.args);
    std::string kwargs;
    for (const auto& [key, value] : n.kwargs)
        kwargs += (kwargs.empty() ? "" : ", ") + key + ": " + formatArg(interp, g, value);
    return "(args = " + formatArg(interp, g, args) + ", kwargs = {" + kwargs + "})";
}

/// How the output node prints its value: str() of a tuple of nodes, so reprs inside.
std::string reprArg(Interpreter& interp, const GraphStatePtr& state, const Arg& a) {
    return interp.str(argValue(state, a));
}

} // namespace

std::string formatNode(Interpreter& interp, const NodeObject& self) {
    const Node& n = self.node();
    const Graph& g = *self.state->graph;
    if (n.op == NodeOp::Output)
        return "return " +
               (n.args.empty() ? std::string("None") : reprArg(interp, self.state, n.args[0]));
    std::string type = n.op != NodeOp::Placeholder              ? ""
                       : n.meta.kind == ValueMeta::Kind::Tensor ? "torch.Tensor "
                       : n.meta.kind == ValueMeta::Kind::SymInt ? "torch.SymInt "
                                                                : "";
    std::string users = std::to_string(self.state->users[static_cast<size_t>(self.index)].size());
    std::string out = "%" + n.name + " : " + type + "[num_users=" + users +
                      "] = " + nodeOpName(n.op) + "[target=" + n.target + "]";
    if (n.op != NodeOp::Placeholder && n.op != NodeOp::GetAttr) out += formatCallArgs(interp, g, n);
    return out;
}

std::string formatGraph(Interpreter& interp, const GraphObject& graph) {
    // fx passes an empty (falsy) placeholder_names list, so placeholders print as nodes and
    // the header stays `graph():`.
    std::string out = "graph():";
    for (const Ref<NodeObject>& node : graph.nodes)
        out += "\n    " + formatNode(interp, *node);
    return out;
}

std::string tabulateGraph(Interpreter& interp, const GraphObject& graph) {
    std::vector<std::vector<std::string>> rows = {{"opcode", "name", "target", "args", "kwargs"}};
    for (const Ref<NodeObject>& node : graph.nodes) {
        Value self(node);
        rows.push_back({nodeOpName(node->node().op), node->node().name,
                        interp.str(nodeTarget(interp, *node)),
                        interp.str(interp.getAttr(self, Symbol::intern("args"))),
                        interp.str(interp.getAttr(self, Symbol::intern("kwargs")))});
    }
    // tabulate: a header is at least its width plus 2, columns left-aligned and joined by two
    // spaces, dashes under the headers, trailing blanks stripped from every line.
    std::vector<size_t> widths;
    for (const std::string& header : rows[0])
        widths.push_back(header.size() + 2);
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], static_cast<size_t>(utf8Length(row[c])));
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out;
        for (size_t c = 0; c < cells.size(); ++c)
            out += (c ? "  " : "") + cells[c] +
                   std::string(widths[c] - static_cast<size_t>(utf8Length(cells[c])), ' ');
        return out.substr(0, out.find_last_not_of(' ') + 1);
    };
    std::vector<std::string> dashes;
    for (size_t w : widths)
        dashes.push_back(std::string(w, '-'));
    std::string out = line(rows[0]) + "\n" + line(dashes);
    for (size_t r = 1; r < rows.size(); ++r) {
        out += '\n';
        out += line(rows[r]);
    }
    return out;
}

namespace {

GraphObject& self(Interpreter& interp, const CallArgs& args) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Native) ||
        args.positional[0].asObject()->type() != graphType())
        interp.raiseTypeError("descriptor requires a 'torch.fx.graph.Graph' object");
    return *args.positional[0].as<GraphObject>();
}

/// A fresh list each time (fx gives a live view); the Node objects in it are the same ones.
Value graphNodes(Interpreter& interp, const CallArgs& args, void*) {
    std::vector<Value> items;
    for (const Ref<NodeObject>& node : self(interp, args).nodes)
        items.push_back(Value(node));
    return listValue(std::move(items));
}

Value graphStr(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(formatGraph(interp, self(interp, args)));
}

Value graphPrintTabular(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("print_tabular(self)");
    sig.bind(interp, args);
    interp.write(OutputStream::Stdout, tabulateGraph(interp, self(interp, args)) + "\n");
    return Value::none();
}

Ref<TypeObject> createGraphType() {
    Ref<TypeObject> t = makeType("Graph", "torch.fx.graph");
    addProperty(*t, "nodes", graphNodes);
    addMethod(*t, "__str__", graphStr);
    addMethod(*t, "print_tabular", graphPrintTabular);
    return t;
}

} // namespace

TypeObject* graphType() {
    static const Ref<TypeObject> t = createGraphType();
    return t.get();
}

} // namespace kiln::graph::fx
