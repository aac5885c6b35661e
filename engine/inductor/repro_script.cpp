// SPDX-License-Identifier: MIT
#include "inductor/repro_script.h"

#include <cstdio>

namespace kiln::inductor {

namespace {

using compiler::AtenNode;
using compiler::Index;

std::string var(int32_t id) {
    return "v" + std::to_string(id);
}

std::string dtypeText(tensor::DType t) {
    return "torch." + std::string(tensor::dtypeName(t));
}

std::string number(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    std::string s = text;
    if (s.find_first_of(".einn") == std::string::npos) s += ".0";
    if (s == "inf" || s == "-inf" || s == "nan") s = "float('" + s + "')";
    return s;
}

class ReproWriter {
public:
    ReproWriter(const compiler::AtenGraph& g, const graph::Graph& captured,
                const graph::ConstantPrinter& printConstant)
        : m_g(g)
        , m_captured(captured)
        , m_print(printConstant) {}

    std::string index(const Index& e) const {
        return compiler::toString(e, nullptr, &m_g.symbolNames);
    }

    std::string list(const std::vector<Index>& v) const {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? ", " : "") + index(v[i]);
        return s + "]";
    }

    std::string dims(const AtenNode& n) const {
        std::string s = "[";
        for (size_t i = 0; i < n.ints.size(); ++i)
            s += (i ? ", " : "") + index(n.ints[i]);
        return s + "]";
    }

    std::string capturedArg(const graph::Arg& a) const {
        switch (a.kind) {
        case graph::Arg::Kind::Node: {
            int32_t t = m_g.nodeOfCaptured[static_cast<size_t>(a.node)];
            return t >= 0 ? var(t) : "None";
        }
        case graph::Arg::Kind::Constant:
            return m_print(a.constant);
        case graph::Arg::Kind::Slice:
            return "slice(" + capturedArg(a.items[0]) + ", " + capturedArg(a.items[1]) + ", " +
                   capturedArg(a.items[2]) + ")";
        default: {
            bool tuple = a.kind == graph::Arg::Kind::Tuple;
            std::string s = tuple ? "(" : "[";
            for (size_t i = 0; i < a.items.size(); ++i)
                s += (i ? ", " : "") + capturedArg(a.items[i]);
            return s + (tuple && a.items.size() == 1 ? ",)" : tuple ? ")" : "]");
        }
        }
    }

    /// The original call of an op the compiler left to the eager kernels.
    std::string fallbackCall(const AtenNode& n) const {
        const graph::Node& c = m_captured.nodes.at(static_cast<size_t>(n.position));
        std::string args;
        size_t first = c.op == graph::NodeOp::CallMethod ? 1 : 0;
        for (size_t i = first; i < c.args.size(); ++i)
            args += (args.empty() ? "" : ", ") + capturedArg(c.args[i]);
        for (const auto& [k, v] : c.kwargs)
            args += (args.empty() ? "" : ", ") + k + "=" + capturedArg(v);
        if (c.op == graph::NodeOp::CallMethod)
            return capturedArg(c.args[0]) + "." + c.target + "(" + args + ")";
        if (c.op == graph::NodeOp::CallFunction && c.operatorKind == graph::OperatorKind::GetItem)
            return capturedArg(c.args[0]) + "[" + capturedArg(c.args[1]) + "]";
        if (c.op == graph::NodeOp::CallFunction && c.operatorKind == graph::OperatorKind::None)
            return c.target + "(" + args + ")";
        return "None  # " + c.name + " (" + c.target + ") cannot be written as a call here";
    }

    std::string expression(const AtenNode& n) const {
        const std::string& op = n.op;
        auto in = [&](size_t i) { return var(n.inputs.at(i)); };
        if (op == "constant")
            return "torch.tensor(" + number(n.scalar) + ", dtype=" + dtypeText(n.dtype) + ")";
        if (op == "full")
            return "torch.full(" + list(n.sizes) + ", " + number(n.scalar) +
                   ", dtype=" + dtypeText(n.dtype) + ")";
        if (op == "sym_value") return "torch.tensor(" + index(n.ints[0]) + ")";
        if (op == "rand" || op == "randn")
            return "torch." + op + "(" + list(n.sizes) + ", dtype=" + dtypeText(n.dtype) + ")";
        if (op == "to_dtype") return in(0) + ".to(" + dtypeText(n.dtype) + ")";
        if (op == "truediv") return "torch.div(" + in(0) + ", " + in(1) + ")";
        if (op == "where") return "torch.where(" + in(0) + ", " + in(1) + ", " + in(2) + ")";
        if (op == "welford_mean")
            return "torch.mean(" + in(0) + ", " + dims(n) +
                   ", keepdim=" + (n.flag ? "True" : "False") + ")";
        if (op == "welford_m2")
            return "torch.var(" + in(0) + ", " + dims(n) +
                   ", correction=0, keepdim=" + (n.flag ? "True" : "False") + ") * " + numelOf(n);
        if (op == "sum" || op == "amax" || op == "amin")
            return "torch." + op + "(" + in(0) + ", " + dims(n) +
                   ", keepdim=" + (n.flag ? "True" : "False") + ")";
        if (op == "prod" || op == "argmax" || op == "argmin") {
            std::string s = in(0);
            if (n.ints.size() != 1) return "torch." + op + "(" + s + ")";
            return "torch." + op + "(" + s + ", " + index(n.ints[0]) +
                   ", keepdim=" + (n.flag ? "True" : "False") + ")";
        }
        if (op == "view") return in(0) + ".reshape(" + list(n.ints) + ")";
        if (op == "permute") return in(0) + ".permute(" + dims(n) + ")";
        if (op == "expand") return in(0) + ".expand(" + list(n.ints) + ")";
        if (op == "slice") {
            int64_t dim = 0;
            compiler::isConstant(n.ints[0], &dim);
            std::string key;
            for (int64_t d = 0; d < dim; ++d)
                key += ":, ";
            return in(0) + "[" + key + index(n.ints[1]) + ":" + index(n.ints[2]) + ":" +
                   index(n.ints[3]) + "]";
        }
        if (op == "mm" || op == "bmm") return "torch." + op + "(" + in(0) + ", " + in(1) + ")";
        if (op == "addmm")
            return "torch.addmm(" + in(0) + ", " + in(1) + ", " + in(2) +
                   ", beta=" + number(n.scalar) + ", alpha=" + number(n.scalar2) + ")";
        if (op == "convolution") {
            std::string bias = n.inputs.size() > 2 ? in(2) : "None";
            auto pair = [&](size_t i) {
                return "(" + index(n.ints[i]) + ", " + index(n.ints[i + 1]) + ")";
            };
            return "torch.nn.functional.conv2d(" + in(0) + ", " + in(1) + ", " + bias + ", " +
                   pair(0) + ", " + pair(2) + ", " + pair(4) + ", " + index(n.ints[6]) + ")";
        }
        if (op == "fallback") return fallbackCall(n);
        std::string args;
        for (size_t i = 0; i < n.inputs.size(); ++i)
            args += (i ? ", " : "") + in(i);
        return "torch." + op + "(" + args + ")";
    }

    /// The element count of the reduced dims of a reduction's input, as Python.
    std::string numelOf(const AtenNode& n) const {
        const AtenNode& x = m_g.nodes.at(static_cast<size_t>(n.inputs.at(0)));
        std::string count = "1";
        for (const Index& d : n.ints) {
            int64_t dim = 0;
            compiler::isConstant(d, &dim);
            count += " * " + index(x.sizes.at(static_cast<size_t>(dim)));
        }
        return "(" + count + ")";
    }

    std::string randomInput(tensor::DType t, const std::vector<graph::Dim>& dims) const {
        std::string sizes = "(";
        for (size_t i = 0; i < dims.size(); ++i)
            sizes += (i ? ", " : "") + std::to_string(dims[i].value);
        sizes += dims.size() == 1 ? ",)" : ")";
        if (t == tensor::DType::Bool) return "torch.rand(" + sizes + ") > 0.5";
        if (!tensor::isFloating(t))
            return "torch.randint(0, 8, " + sizes + ", dtype=" + dtypeText(t) + ")";
        return "torch.randn(" + sizes + ", dtype=" + dtypeText(t) + ")";
    }

    std::string write(const std::string& compileId) const {
        std::string params, inputs, symbols, body;
        std::vector<const graph::Node*> placeholders;
        for (const graph::Node& n : m_captured.nodes)
            if (n.op == graph::NodeOp::Placeholder) placeholders.push_back(&n);
        for (size_t i = 0; i < m_g.nodes.size(); ++i) {
            const AtenNode& n = m_g.nodes[i];
            if (n.op == "placeholder") {
                params += (params.empty() ? "" : ", ") + var(static_cast<int32_t>(i));
                const graph::Node* p = placeholders.at(static_cast<size_t>(n.position));
                inputs += "    " + randomInput(n.dtype, p->meta.sizes) + ",  # " + p->name + "\n";
            } else if (n.op == "constant_tensor") {
                params += (params.empty() ? "" : ", ") + var(static_cast<int32_t>(i));
                std::vector<graph::Dim> dims;
                for (const Index& s : n.sizes) {
                    int64_t v = 0;
                    compiler::isConstant(s, &v);
                    dims.push_back({v, {}});
                }
                inputs += "    " + randomInput(n.dtype, dims) +
                          ",  # a parameter or constant of the graph\n";
            } else {
                body += "    " + var(static_cast<int32_t>(i)) + " = " + expression(n) + "  # " +
                        n.origin + "\n";
            }
        }
        // SymInt inputs become ints; sizes of dynamic dims are read off the inputs.
        for (size_t s = 0; s < m_g.symbolNames.size(); ++s) {
            const auto& src = m_g.symbolSources[s];
            int32_t input = -1;
            for (size_t i = 0; i < m_g.nodes.size(); ++i)
                if (m_g.nodes[i].op == "placeholder" && m_g.nodes[i].position == src.input)
                    input = static_cast<int32_t>(i);
            if (input >= 0 && src.dim >= 0)
                symbols += "    " + m_g.symbolNames[s] + " = " + var(input) +
                           (src.stride ? ".stride(" + std::to_string(src.dim) + ")\n"
                                       : ".shape[" + std::to_string(src.dim) + "]\n");
        }
        std::string outputs;
        for (int32_t o : m_g.outputs)
            outputs += var(o) + ", ";
        return "# fx_graph_runnable.py: graph " + compileId +
               " as Kiln's compiler saw it after decomposition.\n"
               "# Runs under `kiln run`: random inputs of the recorded sizes, the graph eagerly "
               "and\n"
               "# through torch.compile, and the largest difference between the two.\n"
               "import torch\n\n\ndef forward(" +
               params + "):\n" + symbols + body + "    return (" + outputs +
               ")\n\n\ntorch.manual_seed(0)\nargs = (\n" + inputs +
               ")\nexpected = forward(*args)\nactual = torch.compile(forward)(*args)\n"
               "for e, a in zip(expected, actual):\n"
               "    if e.is_floating_point():\n"
               "        print(\"max abs difference:\", (e.double() - "
               "a.double()).abs().max().item())\n"
               "    else:\n"
               "        print(\"equal:\", torch.equal(e, a))\n";
    }

private:
    const compiler::AtenGraph& m_g;
    const graph::Graph& m_captured;
    const graph::ConstantPrinter& m_print;
};

} // namespace

std::string reproScript(const compiler::AtenGraph& aten, const graph::Graph& captured,
                        const std::string& compileId, const graph::ConstantPrinter& printConstant) {
    return ReproWriter(aten, captured, printConstant).write(compileId);
}

} // namespace kiln::inductor
