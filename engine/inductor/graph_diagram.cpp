// SPDX-License-Identifier: MIT
#include "inductor/graph_diagram.h"

#include "support/sha256.h"

#include <map>
#include <set>

namespace kiln::inductor {

namespace {

using compiler::Buffer;
using compiler::LoopNode;

/// The 16 fill colours of torch.fx's graph drawer, picked by a hash of the node's target.
const char* const kHashColors[] = {"CadetBlue1", "Coral",      "DarkOliveGreen1", "DarkSeaGreen1",
                                   "GhostWhite", "Khaki1",     "LavenderBlush1",  "LightSkyBlue",
                                   "MistyRose1", "MistyRose2", "PaleTurquoise2",  "PeachPuff1",
                                   "Salmon",     "Thistle1",   "Thistle3",        "Wheat1"};

const char* colorFor(const std::string& target) {
    std::string hex = sha256Hex(target).substr(0, 8);
    return kHashColors[std::stoul(hex, nullptr, 16) % 16];
}

/// Escapes text for a record label (braces, bars, angle brackets and quotes are syntax there).
std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '{' || c == '}' || c == '|' || c == '<' || c == '>' || c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

std::string sizesText(const std::vector<compiler::Index>& sizes, const compiler::LoopProgram& p) {
    std::string s = "(";
    for (size_t i = 0; i < sizes.size(); ++i)
        s += (i ? ", " : "") + compiler::toString(sizes[i], nullptr, &p.symbolNames);
    return s + (sizes.size() == 1 ? ",)" : ")");
}

/// One diagram node: its id, the buffers it writes and reads, and its label rows.
struct DiagramNode {
    std::string id;
    std::string target;
    std::vector<int32_t> writes, reads;
    std::string dtype, shape;
    bool placeholder = false;
};

std::string render(const std::vector<DiagramNode>& nodes, const compiler::LoopProgram& p,
                   const std::vector<compiler::BufferView>& outputs) {
    std::map<int32_t, std::string> producer;
    for (const DiagramNode& n : nodes)
        for (int32_t w : n.writes)
            producer[w] = n.id;
    std::map<std::string, int> users;
    std::set<std::pair<std::string, std::string>> edges;
    for (const DiagramNode& n : nodes)
        for (int32_t r : n.reads)
            if (producer.count(r) && producer[r] != n.id &&
                edges.insert({producer[r], n.id}).second)
                ++users[producer[r]];
    for (const compiler::BufferView& o : outputs)
        if (producer.count(o.buffer) && edges.insert({producer[o.buffer], "output"}).second)
            ++users[producer[o.buffer]];

    std::string dot =
        "digraph fx_graph {\n  rankdir=TB;\n  node [shape=record, style=\"filled,rounded\", "
        "fontcolor=\"#000000\"];\n";
    for (const DiagramNode& n : nodes) {
        std::string label = "{name=%" + escape(n.id) +
                            "|op_code=" + (n.placeholder ? "placeholder" : "call_function") +
                            "\\n|target=" + escape(n.target) +
                            "\\n|num_users=" + std::to_string(users[n.id]) + "\\n";
        if (!n.placeholder)
            label += "|dtype=" + escape(n.dtype) + "\\n|shape=" + escape(n.shape) + "\\n";
        label += "}";
        const char* color = n.placeholder ? "AliceBlue" : colorFor(n.target);
        dot += "  \"" + n.id + "\" [label=\"" + label + "\", fillcolor=\"" + color + "\"];\n";
    }
    dot += "  \"output\" [label=\"{name=%output|op_code=output\\n|target=output\\n}\", "
           "fillcolor=\"PowderBlue\"];\n";
    for (const auto& [from, to] : edges)
        dot += "  \"" + from + "\" -> \"" + to + "\";\n";
    (void)p;
    return dot + "}\n";
}

std::vector<DiagramNode> inputNodes(const compiler::LoopProgram& p) {
    std::vector<DiagramNode> nodes;
    for (const Buffer& b : p.buffers) {
        if (b.origin != Buffer::Origin::Input) continue;
        DiagramNode n;
        n.id = b.name;
        n.target = b.name;
        n.writes = {b.id};
        n.placeholder = true;
        nodes.push_back(std::move(n));
    }
    return nodes;
}

const char* kindOf(const compiler::ScheduledKernel& k) {
    switch (k.kind) {
    case compiler::ScheduledKernel::Kind::Extern:
    case compiler::ScheduledKernel::Kind::Fallback:
        return "extern";
    default:
        return k.stages.size() > 1 ? "fused" : "compute";
    }
}

} // namespace

std::string postFusionDot(const GraphArtifacts& a) {
    const compiler::LoopProgram& p = a.lowered.program;
    std::vector<DiagramNode> nodes = inputNodes(p);
    for (const compiler::ScheduledKernel& k : a.schedule.kernels) {
        DiagramNode n;
        std::set<int32_t> written;
        for (const compiler::KernelStage& s : k.stages) {
            const LoopNode& node = p.nodes[static_cast<size_t>(s.node)];
            n.id += (n.id.empty() ? "" : "_") + p.buffer(node.output).name;
            n.writes.push_back(node.output);
            written.insert(node.output);
        }
        for (const compiler::KernelStage& s : k.stages)
            for (int32_t r : p.nodes[static_cast<size_t>(s.node)].reads())
                if (!written.count(r)) n.reads.push_back(r);
        n.target = std::string(kindOf(k)) + ": " + k.name;
        const Buffer& last = p.buffer(n.writes.back());
        n.dtype = "torch." + std::string(tensor::dtypeName(last.dtype));
        n.shape = sizesText(last.sizes, p);
        nodes.push_back(std::move(n));
    }
    return render(nodes, p, a.lowered.outputs);
}

std::string preFusionDot(const GraphArtifacts& a) {
    const compiler::LoopProgram& p = a.lowered.program;
    std::vector<DiagramNode> nodes = inputNodes(p);
    for (const LoopNode& node : p.nodes) {
        DiagramNode n;
        const Buffer& out = p.buffer(node.output);
        n.id = out.name;
        n.writes = {node.output};
        n.reads = node.reads();
        std::string ops;
        for (const std::string& op : node.originOps)
            ops += (ops.empty() ? "" : "_") + op;
        // A node whose op has no name (an extern call on a decomposed node) is named after the
        // graph nodes it computes: "extern: " alone read as a missing label.
        if (ops.empty())
            for (size_t i = 0; i < node.origins.size(); ++i)
                ops += (i ? "_" : "") + node.origins[i];
        if (ops.empty()) ops = "copy";
        const char* kind = node.kind == LoopNode::Kind::Pointwise   ? "pointwise"
                           : node.kind == LoopNode::Kind::Reduction ? "reduction"
                                                                    : "extern";
        n.target = std::string(kind) + ": " + ops;
        n.dtype = "torch." + std::string(tensor::dtypeName(out.dtype));
        n.shape = sizesText(out.sizes, p);
        nodes.push_back(std::move(n));
    }
    return render(nodes, p, a.lowered.outputs);
}

} // namespace kiln::inductor
