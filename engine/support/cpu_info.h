// SPDX-License-Identifier: MIT
/// \file
/// What the CPU can do, read from CPUID (feature bits, never the vendor or model): which
/// vector instruction set the eager kernels dispatch to, and the model name the trace records.
#pragma once

#include <string>

namespace kiln {

/// The vector instruction sets Kiln has kernels for, in increasing order.
enum class CpuIsa {
    Baseline, ///< x86-64's SSE2
    Avx2,     ///< AVX2 + FMA + F16C (Haswell, Zen and later)
    Avx512,   ///< AVX-512 F/BW/DQ/VL (Skylake-SP, Zen 4 and later)
};

/// The best instruction set this CPU and operating system support (the OS must save the
/// vector registers: CPUID's bits alone are not enough, GCC's __builtin_cpu_supports checks).
CpuIsa supportedIsa();

/// The instruction set the eager kernels use: supportedIsa(), lowered by KILN_CPU_ISA
/// (baseline, avx2 or avx512; a higher value than the CPU supports is ignored) so that every
/// code path can be run and compared on one machine.
CpuIsa activeIsa();

/// "baseline", "avx2", "avx512".
const char* isaName(CpuIsa isa);

/// The CPU's brand string ("AMD EPYC 9B14", "Intel(R) Xeon(R) Platinum 8480+"), trimmed.
std::string cpuModelName();

} // namespace kiln
