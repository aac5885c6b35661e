// SPDX-License-Identifier: MIT
#include "graph/codegen.h"

#include "lang/ast.h"
#include "lang/objects.h"

#include <set>

namespace kiln::graph {

std::string argText(const Graph& graph, const Arg& a, const ConstantPrinter& printConstant) {
    switch (a.kind) {
    case Arg::Kind::Node:
        return graph.nodes[static_cast<size_t>(a.node)].name;
    case Arg::Kind::Constant:
        return printConstant(a.constant);
    case Arg::Kind::Slice:
        return "slice(" + argText(graph, a.items.at(0), printConstant) + ", " +
               argText(graph, a.items.at(1), printConstant) + ", " +
               argText(graph, a.items.at(2), printConstant) + ")";
    case Arg::Kind::Tuple:
    case Arg::Kind::List: {
        bool tuple = a.kind == Arg::Kind::Tuple;
        std::string out = tuple ? "(" : "[";
        for (size_t i = 0; i < a.items.size(); ++i)
            out += (i ? ", " : "") + argText(graph, a.items[i], printConstant);
        if (tuple && a.items.size() == 1) out += ",";
        return out + (tuple ? ")" : "]");
    }
    }
    return "?";
}

namespace {

struct Printer {
    const Graph& graph;
    const ConstantPrinter& printConstant;

    std::string arg(const Arg& a) const { return argText(graph, a, printConstant); }

    std::string argList(const Node& n, size_t skip) const {
        std::string out;
        for (size_t i = skip; i < n.args.size(); ++i)
            out += (out.empty() ? "" : ", ") + arg(n.args[i]);
        for (const auto& [key, value] : n.kwargs)
            out += (out.empty() ? "" : ", ") + key + " = " + arg(value);
        return out;
    }

    std::string operatorExpression(const Node& n) const {
        auto a = [&](size_t i) { return i < n.args.size() ? arg(n.args[i]) : std::string("?"); };
        switch (n.operatorKind) {
        case OperatorKind::Binary:
        case OperatorKind::InplaceBinary: {
            auto op = static_cast<lang::BinaryOperator>(n.operatorCode);
            std::string symbol =
                op == lang::BinaryOperator::Pow ? "**" : lang::binaryOperatorSymbol(op);
            if (n.operatorKind == OperatorKind::InplaceBinary) symbol += "=";
            return a(0) + " " + symbol + " " + a(1);
        }
        case OperatorKind::Compare:
            return a(0) + " " +
                   lang::compareOperatorSymbol(static_cast<lang::CompareOperator>(n.operatorCode)) +
                   " " + a(1);
        case OperatorKind::Unary: {
            auto op = static_cast<lang::UnaryOperator>(n.operatorCode);
            return std::string(op == lang::UnaryOperator::Neg   ? "-"
                               : op == lang::UnaryOperator::Pos ? "+"
                                                                : "~") +
                   a(0);
        }
        case OperatorKind::GetItem:
            return a(0) + "[" + a(1) + "]";
        case OperatorKind::SetItem:
            return a(0) + "[" + a(1) + "] = " + a(2);
        case OperatorKind::None:
            break;
        }
        return n.target + "(" + argList(n, 0) + ")";
    }

    /// getattr(x, 'T') with a constant name: fx prints it as x.T.
    static bool isAttributeRead(const Node& n) {
        return n.target == "getattr" && n.args.size() == 2 &&
               n.args[1].kind == Arg::Kind::Constant &&
               n.args[1].constant.is(lang::ObjectKind::Str);
    }

    std::string expression(const Node& n) const {
        switch (n.op) {
        case NodeOp::GetAttr:
            return "self." + n.target;
        case NodeOp::CallFunction:
            if (isAttributeRead(n))
                return arg(n.args[0]) + "." + n.args[1].constant.as<lang::StrObject>()->str();
            return n.operatorKind == OperatorKind::None ? n.target + "(" + argList(n, 0) + ")"
                                                        : operatorExpression(n);
        case NodeOp::CallMethod:
            return arg(n.args.at(0)) + "." + n.target + "(" + argList(n, 1) + ")";
        case NodeOp::CallModule:
            return "self." + n.target + "(" + argList(n, 0) + ")";
        default:
            return "";
        }
    }

    /// For each node, the names whose last use it is (fx frees them after that line).
    std::vector<std::vector<std::string>> lastUses() const {
        std::vector<std::vector<std::string>> out(graph.nodes.size());
        std::set<int32_t> seen;
        for (size_t i = graph.nodes.size(); i-- > 0;) {
            const Node& n = graph.nodes[i];
            std::function<void(const Arg&)> visit = [&](const Arg& a) {
                if (a.kind == Arg::Kind::Node && seen.insert(a.node).second &&
                    n.op != NodeOp::Output)
                    out[i].push_back(graph.nodes[static_cast<size_t>(a.node)].name);
                for (const Arg& item : a.items)
                    visit(item);
            };
            for (const Arg& a : n.args)
                visit(a);
            for (const auto& kw : n.kwargs)
                visit(kw.second);
        }
        return out;
    }

    std::string body(bool annotated, const std::string& indent) const {
        std::string out;
        auto freed = lastUses();
        std::string lastComment;
        for (size_t i = 0; i < graph.nodes.size(); ++i) {
            const Node& n = graph.nodes[i];
            if (n.op == NodeOp::Placeholder) {
                // fx prints no rebinding where the name is the input's own (a size symbol, s0).
                if (n.name != n.target) out += indent + n.name + " = " + n.target + "\n";
                continue;
            }
            if (n.op == NodeOp::Output) {
                out += indent + "return " + (n.args.empty() ? "None" : arg(n.args[0])) + "\n";
                continue;
            }
            if (annotated && !n.sourceFile.empty()) {
                std::string comment = "# File: " + n.sourceFile + ":" +
                                      std::to_string(n.span.begin.line) + ", code: " + n.sourceCode;
                if (comment != lastComment) {
                    out += "\n" + indent + comment + "\n";
                    lastComment = comment;
                }
            }
            std::string lhs = n.name;
            if (annotated && !n.meta.shortType().empty()) lhs += ": \"" + n.meta.shortType() + "\"";
            if (n.op == NodeOp::CallFunction && n.operatorKind == OperatorKind::InplaceBinary)
                // fx spells an in-place operator as the statement, then binds its result.
                out += indent + operatorExpression(n) + ";  " + lhs + " = " + arg(n.args.at(0));
            else
                out += indent + lhs + " = " + expression(n);
            if (!freed[i].empty()) {
                out += ";  ";
                for (const std::string& name : freed[i])
                    out += name + " = ";
                out += "None";
            }
            out += "\n";
        }
        return out;
    }

    std::string signature(bool annotated) const {
        std::string out = "def forward(self";
        for (const Node& n : graph.nodes) {
            if (n.op != NodeOp::Placeholder) continue;
            std::string type = n.meta.kind == ValueMeta::Kind::Tensor   ? "torch.Tensor"
                               : n.meta.kind == ValueMeta::Kind::SymInt ? "torch.SymInt"
                                                                        : "";
            if (annotated && n.meta.kind == ValueMeta::Kind::Tensor)
                type = "\"" + n.meta.shortType() + "\"";
            out += ", " + n.target + (type.empty() ? "" : " : " + type);
        }
        return out + "):\n";
    }
};

} // namespace

std::string pythonCode(const Graph& graph, const ConstantPrinter& printConstant) {
    Printer p{graph, printConstant};
    return "\n\n\n" + p.signature(false) + p.body(false, "    ") + "    \n";
}

std::string readableCode(const Graph& graph, const ConstantPrinter& printConstant) {
    Printer p{graph, printConstant};
    return "class GraphModule(torch.nn.Module):\n    " + p.signature(true) +
           p.body(true, "        ") + "        \n";
}

} // namespace kiln::graph
