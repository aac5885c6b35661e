// SPDX-License-Identifier: MIT
/// \file
/// Internal to the reduction emitter: the class both of its translation units implement
/// (reduction_emitter.cpp: the kernel frame, row mapping, loops, vector loads and the row
/// cache; reduction_stages.cpp: the code of each kind of stage).
#pragma once

#include "codegen/cuda/expr_printer.h"
#include "codegen/cuda/reduction_emitter.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kiln::codegen::cuda::detail {

using compiler::LoopNode;
using compiler::ReductionKind;

bool sameRanges(const std::vector<compiler::Index>& a, const std::vector<compiler::Index>& b);

class ReductionEmitter {
public:
    ReductionEmitter(const compiler::LoopProgram& p, const compiler::ScheduledKernel& k,
                     const ReductionConfig& c)
        : m_p(p)
        , m_k(k)
        , m_c(c)
        , m_outer(static_cast<int32_t>(k.outerRanges.size()))
        , m_printer(
              p, [this](int32_t v, int lane) { return varName(v, lane); }, "        ") {}

    Expected<CudaKernel> emit();

private:
    const LoopNode& node(const compiler::KernelStage& s) const {
        return m_p.nodes.at(static_cast<size_t>(s.node));
    }
    std::string varName(int32_t var, int lane) const {
        if (var < m_outer) return "x" + std::to_string(var);
        std::string name = "r" + std::to_string(var);
        if (lane == 0 || var != m_innermost) return name;
        return "(" + name + " + " + std::to_string(lane) + ")";
    }
    /// The vector width, with the vector path's launch conditions in m_vectorPath.
    int chooseWidth();
    void emitStages(int width);
    /// Opens the strided loop over a stage's inner elements (declaring its loop variables).
    void openLoop(const compiler::KernelStage& s, int width);
    void closeLoop();
    struct RowCache;
    const RowCache* findCachedRow(const compiler::ScalarNode& l) const;
    /// The per-thread array caching the row of load `l` (declared and loaded on first use).
    std::string cachedRow(const compiler::ScalarNode& l, int width, const std::string& skipIf);
    /// kiln_vload of `from` into `into`; with `skipIf` (a C++ condition) only where it is false.
    void vectorLoad(const std::string& into, const std::string& from, const std::string& skipIf);
    /// Per-iteration vector loads of `body` (names served by the load hook).
    void preload(const compiler::Scalar& body, int width);
    void loadVector(const compiler::ScalarNode& l, int width, const std::string& skipIf);
    std::vector<compiler::Scalar> stageBodies() const;
    /// `condition` for every lane of the thread's vector, as one C++ expression.
    std::string everyLane(const compiler::Scalar& condition, int width);
    std::vector<std::string> laneValues(const compiler::Scalar& body, int width);
    void plainReduction(const compiler::KernelStage& s, int width);
    void argReduction(const compiler::KernelStage& s, int width);
    void welford(const compiler::KernelStage& mean, const compiler::KernelStage* m2, int width);
    void threadMoments(const LoopNode& n, const compiler::KernelStage& s, int width,
                       const std::string& w);
    void streamingWelford(const LoopNode& n, const compiler::KernelStage& s, int width,
                          const std::string& w);
    void softmax(const compiler::KernelStage& max, const compiler::KernelStage& sum, int width);
    void pointwise(const compiler::KernelStage& s, int width);
    /// Stores a row's result (thread 0 of the row) and keeps it for later stages.
    void keepResult(const LoopNode& n, const std::string& value, DType from);
    std::string rowIndex(const LoopNode& n) const;
    std::string smem(const std::string& type, int count = 32);
    std::string crossThread(const std::string& value, const std::string& op,
                            const std::string& type, const std::string& identity);

    const compiler::LoopProgram& m_p;
    const compiler::ScheduledKernel& m_k;
    ReductionConfig m_c;
    int32_t m_outer;
    int32_t m_innermost = -1;
    RowStrategy m_rows = RowStrategy::BlockPerRow;
    int m_threads = 256;
    ExprPrinter m_printer;
    std::string m_code;
    VectorPathCondition m_vectorPath;
    std::vector<std::string> m_patterns;
    std::map<int32_t, std::string> m_registers; ///< buffer -> the row's value, widened
    std::map<const compiler::ScalarNode*, std::string> m_vectors;
    std::set<int32_t> m_writtenInner; ///< buffers written element-wise by earlier stages
    int m_smemCount = 0;
    /// The row cache (vector path of static rows of at most kMaxCachedSteps steps per thread):
    /// the first stage's vector loads land in per-thread arrays that later stages reuse.
    struct RowCache {
        int32_t buffer;
        compiler::Index index;
        std::string name;
    };
    int m_cacheIterations = 0; ///< 0: no row cache
    int m_rowThreads = 0;      ///< threads sharing a row
    std::vector<compiler::Index> m_cacheRanges;
    std::vector<RowCache> m_rowCache;
    std::string m_cacheDecls;
    bool m_rowCached = false;
};

} // namespace kiln::codegen::cuda::detail
