// SPDX-License-Identifier: MIT
#include "inductor/pipeline.h"

#include "compiler/decompose_ops.h"
#include "compiler/differentiate.h"
#include "compiler/fuse_kernels.h"
#include "compiler/partition_joint.h"
#include "inductor/aot_graph_records.h"
#include "inductor/autotune.h"
#include "inductor/cuda_attention.h"
#include "inductor/cuda_matmul.h"
#include "inductor/select_templates.h"
#include "lang/tensor_bridge.h"
#include "support/clock.h"

#include <cstdio>
#include <cstdlib>
#include <future>
#include <optional>

namespace kiln::inductor {

namespace {

/// Times one pass and records its IR.
class PassTimer {
public:
    PassTimer(PipelineResult& result, std::string name)
        : m_result(result)
        , m_name(std::move(name))
        , m_start(monotonicNs()) {}

    void done(std::string ir) {
        m_result.passes.push_back({m_name, m_start, monotonicNs() - m_start, std::move(ir)});
    }

private:
    PipelineResult& m_result;
    std::string m_name;
    int64_t m_start;
};

compiler::LoweringOptions loweringOptions(const OptionValues& o) {
    compiler::LoweringOptions l;
    l.realizeReadsThreshold = static_cast<int>(o.integer("realize_reads_threshold").value_or(4));
    l.realizeOpcountThreshold =
        static_cast<int>(o.integer("realize_opcount_threshold").value_or(30));
    l.splitReductions = o.flag("split_reductions");
    return l;
}

std::string kernelListing(const GraphArtifacts& a) {
    std::string text;
    const compiler::LoopProgram& p = a.lowered.program;
    auto tuple = [&](const std::vector<compiler::Index>& v) {
        std::string s = "(";
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? ", " : "") + compiler::toString(v[i], nullptr, &p.symbolNames);
        return s + (v.size() == 1 ? ",)" : ")");
    };
    // What the wrapper checks before the kernels run (size_asserts), as Inductor prints it.
    if (a.sizeAsserts)
        for (const compiler::Buffer& b : p.buffers)
            if (b.origin == compiler::Buffer::Origin::Input && b.inputIndex < a.aten.inputCount)
                text += "assert_size_stride(" + b.name + ", " + tuple(b.sizes) + ", " +
                        tuple(b.strides) + ")\n";
    for (size_t k = 0; k < a.schedule.kernels.size(); ++k) {
        const compiler::ScheduledKernel& kernel = a.schedule.kernels[k];
        text += "# kernel " + kernel.name + " (" + compiler::kernelKindName(kernel.kind) + ")\n";
        text += compiler::toString(compiler::Schedule{{kernel}}, a.lowered.program);
        if (kernel.compiled())
            text +=
                (a.onCuda ? cudaKernelSource(*a.kernels[k].cuda) : a.kernels[k].code.llvmIR) + "\n";
    }
    return text;
}

/// The size symbols' values in the example inputs.
std::vector<int64_t> exampleSymbols(const PipelineContext& c, const compiler::AtenGraph& g) {
    std::vector<int64_t> syms;
    for (const auto& src : g.symbolSources) {
        if (src.seed) { // random ops' per-call seed: any value times the same
            syms.push_back(0);
            continue;
        }
        const lang::Value& v = c.exampleInputs.at(static_cast<size_t>(src.input));
        if (src.dim >= 0 && v.isTensor()) {
            syms.push_back(src.stride ? v.asTensor().stride(src.dim) : v.asTensor().size(src.dim));
        } else {
            std::optional<int64_t> i = v.isIntLike() ? v.asInt() : lang::asIndex(c.interp, v);
            syms.push_back(i.value_or(1));
        }
    }
    return syms;
}

Status tuneKernels(const PipelineContext& c, GraphArtifacts& a, const std::vector<size_t>& compiled,
                   const std::vector<int64_t>& syms) {
    TuneOptions options;
    options.coordinateDescent = c.options.flag("coordinate_descent_tuning");
    options.useCache = c.options.flag("use_autotune_local_cache");
    size_t done = 0;
    options.progress = [&](const std::string& line) {
        ++done;
        KILN_TORCH_ARTIFACT(c.logger, Artifact::Autotuning, c.compileId, "autotuning " + line);
        TimelineEvent e;
        e.category = "autotune";
        e.name = line;
        e.compileId = c.compileId;
        e.startNs = monotonicNs();
        e.detailJson = "{\"candidates_done\": " + std::to_string(done) + "}";
        c.sink.timeline(e);
    };
    for (size_t k : compiled) {
        if (a.schedule.kernels[k].kind == compiler::ScheduledKernel::Kind::Template) continue;
        auto tuned = autotuneKernel(a.lowered.program, a.schedule, k, syms, options);
        if (!tuned) return tuned.error();
        a.kernels[k].code = tuned->kernel;
        if (tuned->fromCache)
            KILN_TORCH_ARTIFACT(c.logger, Artifact::Autotuning, c.compileId,
                                "autotuning " + a.schedule.kernels[k].name + ": " +
                                    std::to_string(tuned->candidates.size()) +
                                    " candidates from the tuning cache (measured by an earlier "
                                    "run on this CPU)");
        for (AutotuneChoiceEvent& cand : tuned->candidates)
            a.kernels[k].choices.push_back(std::move(cand));
    }
    return {};
}

/// Graph inputs or constants on a CUDA device make a GPU graph.
bool onCuda(const PipelineContext& c, const compiler::AtenGraph& g) {
    for (const lang::Value& v : c.exampleInputs)
        if (v.isTensor() && v.asTensor().device().isCuda()) return true;
    for (const tensor::Tensor& t : g.constants)
        if (t.device().isCuda()) return true;
    return false;
}

void perfHint(const PipelineContext& c, const std::string& text, const std::string& option) {
    KILN_TORCH_ARTIFACT(c.logger, Artifact::PerfHints, c.compileId, text);
    TimelineEvent hint;
    hint.category = "perf_hint";
    hint.name = text;
    hint.compileId = c.compileId;
    hint.startNs = monotonicNs();
    hint.detailJson = "{\"option\": \"" + option + "\"}";
    c.sink.timeline(hint);
}

/// Whether a compile's kernels came from the kernel cache, as an instant event (category
/// `compile`, name `kernel_cache`): a compile time means little without it (milliseconds warm,
/// a second cold), so Studio's Compare runs says which.
void reportKernelCache(const PipelineContext& c, size_t kernels, int memoryHits, int diskHits) {
    TimelineEvent e;
    e.category = "compile";
    e.name = "kernel_cache";
    e.compileId = c.compileId;
    e.startNs = monotonicNs();
    e.detailJson = "{\"kernels\": " + std::to_string(kernels) +
                   ", \"memory_hits\": " + std::to_string(memoryHits) +
                   ", \"disk_hits\": " + std::to_string(diskHits) + "}";
    c.sink.timeline(e);
}

/// What the graph's extern kernels need before they run, started beside its NVRTC compiles
/// (a thread each) rather than at their first launch, after them: the flash_attention kernels
/// (compiled and loaded) and cuBLASLt (loaded) for products. Only a head start: failures are
/// left to the launch.
std::vector<std::future<Status>> prepareExterns(const GraphArtifacts& a) {
    std::vector<std::future<Status>> out;
    bool products = false;
    for (const compiler::ScheduledKernel& k : a.schedule.kernels) {
        if (k.kind != compiler::ScheduledKernel::Kind::Extern || k.stages.empty()) continue;
        const compiler::LoopNode& n =
            a.lowered.program.nodes.at(static_cast<size_t>(k.stages[0].node));
        if (n.externName == "mm" || n.externName == "bmm" || n.externName == "addmm")
            products = true;
        if (n.externName != "flash_attention" || n.operands.empty()) continue;
        const compiler::BufferView& q = n.operands[0];
        int64_t headDim = 0;
        if (!compiler::isConstant(q.sizes.back(), &headDim)) continue; // compiled at launch
        tensor::DType dtype = a.lowered.program.buffer(q.buffer).dtype;
        int flags = static_cast<int>(n.alpha);
        bool masked = n.operands.size() > 3;
        out.push_back(std::async(std::launch::async, [=] {
            return prepareCudaAttention(dtype, headDim, flags, masked);
        }));
    }
    if (products) out.push_back(std::async(std::launch::async, prepareCudaMatmul));
    return out;
}

/// Generates the compiled kernels as CUDA code. A pattern the CUDA generator does not handle
/// is a refusal (the graph runs op by op), anything else an error.
Expected<std::string> generateCudaKernels(const PipelineContext& c, GraphArtifacts& a,
                                          const std::vector<size_t>& compiled,
                                          std::string& refusal) {
    // NVRTC takes 70-550 ms a kernel: a graph's kernels compile on threads of their own.
    const int64_t started = monotonicNs();
    using Built = Expected<std::shared_ptr<const CudaKernelCode>>;
    std::vector<CudaBuildStats> stats(compiled.size());
    std::vector<std::future<Built>> builds;
    for (size_t i = 0; i < compiled.size(); ++i)
        builds.push_back(std::async(
            compiled.size() > 1 ? std::launch::async : std::launch::deferred,
            [&a, &stats, i, k = compiled[i]] {
                return buildCudaKernel(a.lowered.program, a.schedule.kernels[k], stats[i]);
            }));
    std::vector<std::future<Status>> externs = prepareExterns(a);
    a.kernels.resize(a.schedule.kernels.size());
    std::optional<Diagnostic> failure;
    for (size_t i = 0; i < compiled.size(); ++i) {
        Built code = builds[i].get();
        if (!code) {
            if (code.error().kind == "CudaCodegenError")
                refusal = code.error().message;
            else if (!failure)
                failure = code.error();
            continue;
        }
        a.kernels[compiled[i]].cuda = std::move(*code);
    }
    // A kernel that cannot be prepared now (no device yet) is compiled by its first launch,
    // which reports why if it still cannot.
    for (std::future<Status>& f : externs)
        f.wait();
    if (failure) return *failure;
    if (!refusal.empty()) return std::string();
    CudaBuildStats total;
    for (const CudaBuildStats& s : stats) {
        total.nvrtcMs += s.nvrtcMs;
        total.compiled += s.compiled;
        total.memoryCacheHits += s.memoryCacheHits;
        total.diskCacheHits += s.diskCacheHits;
    }
    reportKernelCache(c, compiled.size(), total.memoryCacheHits, total.diskCacheHits);
    char line[240];
    std::snprintf(line, sizeof line,
                  "# NVRTC: %.2f ms for %d kernels (%.2f ms wall, in parallel with the externs' "
                  "preparation); cache hits: %d in memory, %d on disk\n",
                  total.nvrtcMs, total.compiled, double(monotonicNs() - started) / 1e6,
                  total.memoryCacheHits, total.diskCacheHits);
    std::string timing = line;
    // Which kernel a cold first call waits for: each one NVRTC compiled now, with its time.
    for (size_t i = 0; i < compiled.size(); ++i)
        if (stats[i].compiled > 0) {
            std::snprintf(line, sizeof line, "#   %s: %.2f ms\n",
                          a.schedule.kernels[compiled[i]].name.c_str(), stats[i].nvrtcMs);
            timing += line;
        }
    return timing;
}

} // namespace

namespace {

/// Passes 2-5 for one decomposed graph: the captured graph's, or AOT autograd's forward and
/// backward graphs (`suffix` " (backward)" names the latter's passes). A graph the code
/// generator refuses sets `result.refusal`.
Status compileDecomposed(const PipelineContext& c, GraphArtifacts& a, PipelineResult& result,
                         const std::string& suffix, const std::vector<int64_t>& exampleSyms) {
    bool autotune = c.options.flag("max_autotune") || c.options.flag("max_autotune_gemm");
    PassTimer lower(result, "lower_to_loops" + suffix);
    compiler::LoweringOptions lowering = loweringOptions(c.options);
    lowering.freshOutputs = c.freshOutputs;
    a.lowered = compiler::lowerToLoops(a.aten, lowering);
    std::string problem = compiler::verify(a.lowered.program);
    KILN_ASSERT(problem.empty(), problem.c_str());
    std::string preFusion = compiler::toString(a.lowered.program);
    lower.done(preFusion);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::IrPreFusion, c.compileId,
                        "BEFORE FUSION\n" + preFusion);

    PassTimer fuse(result, "fuse_kernels" + suffix);
    compiler::FusionOptions fusion;
    fusion.maxFusionSize = static_cast<int>(c.options.integer("max_fusion_size").value_or(64));
    fusion.requireSharedData = a.onCuda;
    if (c.logger.artifactEnabled(Artifact::Fusion))
        fusion.log = [&](const std::string& line) {
            KILN_TORCH_ARTIFACT(c.logger, Artifact::Fusion, c.compileId, line);
        };
    a.schedule = compiler::fuseKernels(a.lowered.program, fusion);
    std::string postFusion = compiler::toString(a.schedule, a.lowered.program);
    fuse.done(postFusion);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::IrPostFusion, c.compileId,
                        "AFTER FUSION\n" + postFusion);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::Schedule, c.compileId, "Schedule:\n" + postFusion);

    if (autotune && !a.onCuda) {
        PassTimer select(result, "select_templates" + suffix);
        if (auto st = selectTemplates(c, a, exampleSyms); !st) return st.error();
        select.done(compiler::toString(a.schedule, a.lowered.program));
    }

    PassTimer plan(result, "plan_memory" + suffix);
    a.memory = compiler::planMemory(a.lowered.program, a.schedule, a.lowered.outputs);
    plan.done(compiler::toString(a.memory, a.lowered.program));

    PassTimer generate(result, "generate_code" + suffix);
    std::vector<size_t> compiled;
    for (size_t k = 0; k < a.schedule.kernels.size(); ++k)
        if (a.schedule.kernels[k].compiled()) compiled.push_back(k);
    if (a.onCuda && c.planOnly) {
        for (size_t k : compiled)
            if (Status st = checkCudaKernel(a.lowered.program, a.schedule.kernels[k]); !st) {
                if (st.error().kind != "CudaCodegenError") return st.error();
                result.refusal = st.error().message;
                return {};
            }
        return {};
    }
    if (a.onCuda) {
        auto timing = generateCudaKernels(c, a, compiled, result.refusal);
        if (!timing) return timing.error();
        if (!result.refusal.empty()) return {};
        std::string listing = kernelListing(a);
        generate.done(*timing + listing);
        KILN_TORCH_ARTIFACT(c.logger, Artifact::OutputCode, c.compileId,
                            "Output code: \n" + *timing + listing);
        return {};
    }
    auto code =
        codegen::compileKernels(a.lowered.program, a.schedule, compiled, {}, &result.codegen);
    if (!code) return code.error();
    a.kernels.resize(a.schedule.kernels.size());
    for (size_t i = 0; i < compiled.size(); ++i)
        a.kernels[compiled[i]].code = std::move((*code)[i]);
    for (size_t k = 0; k < a.scheduleChoices.size() && k < a.kernels.size(); ++k)
        a.kernels[k].choices = std::move(a.scheduleChoices[k]);
    if (c.options.flag("max_autotune") || c.options.flag("max_autotune_pointwise"))
        if (auto st = tuneKernels(c, a, compiled, exampleSyms); !st) return st.error();
    std::string listing = kernelListing(a);
    const codegen::CodegenStats& st = result.codegen;
    if (!compiled.empty())
        reportKernelCache(c, compiled.size(), st.memoryCacheHits, st.diskCacheHits);
    char timing[200];
    std::snprintf(timing, sizeof timing,
                  "# LLVM: IR %.2f ms, optimize %.2f ms, machine code %.2f ms; cache hits: %d "
                  "in memory, %d on disk\n",
                  st.irBuildMs, st.optimizeMs, st.machineCodeMs, st.memoryCacheHits,
                  st.diskCacheHits);
    generate.done(timing + listing);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::OutputCode, c.compileId,
                        "Output code: \n" + std::string(timing) + listing);

    return {};
}

/// AOT autograd: the forward graph differentiated into a joint graph, split into the forward
/// (which also returns what the backward saves) and the backward, each compiled. A graph with
/// an op Kiln cannot differentiate yet is a refusal: it runs through the eager kernels, whose
/// autograd covers it.
Status compileWithBackward(const PipelineContext& c, GraphArtifacts& a, PipelineResult& result,
                           const std::vector<int64_t>& exampleSyms) {
    PassTimer differentiate(result, "differentiate");
    compiler::DifferentiateResult d = compiler::differentiate(a.aten);
    if (!d.joint) {
        result.refusal = d.refusal;
        return {};
    }
    compiler::PartitionedGraphs parts = compiler::partitionJoint(*d.joint, exampleSyms);
    differentiate.done("joint graph:\n" + compiler::toString(d.joint->graph) +
                       "\nforward graph:\n" + compiler::toString(parts.forward) +
                       "\nbackward graph:\n" + compiler::toString(parts.backward));
    if (c.recordAotGraphs) {
        result.aotGraphs = aotTrainingGraphs(*d.joint, parts, exampleSyms);
        logAotGraphs(c.logger, c.compileId, c.graphIndex, result.aotGraphs);
    }
    a.aten = std::move(parts.forward);
    auto backward = std::make_shared<GraphArtifacts>();
    backward->captured = a.captured;
    backward->aten = std::move(parts.backward);
    backward->sizeAsserts = a.sizeAsserts;
    backward->debug = a.debug;
    backward->poisonBuffers = a.poisonBuffers;
    if (Status st = compileDecomposed(c, a, result, "", exampleSyms); !st) return st;
    if (!result.refusal.empty()) return {};
    if (Status st = compileDecomposed(c, *backward, result, " (backward)", exampleSyms); !st)
        return st;
    auto aot = std::make_shared<AotBackward>();
    aot->graph = std::move(backward);
    aot->userOutputs = parts.userOutputs;
    aot->saved = parts.saved;
    aot->tangents = parts.tangents;
    aot->tangentOf = std::move(parts.tangentOf);
    aot->grads = std::move(parts.grads);
    a.backward = std::move(aot);
    return {};
}

} // namespace

Expected<PipelineResult> runPipeline(const PipelineContext& c,
                                     std::shared_ptr<graph::Graph> captured) {
    PipelineResult result;
    auto a = std::make_shared<GraphArtifacts>();
    a->captured = captured;
    a->sizeAsserts = c.options.flag("size_asserts");
    const char* poison = std::getenv("KILN_POISON_BUFFERS");
    a->debug = c.options.flag("debug");
    a->poisonBuffers = a->debug || (poison && std::string(poison) == "1");

    PassTimer decompose(result, "decompose");
    compiler::DecomposeResult d = compiler::decomposeGraph(
        c.interp, *captured,
        {c.options.flag("fallback_random"), c.options.flag("pattern_matcher"),
         c.options.flag("freezing") && !tensor::gradModeEnabled()});
    if (!d.graph) {
        result.refusal = d.refusal;
        return result;
    }
    a->aten = std::move(*d.graph);
    decompose.done(compiler::toString(a->aten));
    a->onCuda = onCuda(c, a->aten);
    if (a->onCuda && !cudaCodegenUnavailableReason().empty()) {
        result.refusal = cudaCodegenUnavailableReason();
        return result;
    }
    // reduce-overhead / max-autotune: PyTorch skips CUDA graphs on the CPU silently; Kiln says
    // so under TORCH_LOGS=perf_hints and records it in the trace. On the GPU, capture and
    // replay are not built yet, and the hint says that instead.
    if (c.options.flag("triton.cudagraphs"))
        perfHint(c,
                 a->onCuda ? "skipping cudagraphs: Kiln does not capture CUDA graphs yet"
                           : "skipping cudagraphs due to cpu device",
                 "triton.cudagraphs");
    bool autotune = c.options.flag("max_autotune") || c.options.flag("max_autotune_gemm");
    if (a->onCuda && autotune)
        perfHint(c,
                 "max-autotune on the GPU: no GPU templates yet, products use cuBLASLt's "
                 "heuristic choice",
                 "max_autotune");

    std::vector<int64_t> syms = exampleSymbols(c, a->aten);
    if (tensor::gradModeEnabled() && compiler::needsBackward(a->aten) && !a->onCuda) {
        if (Status st = compileWithBackward(c, *a, result, syms); !st) return st.error();
    } else {
        if (c.recordAotGraphs) {
            result.aotGraphs = {aotInferenceGraph(a->aten)};
            logAotGraphs(c.logger, c.compileId, c.graphIndex, result.aotGraphs);
        }
        if (Status st = compileDecomposed(c, *a, result, "", syms); !st) return st.error();
    }
    if (!result.refusal.empty()) return result;
    result.artifacts = std::move(a);
    return result;
}

} // namespace kiln::inductor
