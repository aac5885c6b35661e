// SPDX-License-Identifier: MIT
#include "codegen/cuda/reduction_emitter.h"

#include "codegen/cuda/discarded_loads.h"
#include "codegen/cuda/expr_printer.h"
#include "codegen/cuda/kernel_frame.h"
#include "codegen/cuda/prelude.h"
#include "codegen/cuda/reduction_kernel.h"
#include "codegen/cuda/reduction_patterns.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace kiln::codegen::cuda {

namespace detail {

bool sameRanges(const std::vector<compiler::Index>& a, const std::vector<compiler::Index>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!compiler::equal(a[i], b[i])) return false;
    return true;
}

/// At most this many vectors per thread are kept in registers (32 floats at width 4).
constexpr int kMaxCachedSteps = 8;

std::string ReductionEmitter::smem(const std::string& type, int count) {
    std::string name = "k_smem" + std::to_string(m_smemCount++);
    m_code += "    __shared__ " + type + " " + name + "[" + std::to_string(count) + "];\n";
    return name;
}

std::string ReductionEmitter::crossThread(const std::string& value, const std::string& op,
                                          const std::string& type, const std::string& identity) {
    if (m_rows == RowStrategy::WarpPerRow) return "kiln_warp_reduce(" + value + ", " + op + "())";
    std::string shared = smem(type);
    return "kiln_block_reduce<" + type + ">(" + value + ", " + op + "(), " + identity + ", " +
           shared + ")";
}

std::string ReductionEmitter::rowIndex(const LoopNode& n) const {
    const compiler::Buffer& out = m_p.buffer(n.output);
    std::vector<compiler::Index> vars;
    for (size_t i = 0; i < n.ranges.size(); ++i)
        vars.push_back(compiler::loopVar(static_cast<int32_t>(i)));
    return m_printer.index(compiler::linearIndex(vars, out.strides, out.offset));
}

void ReductionEmitter::keepResult(const LoopNode& n, const std::string& value, DType from) {
    const compiler::Buffer& out = m_p.buffer(n.output);
    std::string stored = narrowForStore(convertValue(value, from, out.dtype), out.dtype);
    m_code += "    if (k_tid == 0) " + out.name + "[" + rowIndex(n) + "] = " + stored + ";\n";
    std::string reg = "k_row" + std::to_string(n.output);
    m_code += "    const " + std::string(computeTypeName(out.dtype)) + " " + reg + " = " +
              widenLoaded(stored, out.dtype) + ";\n";
    // Dividing by a row's result (softmax's sum) multiplies by its reciprocal: one division
    // per row instead of one per element (unused, it is dead code).
    if (compiler::computeType(out.dtype) == DType::Float32)
        m_code += "    const float " + reg + "_rcp = 1.f / " + reg + ";\n";
    m_registers[n.output] = reg;
}

int ReductionEmitter::chooseWidth() {
    if (m_c.maxVectorWidth <= 1) return 1;
    std::vector<tensor::DType> dtypes;
    std::set<int32_t> vectorBuffers;
    std::set<int32_t> written;
    for (const compiler::KernelStage& s : m_k.stages)
        written.insert(node(s).output);
    for (const compiler::KernelStage& s : m_k.stages) {
        if (s.innerRanges.empty()) continue;
        int32_t var = m_outer + static_cast<int32_t>(s.innerRanges.size()) - 1;
        if (auto v = staticValue(s.innerRanges.back()); v && *v % 2 != 0) return 1;
        for (const compiler::ScalarNode* l : distinctLoads(node(s).body)) {
            if (l->operands.empty() && !written.count(l->buffer) &&
                classifyAccess(l->index, var, 2, nullptr) == AccessKind::Vector) {
                dtypes.push_back(m_p.buffer(l->buffer).dtype);
                vectorBuffers.insert(l->buffer);
            }
        }
    }
    int width = std::min(vectorWidthFor(dtypes), m_c.maxVectorWidth);
    if (width <= 1) return 1;
    // Element-wise outputs stored as vectors need aligned pointers too.
    for (const compiler::KernelStage& s : m_k.stages) {
        const LoopNode& n = node(s);
        if (n.kind == LoopNode::Kind::Reduction || s.innerRanges.empty()) continue;
        const compiler::Buffer& out = m_p.buffer(n.output);
        std::vector<compiler::Index> vars;
        for (size_t i = 0; i < n.ranges.size(); ++i)
            vars.push_back(compiler::loopVar(static_cast<int32_t>(i)));
        int32_t var = m_outer + static_cast<int32_t>(s.innerRanges.size()) - 1;
        if (classifyAccess(compiler::linearIndex(vars, out.strides, out.offset), var, width,
                           nullptr) == AccessKind::Vector)
            vectorBuffers.insert(n.output);
    }
    for (const compiler::KernelStage& s : m_k.stages) {
        if (s.innerRanges.empty()) continue;
        const compiler::Index& last = s.innerRanges.back();
        if (auto v = staticValue(last); v && *v % width != 0) return 1;
        if (!staticValue(last)) m_vectorPath.requireMultiple(last, width);
    }
    for (int32_t b : vectorBuffers)
        m_vectorPath.requireAligned(b, static_cast<int>(std::min<int64_t>(
                                           16, width * tensor::itemSize(m_p.buffer(b).dtype))));
    return width;
}

void ReductionEmitter::openLoop(const compiler::KernelStage& s, int width) {
    m_innermost = m_outer + static_cast<int32_t>(s.innerRanges.size()) - 1;
    std::string n = m_printer.index(compiler::product(s.innerRanges));
    std::string w = std::to_string(width);
    m_rowCached = m_cacheIterations > 0 && sameRanges(s.innerRanges, m_cacheRanges);
    if (m_rowCached) {
        // A fixed number of steps, unrolled: the cached row's registers are indexed by
        // constants only (a run-time index would move them to local memory).
        m_code += "#pragma unroll\n";
        m_code +=
            "    for (int k_it = 0; k_it < " + std::to_string(m_cacheIterations) + "; ++k_it) {\n";
        m_code += "        const kiln_idx k_j = ((kiln_idx)k_it * " + std::to_string(m_rowThreads) +
                  " + k_tid) * " + w + ";\n";
        m_code += "        if (k_j < " + n + ") {\n";
    } else {
        m_code += "#pragma unroll 4\n";
        m_code += "    for (kiln_idx k_j = (kiln_idx)k_tid * " + w + "; k_j < " + n +
                  "; k_j += (kiln_idx)k_nt * " + w + ") {\n";
    }
    std::string rest = "k_j";
    for (int32_t d = static_cast<int32_t>(s.innerRanges.size()) - 1; d >= 0; --d) {
        std::string name = "r" + std::to_string(m_outer + d);
        if (d == 0) {
            m_code += "        const kiln_idx " + name + " = " + rest + ";\n";
            break;
        }
        std::string size = m_printer.index(s.innerRanges[static_cast<size_t>(d)]);
        m_code += "        const kiln_idx " + name + " = " + rest + " % " + size + ";\n";
        std::string next = "k_jq" + std::to_string(d);
        m_code += "        const kiln_idx " + next + " = " + rest + " / " + size + ";\n";
        rest = next;
    }
    m_printer.forget();
    m_vectors.clear();
}

void ReductionEmitter::closeLoop() {
    m_code += m_rowCached ? "    }\n    }\n" : "    }\n";
    m_rowCached = false;
    m_printer.forget();
    m_vectors.clear();
}

const ReductionEmitter::RowCache*
ReductionEmitter::findCachedRow(const compiler::ScalarNode& l) const {
    for (const RowCache& c : m_rowCache)
        if (c.buffer == l.buffer && compiler::equal(c.index, l.index)) return &c;
    return nullptr;
}

std::string ReductionEmitter::cachedRow(const compiler::ScalarNode& l, int width,
                                        const std::string& skipIf) {
    if (const RowCache* c = findCachedRow(l)) return c->name;
    const compiler::Buffer& b = m_p.buffer(l.buffer);
    RowCache c{l.buffer, l.index, m_printer.fresh("k_row_cache")};
    m_cacheDecls += "    alignas(16) " + std::string(storageTypeName(b.dtype)) + " " + c.name +
                    "[" + std::to_string(m_cacheIterations) + "][" + std::to_string(width) + "];\n";
    vectorLoad(c.name + "[k_it]", b.name + " + " + m_printer.index(l.index, 0), skipIf);
    m_rowCache.push_back(c);
    return c.name;
}

void ReductionEmitter::vectorLoad(const std::string& into, const std::string& from,
                                  const std::string& skipIf) {
    if (skipIf.empty()) {
        m_code += "        kiln_vload(" + into + ", " + from + ");\n";
        return;
    }
    // Every lane's value would be discarded: the memory is not read at all.
    m_code += "        kiln_vload_unless(" + into + ", " + from + ", " + skipIf + ");\n";
}

std::vector<compiler::Scalar> ReductionEmitter::stageBodies() const {
    std::vector<compiler::Scalar> bodies;
    for (const compiler::KernelStage& s : m_k.stages)
        bodies.push_back(node(s).body);
    return bodies;
}

std::string ReductionEmitter::everyLane(const compiler::Scalar& condition, int width) {
    std::string all;
    for (int lane = 0; lane < width; ++lane)
        all += (lane ? " && " : "") + m_printer.value(condition, lane);
    m_code += m_printer.take();
    return "(" + all + ")";
}

void ReductionEmitter::preload(const compiler::Scalar& body, int width) {
    if (width == 1) return;
    // Loads a where may discard come last: their conditions read the other loads.
    std::vector<std::pair<const compiler::ScalarNode*, compiler::Scalar>> discardable;
    for (const compiler::ScalarNode* l : distinctLoads(body)) {
        if (!l->operands.empty() || m_registers.count(l->buffer) ||
            m_writtenInner.count(l->buffer) ||
            classifyAccess(l->index, m_innermost, width, &m_vectorPath) != AccessKind::Vector)
            continue;
        if (const RowCache* cached = m_rowCached ? findCachedRow(*l) : nullptr) {
            m_vectors[l] = cached->name + "[k_it]";
            continue;
        }
        if (compiler::Scalar skip =
                m_c.skipDiscardedLoads ? discardingCondition(stageBodies(), *l) : nullptr) {
            discardable.emplace_back(l, std::move(skip));
            continue;
        }
        loadVector(*l, width, {});
    }
    for (const auto& [l, skip] : discardable)
        loadVector(*l, width, everyLane(skip, width));
}

void ReductionEmitter::loadVector(const compiler::ScalarNode& l, int width,
                                  const std::string& skipIf) {
    if (m_rowCached) {
        // Read from memory once per row: later stages take the thread's registers.
        m_vectors[&l] = cachedRow(l, width, skipIf) + "[k_it]";
        return;
    }
    const compiler::Buffer& b = m_p.buffer(l.buffer);
    std::string arr = m_printer.fresh("k_v");
    m_code += "        alignas(16) " + std::string(storageTypeName(b.dtype)) + " " + arr + "[" +
              std::to_string(width) + "];\n";
    vectorLoad(arr, b.name + " + " + m_printer.index(l.index, 0), skipIf);
    m_vectors[&l] = arr;
}

std::vector<std::string> ReductionEmitter::laneValues(const compiler::Scalar& body, int width) {
    std::vector<std::string> values;
    for (int lane = 0; lane < width; ++lane)
        values.push_back(m_printer.value(body, lane));
    m_code += m_printer.take();
    return values;
}

void ReductionEmitter::emitStages(int width) {
    m_registers.clear();
    m_writtenInner.clear();
    m_rowCache.clear();
    m_cacheDecls.clear();
    m_cacheIterations = 0;
    m_cacheRanges.clear();
    if (width > 1) {
        // The longest stage's rows, when static and short enough per thread.
        for (const compiler::KernelStage& s : m_k.stages)
            if (s.innerRanges.size() > m_cacheRanges.size()) m_cacheRanges = s.innerRanges;
        auto n = staticValue(compiler::product(m_cacheRanges));
        int64_t perStep = int64_t(m_rowThreads) * width;
        if (n && *n > 0 && !m_cacheRanges.empty() &&
            (*n + perStep - 1) / perStep <= kMaxCachedSteps)
            m_cacheIterations = static_cast<int>((*n + perStep - 1) / perStep);
    }
    if (m_cacheIterations > 0) m_patterns.push_back("row_in_registers");
    const size_t declsAt = m_code.size();
    m_printer.setLoadHook([&](const compiler::ScalarNode& l, int lane) -> std::string {
        if (auto it = m_registers.find(l.buffer); it != m_registers.end()) return it->second;
        if (auto it = m_vectors.find(&l); it != m_vectors.end())
            return widenLoaded(it->second + "[" + std::to_string(lane) + "]",
                               m_p.buffer(l.buffer).dtype);
        for (auto& [load, arr] : m_vectors)
            if (load->buffer == l.buffer && l.operands.empty() &&
                compiler::equal(load->index, l.index))
                return widenLoaded(arr + "[" + std::to_string(lane) + "]",
                                   m_p.buffer(l.buffer).dtype);
        return {};
    });
    m_printer.setValueHook([&](const compiler::Scalar& s, int lane) -> std::string {
        if (s->op == compiler::ScalarOp::Div && compiler::computeType(s->dtype) == DType::Float32) {
            const compiler::Scalar& divisor = s->operands[1];
            if (divisor->op == compiler::ScalarOp::Load && divisor->operands.empty() &&
                compiler::computeType(divisor->dtype) == DType::Float32)
                if (auto it = m_registers.find(divisor->buffer); it != m_registers.end())
                    return "(" + m_printer.value(s->operands[0], lane) + " * " + it->second +
                           "_rcp)";
        }
        return {};
    });
    bool online = m_c.softmax == ReductionConfig::Softmax::Online ||
                  (m_c.softmax == ReductionConfig::Softmax::Auto && m_cacheIterations == 0);
    std::vector<StagePlan> plan = planStages(m_p, m_k, online);
    for (const StagePlan& step : plan) {
        const compiler::KernelStage& s = m_k.stages[step.first];
        // Element-wise results of earlier stages may have been written by other threads.
        bool readsInner = false;
        for (int32_t b : node(s).reads())
            readsInner = readsInner || m_writtenInner.count(b);
        if (readsInner)
            m_code += m_rows == RowStrategy::WarpPerRow ? "    __syncwarp();\n"
                                                        : "    __syncthreads();\n";
        switch (step.kind) {
        case StagePlan::Kind::Pointwise:
            pointwise(s, width);
            break;
        case StagePlan::Kind::Plain:
            plainReduction(s, width);
            break;
        case StagePlan::Kind::Arg:
            argReduction(s, width);
            break;
        case StagePlan::Kind::Welford:
            welford(s, step.second >= 0 ? &m_k.stages[step.second] : nullptr, width);
            break;
        case StagePlan::Kind::Softmax:
            softmax(s, m_k.stages[step.second], width);
            break;
        }
    }
    m_printer.setLoadHook({});
    m_printer.setValueHook({});
    m_code.insert(declsAt, m_cacheDecls);
}

Expected<CudaKernel> ReductionEmitter::emit() {
    if (std::string why = unsupportedReason(m_p, m_k); !why.empty())
        return makeDiagnostic("CudaCodegenError", m_k.name + ": " + why);
    CudaKernel out;
    out.name = m_k.name;
    out.args = kernelArgs(m_p, m_k);
    out.uses64BitIndex = needs64BitIndex(m_p, m_k);
    int width = chooseWidth();
    std::optional<int64_t> rowLength = longestRow(m_p, m_k);
    m_rows = rowLength && *rowLength <= m_c.warpRowLimit ? RowStrategy::WarpPerRow
                                                         : RowStrategy::BlockPerRow;
    int rowsPerBlock = 1;
    if (m_rows == RowStrategy::WarpPerRow) {
        rowsPerBlock = m_c.warpsPerBlock;
        m_threads = 32 * rowsPerBlock;
    } else {
        // About eight vectors per thread on a static row: 4096 floats -> 128 threads.
        // Measured on an H200 (LayerNorm of 4096 floats): 144 us at 128 threads against
        // 158 us at 256; fewer threads per row keep more rows resident per SM.
        int64_t perThread = int64_t(width) * 8;
        int64_t t = rowLength ? *rowLength / perThread : 512;
        m_threads = 128;
        while (m_threads < t && m_threads < 1024)
            m_threads *= 2;
        if (m_c.blockThreads > 0) m_threads = m_c.blockThreads;
    }
    m_rowThreads = m_rows == RowStrategy::WarpPerRow ? 32 : m_threads;
    m_code += kernelSignature(m_k.name, out.args, m_threads) + " {\n";
    ExprPrinter rows(
        m_p, [](int32_t, int) { return std::string("0"); }, "");
    std::string rowCount = rows.index(compiler::product(m_k.outerRanges));
    if (m_rows == RowStrategy::WarpPerRow) {
        m_code += "    const kiln_idx k_row = (kiln_idx)blockIdx.x * " +
                  std::to_string(rowsPerBlock) + " + (threadIdx.x >> 5);\n";
        m_code += "    const int k_tid = threadIdx.x & 31;\n    const int k_nt = 32;\n";
    } else {
        m_code += "    const kiln_idx k_row = (kiln_idx)blockIdx.x;\n";
        m_code += "    const int k_tid = threadIdx.x;\n    const int k_nt = blockDim.x;\n";
    }
    // Uniform per warp (warp rows) or per block: no thread is left waiting at a barrier.
    m_code += "    if (k_row >= " + rowCount + ") return;\n";
    std::string rest = "k_row";
    for (int32_t d = m_outer - 1; d >= 0; --d) {
        std::string name = "x" + std::to_string(d);
        if (d == 0) {
            m_code += "    const kiln_idx " + name + " = " + rest + ";\n";
            break;
        }
        std::string size = rows.index(m_k.outerRanges[static_cast<size_t>(d)]);
        m_code += "    const kiln_idx " + name + " = " + rest + " % " + size + ";\n";
        m_code +=
            "    const kiln_idx k_rq" + std::to_string(d) + " = " + rest + " / " + size + ";\n";
        rest = "k_rq" + std::to_string(d);
    }
    std::vector<std::string> vectorPatterns;
    std::string head = std::move(m_code), vectorPath;
    m_code.clear();
    if (width > 1) {
        emitStages(width);
        vectorPath = std::move(m_code);
        m_code.clear();
        vectorPatterns = std::move(m_patterns);
        m_patterns.clear();
    }
    emitStages(1);
    if (width > 1) {
        m_code = twoPaths(conditionText(m_vectorPath, m_p, m_printer), vectorPath, m_code);
        out.vectorPath = m_vectorPath;
    }
    m_code = head + m_code + "}\n";
    out.source = kernelPrelude(out.uses64BitIndex, m_code) + "\n" + m_code;
    out.vectorWidth = width;
    out.rows = m_rows;
    out.fusedPatterns = width > 1 ? vectorPatterns : m_patterns;
    out.launch.work = compiler::product(m_k.outerRanges);
    out.launch.itemsPerBlock = rowsPerBlock;
    out.launch.threads = m_threads;
    return out;
}

} // namespace detail

Expected<CudaKernel> emitReductionKernel(const compiler::LoopProgram& program,
                                         const compiler::ScheduledKernel& kernel,
                                         const ReductionConfig& config) {
    return detail::ReductionEmitter(program, kernel, config).emit();
}

} // namespace kiln::codegen::cuda
