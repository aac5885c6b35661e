// SPDX-License-Identifier: MIT
/// \file
/// What the capture layer (torch.compile) reports while a workload runs: frames (code objects),
/// compiles with their timings and outcome, guards, recompiles with the guard that failed,
/// graph breaks, the captured graphs and their nodes, the effective configuration, and generic
/// timeline events. Plain data: the trace layer stores each kind in its own table
/// (docs/trace-schema.md), tests collect them in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A code object torch.compile saw: a function, or a resume point after a graph break.
struct FrameEvent {
    int64_t frameId = 0;  ///< Dynamo's frame id (the f in compile id f/c)
    std::string function; ///< co_name: "fn", "forward", "torch_dynamo_resume_in_fn_at_12"
    std::string file;
    int32_t line = 0;           ///< first line of the function (co_firstlineno)
    std::string kind;           ///< "function" or "resume"
    int64_t parentFrameId = -1; ///< for resume points: the frame they continue
    int32_t resumeLine = 0;     ///< for resume points: the line they resume after
};

/// One attempt to compile a frame: compile id "f/c".
struct CompileEvent {
    std::string compileId;
    int64_t frameId = 0;
    int32_t compileIndex = 0;
    std::string reason;     ///< "first" or "recompile"
    int64_t startNs = 0;    ///< monotonicNs() when it started (the trace stores it run-relative)
    int64_t durationNs = 0; ///< filled when the compile finishes
    /// "ok" (one graph, no break), "break" (ended by a graph break), "skipped" (frame runs
    /// eagerly: break in a loop, cache limit, ...), "no_ops" (nothing to compile), "failed".
    std::string status;
    std::string failure; ///< why it failed or was skipped
    std::string backend;
    std::string mode;
    /// Phase timings (name, nanoseconds): "trace", "guards", "backend_compile", ...
    std::vector<std::pair<std::string, int64_t>> phases;
};

struct GuardEvent {
    std::string compileId;
    std::string kind;       ///< TENSOR_MATCH, EQUALS_MATCH, ID_MATCH, TYPE_MATCH, LENGTH_CHECK, ...
    std::string source;     ///< "L['x']", "G['SCALE']", "L['self'].training"
    std::string expression; ///< the check as PyTorch prints it
    std::string expected;   ///< expected value, readable
    int32_t userLine = 0;   ///< line of the user code that made the guard (0 when none)
    /// False for a read the entry does not check: PyTorch 2.3 (guard_nn_modules=False) installs
    /// no guard on what is read through an nn.Module. Shown, never checked.
    bool installed = true;
};

/// A recompile: for each older cache entry, its first failing guard.
struct RecompileEvent {
    std::string compileId;       ///< the new compile
    std::string failedCompileId; ///< the older entry that did not pass
    std::string guardSource;
    std::string expected;
    std::string actual;
    std::string reason; ///< the full text, as TORCH_LOGS=recompiles prints it
};

struct GraphBreakEvent {
    std::string compileId;
    int32_t order = 0; ///< execution order within the run (1-based)
    std::string file;
    int32_t line = 0;
    int32_t column = 0;
    std::string reasonKind; ///< "print", "item", "data_dependent_branch", "graph_break", ...
    std::string reason;     ///< PyTorch's reason text
    std::string userStack;  ///< one "File ..., line N, in fn" per frame, innermost last
};

struct GraphNodeInfo {
    std::string name;
    std::string op; ///< placeholder, call_function, call_method, call_module, get_attr, output
    std::string target;
    std::string args;  ///< readable arguments
    std::string shape; ///< "[8, 16]" or "[s0, 16]"; empty for non-tensors
    std::string dtype; ///< "torch.float32"; empty for non-tensors
    int32_t sourceLine = 0;
    /// call_module: the module as the code reads it ("self.net.0") and its class ("Linear");
    /// empty otherwise.
    std::string modulePath;
    std::string moduleType;
};

struct GraphEvent {
    std::string compileId;
    /// Position within the run's Dynamo graphs (0-based); AOT autograd's graphs share their
    /// Dynamo graph's.
    int32_t graphIndex = 0;
    std::string readableCode; ///< as GraphModule.print_readable() prints it
    int32_t nodeCount = 0;
    int32_t opCount = 0; ///< nodes that call something (function, method or module)
    std::vector<GraphNodeInfo> nodes;
    /// "dynamo" (what a backend receives), or what AOT autograd made of it: "aot_joint",
    /// "aot_forward", "aot_backward" or "aot_inference".
    std::string kind = "dynamo";
    /// aot_forward: the values it saves for the backward, as JSON [{"name", "shape", "dtype",
    /// "bytes"}], their number and their bytes at the example sizes.
    std::string savedTensors;
    int32_t savedCount = 0;
    int64_t savedBytes = 0;
};

/// One effective option of the run: where its value came from.
struct ConfigEvent {
    std::string key;
    std::string value;
    std::string defaultValue;
    std::string source; ///< "default", "mode", "user", "env"
};

/// A span or instant on the run's timeline (compile phases, calls of compiled code, ...).
struct TimelineEvent {
    std::string category; ///< "compile", "call", "pass", ...
    std::string name;
    std::string compileId;  ///< empty when not tied to a compile
    int64_t startNs = 0;    ///< monotonicNs(); the trace stores it run-relative
    int64_t durationNs = 0; ///< 0 for instants
    std::string detailJson; ///< extra facts as a JSON object, "{}" when none
};

} // namespace kiln
