// SPDX-License-Identifier: MIT
#include "compiler/aten_graph_fx.h"

#include "graph/graph.h"
#include "lang/format.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::compiler {

namespace {

bool isComparison(const std::string& op) {
    static const std::set<std::string> ops = {"eq", "ne", "lt", "le", "gt", "ge"};
    return ops.contains(op);
}

bool isArithmetic(const std::string& op) {
    static const std::set<std::string> ops = {"add", "sub",     "mul",     "truediv",
                                              "pow", "maximum", "minimum", "remainder"};
    return ops.contains(op);
}

/// A scalar constant: written into its readers' arguments instead of getting a line.
bool isInlined(const AtenNode& n) {
    return n.op == "constant" && n.sizes.empty();
}

/// `torch.ops.<namespace>.<op>.<overload>` for a node.
std::string targetOf(const AtenGraph& g, const AtenNode& n) {
    bool scalarOperand = std::any_of(n.inputs.begin(), n.inputs.end(), [&](int32_t i) {
        return isInlined(g.nodes[static_cast<size_t>(i)]);
    });
    static const std::map<std::string, std::string> named = {
        {"truediv", "aten.div.Tensor"},
        {"to_dtype", "prims.convert_element_type.default"},
        {"sum", "aten.sum.dim_IntList"},
        {"slice", "aten.slice.Tensor"},
        {"where", "aten.where.self"},
        {"cat", "aten.cat.default"},
        {"iota", "prims.iota.default"},
        {"embedding_backward", "aten.embedding_dense_backward.default"},
        {"convolution_backward_input", "aten.convolution_backward.default"},
        {"convolution_backward_weight", "aten.convolution_backward.default"},
        {"flash_attention", "aten._scaled_dot_product_flash_attention.default"},
    };
    if (auto it = named.find(n.op); it != named.end()) return "torch.ops." + it->second;
    static const std::set<std::string> kilnOwn = {"welford_mean",    "welford_m2",
                                                  "fallback",        "fallback_backward",
                                                  "gather_backward", "sym_value"};
    if (kilnOwn.contains(n.op)) return "torch.ops.kiln." + n.op + ".default";
    if (n.op == "pow")
        return scalarOperand ? "torch.ops.aten.pow.Tensor_Scalar"
                             : "torch.ops.aten.pow.Tensor_Tensor";
    if (isComparison(n.op))
        return "torch.ops.aten." + n.op + (scalarOperand ? ".Scalar" : ".Tensor");
    if (isArithmetic(n.op)) return "torch.ops.aten." + n.op + ".Tensor";
    return "torch.ops.aten." + n.op + ".default";
}

/// FX's names avoid Python's builtins: the first `sum` node is `sum_1`, as in PyTorch.
bool shadowsBuiltin(const std::string& name) {
    static const std::set<std::string> builtins = {
        "sum", "max", "min",   "abs",  "pow",  "round",  "all",    "any",    "slice", "iter",
        "map", "len", "input", "id",   "type", "hash",   "range",  "list",   "dict",  "set",
        "str", "int", "float", "bool", "zip",  "sorted", "filter", "format", "divmod"};
    return builtins.contains(name);
}

std::string baseName(const AtenNode& n, const FxPrintOptions& options) {
    if (n.op == "placeholder") {
        auto p = static_cast<size_t>(n.position);
        if (p < options.inputNames.size() && !options.inputNames[p].empty())
            return options.inputNames[p];
        return "arg" + std::to_string(n.position);
    }
    if (n.op == "constant_tensor")
        return n.origin.empty() ? "_tensor_constant" + std::to_string(n.position) : n.origin;
    if (n.op == "truediv") return "div";
    if (n.op == "to_dtype") return "convert_element_type";
    return n.op;
}

std::string pythonNumber(double v, tensor::DType dtype) {
    if (dtype == tensor::DType::Bool) return v != 0 ? "True" : "False";
    if (tensor::isFloating(dtype)) return lang::floatRepr(v); // Python's repr: 0.5, 1e-05, inf
    return std::to_string(static_cast<long long>(v));
}

std::string sizesText(const std::vector<Index>& sizes, const AtenGraph& g) {
    std::string s = "[";
    for (size_t i = 0; i < sizes.size(); ++i)
        s += (i ? ", " : "") + toString(sizes[i], nullptr, &g.symbolNames);
    return s + "]";
}

std::string argsOf(const AtenGraph& g, const AtenNode& n, const std::vector<std::string>& names) {
    std::vector<std::string> args;
    for (int32_t in : n.inputs) {
        const AtenNode& src = g.nodes[static_cast<size_t>(in)];
        args.push_back(isInlined(src) ? pythonNumber(src.scalar, src.dtype)
                                      : names[static_cast<size_t>(in)]);
    }
    if (n.op == "full" || n.op == "constant") {
        args.push_back(sizesText(n.sizes, g));
        args.push_back(pythonNumber(n.scalar, n.dtype));
        args.push_back("dtype = torch." + std::string(tensor::dtypeName(n.dtype)));
    } else if (n.op == "to_dtype") {
        args.push_back("torch." + std::string(tensor::dtypeName(n.dtype)));
    } else if (n.op == "fallback" || n.op == "fallback_backward") {
        args.push_back("op = '" + n.originOp + "'");
    } else if (!n.ints.empty()) {
        args.push_back(sizesText(n.ints, g));
    }
    if (n.flag) args.push_back("True");
    if (n.op == "addmm") {
        if (n.scalar != 1) args.push_back("beta = " + pythonNumber(n.scalar, n.dtype));
        if (n.scalar2 != 1) args.push_back("alpha = " + pythonNumber(n.scalar2, n.dtype));
    }
    std::string text;
    for (const std::string& a : args)
        text += (text.empty() ? "" : ", ") + a;
    return text;
}

std::string annotation(const AtenGraph& g, const AtenNode& n) {
    return std::string(graph::shortDtype(n.dtype)) + sizesText(n.sizes, g);
}

std::vector<int32_t> placeholdersByPosition(const AtenGraph& g) {
    std::vector<int32_t> order;
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].op == "placeholder") order.push_back(static_cast<int32_t>(i));
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        return g.nodes[static_cast<size_t>(a)].position < g.nodes[static_cast<size_t>(b)].position;
    });
    return order;
}

} // namespace

std::vector<std::string> fxNodeNames(const AtenGraph& g, const FxPrintOptions& options) {
    std::vector<std::string> names(g.nodes.size());
    std::map<std::string, int> used;
    auto claim = [&](const std::string& base) {
        int suffix = used[base]++ + (shadowsBuiltin(base) ? 1 : 0);
        return suffix == 0 ? base : base + "_" + std::to_string(suffix);
    };
    // Placeholders first, in input order, as FX creates them.
    for (int32_t p : placeholdersByPosition(g))
        names[static_cast<size_t>(p)] = claim(baseName(g.nodes[static_cast<size_t>(p)], options));
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const AtenNode& n = g.nodes[i];
        if (n.op == "placeholder" || isInlined(n)) continue;
        names[i] = claim(baseName(n, options));
    }
    return names;
}

std::vector<std::string> forwardInputNames(const AtenGraph& g, bool training) {
    std::vector<std::string> names;
    for (int32_t i = 0; i < g.inputCount; ++i)
        names.push_back(training ? "primals_" + std::to_string(i + 1)
                                 : "arg" + std::to_string(i) + "_1");
    return names;
}

GraphEvent printAsFx(const AtenGraph& g, const FxPrintOptions& options) {
    std::vector<std::string> names = fxNodeNames(g, options);
    std::vector<int32_t> lastUse(g.nodes.size(), -1);
    for (size_t i = 0; i < g.nodes.size(); ++i)
        for (int32_t in : g.nodes[i].inputs)
            lastUse[static_cast<size_t>(in)] = static_cast<int32_t>(i);
    std::vector<bool> isOutput(g.nodes.size(), false);
    for (int32_t o : g.outputs)
        isOutput[static_cast<size_t>(o)] = true;

    GraphEvent ev;
    std::string signature;
    for (int32_t p : placeholdersByPosition(g)) {
        const AtenNode& n = g.nodes[static_cast<size_t>(p)];
        signature += ", " + names[static_cast<size_t>(p)] + ": \"" + annotation(g, n) + "\"";
        ev.nodes.push_back({names[static_cast<size_t>(p)], "placeholder",
                            names[static_cast<size_t>(p)], "", sizesText(n.sizes, g),
                            "torch." + std::string(tensor::dtypeName(n.dtype)), 0, "", ""});
    }
    std::string body;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const AtenNode& n = g.nodes[i];
        if (n.op == "placeholder" || isInlined(n)) continue;
        GraphNodeInfo info;
        info.name = names[i];
        info.shape = sizesText(n.sizes, g);
        info.dtype = "torch." + std::string(tensor::dtypeName(n.dtype));
        std::string line;
        if (n.op == "constant_tensor") {
            info.op = "get_attr";
            info.target = names[i];
            line = names[i] + " = self." + names[i];
        } else {
            info.op = "call_function";
            info.target = targetOf(g, n);
            info.args = "(" + argsOf(g, n, names) + ")";
            line = names[i] + ": \"" + annotation(g, n) + "\" = " + info.target + info.args;
            ++ev.opCount;
        }
        std::string dead;
        std::set<int32_t> seen;
        for (int32_t in : n.inputs) {
            auto k = static_cast<size_t>(in);
            if (lastUse[k] != static_cast<int32_t>(i) || isOutput[k] || isInlined(g.nodes[k]) ||
                !seen.insert(in).second)
                continue;
            dead += names[k] + " = ";
        }
        if (!dead.empty()) line += ";  " + dead + "None";
        body += "        " + line + "\n";
        ev.nodes.push_back(std::move(info));
    }
    std::string outputs;
    for (size_t k = 0; k < g.outputs.size(); ++k) {
        bool none = k < options.noneOutputs.size() && options.noneOutputs[k];
        const AtenNode& o = g.nodes[static_cast<size_t>(g.outputs[k])];
        outputs += (k ? ", " : "") + (none           ? std::string("None")
                                      : isInlined(o) ? pythonNumber(o.scalar, o.dtype)
                                                     : names[static_cast<size_t>(g.outputs[k])]);
    }
    body += "        return [" + outputs + "]\n";
    ev.nodes.push_back({"output", "output", "output", "([" + outputs + "],)", "", "", 0, "", ""});
    ev.readableCode =
        "class GraphModule(torch.nn.Module):\n    def forward(self" + signature + "):\n" + body;
    ev.nodeCount = static_cast<int32_t>(ev.nodes.size());
    return ev;
}

} // namespace kiln::compiler
