// SPDX-License-Identifier: MIT
/// \file
/// The wrapper ("one callable per graph"): what the inductor backend returns. It binds the graph
/// inputs to buffers (checking sizes and strides the kernels assume, as size_asserts asks),
/// computes the size symbols, runs the kernels in order (compiled kernels split over the thread
/// pool, externs through BLAS, fallbacks through the eager kernels), and returns the outputs as
/// views of their buffers. Every launch can be timed and reported as a KernelLaunchEvent.
#pragma once

#include "codegen/cpu/cpu_codegen.h"
#include "compiler/aten_graph.h"
#include "compiler/differentiate.h"
#include "compiler/lower_to_loops.h"
#include "compiler/plan_memory.h"
#include "graph/graph.h"
#include "inductor/cuda_kernels.h"
#include "lang/interpreter.h"
#include "support/event_sink.h"
#include "support/torch_logger.h"

#include <memory>
#include <vector>

namespace kiln::inductor {

struct KernelRuntime {
    codegen::CompiledKernel code;               ///< compiled kernels only (CPU graphs)
    std::shared_ptr<const CudaKernelCode> cuda; ///< compiled kernels only (GPU graphs)
    int64_t kernelId = 0;                       ///< the run-unique id launches are reported with
    /// What max-autotune measured for this kernel (empty when it did not tune it).
    std::vector<AutotuneChoiceEvent> choices;
};

struct GraphArtifacts;

/// AOT autograd's compiled backward of a graph whose outputs require grad (pipeline.h): the
/// forward graph returns its outputs then `saved` tensors; the backward graph takes those, one
/// tangent per output that requires grad, and the size symbols' values.
struct AotBackward {
    std::shared_ptr<GraphArtifacts> graph;
    int32_t userOutputs = 0;
    int32_t saved = 0;
    int32_t tangents = 0;
    std::vector<int32_t> tangentOf;          ///< per user output: tangent input, or -1
    std::vector<compiler::GradTarget> grads; ///< per backward output: whose gradient
};

struct GraphArtifacts {
    std::shared_ptr<graph::Graph> captured;
    compiler::AtenGraph aten;
    compiler::LoweredGraph lowered;
    compiler::Schedule schedule;
    compiler::MemoryPlan memory;
    std::vector<KernelRuntime> kernels; ///< one per schedule kernel
    /// What select_templates measured, per schedule kernel (moved into `kernels` later).
    std::vector<std::vector<AutotuneChoiceEvent>> scheduleChoices;
    /// The graph's tensors are on CUDA device 0: kernels are CUDA code (KernelRuntime::cuda),
    /// buffers device memory, products cuBLASLt; launches are timed by the GpuProfiler.
    bool onCuda = false;
    bool sizeAsserts = true;
    /// Fill every buffer with NaN bytes before a kernel writes it (inductor `debug`, or
    /// KILN_POISON_BUFFERS=1): an element a kernel forgets shows up instead of old memory.
    bool poisonBuffers = false;
    bool debug = false; ///< inductor's `debug`: poison buffers and log every launch
    /// Set when the graph's outputs require grad and its backward is compiled too.
    std::shared_ptr<AotBackward> backward;
};

class CompiledGraph {
public:
    /// `logger` is only used when the graph was compiled with inductor's `debug` option.
    CompiledGraph(std::shared_ptr<const GraphArtifacts> artifacts, EventSink* sink, Logger* logger,
                  std::string compileId)
        : m_a(std::move(artifacts))
        , m_sink(sink)
        , m_logger(logger)
        , m_compileId(std::move(compileId)) {}

    /// Runs the graph; raises Python exceptions through `interp` for bad inputs.
    lang::Value run(lang::Interpreter& interp, std::span<const lang::Value> inputs);

    const GraphArtifacts& artifacts() const { return *m_a; }

private:
    std::shared_ptr<const GraphArtifacts> m_a;
    EventSink* m_sink; ///< receives kernel launches; null: not timed
    Logger* m_logger;
    std::string m_compileId;
};

} // namespace kiln::inductor
