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

#include <functional>
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

/// Tunes kernel `index` of `schedule`; `symbols` are the example values of the size symbols.
Expected<TuneResult> autotuneKernel(const compiler::LoopProgram& program,
                                    const compiler::Schedule& schedule, size_t index,
                                    const std::vector<int64_t>& symbols,
                                    const TuneOptions& options);

} // namespace kiln::inductor
