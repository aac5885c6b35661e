// SPDX-License-Identifier: MIT
#include "inductor/pipeline.h"

#include "compiler/decompose_ops.h"
#include "compiler/fuse_kernels.h"
#include "support/clock.h"

#include <cstdio>
#include <cstdlib>

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
    return l;
}

std::string kernelListing(const GraphArtifacts& a) {
    std::string text;
    for (size_t k = 0; k < a.schedule.kernels.size(); ++k) {
        const compiler::ScheduledKernel& kernel = a.schedule.kernels[k];
        text += "# kernel " + kernel.name + " (" + compiler::kernelKindName(kernel.kind) + ")\n";
        text += compiler::toString(compiler::Schedule{{kernel}}, a.lowered.program);
        if (kernel.compiled()) text += a.kernels[k].code.llvmIR + "\n";
    }
    return text;
}

} // namespace

Expected<PipelineResult> runPipeline(const PipelineContext& c,
                                     std::shared_ptr<graph::Graph> captured) {
    PipelineResult result;
    auto a = std::make_shared<GraphArtifacts>();
    a->captured = captured;
    a->sizeAsserts = c.options.flag("size_asserts");
    const char* poison = std::getenv("KILN_POISON_BUFFERS");
    a->poisonBuffers = c.options.flag("debug") || (poison && std::string(poison) == "1");

    PassTimer decompose(result, "decompose");
    compiler::DecomposeResult d = compiler::decomposeGraph(c.interp, *captured);
    if (!d.graph) {
        result.refusal = d.refusal;
        return result;
    }
    a->aten = std::move(*d.graph);
    decompose.done(compiler::toString(a->aten));

    PassTimer lower(result, "lower_to_loops");
    a->lowered = compiler::lowerToLoops(a->aten, loweringOptions(c.options));
    std::string problem = compiler::verify(a->lowered.program);
    KILN_ASSERT(problem.empty(), problem.c_str());
    std::string preFusion = compiler::toString(a->lowered.program);
    lower.done(preFusion);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::IrPreFusion, c.compileId,
                        "BEFORE FUSION\n" + preFusion);

    PassTimer fuse(result, "fuse_kernels");
    compiler::FusionOptions fusion;
    fusion.maxFusionSize = static_cast<int>(c.options.integer("max_fusion_size").value_or(64));
    if (c.logger.artifactEnabled(Artifact::Fusion))
        fusion.log = [&](const std::string& line) {
            KILN_TORCH_ARTIFACT(c.logger, Artifact::Fusion, c.compileId, line);
        };
    a->schedule = compiler::fuseKernels(a->lowered.program, fusion);
    std::string postFusion = compiler::toString(a->schedule, a->lowered.program);
    fuse.done(postFusion);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::IrPostFusion, c.compileId,
                        "AFTER FUSION\n" + postFusion);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::Schedule, c.compileId, "Schedule:\n" + postFusion);

    PassTimer plan(result, "plan_memory");
    a->memory = compiler::planMemory(a->lowered.program, a->schedule, a->lowered.outputs);
    plan.done(compiler::toString(a->memory, a->lowered.program));

    PassTimer generate(result, "generate_code");
    std::vector<size_t> compiled;
    for (size_t k = 0; k < a->schedule.kernels.size(); ++k)
        if (a->schedule.kernels[k].compiled()) compiled.push_back(k);
    auto code =
        codegen::compileKernels(a->lowered.program, a->schedule, compiled, {}, &result.codegen);
    if (!code) return code.error();
    a->kernels.resize(a->schedule.kernels.size());
    for (size_t i = 0; i < compiled.size(); ++i)
        a->kernels[compiled[i]].code = std::move((*code)[i]);
    std::string listing = kernelListing(*a);
    const codegen::CodegenStats& st = result.codegen;
    char timing[200];
    std::snprintf(timing, sizeof timing,
                  "# LLVM: IR %.2f ms, optimize %.2f ms, machine code %.2f ms; cache hits: %d "
                  "in memory, %d on disk\n",
                  st.irBuildMs, st.optimizeMs, st.machineCodeMs, st.memoryCacheHits,
                  st.diskCacheHits);
    generate.done(timing + listing);
    KILN_TORCH_ARTIFACT(c.logger, Artifact::OutputCode, c.compileId, "Output code: \n" + listing);

    result.artifacts = std::move(a);
    return result;
}

} // namespace kiln::inductor
