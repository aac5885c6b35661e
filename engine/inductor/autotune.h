// SPDX-License-Identifier: MIT
/// \file
/// max-autotune for the compiled kernels (max_autotune / max_autotune_pointwise): each fused
/// kernel is compiled with several loop shapes (vector width, interleave) and timed on random
/// inputs of the graph's example sizes; the fastest is kept. coordinate_descent_tuning then
/// walks from the winner one knob at a time while that helps. Every candidate and its time is
/// kept for the trace's autotune_choices; progress goes to TORCH_LOGS=autotuning.
///
/// Benchmarking is what makes max-autotune slow, so it does no more than it must: a candidate
/// whose code is identical to one already timed takes that time, a candidate already far
/// slower than the best stops after one run (it cannot win), and a kernel tuned before on this
/// CPU takes its results from the tuning cache (tuning_cache.h) without running at all.
#pragma once

#include "codegen/cpu/cpu_codegen.h"
#include "compiler/schedule.h"
#include "support/compiler_events.h"
#include "support/expected.h"
#include "tensor/random.h"
#include "tensor/tensor.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace kiln::inductor {

/// How long a candidate took: the median of its timed runs and their spread.
struct Timing {
    int64_t medianNs = 0, minNs = 0, maxNs = 0;
    int runs = 0;
    bool stoppedEarly = false; ///< one run only: it was already far slower than the best
};

/// A candidate as the trace records it (kernelId is filled in by the wrapper).
AutotuneChoiceEvent choiceOf(std::string description, const Timing& t, bool chosen);

struct TuneResult {
    codegen::CompiledKernel kernel;
    std::vector<AutotuneChoiceEvent> candidates;
    bool fromCache = false; ///< the tuning cache decided; nothing was benchmarked
};

struct TuneOptions {
    bool coordinateDescent = false;
    bool useCache = true; ///< use_autotune_local_cache: read and write the tuning cache
    std::function<void(const std::string&)> progress; ///< one line per candidate measured
};

/// Random buffers for a kernel's parameters, sized by the example symbol values (room for
/// every element the buffer's layout reaches), for benchmarking candidates.
class BenchmarkWorkspace {
public:
    BenchmarkWorkspace(const compiler::LoopProgram& p, const std::vector<int64_t>& syms);
    char* pointer(int32_t buffer);

private:
    const compiler::LoopProgram& m_p;
    const std::vector<int64_t>& m_syms;
    std::map<int32_t, tensor::Tensor> m_tensors;
    tensor::Generator m_gen{1234};
};

/// Times fn: one warm-up run, then up to 7 timed runs within about 0.2 s (at least 3). With
/// bestNs > 0 (the best candidate so far), a warm-up or first timed run over 1.5x bestNs ends
/// the timing there: the candidate cannot win (no run of a candidate that fast is that slow).
Timing timeRuns(const std::function<void()>& fn, int64_t bestNs = 0);

/// timeRuns of a compiled kernel on the pool, over its whole outer range.
Timing timeKernel(const codegen::CompiledKernel& k, const compiler::ScheduledKernel& kernel,
                  const std::vector<int64_t>& syms, BenchmarkWorkspace& ws, int64_t bestNs = 0);

/// Whether two compiled kernels have the same code (their optimized IR, names aside).
bool sameCode(const codegen::CompiledKernel& a, const codegen::CompiledKernel& b);

/// Tunes kernel `index` of `schedule`; `symbols` are the example values of the size symbols.
Expected<TuneResult> autotuneKernel(const compiler::LoopProgram& program,
                                    const compiler::Schedule& schedule, size_t index,
                                    const std::vector<int64_t>& symbols,
                                    const TuneOptions& options);

} // namespace kiln::inductor
