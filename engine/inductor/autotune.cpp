// SPDX-License-Identifier: MIT
#include "inductor/autotune.h"

#include "support/parallel.h"
#include "support/clock.h"
#include "tensor/ops.h"
#include "tensor/random.h"

#include <algorithm>
#include <map>

namespace kiln::inductor {

namespace {

using codegen::LoopTuning;

std::string describe(const LoopTuning& t) {
    if (t.vectorWidth == 0 && t.interleave == 0)
        return "LLVM's choice of vector width and interleave";
    return "vector width " + std::to_string(t.vectorWidth) + ", interleave " +
           std::to_string(t.interleave);
}

} // namespace

/// Random buffers for every parameter of the kernel, sized with the example symbol values.
BenchmarkWorkspace::BenchmarkWorkspace(const compiler::LoopProgram& p,
                                       const std::vector<int64_t>& syms)
    : m_p(p)
    , m_syms(syms) {}

char* BenchmarkWorkspace::pointer(int32_t buffer) {
    auto it = m_tensors.find(buffer);
    if (it == m_tensors.end()) {
        const compiler::Buffer& b = m_p.buffer(buffer);
        // Room for every element the layout can reach (strides may skip or broadcast).
        int64_t extent = compiler::evaluate(b.offset, {}, m_syms) + 1;
        for (size_t d = 0; d < b.sizes.size(); ++d)
            extent += (compiler::evaluate(b.sizes[d], {}, m_syms) - 1) *
                      std::max<int64_t>(0, compiler::evaluate(b.strides[d], {}, m_syms));
        tensor::Tensor t = tensor::randn(std::vector<int64_t>{std::max<int64_t>(extent, 1)},
                                         {tensor::DType::Float32}, m_gen);
        if (b.dtype != tensor::DType::Float32)
            t = tensor::Tensor::empty(std::vector<int64_t>{extent}, b.dtype);
        it = m_tensors.emplace(buffer, t).first;
    }
    return it->second.rawData();
}

int64_t timeKernel(const codegen::CompiledKernel& k, const compiler::ScheduledKernel& kernel,
                   const std::vector<int64_t>& syms, BenchmarkWorkspace& ws) {
    std::vector<char*> pointers;
    for (int32_t id : k.bufferParams)
        pointers.push_back(ws.pointer(id));
    int64_t outer =
        kernel.outerRanges.empty() ? 1 : compiler::evaluate(kernel.outerRanges[0], {}, syms);
    return timeMedian([&] {
        parallelFor(
            outer, 1, [&](int64_t b, int64_t e) { k.entry(pointers.data(), syms.data(), b, e); });
    });
}

int64_t timeMedian(const std::function<void()>& fn) {
    fn(); // warm up caches and pages
    std::vector<int64_t> times;
    int64_t budget = monotonicNs() + 200'000'000; // at most ~0.2 s of runs per candidate
    for (int i = 0; i < 7 && (i < 3 || monotonicNs() < budget); ++i) {
        int64_t start = monotonicNs();
        fn();
        times.push_back(monotonicNs() - start);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

Expected<TuneResult> autotuneKernel(const compiler::LoopProgram& p, const compiler::Schedule& s,
                                    size_t index, const std::vector<int64_t>& syms,
                                    const TuneOptions& options) {
    const compiler::ScheduledKernel& kernel = s.kernels.at(index);
    BenchmarkWorkspace ws(p, syms);
    std::vector<LoopTuning> tried;
    std::vector<std::pair<codegen::CompiledKernel, int64_t>> measured;
    TuneResult result;
    auto measure = [&](const LoopTuning& t) -> Status {
        if (std::find(tried.begin(), tried.end(), t) != tried.end()) return {};
        tried.push_back(t);
        auto compiled = codegen::compileKernels(p, s, {index}, {t});
        if (!compiled) return compiled.error();
        int64_t ns = timeKernel((*compiled)[0], kernel, syms, ws);
        measured.emplace_back((*compiled)[0], ns);
        result.candidates.push_back({describe(t), ns, false});
        if (options.progress)
            options.progress(kernel.name + ": candidate " + std::to_string(measured.size()) + " (" +
                             describe(t) + ") " + std::to_string(ns / 1000) + " us");
        return {};
    };
    // The full grid, or with coordinate descent a coarse start the walk refines from.
    const std::vector<LoopTuning> grid =
        options.coordinateDescent
            ? std::vector<LoopTuning>{{0, 0}, {8, 1}, {16, 1}}
            : std::vector<LoopTuning>{{0, 0}, {4, 1}, {8, 1}, {8, 2}, {16, 1}, {16, 2}, {16, 4}};
    for (const LoopTuning& t : grid)
        if (auto st = measure(t); !st) return st.error();
    auto best = [&] {
        size_t b = 0;
        for (size_t i = 1; i < measured.size(); ++i)
            if (measured[i].second < measured[b].second) b = i;
        return b;
    };
    if (options.coordinateDescent) {
        // One knob at a time from the winner, while a neighbour is faster.
        for (bool improved = true; improved;) {
            size_t b = best();
            LoopTuning at = tried[b];
            if (at.vectorWidth == 0) at = {16, 1};
            improved = false;
            for (LoopTuning n : {LoopTuning{at.vectorWidth * 2, at.interleave},
                                 LoopTuning{std::max(1, at.vectorWidth / 2), at.interleave},
                                 LoopTuning{at.vectorWidth, at.interleave * 2},
                                 LoopTuning{at.vectorWidth, std::max(1, at.interleave / 2)}}) {
                if (n.vectorWidth > 64 || n.interleave > 8) continue;
                size_t before = measured.size();
                if (auto st = measure(n); !st) return st.error();
                if (measured.size() > before && measured.back().second < measured[b].second)
                    improved = true;
            }
        }
    }
    size_t b = best();
    result.candidates[b].chosen = true;
    result.kernel = measured[b].first;
    return result;
}

} // namespace kiln::inductor
