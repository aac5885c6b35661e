// SPDX-License-Identifier: MIT
/// \file
/// Internal: what the pointwise and reduction emitters share around the body: the parameter
/// list, the index type, and the analysis that decides which accesses along the innermost
/// range can be one 128-bit vector access per thread.
#pragma once

#include "codegen/cuda/cuda_kernel.h"
#include "compiler/schedule.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::codegen::cuda {

/// Buffers in order of first use (read or written), then every size symbol of the program.
std::vector<KernelArg> kernelArgs(const compiler::LoopProgram& program,
                                  const compiler::ScheduledKernel& kernel);
/// `extern "C" __global__ void __launch_bounds__(threads) name(params)`.
std::string kernelSignature(const std::string& name, const std::vector<KernelArg>& args,
                            int threads);
/// Whether some index may reach 2^31 (any symbolic size, or a static extent that large).
bool needs64BitIndex(const compiler::LoopProgram& program, const compiler::ScheduledKernel& kernel);
/// The static value of an index (nullopt when it has symbols).
std::optional<int64_t> staticValue(const compiler::Index& e);

/// How one access (a load or store index) behaves along loop variable `var` when each thread
/// handles `width` consecutive values of it starting at a multiple of `width`.
enum class AccessKind : uint8_t { Vector, Invariant, Gather };
/// Vector: coefficient 1 and the rest divisible by width (the size symbols that must be
/// multiples for it are added to `conditions`, when given). Invariant: does not use the variable.
AccessKind classifyAccess(const compiler::Index& index, int32_t var, int width,
                          VectorPathCondition* conditions);

class ExprPrinter;
/// The condition as the kernel tests it: "(s0 % 4 == 0) && kiln_aligned(in_ptr0, 16)".
std::string conditionText(const VectorPathCondition& condition, const compiler::LoopProgram& p,
                          const ExprPrinter& printer);
/// A kernel's vector and scalar paths behind the vector path's condition, each compiled alone
/// under its define (KernelPath): the vector-only image traps where the condition fails, which
/// the host never launches it with.
std::string twoPaths(const std::string& condition, const std::string& vectorPath,
                     const std::string& scalarPath);

/// Loads of a body, deduplicated by (buffer, index).
std::vector<const compiler::ScalarNode*> distinctLoads(const compiler::Scalar& body);

/// The widest vector (elements per 16 bytes of the smallest element among `dtypes`, 1..8).
int vectorWidthFor(const std::vector<tensor::DType>& dtypes);

} // namespace kiln::codegen::cuda
