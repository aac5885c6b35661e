// SPDX-License-Identifier: MIT
/// \file
/// The compiler benchmark behind `kiln bench` and kiln-bench-compiler: for each workload and
/// mode it measures, in one process, the compile time (the backend's compile of the graphs; the
/// first call, capture included, separately), the median wall time of a call, the number of
/// kernels, and the ratio to eager; compiled results are checked against eager ones before any
/// timing counts.
#pragma once

#include <string>
#include <vector>

namespace kiln::bench {

/// A workload: Python source defining `fn(*inputs)` and `make_inputs()`.
struct Workload {
    std::string name;
    std::string source;
};

/// The workloads of the specification's acceptance table (sin+cos, row softmax,
/// gelu(layer_norm), an MLP).
std::vector<Workload> builtinWorkloads(bool quick);

struct CompilerBenchRow {
    std::string workload, mode;
    double compileMs = 0;   ///< the backend's compile of the graphs (passes and LLVM)
    double firstCallMs = 0; ///< the first call: capture (which runs the ops), compile and run
    double medianMs = 0;
    int kernels = 0;
    double ratioToEager = 0;
    double maxRelativeError = 0; ///< ||compiled - eager|| / ||eager||
    std::string error;           ///< why the row has no numbers
};

struct CompilerBenchOptions {
    std::vector<Workload> workloads;
    std::vector<std::string> modes = {"eager", "default", "max-autotune-no-cudagraphs"};
    int calls = 10;
};

std::vector<CompilerBenchRow> runCompilerBench(const CompilerBenchOptions& options);

/// The table `kiln bench` prints, and its JSON.
std::string formatTable(const std::vector<CompilerBenchRow>& rows);
std::string formatJson(const std::vector<CompilerBenchRow>& rows);

} // namespace kiln::bench
