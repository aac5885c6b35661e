// SPDX-License-Identifier: MIT
/// \file
/// Where a run ran (schema version 4's `runs.machine`), decoded, and the readable text the CLI
/// and Kiln Studio show for it: one summary line, the matrix-product libraries, and what differs
/// between the machines of two runs. Timings measured on different CPUs, with different thread
/// counts or matmul libraries, are not directly comparable, and the tools say so rather than
/// letting a "2x faster" hide a change of machine.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kiln::trace {

/// The facts of a `runs.machine` JSON object (RunInfo::machineJson). Every field is empty (or
/// 0) when the object did not carry it, and all of them are when the run recorded no machine
/// (a file older than schema version 4, or a runner that did not report it).
struct MachineInfo {
    std::string cpu;     ///< the CPU's model name, "AMD EPYC 9B14"
    std::string isa;     ///< the instruction set the eager kernels use: "avx512", "avx2", ...
    int64_t threads = 0; ///< threads of parallel loops
    /// (dtype, library with version and code path), in the object's order:
    /// ("float32", "oneDNN 2.6.3 (avx512_core_bf16)").
    std::vector<std::pair<std::string, std::string>> matmul;

    bool recorded() const { return !cpu.empty() || !isa.empty() || threads > 0 || !matmul.empty(); }
    /// The library of \p dtype's matrix products; empty when not recorded.
    std::string matmulOf(const std::string& dtype) const;
    bool operator==(const MachineInfo&) const = default;
};

/// "AMD EPYC 9B14 (avx512, 2 threads)"; the parts that were recorded; empty when none was.
std::string machineSummary(const MachineInfo& machine);
/// Where a run imported from PyTorch came from, from its `machine` JSON
/// ({"source": "torch_trace", "pytorch", "cuda", "rank"}): "PyTorch 2.11.0 · CUDA 13.0 · rank
/// 2"; "PyTorch version not logged" when the log had none of these.
std::string importedOrigin(const std::string& machineJson);
/// "float32: oneDNN 2.6.3 (avx512_core_bf16); float64: BLIS 0.9.0 (zen3)"; empty when none.
std::string matmulSummary(const MachineInfo& machine);

/// One fact two machines disagree on.
struct MachineDifference {
    std::string what; ///< "CPU", "ISA", "threads" or "float32 matmul"
    std::string a;    ///< the first machine's value; "none" when it has none
    std::string b;
};

/// What differs between \p a and \p b, in the order CPU, ISA, threads, then the matmul library
/// of each dtype (a's dtypes first). Empty when they agree, and when either recorded nothing:
/// an unknown machine is not a different one (say so separately, see MachineInfo::recorded).
std::vector<MachineDifference> machineDifferences(const MachineInfo& a, const MachineInfo& b);

} // namespace kiln::trace
