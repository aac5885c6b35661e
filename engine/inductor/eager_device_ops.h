// SPDX-License-Identifier: MIT
/// \file
/// Eager ops on the GPU as the design has them: an op whose operands are CUDA tensors becomes a
/// single-op graph (placeholders for its tensors, one call node, the output) that goes through
/// the compiler's pipeline like any captured graph (decompositions, lowering, CUDA code
/// generation, cuBLASLt for products), compiled once per signature (op, how it was called,
/// each tensor's dtype, sizes and strides, the other arguments' values) and then only
/// launched. An op the compiler cannot express without an eager kernel is NotImplementedError,
/// as PyTorch reports an op missing for a backend.
#pragma once

namespace kiln::inductor {

/// Installs the handler (lang::setDeviceOpHandler); idempotent.
void installEagerDeviceOps();

/// How many op signatures have been compiled so far (tests: the cache is used).
long eagerDeviceCompileCount();

} // namespace kiln::inductor
