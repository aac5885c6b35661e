// SPDX-License-Identifier: MIT
/// \file
/// What the compiler (the inductor backend) and the runtime report: the generated kernels of a
/// graph, autotuning candidates with their measured times, every kernel launch with host-clock
/// start/end, and the pre- and post-fusion diagrams as DOT text. Plain data like
/// capture_events.h; the trace layer stores each kind in its own table (docs/trace-schema.md).
#pragma once

#include <cstdint>
#include <string>

namespace kiln {

/// One kernel of a compiled graph, reported once when the graph is compiled.
struct KernelEvent {
    int64_t kernelId = 0;     ///< unique within the run; launches and autotune choices use it
    std::string compileId;    ///< the compile that produced the graph ("0/0")
    int32_t graphIndex = 0;   ///< GraphEvent::graphIndex of that graph
    std::string name;         ///< "kiln_poi_fused_add_cos_sin_0", "extern_mm", ...
    std::string kind;         ///< "pointwise", "reduction", "template", "extern", "fallback"
    std::string fusedNodes;   ///< the fx node names it computes, comma-separated
    std::string sourceCode;   ///< kernel IR text, then the generated LLVM IR
    std::string launchConfig; ///< "threads=2 outer=4096 inner=4096 vector=16", readable
    /// The AOT graph it computes part of: "aot_forward", "aot_backward" or "aot_inference".
    std::string graphKind;
};

/// One candidate that max-autotune measured for a kernel.
struct AutotuneChoiceEvent {
    int64_t kernelId = 0;
    std::string candidate; ///< "extern_mm (BLAS)", "template tile=64x64x32 +epilogue", ...
    int64_t timeNs = 0;    ///< median measured time of one call
    bool chosen = false;
    int runs = 0;      ///< timed runs behind timeNs (after a warm-up run); 0: not known
    int64_t minNs = 0; ///< the fastest timed run
    int64_t maxNs = 0; ///< the slowest timed run
    /// Timing stopped after the first run: it was already far slower than the best so far, so
    /// the candidate could not win (timeNs is that run).
    bool stoppedEarly = false;
    /// The times come from the tuning cache: measured by an earlier run on this CPU for the
    /// same kernel and sizes, not measured again in this run.
    bool fromCache = false;
};

/// One execution of a kernel. Reported from the calling thread at high rates: sinks must only
/// queue it (no I/O on the calling thread).
struct KernelLaunchEvent {
    int64_t kernelId = 0;
    int64_t startNs = 0; ///< monotonicNs(); the trace stores it run-relative
    int64_t endNs = 0;
    std::string device = "cpu";
    std::string grid;  ///< GPU launch geometry, or "threads=N" on the CPU
    std::string block; ///< empty on the CPU
    int32_t registers = 0;
    int32_t sharedMemory = 0;
};

/// A diagram of a compiled graph, as DOT text (rendered to SVG/PNG on demand).
struct DiagramEvent {
    std::string compileId;
    int32_t graphIndex = 0;
    std::string kind; ///< "pre_fusion" or "post_fusion"
    std::string dot;
};

} // namespace kiln
