// SPDX-License-Identifier: MIT
/// \file
/// Reading the CUDA libraries Kiln loads later (NVRTC for kernels, cuBLASLt for products) into
/// the page cache while a script starts on the GPU. On a machine whose page cache does not hold
/// them, the first process paid for reading them at its first compile and its first product
/// (on an H100 machine: 0.15 s for NVRTC, 0.3 s for cuBLASLt's 541 MB); asked for at context
/// creation, the read happens beside the script's own start.
#pragma once

namespace kiln::runtime {

/// Starts, once per process, a thread that loads NVRTC (as the code generator will) and reads
/// its file, then reads cuBLASLt's file. Never fails: a library that is not installed is left to
/// the component that needs it to report.
void prefetchCudaLibraries();

} // namespace kiln::runtime
