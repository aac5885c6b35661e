// SPDX-License-Identifier: MIT
/// \file
/// `torch.profiler` Chrome traces (`export_chrome_trace`) into a trace: the profile's measured
/// kernel and operator times become `kernel_launches` of a run's kernels, either of a run
/// imported from the same process's TORCH_TRACE log (`kiln import PROFILE --into TRACE --run N`)
/// or of a new run made from the profile alone. How events are matched is in docs/import.md.
///
/// The profile is read in one streaming pass that keeps only the fields of its complete ("X")
/// events, and matched in memory; nothing is written unless the whole file parses, so a
/// truncated or foreign file changes nothing.
#pragma once

#include "import/import_options.h"
#include "support/expected.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace kiln::importer {

/// One complete event of a profile, as much of it as the import uses.
struct ProfileEvent {
    int64_t index = 0; ///< 1-based position in traceEvents
    std::string name;
    std::string cat; ///< lower-cased: "cpu_op", "kernel", "gpu_memcpy", "cuda_runtime", ...
    std::string pid; ///< pid and tid as text: kineto writes numbers and, for some rows, strings
    std::string tid;
    double tsUs = 0;  ///< as written (microseconds)
    double durUs = 0; ///< as written (microseconds)
    int64_t correlation = -1;
    int64_t device = -1;
    std::string grid;  ///< "(x, y, z)" for GPU kernels
    std::string block; ///< "(x, y, z)" for GPU kernels
    int32_t registers = 0;
    int32_t sharedMemory = 0;
};

/// A profile's events, read by readProfile().
struct Profile {
    std::vector<ProfileEvent> events; ///< the "X" events, in file order
    int64_t baseTimeNs = 0;           ///< `baseTimeNanoseconds` (Unix epoch), 0 when absent
    int64_t records = 0;              ///< every traceEvents entry
    int64_t skipped = 0;              ///< entries that were not usable "X" events (wrong types)
    int64_t otherPhases = 0;          ///< flow, metadata and instant entries
};

/// Reads \p path; an error (kind ImportError) when it cannot be read or is not a Chrome trace
/// object with a `traceEvents` array (truncated JSON, an empty or binary file), naming the byte
/// where parsing stopped. Entries of the wrong shape are counted in Profile::skipped. \p options'
/// progress hears the bytes parsed; cancelling fails with kind ImportCancelled.
Expected<Profile> readProfile(const std::string& path, const ImportOptions& options = {});
/// The same from a stream of `totalBytes` (0: unknown), named `path` in messages.
Expected<Profile> readProfile(std::istream& in, const std::string& path, int64_t totalBytes,
                              const ImportOptions& options = {});

/// What the import of one profile did, for the CLI's summary.
struct ProfileSummary {
    std::string profilePath;
    int64_t runId = 0;
    bool newRun = false;
    int64_t records = 0;     ///< traceEvents entries
    int64_t events = 0;      ///< complete ("X") events
    int64_t skipped = 0;     ///< entries of the wrong shape
    int64_t graphCalls = 0;  ///< `## Call CompiledFxGraph KEY ##` events
    int64_t linkedCalls = 0; ///< of those, calls whose KEY named an output code of the run
    int64_t kernelsAdded = 0;
    int64_t launches = 0;       ///< kernel_launches rows written
    int64_t externLaunches = 0; ///< of those, extern calls (aten::mm, ... under a graph call)
    int64_t gpuLaunches = 0;    ///< of those, GPU kernels matched by name
    /// of those, Inductor's C++ kernels profiled by name (cpp.enable_kernel_profile)
    int64_t cpuKernelLaunches = 0;
    int64_t unmatchedGpu = 0;     ///< GPU kernels/copies no launch row holds
    int64_t unmatchedInGraph = 0; ///< ops directly under a graph call that matched no extern
    int64_t outsideGraphs = 0;    ///< top-level CPU ops outside compiled graphs (eager code)
    int64_t extras = 0;           ///< import_extras rows written (one per unmatched name)
    /// The most frequent unmatched names, "where: name" with a count.
    std::vector<std::pair<std::string, int64_t>> topUnmatched;
    struct Graph {
        std::string compileId;
        std::string pass; ///< "forward", "backward", "inference" or ""
        std::string key;
        bool linked = false;
        int64_t calls = 0;
        int64_t totalNs = 0;  ///< the graph calls' own durations
        int64_t externNs = 0; ///< the matched extern calls inside them
    };
    std::vector<Graph> graphs;
};

/// Imports the profile at \p profilePath into run \p runId of the trace at \p tracePath (a run
/// imported from a TORCH_TRACE log, without launches yet), or, when \p runId is 0, into a new
/// run of that trace made from the profile alone. Writes in one transaction: on any error
/// nothing of the profile is written (a new run is left marked `error`). Cancelling through
/// \p options' progress (called while the file is read) writes nothing, not even a new run.
Expected<ProfileSummary> importProfile(const std::string& profilePath, const std::string& tracePath,
                                       int64_t runId, const ImportOptions& options = {});

} // namespace kiln::importer
