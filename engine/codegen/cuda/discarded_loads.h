// SPDX-License-Identifier: MIT
/// \file
/// Loads whose values a `where` throws away: in masked_fill(scores, mask, -inf) every read of
/// `scores` sits in the branch a true condition discards, so a thread whose whole vector is
/// masked need not read it (half of a causal attention's scores). The reduction emitter asks
/// this before each vector load and predicates the load on the condition's lanes.
#pragma once

#include "compiler/loop_ir.h"

#include <span>

namespace kiln::codegen::cuda {

/// The condition `c` such that every read of `load` (same buffer and index, direct) in
/// `bodies` is in the false branch of some `where(c, a, b)`, with `c` itself not reading it:
/// where `c` holds, the loaded value is never used. Null when some read is outside such a
/// branch, when the guarding conditions differ between reads, or when nothing reads it.
compiler::Scalar discardingCondition(std::span<const compiler::Scalar> bodies,
                                     const compiler::ScalarNode& load);

} // namespace kiln::codegen::cuda
