// SPDX-License-Identifier: MIT
/// \file
/// The fusion scheduler's result: the program's nodes grouped into kernels. A fused kernel runs
/// an outer loop nest (the first dimension parallel) and, inside it, one stage per node: a
/// reduction or pointwise loop over the node's remaining (inner) ranges, so a row softmax is one
/// kernel with three stages per row. Externs and fallbacks are kernels of their own.
#pragma once

#include "compiler/loop_ir.h"

namespace kiln::compiler {

struct KernelStage {
    int32_t node = -1;              ///< index into LoopProgram::nodes
    std::vector<Index> innerRanges; ///< the node's ranges after the kernel's outer ones
};

struct ScheduledKernel {
    enum class Kind : uint8_t { Pointwise, Reduction, Extern, Fallback };
    Kind kind = Kind::Pointwise;
    std::string name; ///< kiln_poi_fused_add_cos_sin_0, kiln_red_fused_..., extern_mm
    std::vector<Index> outerRanges;
    std::vector<KernelStage> stages; ///< fused kernels; externs/fallbacks have one
    std::vector<std::string> origins;

    bool compiled() const { return kind == Kind::Pointwise || kind == Kind::Reduction; }
};

/// "pointwise", "reduction", "extern", "fallback" (the trace's kernels.kind).
const char* kernelKindName(ScheduledKernel::Kind kind);

struct Schedule {
    std::vector<ScheduledKernel> kernels;
};

/// "kiln_poi_fused_add_cos_sin_0: [16777216] stages: buf0 (inner [])" lines.
std::string toString(const Schedule& schedule, const LoopProgram& program);

} // namespace kiln::compiler
