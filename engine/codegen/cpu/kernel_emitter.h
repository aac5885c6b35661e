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

/// Adds the matrix-product template `kernel` (Kind::Template: its tile sizes, the mm/addmm node
/// and an optional epilogue node) as function `symbol`; returns the buffer ids it reads, in
/// order: A, B (the runtime passes B packed as contiguous rows), the bias (addmm), the output,
/// then the epilogue's other inputs.
std::vector<int32_t> emitTemplate(llvm::Module& module, const std::string& symbol,
                                  const compiler::LoopProgram& program,
                                  const compiler::ScheduledKernel& kernel,
                                  const EmitTarget& target);

} // namespace kiln::codegen
