// SPDX-License-Identifier: MIT
/// \file
/// The GPU half of code generation and launching, for graphs whose inputs are on a CUDA
/// device: each compiled (pointwise or reduction) kernel of the schedule becomes CUDA C++
/// (codegen/cuda), NVRTC compiles it for the device's compute capability through the kernel
/// cache, and the cubin is loaded as a module (runtime). At run time the wrapper launches it
/// with its buffers' device pointers and the size symbols on the current stream.
///
/// Built without the CUDA toolkit's headers, cudaCodegenAvailable() says why and GPU graphs
/// are refused (they run through the eager path, which then reports the missing kernels).
#pragma once

#include "compiler/loop_ir.h"
#include "compiler/schedule.h"
#include "support/expected.h"
#include "tensor/tensor.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kiln::inductor {

class GpuProfiler;

/// A generated, compiled and loaded kernel (opaque outside cuda_kernels.cpp).
struct CudaKernelCode;

struct CudaBuildStats {
    double nvrtcMs = 0; ///< NVRTC time of the kernels compiled now (cache hits cost none)
    int compiled = 0, memoryCacheHits = 0, diskCacheHits = 0;
};

/// Empty when this build can generate GPU code; otherwise why not.
std::string cudaCodegenUnavailableReason();

/// Generates, compiles (through the kernel cache) and loads kernel `kernel` of `schedule` for
/// device 0. CudaCodegenError / CudaCompileError / CudaUnavailable Diagnostics on failure.
Expected<std::shared_ptr<const CudaKernelCode>>
buildCudaKernel(const compiler::LoopProgram& program, const compiler::ScheduledKernel& kernel,
                CudaBuildStats& stats);

/// Generates the kernel's source without compiling it: the CudaCodegenError a build would
/// give for a pattern the generator does not handle, else success (what a plan needs to know).
Status checkCudaKernel(const compiler::LoopProgram& program,
                       const compiler::ScheduledKernel& kernel);

/// The kernel's CUDA C++ source (what `kernels.source_code` and output_code show).
const std::string& cudaKernelSource(const CudaKernelCode& code);
/// "grid=ceil((s0*4096)/1024) block=256 vector=4 per_thread=16 rows=block" for the trace.
std::string cudaLaunchText(const CudaKernelCode& code, const compiler::LoopProgram& program);

/// Launches `code` on the current stream. `buffers` is indexed by buffer id (the kernel's
/// buffers are CUDA tensors), `symbols` by symbol number. The profiler, when given, tags the
/// launch with `kernelId` so its CUPTI record (or events) is reported as that kernel's.
Status launchCudaKernel(const CudaKernelCode& code, std::span<const tensor::Tensor> buffers,
                        std::span<const int64_t> symbols, GpuProfiler* profiler, int64_t kernelId);

} // namespace kiln::inductor
