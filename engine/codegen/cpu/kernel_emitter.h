// SPDX-License-Identifier: MIT
/// \file
/// Internal: loop IR -> LLVM IR for one fused kernel. Used by the JIT driver only.
#pragma once

#include "codegen/cpu/cpu_codegen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace kiln::codegen {

struct EmitTarget {
    bool vectorMath = false; ///< libmvec present: attach vector variants to math calls
    bool avx512 = false;     ///< the host has AVX-512 (16-lane float variants)
};

/// Adds function `symbol` computing kernel `kernel` to `module`; returns the buffer ids in the
/// order the function reads them.
std::vector<int32_t> emitKernel(llvm::Module& module, const std::string& symbol,
                                const compiler::LoopProgram& program,
                                const compiler::ScheduledKernel& kernel, const LoopTuning& tuning,
                                const EmitTarget& target);

} // namespace kiln::codegen
