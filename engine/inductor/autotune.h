// SPDX-License-Identifier: MIT
/// \file
/// max-autotune for the compiled kernels (max_autotune / max_autotune_pointwise): each fused
/// kernel is compiled with several loop shapes (vector width, interleave) and timed on random
/// inputs of the graph's example sizes; the fastest is kept. coordinate_descent_tuning then
/// walks from the winner one knob at a time while that helps. Every candidate and its time is
/// kept for the trace's autotune_choices; progress goes to TORCH_LOGS=autotuning.
#pragma once

#include "codegen/cpu/cpu_codegen.h"
#include "compiler/schedule.h"
#include "support/expected.h"
#include "tensor/random.h"
#include "tensor/tensor.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace kiln::inductor {

struct TunedCandidate {
    std::string description; ///< "vector width 16, interleave 2"
    int64_t timeNs = 0;
    bool chosen = false;
};

struct TuneResult {
    codegen::CompiledKernel kernel;
    std::vector<TunedCandidate> candidates;
};

struct TuneOptions {
    bool coordinateDescent = false;
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

/// Median time of a compiled kernel over a few runs on the pool (after one warm-up run).
int64_t timeKernel(const codegen::CompiledKernel& k, const compiler::ScheduledKernel& kernel,
                   const std::vector<int64_t>& syms, BenchmarkWorkspace& ws);

/// Median time of `fn` over a few runs (after one warm-up run).
int64_t timeMedian(const std::function<void()>& fn);

/// Tunes kernel `index` of `schedule`; `symbols` are the example values of the size symbols.
Expected<TuneResult> autotuneKernel(const compiler::LoopProgram& program,
                                    const compiler::Schedule& schedule, size_t index,
                                    const std::vector<int64_t>& symbols,
                                    const TuneOptions& options);

} // namespace kiln::inductor
