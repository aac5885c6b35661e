// SPDX-License-Identifier: MIT
/// \file
/// Internal: how the reduction emitter walks a fused kernel's stages: which stages pair up into
/// one-pass patterns (online softmax, Welford mean + m2), which are plain reductions, argmax
/// or pointwise, and what it cannot generate yet.
#pragma once

#include "compiler/schedule.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::codegen::cuda {

struct StagePlan {
    enum class Kind : uint8_t { Pointwise, Plain, Arg, Welford, Softmax };
    Kind kind = Kind::Pointwise;
    size_t first = 0; ///< the stage emitted (Softmax: the amax; Welford: the first moment)
    int second = -1;  ///< Softmax: the sum stage; Welford: the partner moment, if any
};

/// The stages in order, paired where a pattern applies (`onlineSoftmax`: amax followed by
/// sum(exp(x - amax)) over the same x becomes one pass).
std::vector<StagePlan> planStages(const compiler::LoopProgram& program,
                                  const compiler::ScheduledKernel& kernel, bool onlineSoftmax);

/// Why the kernel cannot be generated for CUDA ("" when it can).
std::string unsupportedReason(const compiler::LoopProgram& program,
                              const compiler::ScheduledKernel& kernel);

/// The longest static row (elements of a stage's inner ranges); nullopt when one is symbolic.
std::optional<int64_t> longestRow(const compiler::LoopProgram& program,
                                  const compiler::ScheduledKernel& kernel);

} // namespace kiln::codegen::cuda
