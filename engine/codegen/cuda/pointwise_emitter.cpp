// SPDX-License-Identifier: MIT
#include "codegen/cuda/pointwise_emitter.h"

#include "codegen/cuda/expr_printer.h"
#include "codegen/cuda/kernel_frame.h"
#include "codegen/cuda/prelude.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::codegen::cuda {

namespace {

using compiler::LoopNode;

class PointwiseEmitter {
public:
    PointwiseEmitter(const compiler::LoopProgram& p, const compiler::ScheduledKernel& k,
                     const PointwiseConfig& c)
        : m_p(p)
        , m_k(k)
        , m_c(c)
        , m_rank(static_cast<int32_t>(k.outerRanges.size()))
        , m_printer(
              p, [this](int32_t v, int lane) { return varName(v, lane); }, "    ") {}

    CudaKernel emit();

private:
    std::string varName(int32_t var, int lane) const {
        std::string name = "x" + std::to_string(var) + "_" + std::to_string(m_u);
        if (lane == 0 || var != m_rank - 1) return name;
        return "(" + name + " + " + std::to_string(lane) + ")";
    }
    /// Picks the vector width and the launch conditions of the vector path (m_vectorPath).
    int chooseWidth();
    void emitPath(int width, int unroll, bool strided);
    void decompose(const std::string& linear);
    std::string stageBody(const LoopNode& n, int width);

    const compiler::LoopProgram& m_p;
    const compiler::ScheduledKernel& m_k;
    PointwiseConfig m_c;
    int32_t m_rank;
    ExprPrinter m_printer;
    int m_u = 0;
    std::string m_code;
    /// Preloaded vectors: (buffer, index text at lane 0) -> array name, for the current u.
    std::map<const compiler::ScalarNode*, std::string> m_vectorLoads;
    std::set<int32_t> m_written;
    /// Values a stage stored, by buffer, for later stages of the same element: "name" per lane.
    std::map<int32_t, std::vector<std::string>> m_stored;
    std::map<int32_t, compiler::Index> m_storedIndex;
    VectorPathCondition m_vectorPath;
};

std::string numelText(const ExprPrinter& printer, const std::vector<compiler::Index>& ranges) {
    return printer.index(compiler::product(ranges));
}

int PointwiseEmitter::chooseWidth() {
    if (m_rank == 0 || m_c.maxVectorWidth <= 1) return 1;
    int32_t var = m_rank - 1;
    std::vector<tensor::DType> dtypes;
    std::set<int32_t> vectorBuffers;
    auto consider = [&](int32_t buffer, const compiler::Index& index) {
        if (classifyAccess(index, var, 2, nullptr) == AccessKind::Vector) {
            dtypes.push_back(m_p.buffer(buffer).dtype);
            vectorBuffers.insert(buffer);
        }
    };
    for (const compiler::KernelStage& s : m_k.stages) {
        const LoopNode& n = m_p.nodes.at(static_cast<size_t>(s.node));
        const compiler::Buffer& out = m_p.buffer(n.output);
        std::vector<compiler::Index> vars;
        for (int32_t i = 0; i < m_rank; ++i)
            vars.push_back(compiler::loopVar(i));
        consider(n.output, compiler::linearIndex(vars, out.strides, out.offset));
        for (const compiler::ScalarNode* l : distinctLoads(n.body))
            if (l->operands.empty() && !m_written.count(l->buffer)) consider(l->buffer, l->index);
    }
    int width = std::min(vectorWidthFor(dtypes), m_c.maxVectorWidth);
    if (width <= 1) return 1;
    // The innermost range must be a multiple of the width, so a vector never crosses a row.
    compiler::Index last = m_k.outerRanges.back();
    if (auto v = staticValue(last); v && *v % width != 0) return 1;
    if (!staticValue(last)) m_vectorPath.requireMultiple(last, width);
    for (int32_t b : vectorBuffers) {
        int bytes = static_cast<int>(width * tensor::itemSize(m_p.buffer(b).dtype));
        m_vectorPath.requireAligned(b, std::min(bytes, 16));
    }
    return width;
}

void PointwiseEmitter::decompose(const std::string& linear) {
    std::string rest = linear;
    for (int32_t d = m_rank - 1; d >= 0; --d) {
        std::string name = "x" + std::to_string(d) + "_" + std::to_string(m_u);
        if (d == 0) {
            m_code += "    const kiln_idx " + name + " = " + rest + ";\n";
            break;
        }
        std::string size = m_printer.index(m_k.outerRanges[static_cast<size_t>(d)]);
        m_code += "    const kiln_idx " + name + " = " + rest + " % " + size + ";\n";
        std::string next = "k_q" + std::to_string(d) + "_" + std::to_string(m_u);
        m_code += "    const kiln_idx " + next + " = " + rest + " / " + size + ";\n";
        rest = next;
    }
}

std::string PointwiseEmitter::stageBody(const LoopNode& n, int width) {
    const compiler::Buffer& out = m_p.buffer(n.output);
    std::vector<compiler::Index> vars;
    for (int32_t i = 0; i < m_rank; ++i)
        vars.push_back(compiler::loopVar(i));
    compiler::Index at = compiler::linearIndex(vars, out.strides, out.offset);
    std::vector<std::string> values;
    for (int lane = 0; lane < width; ++lane)
        values.push_back(convertValue(m_printer.value(n.body, lane), n.body->dtype, out.dtype));
    std::string code = m_printer.take();
    bool vectorStore =
        width > 1 && classifyAccess(at, m_rank - 1, width, &m_vectorPath) == AccessKind::Vector;
    std::string st = storageTypeName(out.dtype);
    if (vectorStore) {
        std::string arr = m_printer.fresh("k_o");
        code += "        alignas(16) " + st + " " + arr + "[" + std::to_string(width) + "];\n";
        for (int lane = 0; lane < width; ++lane)
            code += "        " + arr + "[" + std::to_string(lane) +
                    "] = " + narrowForStore(values[lane], out.dtype) + ";\n";
        code += "        kiln_vstore(" + out.name + " + " + m_printer.index(at, 0) + ", " + arr +
                ");\n";
    } else {
        for (int lane = 0; lane < width; ++lane)
            code += "        " + out.name + "[" + m_printer.index(at, lane) +
                    "] = " + narrowForStore(values[lane], out.dtype) + ";\n";
    }
    // Later stages read this element from registers (rounded as the buffer stores it).
    std::vector<std::string> kept;
    for (int lane = 0; lane < width; ++lane)
        kept.push_back(widenLoaded(narrowForStore(values[lane], out.dtype), out.dtype));
    m_stored[n.output] = kept;
    m_storedIndex[n.output] = at;
    return code;
}

void PointwiseEmitter::emitPath(int width, int unroll, bool strided) {
    const int t = m_c.threads;
    m_vectorLoads.clear();
    std::vector<std::vector<std::string>> bodies;
    std::vector<std::string> valid;
    for (m_u = 0; m_u < unroll; ++m_u) {
        std::string e = "k_e" + std::to_string(m_u);
        std::string lin = strided ? "((kiln_idx)" + std::to_string(m_u * t) + " + threadIdx.x) * " +
                                        std::to_string(width)
                                  : "(kiln_idx)" + std::to_string(m_u * t) + " + threadIdx.x";
        m_code += "    const kiln_idx " + e + " = k_first + " + lin + ";\n";
        decompose(e);
        valid.push_back("(" + e + " < k_n)");
    }
    // Phase 1: every vector load of every unrolled step, so they are in flight together.
    std::map<std::pair<int, const compiler::ScalarNode*>, std::string> arrays;
    for (m_u = 0; m_u < unroll; ++m_u)
        for (const compiler::KernelStage& s : m_k.stages) {
            const LoopNode& n = m_p.nodes.at(static_cast<size_t>(s.node));
            for (const compiler::ScalarNode* l : distinctLoads(n.body)) {
                if (width == 1 || !l->operands.empty() || m_written.count(l->buffer) ||
                    classifyAccess(l->index, m_rank - 1, width, &m_vectorPath) !=
                        AccessKind::Vector)
                    continue;
                bool have = false;
                for (auto& [key, name] : arrays)
                    have = have || (key.first == m_u && key.second->buffer == l->buffer &&
                                    compiler::equal(key.second->index, l->index));
                if (have) continue;
                const compiler::Buffer& b = m_p.buffer(l->buffer);
                std::string arr = m_printer.fresh("k_v");
                m_code += "    alignas(16) " + std::string(storageTypeName(b.dtype)) + " " + arr +
                          "[" + std::to_string(width) + "];\n";
                m_code += "    if " + valid[static_cast<size_t>(m_u)] + " kiln_vload(" + arr +
                          ", " + b.name + " + " + m_printer.index(l->index, 0) + ");\n";
                arrays[{m_u, l}] = arr;
            }
        }
    // Phase 2: compute and store, step by step.
    for (m_u = 0; m_u < unroll; ++m_u) {
        m_printer.forget();
        m_stored.clear();
        m_printer.setLoadHook([&](const compiler::ScalarNode& l, int lane) -> std::string {
            if (auto it = m_stored.find(l.buffer);
                it != m_stored.end() && compiler::equal(m_storedIndex[l.buffer], l.index))
                return it->second[static_cast<size_t>(lane)];
            for (auto& [key, name] : arrays)
                if (key.first == m_u && key.second->buffer == l.buffer && l.operands.empty() &&
                    compiler::equal(key.second->index, l.index))
                    return widenLoaded(name + "[" + std::to_string(lane) + "]",
                                       m_p.buffer(l.buffer).dtype);
            if (l.operands.empty() &&
                classifyAccess(l.index, m_rank - 1, width, nullptr) == AccessKind::Invariant)
                return m_printer.scalarLoad(l, 0);
            return {};
        });
        m_printer.setIndent("        ");
        m_code += "    if " + valid[static_cast<size_t>(m_u)] + " {\n";
        for (const compiler::KernelStage& s : m_k.stages)
            m_code += stageBody(m_p.nodes.at(static_cast<size_t>(s.node)), width);
        m_code += "    }\n";
    }
    m_printer.setLoadHook({});
}

CudaKernel PointwiseEmitter::emit() {
    for (const compiler::KernelStage& s : m_k.stages)
        m_written.insert(m_p.nodes.at(static_cast<size_t>(s.node)).output);
    CudaKernel out;
    out.name = m_k.name;
    out.args = kernelArgs(m_p, m_k);
    out.uses64BitIndex = needs64BitIndex(m_p, m_k);
    int width = chooseWidth();
    int perThread = std::max(m_c.elementsPerThread, width);
    int unroll = std::max(1, perThread / width);
    perThread = unroll * width;
    const int t = m_c.threads;
    std::string head = kernelSignature(m_k.name, out.args, t) + " {\n";
    head += "    const kiln_idx k_n = " + numelText(m_printer, m_k.outerRanges) + ";\n";
    head += "    const kiln_idx k_first = (kiln_idx)blockIdx.x * " + std::to_string(t * perThread) +
            ";\n";
    std::string vectorPath;
    if (width > 1) {
        emitPath(width, unroll, true);
        vectorPath = std::move(m_code);
        m_code.clear();
    }
    m_code += "    {\n";
    emitPath(1, perThread, false);
    m_code += "    }\n";
    if (width > 1) {
        m_code = twoPaths(conditionText(m_vectorPath, m_p, m_printer), vectorPath, m_code);
        out.vectorPath = m_vectorPath;
    }
    m_code = head + m_code + "}\n";
    out.source = kernelPrelude(out.uses64BitIndex, m_code) + "\n" + m_code;
    out.vectorWidth = width;
    out.elementsPerThread = perThread;
    out.launch.work = compiler::product(m_k.outerRanges);
    out.launch.itemsPerBlock = t * perThread;
    out.launch.threads = t;
    return out;
}

} // namespace

CudaKernel emitPointwiseKernel(const compiler::LoopProgram& program,
                               const compiler::ScheduledKernel& kernel,
                               const PointwiseConfig& config) {
    return PointwiseEmitter(program, kernel, config).emit();
}

} // namespace kiln::codegen::cuda
