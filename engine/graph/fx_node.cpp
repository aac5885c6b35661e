// SPDX-License-Identifier: MIT
// torch.fx.Node over a captured graph node: op, name, target, args, kwargs, meta, users,
// all_input_nodes, type, stack_trace, graph, format_node(); repr is the node's name.
#include "graph/fx_objects.h"
#include "graph/graph_module.h"
#include "lang/signature.h"

#include <algorithm>

namespace kiln::graph::fx {

using namespace kiln::lang;

NodeObject::NodeObject(GraphStatePtr state, int32_t index)
    : NativeObject(nodeType())
    , state(std::move(state))
    , index(index) {}

NodeObject::~NodeObject() {
    NodeObject*& slot = state->nodes[static_cast<size_t>(index)];
    if (slot == this) slot = nullptr;
}

Ref<NodeObject> nodeObject(const GraphStatePtr& state, int32_t index) {
    NodeObject*& slot = state->nodes[static_cast<size_t>(index)];
    if (!slot) slot = new NodeObject(state, index);
    return Ref<NodeObject>(slot);
}

NodeObject* asNode(const Value& v) {
    if (!v.is(ObjectKind::Native) || v.asObject()->type() != nodeType()) return nullptr;
    return v.as<NodeObject>();
}

Value argValue(const GraphStatePtr& state, const Arg& arg) {
    switch (arg.kind) {
    case Arg::Kind::Node:
        return Value(nodeObject(state, arg.node));
    case Arg::Kind::Constant:
        return arg.constant.isEmpty() ? Value::none() : arg.constant;
    case Arg::Kind::Slice:
        return Value(makeRef<lang::SliceObject>(argValue(state, arg.items.at(0)),
                                                argValue(state, arg.items.at(1)),
                                                argValue(state, arg.items.at(2))));
    case Arg::Kind::Tuple:
    case Arg::Kind::List: {
        std::vector<Value> items;
        for (const Arg& item : arg.items)
            items.push_back(argValue(state, item));
        return arg.kind == Arg::Kind::Tuple ? tupleValue(std::move(items))
                                            : listValue(std::move(items));
    }
    }
    return Value::none();
}

Value nodeTarget(Interpreter& interp, const NodeObject& self) {
    const Node& n = self.node();
    if (n.op == NodeOp::Output && n.target.empty()) return strValue("output");
    if (n.op != NodeOp::CallFunction) return strValue(n.target);
    Value function =
        n.operatorKind != OperatorKind::None ? operatorFunction(interp, n) : n.callable;
    return function.isEmpty() ? strValue(n.target) : function;
}

namespace {

NodeObject& self(Interpreter& interp, const CallArgs& args) {
    NodeObject* node = args.positional.empty() ? nullptr : asNode(args.positional[0]);
    if (!node) interp.raiseTypeError("descriptor requires a 'torch.fx.node.Node' object");
    return *node;
}

Value nodeOp(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(nodeOpName(self(interp, args).node().op));
}

Value nodeName(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(self(interp, args).node().name);
}

Value nodeTargetGetter(Interpreter& interp, const CallArgs& args, void*) {
    return nodeTarget(interp, self(interp, args));
}

Value nodeArgs(Interpreter& interp, const CallArgs& args, void*) {
    NodeObject& n = self(interp, args);
    if (n.args.isEmpty()) {
        std::vector<Value> items;
        for (const Arg& a : n.node().args)
            items.push_back(argValue(n.state, a));
        n.args = tupleValue(std::move(items));
    }
    return n.args;
}

Value nodeKwargs(Interpreter& interp, const CallArgs& args, void*) {
    NodeObject& n = self(interp, args);
    if (n.kwargs.isEmpty()) {
        auto dict = makeRef<DictObject>();
        for (const auto& [key, value] : n.node().kwargs)
            dict->set(interp, strValue(key), argValue(n.state, value));
        n.kwargs = Value(dict);
    }
    return n.kwargs;
}

Value nodeMetaGetter(Interpreter& interp, const CallArgs& args, void*) {
    NodeObject& n = self(interp, args);
    if (n.meta.isEmpty()) n.meta = nodeMeta(interp, n);
    return n.meta;
}

/// fx keeps users as a dict (an ordered set) of Node -> None.
Value nodeUsers(Interpreter& interp, const CallArgs& args, void*) {
    NodeObject& n = self(interp, args);
    auto dict = makeRef<DictObject>();
    for (int32_t user : n.state->users[static_cast<size_t>(n.index)])
        dict->set(interp, Value(nodeObject(n.state, user)), Value::none());
    return Value(dict);
}

void collectInputs(const Arg& a, std::vector<int32_t>& out) {
    if (a.kind == Arg::Kind::Node && std::find(out.begin(), out.end(), a.node) == out.end())
        out.push_back(a.node);
    for (const Arg& item : a.items)
        collectInputs(item, out);
}

/// The distinct nodes among args then kwargs, in order of appearance (fx's map_arg walk).
Value nodeAllInputNodes(Interpreter& interp, const CallArgs& args, void*) {
    NodeObject& n = self(interp, args);
    std::vector<int32_t> inputs;
    for (const Arg& a : n.node().args)
        collectInputs(a, inputs);
    for (const auto& kw : n.node().kwargs)
        collectInputs(kw.second, inputs);
    std::vector<Value> items;
    for (int32_t i : inputs)
        items.push_back(Value(nodeObject(n.state, i)));
    return listValue(std::move(items));
}

/// Dynamo annotates placeholders with the Python type of their example value.
Value nodeTypeGetter(Interpreter& interp, const CallArgs& args, void*) {
    const Node& n = self(interp, args).node();
    if (n.op == NodeOp::Placeholder && n.meta.kind == ValueMeta::Kind::Tensor)
        return Value(builtinTypes().tensor);
    return Value::none();
}

/// fx reads it from meta, so a backend that edits meta['stack_trace'] sees its edit.
Value nodeStackTrace(Interpreter& interp, const CallArgs& args, void*) {
    Value meta = nodeMetaGetter(interp, args, nullptr);
    Value* trace = meta.as<DictObject>()->find(interp, strValue("stack_trace"));
    return trace ? *trace : Value::none();
}

Value nodeGraph(Interpreter& interp, const CallArgs& args, void*) {
    return Value(graphObject(self(interp, args).state));
}

Value nodeRepr(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(self(interp, args).node().name);
}

Value nodeFormat(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("format_node(self, placeholder_names=None, "
                               "maybe_return_typename=None)");
    sig.bind(interp, args);
    return strValue(formatNode(interp, self(interp, args)));
}

Ref<TypeObject> createNodeType() {
    Ref<TypeObject> t = makeType("Node", "torch.fx.node");
    addProperty(*t, "op", nodeOp);
    addProperty(*t, "name", nodeName);
    addProperty(*t, "target", nodeTargetGetter);
    addProperty(*t, "args", nodeArgs);
    addProperty(*t, "kwargs", nodeKwargs);
    addProperty(*t, "meta", nodeMetaGetter);
    addProperty(*t, "users", nodeUsers);
    addProperty(*t, "all_input_nodes", nodeAllInputNodes);
    addProperty(*t, "type", nodeTypeGetter);
    addProperty(*t, "stack_trace", nodeStackTrace);
    addProperty(*t, "graph", nodeGraph);
    addMethod(*t, "__repr__", nodeRepr);
    addMethod(*t, "format_node", nodeFormat);
    return t;
}

} // namespace

TypeObject* nodeType() {
    static const Ref<TypeObject> t = createNodeType();
    return t.get();
}

} // namespace kiln::graph::fx
