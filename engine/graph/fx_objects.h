// SPDX-License-Identifier: MIT
/// \file
/// Internal to graph_module.cpp and friends: the Node and Graph objects scripts see. Node
/// objects must keep their identity (fx users dicts are keyed by them, backends compare them
/// with `is`), so each node has at most one live Node object, found through the state the
/// objects of one graph share. The state points at them weakly and the Graph object holds them
/// strongly: no reference cycle, and a Node that outlives its Graph object still works.
#pragma once

#include "graph/graph.h"
#include "lang/interpreter.h"

#include <memory>
#include <vector>

namespace kiln::graph::fx {

class NodeObject;
class GraphObject;

struct GraphState {
    std::shared_ptr<const Graph> graph;
    std::vector<std::vector<int32_t>> users; ///< per node, the nodes reading it
    std::vector<NodeObject*> nodes;          ///< live Node objects (weak)
    GraphObject* graphObject = nullptr;      ///< the live Graph object (weak)
};
using GraphStatePtr = std::shared_ptr<GraphState>;

GraphStatePtr makeGraphState(std::shared_ptr<const Graph> graph);

class NodeObject final : public lang::NativeObject {
public:
    NodeObject(GraphStatePtr state, int32_t index);
    ~NodeObject() override;
    const Node& node() const { return state->graph->nodes[static_cast<size_t>(index)]; }

    GraphStatePtr state;
    int32_t index;
    /// Built on first access and kept, so `n.args is n.args` and edits to n.meta stick. Only
    /// earlier nodes appear in args/kwargs, so caching them makes no cycle; users are not cached.
    lang::Value args, kwargs, meta;
};

class GraphObject final : public lang::NativeObject {
public:
    explicit GraphObject(GraphStatePtr state);
    ~GraphObject() override;

    GraphStatePtr state;
    std::vector<Ref<NodeObject>> nodes; ///< every Node object, alive as long as the graph
};

/// The Node object of node `index` (the live one, or a new one).
Ref<NodeObject> nodeObject(const GraphStatePtr& state, int32_t index);
/// The Graph object of a graph (the live one, or a new one).
Ref<GraphObject> graphObject(const GraphStatePtr& state);
/// The Node object behind `v`, or null.
NodeObject* asNode(const lang::Value& v);

/// node.target as fx gives it: a str, or the called function for call_function.
lang::Value nodeTarget(lang::Interpreter& interp, const NodeObject& node);
/// node.args and node.kwargs as script values (Node objects for node references).
lang::Value argValue(const GraphStatePtr& state, const Arg& arg);
/// Node.format_node(): one line of str(graph).
std::string formatNode(lang::Interpreter& interp, const NodeObject& node);
/// str(graph) as fx's Graph.__str__.
std::string formatGraph(lang::Interpreter& interp, const GraphObject& graph);
/// graph.print_tabular()'s table (fx prints it with the tabulate package).
std::string tabulateGraph(lang::Interpreter& interp, const GraphObject& graph);
/// node.meta: example values, stack trace and Kiln's extras.
lang::Value nodeMeta(lang::Interpreter& interp, const NodeObject& node);

/// A native type of module `moduleName` whose instances are NativeObjects.
Ref<lang::TypeObject> makeType(const char* name, const char* moduleName);
/// A native method `name` in `type`'s namespace / a read-only property.
void addMethod(lang::TypeObject& type, const char* name, lang::NativeFn fn);
void addProperty(lang::TypeObject& type, const char* name, lang::NativeFn getter);

lang::TypeObject* nodeType();
lang::TypeObject* graphType();

} // namespace kiln::graph::fx
