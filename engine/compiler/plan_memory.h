// SPDX-License-Identifier: MIT
/// \file
/// Pass 4, plan_memory: buffer reuse. A computed buffer whose last reader ran before a later
/// buffer of the same byte size is written hands its storage to that buffer, so a chain of
/// kernels allocates what is live at once rather than every intermediate. Graph outputs and
/// inputs are never reused; sizes with symbols are reused only when equal as expressions.
#pragma once

#include "compiler/schedule.h"

namespace kiln::compiler {

struct MemoryPlan {
    /// Per buffer: the buffer whose storage it takes over, or its own id (a fresh allocation).
    std::vector<int32_t> storageOf;
    int reused = 0;
};

MemoryPlan planMemory(const LoopProgram& program, const Schedule& schedule,
                      const std::vector<BufferView>& outputs);

/// "buf3 reuses buf1" lines.
std::string toString(const MemoryPlan& plan, const LoopProgram& program);

} // namespace kiln::compiler
