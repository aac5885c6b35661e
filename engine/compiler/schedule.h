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
    /// Template: a matrix product (stage 0, an Extern mm/addmm node) computed by Kiln's own
    /// tiled kernel, with the pointwise node of stage 1 (if any) fused as its epilogue.
    enum class Kind : uint8_t { Pointwise, Reduction, Extern, Fallback, Template };
    Kind kind = Kind::Pointwise;
    std::string name; ///< kiln_poi_fused_add_cos_sin_0, kiln_red_fused_..., extern_mm
    std::vector<Index> outerRanges;
    std::vector<KernelStage> stages; ///< fused kernels; externs/fallbacks have one
    std::vector<std::string> origins;
    int tileM = 0, tileN = 0; ///< Template: rows and columns of C one micro-kernel computes

    /// Whether LLVM generates the kernel (otherwise it is a library call or an eager op).
    bool compiled() const {
        return kind == Kind::Pointwise || kind == Kind::Reduction || kind == Kind::Template;
    }
};

/// "pointwise", "reduction", "extern", "fallback" (the trace's kernels.kind).
const char* kernelKindName(ScheduledKernel::Kind kind);

struct Schedule {
    std::vector<ScheduledKernel> kernels;
};

/// "kiln_poi_fused_add_cos_sin_0: [16777216] stages: buf0 (inner [])" lines.
std::string toString(const Schedule& schedule, const LoopProgram& program);

} // namespace kiln::compiler
