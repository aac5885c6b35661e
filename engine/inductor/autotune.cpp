// SPDX-License-Identifier: MIT
#include "inductor/autotune.h"

#include "inductor/tuning_cache.h"
#include "support/clock.h"
#include "support/parallel.h"
#include "tensor/ops.h"
#include "tensor/random.h"

#include <algorithm>
#include <cstdio>
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

std::string choiceText(const LoopTuning& t) {
    return "vw=" + std::to_string(t.vectorWidth) + ",il=" + std::to_string(t.interleave);
}

std::optional<LoopTuning> parseChoice(const std::string& text) {
    LoopTuning t;
    if (std::sscanf(text.c_str(), "vw=%d,il=%d", &t.vectorWidth, &t.interleave) != 2)
        return std::nullopt;
    return t;
}

/// The optimized IR without the kernel's own symbol names (kiln_k_<hash>[_n]).
std::string codeWithoutNames(const std::string& ir) {
    std::string out;
    out.reserve(ir.size());
    for (size_t i = 0; i < ir.size();) {
        if (ir.compare(i, 7, "kiln_k_") == 0) {
            out += "kiln_k";
            i += 7;
            while (i < ir.size() &&
                   (std::isxdigit(static_cast<unsigned char>(ir[i])) || ir[i] == '_'))
                ++i;
            continue;
        }
        out += ir[i++];
    }
    return out;
}

std::string pointwiseKey(const compiler::LoopProgram& p, const compiler::ScheduledKernel& k,
                         const std::vector<int64_t>& syms, bool coordinateDescent) {
    std::string key = std::string("pointwise-v1;") + (coordinateDescent ? "descent" : "grid") +
                      ";threads=" + std::to_string(parallelThreads()) + ";syms=";
    for (int64_t s : syms)
        key += std::to_string(s) + ",";
    return key + ";" + codegen::kernelIdentity(p, k);
}

/// The cached result of an earlier tuning of this kernel, recompiled (from the kernel cache).
Expected<std::optional<TuneResult>> fromTuningCache(const compiler::LoopProgram& p,
                                                    const compiler::Schedule& s, size_t index,
                                                    const std::string& key) {
    auto cached = loadTuning(key);
    if (!cached) return std::optional<TuneResult>();
    auto chosen = std::find_if(cached->begin(), cached->end(),
                               [](const CachedCandidate& c) { return c.chosen; });
    std::optional<LoopTuning> tuning = parseChoice(chosen->choice);
    if (!tuning) return std::optional<TuneResult>();
    auto compiled = codegen::compileKernels(p, s, {index}, {*tuning});
    if (!compiled) return compiled.error();
    TuneResult result;
    result.kernel = (*compiled)[0];
    result.fromCache = true;
    for (const CachedCandidate& c : *cached) {
        AutotuneChoiceEvent e =
            choiceOf(c.description, {c.timeNs, c.minNs, c.maxNs, c.runs, c.stoppedEarly}, c.chosen);
        e.fromCache = true;
        result.candidates.push_back(std::move(e));
    }
    return std::optional<TuneResult>(std::move(result));
}

} // namespace

AutotuneChoiceEvent choiceOf(std::string description, const Timing& t, bool chosen) {
    AutotuneChoiceEvent e;
    e.candidate = std::move(description);
    e.timeNs = t.medianNs;
    e.minNs = t.minNs;
    e.maxNs = t.maxNs;
    e.runs = t.runs;
    e.stoppedEarly = t.stoppedEarly;
    e.chosen = chosen;
    return e;
}

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

Timing timeRuns(const std::function<void()>& fn, int64_t bestNs) {
    int64_t start = monotonicNs();
    fn(); // warm up caches and pages
    const int64_t warmUp = monotonicNs() - start;
    if (bestNs > 0 && warmUp > bestNs + bestNs / 2) return {warmUp, warmUp, warmUp, 1, true};
    std::vector<int64_t> times;
    const int64_t budget = monotonicNs() + 200'000'000; // at most ~0.2 s of runs per candidate
    for (int i = 0; i < 7 && (i < 3 || monotonicNs() < budget); ++i) {
        start = monotonicNs();
        fn();
        times.push_back(monotonicNs() - start);
        if (i == 0 && bestNs > 0 && times[0] > bestNs + bestNs / 2)
            return {times[0], times[0], times[0], 1, true};
    }
    std::sort(times.begin(), times.end());
    return {times[times.size() / 2], times.front(), times.back(), static_cast<int>(times.size()),
            false};
}

Timing timeKernel(const codegen::CompiledKernel& k, const compiler::ScheduledKernel& kernel,
                  const std::vector<int64_t>& syms, BenchmarkWorkspace& ws, int64_t bestNs) {
    std::vector<char*> pointers;
    for (int32_t id : k.bufferParams)
        pointers.push_back(ws.pointer(id));
    int64_t outer =
        kernel.outerRanges.empty() ? 1 : compiler::evaluate(kernel.outerRanges[0], {}, syms);
    return timeRuns(
        [&] {
            parallelFor(outer, 1,
                        [&](int64_t b, int64_t e) { k.entry(pointers.data(), syms.data(), b, e); });
        },
        bestNs);
}

bool sameCode(const codegen::CompiledKernel& a, const codegen::CompiledKernel& b) {
    return !a.llvmIR.empty() && codeWithoutNames(a.llvmIR) == codeWithoutNames(b.llvmIR);
}

Expected<TuneResult> autotuneKernel(const compiler::LoopProgram& p, const compiler::Schedule& s,
                                    size_t index, const std::vector<int64_t>& syms,
                                    const TuneOptions& options) {
    const compiler::ScheduledKernel& kernel = s.kernels.at(index);
    const std::string key = pointwiseKey(p, kernel, syms, options.coordinateDescent);
    if (options.useCache) {
        auto cached = fromTuningCache(p, s, index, key);
        if (!cached) return cached.error();
        if (*cached) return std::move(**cached);
    }

    BenchmarkWorkspace ws(p, syms);
    std::vector<LoopTuning> tried;
    struct Measured {
        codegen::CompiledKernel code;
        Timing timing;
        std::string description;
    };
    std::vector<Measured> measured;
    auto best = [&] {
        size_t b = 0;
        for (size_t i = 1; i < measured.size(); ++i)
            if (measured[i].timing.medianNs < measured[b].timing.medianNs) b = i;
        return b;
    };
    auto measure = [&](const LoopTuning& t) -> Status {
        if (std::find(tried.begin(), tried.end(), t) != tried.end()) return {};
        tried.push_back(t);
        auto compiled = codegen::compileKernels(p, s, {index}, {t});
        if (!compiled) return compiled.error();
        const codegen::CompiledKernel& code = (*compiled)[0];
        std::string what = describe(t);
        Timing timing;
        auto twin = std::find_if(measured.begin(), measured.end(),
                                 [&](const Measured& m) { return sameCode(m.code, code); });
        if (twin != measured.end()) {
            timing = twin->timing; // the same machine code: its time, not a second measurement
            what += " (same code as " + twin->description + ")";
        } else {
            timing = timeKernel(code, kernel, syms, ws,
                                measured.empty() ? 0 : measured[best()].timing.medianNs);
        }
        measured.push_back({code, timing, what});
        if (options.progress)
            options.progress(kernel.name + ": candidate " + std::to_string(measured.size()) + " (" +
                             what + ") " + std::to_string(timing.medianNs / 1000) + " us" +
                             (timing.stoppedEarly ? ", stopped: cannot win" : ""));
        return {};
    };
    // The full grid, or with coordinate descent a coarse start the walk refines from.
    const std::vector<LoopTuning> grid =
        options.coordinateDescent
            ? std::vector<LoopTuning>{{0, 0}, {8, 1}, {16, 1}}
            : std::vector<LoopTuning>{{0, 0}, {4, 1}, {8, 1}, {8, 2}, {16, 1}, {16, 2}, {16, 4}};
    for (const LoopTuning& t : grid)
        if (auto st = measure(t); !st) return st.error();
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
                if (measured.size() > before &&
                    measured.back().timing.medianNs < measured[b].timing.medianNs)
                    improved = true;
            }
        }
    }
    const size_t winner = best();
    TuneResult result;
    result.kernel = measured[winner].code;
    std::vector<CachedCandidate> entry;
    for (size_t i = 0; i < measured.size(); ++i) {
        const Timing& t = measured[i].timing;
        result.candidates.push_back(choiceOf(measured[i].description, t, i == winner));
        entry.push_back({measured[i].description, choiceText(tried[i]), t.medianNs, t.minNs,
                         t.maxNs, t.runs, t.stoppedEarly, i == winner});
    }
    if (options.useCache) storeTuning(key, entry);
    return result;
}

} // namespace kiln::inductor
