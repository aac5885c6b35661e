// SPDX-License-Identifier: MIT
#include "inductor/aot_graph_records.h"

#include "compiler/aten_graph_fx.h"
#include "trace/json_text.h"

namespace kiln::inductor {

namespace {

using compiler::AtenGraph;
using compiler::FxPrintOptions;

std::string tangentName(int32_t k) {
    return "tangents_" + std::to_string(k + 1);
}

/// The joint graph with its tangent placeholders numbered after the forward's inputs, so
/// that they print after the primals, as PyTorch's joint graph lists them.
AtenGraph jointForPrinting(const compiler::JointGraph& joint, FxPrintOptions& options) {
    AtenGraph g = joint.graph;
    options.inputNames = compiler::forwardInputNames(g, true);
    int32_t k = 0;
    for (int32_t t : joint.tangentOf) {
        if (t < 0) continue;
        g.nodes[static_cast<size_t>(t)].position = g.inputCount + k;
        options.inputNames.push_back(tangentName(k++));
    }
    return g;
}

int64_t bytesOf(const compiler::AtenNode& n, std::span<const int64_t> syms) {
    int64_t count = 1;
    for (const compiler::Index& s : n.sizes)
        count *= compiler::evaluate(s, {}, syms);
    return count * tensor::itemSize(n.dtype);
}

/// What the forward saves: its outputs after the user's, as [{"name", "shape", "dtype",
/// "bytes"}].
void recordSaved(GraphEvent& forward, const AtenGraph& g, const compiler::PartitionedGraphs& p,
                 const std::vector<std::string>& names, std::span<const int64_t> syms) {
    std::string json = "[";
    for (int32_t k = 0; k < p.saved; ++k) {
        auto node = static_cast<size_t>(g.outputs[static_cast<size_t>(p.userOutputs + k)]);
        const compiler::AtenNode& n = g.nodes[node];
        int64_t bytes = bytesOf(n, syms);
        std::string shape = "[";
        for (size_t d = 0; d < n.sizes.size(); ++d)
            shape += (d ? ", " : "") + compiler::toString(n.sizes[d], nullptr, &g.symbolNames);
        shape += "]";
        json += std::string(k ? ", " : "") + "{\"name\": " + trace::jsonQuoted(names[node]) +
                ", \"shape\": " + trace::jsonQuoted(shape) + ", \"dtype\": " +
                trace::jsonQuoted("torch." + std::string(tensor::dtypeName(n.dtype))) +
                ", \"bytes\": " + std::to_string(bytes) + "}";
        forward.savedBytes += bytes;
    }
    forward.savedTensors = json + "]";
    forward.savedCount = p.saved;
}

} // namespace

std::vector<GraphEvent> aotTrainingGraphs(const compiler::JointGraph& joint,
                                          const compiler::PartitionedGraphs& parts,
                                          std::span<const int64_t> exampleSyms) {
    std::vector<GraphEvent> graphs;
    FxPrintOptions jointOptions;
    graphs.push_back(compiler::printAsFx(jointForPrinting(joint, jointOptions), jointOptions));
    graphs.back().kind = "aot_joint";

    FxPrintOptions forwardOptions;
    forwardOptions.inputNames = compiler::forwardInputNames(parts.forward, true);
    graphs.push_back(compiler::printAsFx(parts.forward, forwardOptions));
    graphs.back().kind = "aot_forward";
    std::vector<std::string> forwardNames = compiler::fxNodeNames(parts.forward, forwardOptions);
    recordSaved(graphs.back(), parts.forward, parts, forwardNames, exampleSyms);

    // The backward reads the saved values under the names the forward gave them.
    FxPrintOptions backwardOptions;
    for (int32_t k = 0; k < parts.saved; ++k)
        backwardOptions.inputNames.push_back(forwardNames[static_cast<size_t>(
            parts.forward.outputs[static_cast<size_t>(parts.userOutputs + k)])]);
    for (int32_t k = 0; k < parts.tangents; ++k)
        backwardOptions.inputNames.push_back(tangentName(k));
    graphs.push_back(compiler::printAsFx(parts.backward, backwardOptions));
    graphs.back().kind = "aot_backward";
    return graphs;
}

GraphEvent aotInferenceGraph(const compiler::AtenGraph& graph) {
    FxPrintOptions options;
    options.inputNames = compiler::forwardInputNames(graph, false);
    GraphEvent ev = compiler::printAsFx(graph, options);
    ev.kind = "aot_inference";
    return ev;
}

void logAotGraphs(Logger& logger, const std::string& compileId, int32_t graphIndex,
                  const std::vector<GraphEvent>& graphs) {
    std::string aotGraphs;
    for (const GraphEvent& g : graphs) {
        std::string title = g.kind == "aot_backward" ? "Backward graph"
                            : g.kind == "aot_joint"  ? "Joint graph"
                                                     : "Forward graph";
        std::string text = "TRACED GRAPH\n ===== " + title + " " + std::to_string(graphIndex) +
                           " =====\n " + g.readableCode;
        if (g.kind == "aot_joint")
            KILN_TORCH_ARTIFACT(logger, Artifact::AotJointGraph, compileId, text);
        else
            aotGraphs += (aotGraphs.empty() ? "" : "\n") + text;
    }
    if (!aotGraphs.empty()) KILN_TORCH_ARTIFACT(logger, Artifact::AotGraphs, compileId, aotGraphs);
}

} // namespace kiln::inductor
