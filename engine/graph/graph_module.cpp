// SPDX-License-Identifier: MIT
// torch.fx.GraphModule over a captured graph: calling it (or .forward) runs the graph with the
// reference executor; .graph, .code, .meta, print_readable(), and the str()/repr() of an
// nn.Module (its call_module targets are its children).
#include "graph/graph_module.h"

#include "graph/codegen.h"
#include "graph/executor.h"
#include "graph/fx_objects.h"
#include "lang/signature.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace kiln::graph {

using namespace kiln::lang;

namespace {

class GraphModuleObject final : public NativeObject {
public:
    GraphModuleObject(TypeObject* type, Ref<fx::GraphObject> graph)
        : NativeObject(type)
        , graph(std::move(graph)) {}

    const Graph& ir() const { return *graph->state->graph; }

    Ref<fx::GraphObject> graph;
    Value meta;                         ///< gm.meta, created on first access
    std::optional<Signature> signature; ///< forward(self, <placeholder targets>)
};

TypeObject* graphModuleType();

GraphModuleObject& self(Interpreter& interp, const CallArgs& args) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Native) ||
        args.positional[0].asObject()->type() != graphModuleType())
        interp.raiseTypeError("descriptor requires a 'GraphModule' object");
    return *args.positional[0].as<GraphModuleObject>();
}

bool isIdentifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

/// The generated forward's signature, so calls fail with the TypeErrors fx's would raise;
/// none when a placeholder name could not be a parameter.
std::optional<Signature> forwardSignature(const Graph& graph) {
    std::string spec = "forward(self";
    for (int32_t i : graph.placeholders()) {
        const std::string& name = graph.nodes[static_cast<size_t>(i)].target;
        if (!isIdentifier(name) || name == "self") return std::nullopt;
        spec += ", " + name;
    }
    return Signature(spec + ")");
}

Value forward(Interpreter& interp, const CallArgs& args, void*) {
    GraphModuleObject& gm = self(interp, args);
    size_t placeholders = gm.ir().placeholders().size();
    std::vector<Value> inputs;
    if (gm.signature) {
        BoundArgs bound = gm.signature->bind(interp, args);
        for (size_t i = 1; i <= placeholders; ++i)
            inputs.push_back(bound[i]);
    } else {
        if (!args.keywordNames.empty() || args.positional.size() != placeholders + 1)
            interp.raiseTypeError("forward() takes " + std::to_string(placeholders + 1) +
                                  " positional arguments but " + std::to_string(args.count()) +
                                  " were given");
        inputs.assign(args.positional.begin() + 1, args.positional.end());
    }
    return runGraph(interp, gm.ir(), inputs);
}

std::string code(Interpreter& interp, const Graph& graph) {
    return pythonCode(graph, [&](const Value& v) { return interp.repr(v); });
}

Value codeGetter(Interpreter& interp, const CallArgs& args, void*) {
    return strValue(code(interp, self(interp, args).ir()));
}

Value graphGetter(Interpreter& interp, const CallArgs& args, void*) {
    return Value(self(interp, args).graph);
}

Value metaGetter(Interpreter& interp, const CallArgs& args, void*) {
    GraphModuleObject& gm = self(interp, args);
    if (gm.meta.isEmpty()) gm.meta = Value(makeRef<DictObject>());
    return gm.meta;
}

/// 2.3: prints the readable code (print adds a newline) and returns it.
Value printReadable(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("print_readable(self, print_output=True)");
    BoundArgs a = sig.bind(interp, args);
    std::string text =
        readableCode(self(interp, args).ir(), [&](const Value& v) { return interp.repr(v); });
    if (interp.truthy(a[1])) interp.write(OutputStream::Stdout, text + "\n");
    return strValue(text);
}

/// nn.Module's _addindent: every line after the first indented by `spaces`.
std::string addIndent(const std::string& s, size_t spaces) {
    std::string out;
    for (char c : s) {
        out += c;
        if (c == '\n') out += std::string(spaces, ' ');
    }
    return out;
}

/// nn.Module.__repr__: the children are the modules call_module nodes call, in first-use order.
Value moduleRepr(Interpreter& interp, const CallArgs& args, void*) {
    const Graph& graph = self(interp, args).ir();
    std::vector<std::string> seen, lines;
    for (const Node& n : graph.nodes) {
        if (n.op != NodeOp::CallModule || n.callable.isEmpty() ||
            std::find(seen.begin(), seen.end(), n.target) != seen.end())
            continue;
        seen.push_back(n.target);
        lines.push_back("(" + n.target + "): " + addIndent(interp.repr(n.callable), 2));
    }
    std::string out = "GraphModule(";
    for (size_t i = 0; i < lines.size(); ++i)
        out += "\n  " + lines[i] + (i + 1 == lines.size() ? "\n" : "");
    return strValue(out + ")");
}

/// fx's GraphModule.__str__: the module repr, the code, and a reminder.
Value moduleStr(Interpreter& interp, const CallArgs& args, void*) {
    std::string repr = moduleRepr(interp, args, nullptr).as<StrObject>()->str();
    return strValue(repr + "\n" + code(interp, self(interp, args).ir()) +
                    "\n# To see more debug info, please use `graph_module.print_readable()`");
}

Ref<TypeObject> createGraphModuleType() {
    Ref<TypeObject> t = fx::makeType("GraphModule", "torch.fx.graph_module");
    fx::addMethod(*t, "forward", forward);
    fx::addMethod(*t, "__call__", forward);
    fx::addMethod(*t, "print_readable", printReadable);
    fx::addMethod(*t, "__repr__", moduleRepr);
    fx::addMethod(*t, "__str__", moduleStr);
    fx::addProperty(*t, "graph", graphGetter);
    fx::addProperty(*t, "code", codeGetter);
    fx::addProperty(*t, "meta", metaGetter);
    return t;
}

TypeObject* graphModuleType() {
    static const Ref<TypeObject> t = createGraphModuleType();
    return t.get();
}

} // namespace

Value makeGraphModule(Interpreter& interp, std::shared_ptr<const Graph> graph) {
    KILN_ASSERT(graph, "makeGraphModule needs a graph");
    auto graphObject = makeRef<fx::GraphObject>(fx::makeGraphState(std::move(graph)));
    auto gm = makeRef<GraphModuleObject>(graphModuleType(), std::move(graphObject));
    gm->signature = forwardSignature(gm->ir());
    return Value(gm);
}

std::shared_ptr<const Graph> graphOf(const Value& graphModule) {
    if (!graphModule.is(ObjectKind::Native) || graphModule.asObject()->type() != graphModuleType())
        return nullptr;
    return graphModule.as<GraphModuleObject>()->graph->state->graph;
}

} // namespace kiln::graph
