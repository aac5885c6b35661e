// SPDX-License-Identifier: MIT
// The code of each kind of reduction-kernel stage: plain reductions, argmax/argmin, Welford
// (per-thread moments over a held row, per-vector merges over a streamed one), softmax's online
// pass, and pointwise stages over the row or once per row.
#include "codegen/cuda/expr_printer.h"
#include "codegen/cuda/kernel_frame.h"
#include "codegen/cuda/reduction_kernel.h"

#include <cmath>

namespace kiln::codegen::cuda::detail {

namespace {

/// Identity of a plain reduction in its accumulator type.
std::string identityOf(ReductionKind kind, DType t) {
    switch (kind) {
    case ReductionKind::Sum:
        return literal(0, t);
    case ReductionKind::Prod:
        return literal(1, t);
    // An integer type's minimum or maximum (compiler::integerConstant); bools count as int.
    case ReductionKind::Max:
    case ReductionKind::ArgMax:
        return literal(-INFINITY, t == DType::Bool ? DType::Int32 : t);
    case ReductionKind::Min:
    case ReductionKind::ArgMin:
        return literal(INFINITY, t == DType::Bool ? DType::Int32 : t);
    case ReductionKind::Any:
        return "0";
    case ReductionKind::All:
        return "1";
    default:
        return "0";
    }
}

} // namespace

void ReductionEmitter::plainReduction(const compiler::KernelStage& s, int width) {
    const LoopNode& n = node(s);
    DType t = n.body->dtype;
    bool boolean = n.reduction == ReductionKind::Any || n.reduction == ReductionKind::All;
    // Booleans reduce as 0/1 ints (warp shuffles move no bools): any = max, all = min.
    std::string type = boolean ? "int" : computeTypeName(t);
    const char* op = "KilnSum";
    const char* combine = "+";
    switch (n.reduction) {
    case ReductionKind::Prod:
        op = "KilnProd";
        combine = "*";
        break;
    case ReductionKind::Max:
    case ReductionKind::Any:
        op = "KilnMax";
        combine = nullptr;
        break;
    case ReductionKind::Min:
    case ReductionKind::All:
        op = "KilnMin";
        combine = nullptr;
        break;
    default:
        break;
    }
    std::string acc = m_printer.fresh("k_acc");
    std::string identity = identityOf(n.reduction, boolean ? DType::Int32 : t);
    m_code += "    " + type + " " + acc + " = " + identity + ";\n";
    openLoop(s, width);
    preload(n.body, width);
    for (const std::string& v : laneValues(n.body, width)) {
        std::string value = boolean ? "(int)(" + v + ")" : v;
        if (combine)
            m_code += "        " + acc + " = " + acc + " " + combine + " " + value + ";\n";
        else
            m_code += "        " + acc + " = " + op + "()(" + acc + ", " + value + ");\n";
    }
    closeLoop();
    std::string total = m_printer.fresh("k_red");
    m_code +=
        "    const " + type + " " + total + " = " + crossThread(acc, op, type, identity) + ";\n";
    keepResult(n, boolean ? "(" + total + " != 0)" : total, boolean ? DType::Bool : t);
}

void ReductionEmitter::argReduction(const compiler::KernelStage& s, int width) {
    const LoopNode& n = node(s);
    DType t = n.body->dtype;
    std::string type = computeTypeName(t);
    bool isMax = n.reduction == ReductionKind::ArgMax;
    std::string identity = identityOf(n.reduction, t);
    std::string acc = m_printer.fresh("k_arg");
    std::string pair = "KilnArg<" + type + ">";
    m_code += "    " + pair + " " + acc + "{" + identity + ", 0x7fffffffffffffffLL};\n";
    openLoop(s, width);
    preload(n.body, width);
    std::vector<std::string> values = laneValues(n.body, width);
    for (int lane = 0; lane < width; ++lane)
        m_code += "        " + acc + " = kiln_arg_merge(" + acc + ", " + pair + "{" +
                  values[static_cast<size_t>(lane)] + ", (long long)(k_j + " +
                  std::to_string(lane) + ")}, " + (isMax ? "true" : "false") + ");\n";
    closeLoop();
    std::string total = m_printer.fresh("k_red");
    if (m_rows == RowStrategy::WarpPerRow) {
        m_code += "    const " + pair + " " + total + " = kiln_warp_arg(" + acc + ", " +
                  (isMax ? "true" : "false") + ");\n";
    } else {
        std::string shared = smem(pair);
        m_code += "    const " + pair + " " + total + " = kiln_block_arg<" + type + ">(" + acc +
                  ", " + (isMax ? "true" : "false") + ", " + identity + ", " + shared + ");\n";
    }
    keepResult(n, total + ".i", DType::Int64);
}

void ReductionEmitter::welford(const compiler::KernelStage& meanStage,
                               const compiler::KernelStage* m2Stage, int width) {
    const LoopNode& n = node(meanStage);
    std::string w = m_printer.fresh("k_w");
    if (m_cacheIterations > 0 && m_c.welfordThreadMoments &&
        sameRanges(meanStage.innerRanges, m_cacheRanges))
        threadMoments(n, meanStage, width, w);
    else
        streamingWelford(n, meanStage, width, w);
    std::string total = m_printer.fresh("k_wt");
    if (m_rows == RowStrategy::WarpPerRow)
        m_code += "    const KilnWelford " + total + " = kiln_warp_welford(" + w + ");\n";
    else
        m_code += "    const KilnWelford " + total + " = kiln_block_welford(" + w + ", " +
                  smem("KilnWelford") + ");\n";
    const LoopNode* meanNode = &n;
    const LoopNode* m2Node = m2Stage ? &node(*m2Stage) : nullptr;
    if (n.reduction == ReductionKind::WelfordM2) std::swap(meanNode, m2Node);
    if (meanNode) keepResult(*meanNode, total + ".mean", DType::Float32);
    if (m2Node) keepResult(*m2Node, total + ".m2", DType::Float32);
    m_patterns.push_back("welford");
}

void ReductionEmitter::threadMoments(const LoopNode& n, const compiler::KernelStage& s, int width,
                                     const std::string& w) {
    // The thread's part of the row is in registers: its mean, then the squared deviations
    // from it (exact, no division per element); threads merge by Chan's formula.
    std::string sum = m_printer.fresh("k_ws"), count = m_printer.fresh("k_wn");
    m_code += "    float " + sum + " = 0.f, " + count + " = 0.f;\n";
    openLoop(s, width);
    preload(n.body, width);
    std::string terms;
    for (const std::string& v : laneValues(n.body, width))
        terms += (terms.empty() ? "" : " + ") + v;
    m_code += "        " + sum + " += " + terms + ";\n";
    m_code += "        " + count + " += " + literal(width, DType::Float32) + ";\n";
    closeLoop();
    std::string mean = m_printer.fresh("k_wmean"), m2 = m_printer.fresh("k_wq");
    m_code +=
        "    const float " + mean + " = " + count + " > 0.f ? " + sum + " / " + count + " : 0.f;\n";
    m_code += "    float " + m2 + " = 0.f;\n";
    openLoop(s, width);
    preload(n.body, width);
    for (const std::string& v : laneValues(n.body, width))
        m_code +=
            "        " + m2 + " += (" + v + " - " + mean + ") * (" + v + " - " + mean + ");\n";
    closeLoop();
    m_code += "    KilnWelford " + w + "{" + count + ", " + mean + ", " + m2 + "};\n";
    m_patterns.push_back("thread_moments");
}

void ReductionEmitter::streamingWelford(const LoopNode& n, const compiler::KernelStage& meanStage,
                                        int width, const std::string& w) {
    m_code += "    KilnWelford " + w + "{0.f, 0.f, 0.f};\n";
    openLoop(meanStage, width);
    preload(n.body, width);
    std::vector<std::string> values = laneValues(n.body, width);
    // The thread's vector as one group (mean and m2 exact in registers), merged in by Chan.
    std::string sum, mean = m_printer.fresh("k_gm"), m2;
    for (const std::string& v : values)
        sum += (sum.empty() ? "" : " + ") + v;
    m_code += "        const float " + mean + " = (" + sum + ") * " +
              literal(1.0 / width, DType::Float32) + ";\n";
    for (const std::string& v : values)
        m2 += (m2.empty() ? "" : " + ") + std::string("(") + v + " - " + mean + ") * (" + v +
              " - " + mean + ")";
    m_code += "        " + w + " = kiln_welford_merge(" + w + ", KilnWelford{" +
              literal(width, DType::Float32) + ", " + mean + ", " + m2 + "});\n";
    closeLoop();
}

void ReductionEmitter::softmax(const compiler::KernelStage& maxStage,
                               const compiler::KernelStage& sumStage, int width) {
    const LoopNode& n = node(maxStage);
    std::string acc = m_printer.fresh("k_sm");
    m_code += "    KilnSoftmax " + acc + "{" + literal(-INFINITY, DType::Float32) + ", 0.f};\n";
    openLoop(maxStage, width);
    preload(n.body, width);
    std::vector<std::string> values = laneValues(n.body, width);
    // One rescale per vector: the vector's max first, then its exps against the new max.
    std::string gm = m_printer.fresh("k_gmax");
    std::string expr = values[0];
    for (size_t l = 1; l < values.size(); ++l)
        expr = "kiln_max(" + expr + ", " + values[l] + ")";
    m_code += "        const float " + gm + " = kiln_max(" + acc + ".m, " + expr + ");\n";
    std::string base = m_printer.fresh("k_base");
    m_code += "        const float " + base + " = " + gm +
              " == " + literal(-INFINITY, DType::Float32) + " ? 0.f : " + gm + ";\n";
    std::string terms;
    for (const std::string& v : values)
        terms += (terms.empty() ? "" : " + ") + std::string("expf(") + v + " - " + base + ")";
    m_code += "        " + acc + ".s = " + acc + ".s * kiln_exp_shift(" + acc + ".m, " + gm +
              ") + (" + terms + ");\n";
    m_code += "        " + acc + ".m = " + gm + ";\n";
    closeLoop();
    std::string total = m_printer.fresh("k_smt");
    if (m_rows == RowStrategy::WarpPerRow)
        m_code += "    const KilnSoftmax " + total + " = kiln_warp_softmax(" + acc + ");\n";
    else
        m_code += "    const KilnSoftmax " + total + " = kiln_block_softmax(" + acc + ", " +
                  smem("KilnSoftmax") + ");\n";
    keepResult(n, total + ".m", DType::Float32);
    keepResult(node(sumStage), total + ".s", DType::Float32);
    m_patterns.push_back("online_softmax");
}

void ReductionEmitter::pointwise(const compiler::KernelStage& s, int width) {
    const LoopNode& n = node(s);
    const compiler::Buffer& out = m_p.buffer(n.output);
    if (s.innerRanges.empty()) {
        // One value per row: every thread computes it (later stages read the register),
        // thread 0 stores it.
        m_printer.setIndent("    ");
        std::string v = m_printer.value(n.body, 0);
        m_code += m_printer.take();
        m_printer.setIndent("        ");
        keepResult(n, v, n.body->dtype);
        m_printer.forget();
        return;
    }
    openLoop(s, width);
    preload(n.body, width);
    std::vector<compiler::Index> vars;
    for (size_t i = 0; i < n.ranges.size(); ++i)
        vars.push_back(compiler::loopVar(static_cast<int32_t>(i)));
    compiler::Index at = compiler::linearIndex(vars, out.strides, out.offset);
    std::vector<std::string> values = laneValues(n.body, width);
    bool vectorStore =
        width > 1 && classifyAccess(at, m_innermost, width, &m_vectorPath) == AccessKind::Vector;
    if (vectorStore) {
        std::string arr = m_printer.fresh("k_o");
        m_code += "        alignas(16) " + std::string(storageTypeName(out.dtype)) + " " + arr +
                  "[" + std::to_string(width) + "];\n";
        for (int lane = 0; lane < width; ++lane)
            m_code += "        " + arr + "[" + std::to_string(lane) + "] = " +
                      narrowForStore(
                          convertValue(values[static_cast<size_t>(lane)], n.body->dtype, out.dtype),
                          out.dtype) +
                      ";\n";
        m_code += "        kiln_vstore(" + out.name + " + " + m_printer.index(at, 0) + ", " + arr +
                  ");\n";
    } else {
        for (int lane = 0; lane < width; ++lane)
            m_code += "        " + out.name + "[" + m_printer.index(at, lane) + "] = " +
                      narrowForStore(
                          convertValue(values[static_cast<size_t>(lane)], n.body->dtype, out.dtype),
                          out.dtype) +
                      ";\n";
    }
    closeLoop();
    m_writtenInner.insert(n.output);
}

} // namespace kiln::codegen::cuda::detail
