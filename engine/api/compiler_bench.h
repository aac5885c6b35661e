// SPDX-License-Identifier: MIT
/// \file
/// The compiler benchmark behind `kiln bench` and kiln-bench-compiler (part of the engine's
/// facade, so the command line and the harness need nothing from bench/): for each workload and
/// mode it measures, in one process, the compile time (the backend's compile of the graphs; the
/// first call, capture included, separately), the median wall time of a call, the number of
/// kernels, and the ratio to eager; compiled results are checked against eager ones before any
/// timing counts.
#pragma once

#include "support/expected.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln::api {

/// A workload: Python source defining `fn(*inputs)` and `make_inputs()` (which returns the
/// tuple of fn's arguments).
struct Workload {
    std::string name;
    std::string source;
    /// The file the source was read from: it runs as that file, unchanged, and errors name its
    /// lines. Empty for the built-in workloads, whose source runs after `import torch`,
    /// `import torch.nn as nn` and `import torch.nn.functional as F`.
    std::string path;
};

/// Reads a workload file; its name is the file's stem. An error when it cannot be read (what
/// the source defines is checked when it runs).
Expected<Workload> loadWorkloadFile(const std::string& path);

/// The modes a row can measure: "eager" (fn called as it is), then every mode torch.compile
/// accepts ("default" compiles with mode=None).
std::vector<std::string> benchModeNames();

/// The workloads of the specification's acceptance table (sin+cos, row softmax,
/// gelu(layer_norm), an MLP).
std::vector<Workload> builtinWorkloads(bool quick);

struct CompilerBenchRow {
    std::string workload, mode;
    double compileMs = 0;   ///< the backend's compile of the graphs (passes and LLVM)
    double firstCallMs = 0; ///< the first call: capture (which runs the ops), compile and run
    double medianMs = 0;    ///< of the timed calls (after the first)
    double minMs = 0;       ///< the fastest timed call
    double p90Ms = 0;       ///< the 90th percentile of the timed calls
    int kernels = 0;
    double ratioToEager = 0;     ///< median over the eager row's median (0 without an eager row)
    double maxRelativeError = 0; ///< ||compiled - eager|| / ||eager||
    /// max-autotune modes: compileMs is measured with an empty tuning cache, this with the
    /// entries that compile wrote (a second run of the workload); -1 for other modes.
    double warmCompileMs = -1;
    /// GPU workloads: CUPTI's kernel time of the compiled graphs' launches per timed call (eager
    /// ops' single-op kernels are not tagged); -1 on the CPU.
    double gpuKernelMsPerCall = -1;
    /// Why the row has no numbers, on one line: "file:line: Type: message" for an error in
    /// the workload, "file: message" when it does not define fn or make_inputs.
    std::string error;
};

struct CompilerBenchOptions {
    std::vector<Workload> workloads;
    std::vector<std::string> modes = {"eager", "default", "max-autotune-no-cudagraphs"};
    int calls = 10;
    /// Each workload is measured in a child process of its own (bench_isolation.h), stopped
    /// after this long; 0 measures in this process, without a limit.
    double workloadTimeoutSeconds = 600;
    /// Told each workload's rows as they are measured (progress); may be empty.
    std::function<void(const std::vector<CompilerBenchRow>&)> onWorkloadDone;
};

std::vector<CompilerBenchRow> runCompilerBench(const CompilerBenchOptions& options);

/// The table `kiln bench` prints (a row that failed prints its error instead of numbers), and
/// its JSON: a list of rows with "ok" and, for a failed row, "error" (its numbers are null, as
/// are ratio_to_eager without an eager time and numbers that are not finite).
std::string formatTable(const std::vector<CompilerBenchRow>& rows);
std::string formatJson(const std::vector<CompilerBenchRow>& rows);

} // namespace kiln::api
