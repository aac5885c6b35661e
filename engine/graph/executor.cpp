// SPDX-License-Identifier: MIT
#include "graph/executor.h"

namespace kiln::graph {

namespace {

using lang::Value;

Value materialise(const Arg& a, const std::vector<Value>& env) {
    switch (a.kind) {
    case Arg::Kind::Node:
        return env[static_cast<size_t>(a.node)];
    case Arg::Kind::Constant:
        return a.constant;
    case Arg::Kind::Slice:
        return Value(makeRef<lang::SliceObject>(materialise(a.items.at(0), env),
                                                materialise(a.items.at(1), env),
                                                materialise(a.items.at(2), env)));
    case Arg::Kind::Tuple:
    case Arg::Kind::List: {
        std::vector<Value> items;
        items.reserve(a.items.size());
        for (const Arg& item : a.items)
            items.push_back(materialise(item, env));
        return a.kind == Arg::Kind::Tuple ? lang::tupleValue(std::move(items))
                                          : lang::listValue(std::move(items));
    }
    }
    return Value::none();
}

Value runOperator(lang::Interpreter& interp, const Node& n, const std::vector<Value>& args) {
    switch (n.operatorKind) {
    case OperatorKind::Binary:
        return interp.binaryOp(static_cast<lang::BinaryOperator>(n.operatorCode), args[0], args[1]);
    case OperatorKind::InplaceBinary:
        return interp.inplaceOp(static_cast<lang::BinaryOperator>(n.operatorCode), args[0],
                                args[1]);
    case OperatorKind::Unary:
        return interp.unaryOp(static_cast<lang::UnaryOperator>(n.operatorCode), args[0]);
    case OperatorKind::Compare:
        return interp.compare(static_cast<lang::CompareOperator>(n.operatorCode), args[0], args[1]);
    case OperatorKind::GetItem:
        return interp.getItem(args[0], args[1]);
    case OperatorKind::SetItem:
        interp.setItem(args[0], args[1], args[2]);
        return Value::none();
    case OperatorKind::None:
        break;
    }
    return Value::none();
}

} // namespace

Value runNode(lang::Interpreter& interp, const Node& n, const std::vector<Value>& env) {
    std::vector<Value> args;
    args.reserve(n.args.size());
    for (const Arg& a : n.args)
        args.push_back(materialise(a, env));
    std::vector<lang::Symbol> names;
    std::vector<Value> values;
    for (const auto& [key, value] : n.kwargs) {
        names.push_back(lang::Symbol::intern(key));
        values.push_back(materialise(value, env));
    }
    switch (n.op) {
    case NodeOp::GetAttr:
        return n.callable;
    case NodeOp::CallFunction:
        if (n.operatorKind != OperatorKind::None) return runOperator(interp, n, args);
        return interp.call(n.callable, lang::CallArgs{args, names, values});
    case NodeOp::CallMethod: {
        const lang::Symbol name = lang::Symbol::intern(n.target);
        bool unbound = false;
        Value method = interp.lookupMethodForCall(args[0], name, unbound);
        std::span<const Value> positional(args);
        if (!unbound) positional = positional.subspan(1);
        return interp.call(method, lang::CallArgs{positional, names, values});
    }
    case NodeOp::CallModule:
        return interp.call(n.callable, lang::CallArgs{args, names, values});
    default:
        return Value::none();
    }
}

Value runGraph(lang::Interpreter& interp, const Graph& graph, const std::vector<Value>& inputs) {
    std::vector<Value> env(graph.nodes.size());
    size_t nextInput = 0;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& n = graph.nodes[i];
        if (n.op == NodeOp::Placeholder) {
            KILN_ASSERT(nextInput < inputs.size(), "graph called with too few inputs");
            env[i] = inputs[nextInput++];
        } else if (n.op == NodeOp::Output) {
            return n.args.empty() ? Value::none() : materialise(n.args[0], env);
        } else {
            env[i] = runNode(interp, n, env);
        }
    }
    return Value::none();
}

} // namespace kiln::graph
