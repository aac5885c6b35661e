// SPDX-License-Identifier: MIT
#include "inductor/inductor_backend.h"

#include "graph/codegen.h"
#include "graph/executor.h"
#include "inductor/debug_trace.h"
#include "inductor/graph_diagram.h"
#include "inductor/pipeline.h"
#include "inductor/repro_script.h"
#include "lang/objects.h"
#include "lang/types.h"
#include "support/clock.h"
#include "support/parallel.h"
#include "trace/json_text.h"

#include <atomic>

namespace kiln::inductor {

namespace {

using lang::Value;

std::atomic<int64_t> g_nextKernelId{1};

/// Compiled graphs live as long as the backend (the run): the callables point at them.
struct Registry {
    std::vector<std::shared_ptr<CompiledGraph>> graphs;
    std::vector<std::shared_ptr<graph::Graph>> eager;
};

Value callCompiled(lang::Interpreter& interp, const lang::CallArgs& args, void* data) {
    return static_cast<CompiledGraph*>(data)->run(interp, args.positional);
}

Value callEager(lang::Interpreter& interp, const lang::CallArgs& args, void* data) {
    const auto* g = static_cast<const graph::Graph*>(data);
    return graph::runGraph(interp, *g,
                           std::vector<Value>(args.positional.begin(), args.positional.end()));
}

std::string launchConfig(const compiler::ScheduledKernel& k, const compiler::LoopProgram& p) {
    std::string text = "threads=" + std::to_string(parallelThreads());
    text += " outer=[";
    for (size_t i = 0; i < k.outerRanges.size(); ++i)
        text += (i ? ", " : "") + compiler::toString(k.outerRanges[i], nullptr, &p.symbolNames);
    return text + "] stages=" + std::to_string(k.stages.size());
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& i : items)
        s += (s.empty() ? "" : ",") + i;
    return s;
}

void reportKernels(EventSink& sink, const GraphArtifacts& a, const std::string& compileId,
                   int32_t graphIndex, const std::string& graphKind) {
    const compiler::LoopProgram& p = a.lowered.program;
    for (size_t k = 0; k < a.schedule.kernels.size(); ++k) {
        const compiler::ScheduledKernel& kernel = a.schedule.kernels[k];
        KernelEvent e;
        e.kernelId = a.kernels[k].kernelId;
        e.compileId = compileId;
        e.graphIndex = graphIndex;
        e.graphKind = graphKind;
        e.name = kernel.name;
        e.kind = compiler::kernelKindName(kernel.kind);
        e.fusedNodes = joined(kernel.origins);
        e.sourceCode = compiler::toString(compiler::Schedule{{kernel}}, p);
        if (kernel.compiled())
            e.sourceCode +=
                "\n" + (a.onCuda ? cudaKernelSource(*a.kernels[k].cuda) : a.kernels[k].code.llvmIR);
        if (kernel.compiled())
            e.launchConfig =
                a.onCuda ? cudaLaunchText(*a.kernels[k].cuda, p) : launchConfig(kernel, p);
        sink.kernel(e);
        for (AutotuneChoiceEvent choice : a.kernels[k].choices) {
            choice.kernelId = e.kernelId;
            sink.autotuneChoice(choice);
        }
    }
}

void reportPasses(EventSink& sink, const PipelineResult& r, const std::string& compileId) {
    for (const PassRecord& pass : r.passes) {
        TimelineEvent e;
        e.category = "pass";
        e.name = pass.name;
        e.compileId = compileId;
        e.startNs = pass.startNs;
        e.durationNs = pass.durationNs;
        e.detailJson = "{\"ir\": " + trace::jsonQuoted(pass.irAfter) + "}";
        sink.timeline(e);
    }
}

void writeDebugFolder(const capture::InductorRequest& req, const PipelineResult& result,
                      const std::string& postFusion) {
    auto printConstant = [&req](const Value& v) { return req.interp.repr(v); };
    DebugTraceInput input{
        *result.artifacts,
        result,
        req.options,
        req.compileId,
        req.graphIndex,
        graph::readableCode(*req.graph, printConstant),
        reproScript(result.artifacts->aten, *req.graph, req.compileId, printConstant),
        postFusion,
        req.debugDirRoot};
    auto dir = writeDebugTrace(input);
    if (!dir) {
        KILN_TORCH_LOG(req.logger, LogLevel::Warning, "torch._inductor.debug", req.compileId,
                       dir.error().message);
        return;
    }
    std::string name = "model__" + std::to_string(req.graphIndex) + "_inference_" +
                       dir->substr(dir->rfind('.') + 1);
    KILN_TORCH_LOG(req.logger, LogLevel::Warning, "torch._inductor.debug", req.compileId,
                   name + " debug trace: " + *dir);
}

capture::InductorResult compile(const capture::InductorRequest& req, Registry& registry) {
    PipelineContext context{req.interp,    req.options,       req.logger,
                            req.compileId, req.exampleInputs, req.sink};
    context.recordAotGraphs = true;
    context.graphIndex = req.graphIndex;
    auto result = runPipeline(context, req.graph);
    if (!result)
        req.interp.raise(lang::builtinTypes().runtimeError.get(),
                         "Kiln's compiler failed: " + result.error().message);
    EventSink& sink = req.sink;
    if (!result->artifacts) {
        KILN_TORCH_LOG(req.logger, LogLevel::Info, "torch._inductor.compile_fx", req.compileId,
                       "Kiln's inductor runs this graph through the eager kernels: " +
                           result->refusal);
        // Said in the trace too: the graph has no kernels, and Studio tells why.
        TimelineEvent fallback;
        fallback.category = "compile";
        fallback.name = "eager_fallback";
        fallback.compileId = req.compileId;
        fallback.startNs = monotonicNs();
        fallback.detailJson = "{\"reason\": " + trace::jsonQuoted(result->refusal) + "}";
        sink.timeline(fallback);
        registry.eager.push_back(req.graph);
        Value fn(makeRef<lang::NativeFunctionObject>("compiled_fn", callEager,
                                                     registry.eager.back().get()));
        return {fn, nullptr};
    }
    for (KernelRuntime& k : result->artifacts->kernels)
        k.kernelId = g_nextKernelId++;
    if (result->artifacts->backward)
        for (KernelRuntime& k : result->artifacts->backward->graph->kernels)
            k.kernelId = g_nextKernelId++;
    auto compiled =
        std::make_shared<CompiledGraph>(result->artifacts, &sink, &req.logger, req.compileId);
    registry.graphs.push_back(compiled);
    KILN_TORCH_LOG(req.logger, LogLevel::Info, "torch._inductor.compile_fx", req.compileId,
                   "Step 3: torchinductor done compiling FORWARDS graph " +
                       std::to_string(req.graphIndex));
    std::shared_ptr<const GraphArtifacts> artifacts = result->artifacts;
    std::string preFusion = preFusionDot(*artifacts);
    std::string postFusion = postFusionDot(*artifacts);
    if (req.options.flag("trace.enabled")) writeDebugFolder(req, *result, postFusion);
    PipelineResult passes = std::move(*result);
    auto report = [&sink, artifacts, passes = std::move(passes), id = req.compileId,
                   index = req.graphIndex, preFusion, postFusion]() {
        reportPasses(sink, passes, id);
        for (GraphEvent g : passes.aotGraphs) {
            g.compileId = id;
            g.graphIndex = index;
            sink.graph(g);
        }
        bool training = artifacts->backward != nullptr;
        reportKernels(sink, *artifacts, id, index, training ? "aot_forward" : "aot_inference");
        if (training) reportKernels(sink, *artifacts->backward->graph, id, index, "aot_backward");
        sink.diagram(DiagramEvent{id, index, "pre_fusion", preFusion});
        sink.diagram(DiagramEvent{id, index, "post_fusion", postFusion});
    };
    Value fn(makeRef<lang::NativeFunctionObject>("compiled_fn", callCompiled, compiled.get()));
    return {fn, report};
}

} // namespace

capture::InductorCompiler makeInductorCompiler() {
    auto registry = std::make_shared<Registry>();
    return [registry](const capture::InductorRequest& req) { return compile(req, *registry); };
}

} // namespace kiln::inductor
