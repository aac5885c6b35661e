// SPDX-License-Identifier: MIT
/// \file
/// Pass 3, fuse_kernels: the fusion scheduler. Walks the nodes in order and adds each to the open
/// kernel when their iteration spaces agree (the same outer ranges; a node's extra trailing
/// ranges become its stage's inner loop) and every value it reads from that kernel was written
/// by the same outer iteration. That gives vertical fusion (producer/consumer chains),
/// reductions with their pointwise prologue and epilogue, and horizontal fusion of independent
/// loops over the same ranges. Externs and fallbacks end the open kernel.
#pragma once

#include "compiler/schedule.h"

#include <functional>
#include <string>

namespace kiln::compiler {

struct FusionOptions {
    int maxFusionSize = 64; ///< max_fusion_size: stages per kernel
    /// A node joins a kernel only when it reads a buffer the kernel writes or reads (GPU
    /// graphs: an unrelated node of the same shape would only add registers and index math to
    /// the kernel, as Inductor's fusion scores none for it). Off: any node of compatible shape
    /// that comes next joins (CPU graphs: fewer parallel regions).
    bool requireSharedData = false;
    /// TORCH_LOGS=fusion: one line per decision ("cannot fuse buf3 with ...: ..."), may be null.
    std::function<void(const std::string&)> log;
};

Schedule fuseKernels(const LoopProgram& program, const FusionOptions& options);

} // namespace kiln::compiler
