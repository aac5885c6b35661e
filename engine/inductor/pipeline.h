// SPDX-License-Identifier: MIT
/// \file
/// The compiler's pipeline: the passes in the order they run, each timed and its IR kept for
/// the trace (`events` rows of category "pass") and the logs (TORCH_LOGS=schedule, fusion,
/// output_code, ir_pre_fusion, ir_post_fusion).
///
///   1. decompose        captured graph -> core ops          (compiler/decompose_ops)
///      differentiate    when outputs require grad: the joint forward-backward graph
///                       (compiler/differentiate), split into the forward and backward
///                       graphs (compiler/partition_joint); passes 2-5 run on each
///   2. lower_to_loops   core ops -> loop IR buffers          (compiler/lower_to_loops)
///   3. fuse_kernels     loop IR -> kernels                   (compiler/fuse_kernels)
///   4. plan_memory      buffer reuse                         (compiler/plan_memory)
///   5. generate_code    kernels -> LLVM IR -> machine code   (codegen/cpu)
///   6. wrap             one callable per graph               (inductor/compiled_graph); its
///                       outputs' grad_fn runs the compiled backward (inductor/compiled_backward)
#pragma once

#include "inductor/compiled_graph.h"
#include "support/capture_events.h"
#include "support/expected.h"
#include "support/options.h"
#include "support/torch_logger.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln::inductor {

struct PassRecord {
    std::string name;
    int64_t startNs = 0;
    int64_t durationNs = 0;
    std::string irAfter; ///< the pass's output in text form
};

struct PipelineResult {
    std::shared_ptr<GraphArtifacts> artifacts; ///< null when refused
    std::string refusal;                       ///< why the graph runs eagerly instead
    std::vector<PassRecord> passes;
    codegen::CodegenStats codegen;
    /// What AOT autograd made of the graph (PipelineContext::recordAotGraphs): the joint,
    /// forward and backward graphs, or the inference graph.
    std::vector<GraphEvent> aotGraphs;
};

struct PipelineContext {
    lang::Interpreter& interp;
    const OptionValues& options;
    Logger& logger;
    std::string compileId;
    const std::vector<lang::Value>& exampleInputs; ///< sizes for autotuning's benchmarks
    EventSink& sink;                               ///< autotuning progress, as it happens
    /// Every output in a fresh contiguous buffer (the eager device ops: clone, contiguous).
    bool freshOutputs = false;
    /// GPU graphs: stop before NVRTC. The kernels' sources are generated (a pattern the
    /// generator refuses is still a refusal) but not compiled; the artifacts say what the graph
    /// computes and in which layout, and cannot run (eager ops deferred during capture).
    bool planOnly = false;
    /// Print the AOT graphs for the trace and TORCH_LOGS=aot_graphs (a torch.compile'd graph;
    /// the eager device ops' single-op graphs are not shown).
    bool recordAotGraphs = false;
    int32_t graphIndex = 0; ///< the Dynamo graph's index, which names its AOT graphs in logs
};

/// Runs passes 1-5. A JIT failure is an error; a graph the compiler does not handle is a refusal.
Expected<PipelineResult> runPipeline(const PipelineContext& context,
                                     std::shared_ptr<graph::Graph> captured);

} // namespace kiln::inductor
