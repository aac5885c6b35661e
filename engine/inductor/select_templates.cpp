// SPDX-License-Identifier: MIT
#include "inductor/select_templates.h"

#include "inductor/autotune.h"
#include "support/clock.h"
#include "tensor/ops.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace kiln::inductor {

namespace {

using compiler::LoopNode;
using compiler::ScheduledKernel;

struct GemmSite {
    size_t kernel = 0;
    const LoopNode* mm = nullptr;
    const LoopNode* epilogue = nullptr; ///< the pointwise consumer that can be fused
    int64_t M = 0, N = 0, K = 0;
};

bool constantSizes(const std::vector<compiler::Index>& sizes, std::vector<int64_t>& out) {
    out.clear();
    for (const compiler::Index& s : sizes) {
        int64_t v = 0;
        if (!compiler::isConstant(s, &v)) return false;
        out.push_back(v);
    }
    return true;
}

/// The pointwise kernel right after the product, when it reads the product only element for
/// element and nothing else reads it: what a template can apply before storing.
const LoopNode* fusibleEpilogue(const compiler::LoopProgram& p, const compiler::Schedule& s,
                                const GemmSite& site,
                                const std::vector<compiler::BufferView>& outputs) {
    if (site.kernel + 1 >= s.kernels.size()) return nullptr;
    const ScheduledKernel& next = s.kernels[site.kernel + 1];
    if (next.kind != ScheduledKernel::Kind::Pointwise || next.stages.size() != 1) return nullptr;
    const LoopNode& n = p.nodes[static_cast<size_t>(next.stages[0].node)];
    std::vector<int64_t> ranges;
    if (!constantSizes(n.ranges, ranges) || ranges != std::vector<int64_t>{site.M, site.N})
        return nullptr;
    int32_t product = site.mm->output;
    for (const compiler::BufferView& o : outputs)
        if (o.buffer == product) return nullptr;
    for (const LoopNode& other : p.nodes) {
        if (&other == &n || &other == site.mm) continue;
        std::vector<int32_t> reads = other.reads();
        if (std::find(reads.begin(), reads.end(), product) != reads.end()) return nullptr;
    }
    std::vector<const compiler::ScalarNode*> loads;
    compiler::collectLoads(n.body, loads);
    compiler::Index own = compiler::constant(site.N) * compiler::loopVar(0) + compiler::loopVar(1);
    for (const compiler::ScalarNode* l : loads)
        if (l->buffer == product && !compiler::equal(l->index, own)) return nullptr;
    return &n;
}

std::vector<GemmSite> gemmSites(const compiler::LoopProgram& p, const compiler::Schedule& s) {
    std::vector<GemmSite> sites;
    for (size_t k = 0; k < s.kernels.size(); ++k) {
        const ScheduledKernel& kernel = s.kernels[k];
        if (kernel.kind != ScheduledKernel::Kind::Extern) continue;
        const LoopNode& n = p.nodes[static_cast<size_t>(kernel.stages[0].node)];
        if (n.externName != "mm" && n.externName != "addmm") continue;
        bool addmm = n.externName == "addmm";
        const compiler::BufferView& a = n.operands[addmm ? 1 : 0];
        const compiler::BufferView& b = n.operands[addmm ? 2 : 1];
        std::vector<int64_t> as, bs, strides;
        if (!constantSizes(a.sizes, as) || !constantSizes(b.sizes, bs) ||
            !constantSizes(a.strides, strides))
            continue;
        if (p.buffer(a.buffer).dtype != tensor::DType::Float32 ||
            p.buffer(b.buffer).dtype != tensor::DType::Float32)
            continue;
        if (addmm && (p.buffer(n.operands[0].buffer).dtype != tensor::DType::Float32 ||
                      !constantSizes(n.operands[0].sizes, strides) ||
                      !constantSizes(n.operands[0].strides, strides)))
            continue;
        sites.push_back({k, &n, nullptr, as[0], bs[1], as[1]});
    }
    return sites;
}

std::set<std::string> backends(const OptionValues& o) {
    std::string text = o.text("max_autotune_gemm_backends").value_or("ATEN,TRITON");
    std::set<std::string> out;
    std::string item;
    for (char c : text + ",") {
        if (c == ',') {
            if (!item.empty()) out.insert(item);
            item.clear();
        } else if (!std::isspace(static_cast<unsigned char>(c))) {
            item += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
    }
    return out;
}

/// BLAS on random operands of the product's layout, plus the separate epilogue kernel.
Expected<int64_t> timeBlas(const compiler::LoopProgram& p, const compiler::Schedule& s,
                           const GemmSite& site, const std::vector<int64_t>& syms) {
    tensor::Generator gen(99);
    tensor::Tensor a = tensor::randn(std::vector<int64_t>{site.M, site.K}, {}, gen);
    tensor::Tensor b = tensor::randn(std::vector<int64_t>{site.N, site.K}, {}, gen);
    tensor::Tensor bt = tensor::transpose(b, 0, 1); // linear layers multiply by w.t()
    tensor::Tensor bias = tensor::randn(std::vector<int64_t>{site.N}, {}, gen);
    bool addmm = site.mm->externName == "addmm";
    int64_t ns = timeMedian([&] {
        tensor::Tensor c =
            addmm ? tensor::addmm(bias, a, bt, site.mm->beta, site.mm->alpha) : tensor::mm(a, bt);
    });
    if (!site.epilogue) return ns;
    auto compiled = codegen::compileKernels(p, s, {site.kernel + 1}, {});
    if (!compiled) return compiled.error();
    BenchmarkWorkspace ws(p, syms);
    return ns + timeKernel((*compiled)[0], s.kernels[site.kernel + 1], syms, ws);
}

} // namespace

Status selectTemplates(const PipelineContext& c, GraphArtifacts& a,
                       const std::vector<int64_t>& syms) {
    const compiler::LoopProgram& p = a.lowered.program;
    std::set<std::string> allowed = backends(c.options);
    bool blas = allowed.count("ATEN") > 0;
    bool templates = allowed.count("TRITON") || allowed.count("CPP") || allowed.count("KILN");
    std::vector<GemmSite> sites = gemmSites(p, a.schedule);
    a.scheduleChoices.assign(a.schedule.kernels.size(), {});
    std::vector<bool> dropped(a.schedule.kernels.size(), false);
    int templateCount = 0;
    for (GemmSite& site : sites) {
        if (c.options.flag("epilogue_fusion"))
            site.epilogue = fusibleEpilogue(p, a.schedule, site, a.lowered.outputs);
        struct Candidate {
            std::string description;
            int64_t ns = 0;
            ScheduledKernel kernel; ///< empty name: the BLAS call
        };
        std::vector<Candidate> candidates;
        const std::string& externName = a.schedule.kernels[site.kernel].name;
        auto progress = [&](const Candidate& cand) {
            KILN_TORCH_ARTIFACT(c.logger, Artifact::Autotuning, c.compileId,
                                "autotuning " + externName + ": candidate " +
                                    std::to_string(candidates.size()) + " (" + cand.description +
                                    ") " + std::to_string(cand.ns / 1000) + " us");
            TimelineEvent e;
            e.category = "autotune";
            e.name = externName + ": " + cand.description;
            e.compileId = c.compileId;
            e.startNs = monotonicNs();
            e.detailJson = "{\"candidates_done\": " + std::to_string(candidates.size()) + "}";
            c.sink.timeline(e);
        };
        if (blas) {
            auto ns = timeBlas(p, a.schedule, site, syms);
            if (!ns) return ns.error();
            std::string what = externName + " (OpenBLAS)";
            if (site.epilogue) what += " + " + a.schedule.kernels[site.kernel + 1].name;
            candidates.push_back({what, *ns, {}});
            progress(candidates.back());
        }
        if (templates) {
            bool padding = c.options.flag("shape_padding");
            for (auto [tm, tn] :
                 {std::pair{4, 32}, std::pair{4, 64}, std::pair{8, 32}, std::pair{2, 64}}) {
                bool divides = site.M % tm == 0 && site.N % tn == 0;
                if (!divides && !padding) continue; // without shape_padding the tile must divide
                ScheduledKernel tem;
                tem.kind = ScheduledKernel::Kind::Template;
                tem.tileM = tm;
                tem.tileN = tn;
                tem.outerRanges = {compiler::constant((site.N + tn - 1) / tn)};
                tem.stages = a.schedule.kernels[site.kernel].stages;
                std::set<std::string> ops(site.mm->originOps.begin(), site.mm->originOps.end());
                std::set<std::string> origins(site.mm->origins.begin(), site.mm->origins.end());
                if (site.epilogue) {
                    tem.stages.push_back(a.schedule.kernels[site.kernel + 1].stages[0]);
                    ops.insert(site.epilogue->originOps.begin(), site.epilogue->originOps.end());
                    origins.insert(site.epilogue->origins.begin(), site.epilogue->origins.end());
                }
                std::string joined;
                for (const std::string& op : ops)
                    joined += (joined.empty() ? "" : "_") + op;
                tem.name = "kiln_tem_fused_" + joined + "_" + std::to_string(templateCount);
                tem.origins.assign(origins.begin(), origins.end());
                compiler::Schedule one{{tem}};
                auto compiled = codegen::compileKernels(p, one, {0}, {});
                if (!compiled) return compiled.error();
                BenchmarkWorkspace ws(p, syms);
                std::string padded =
                    divides ? ""
                            : ", padded to " + std::to_string((site.M + tm - 1) / tm * tm) + "x" +
                                  std::to_string((site.N + tn - 1) / tn * tn);
                std::string what = "template " + std::to_string(tm) + "x" + std::to_string(tn) +
                                   " tile" + padded + (site.epilogue ? ", epilogue fused" : "");
                candidates.push_back({what, timeKernel((*compiled)[0], tem, syms, ws), tem});
                progress(candidates.back());
            }
        }
        if (candidates.empty()) continue;
        size_t best = 0;
        for (size_t i = 1; i < candidates.size(); ++i)
            if (candidates[i].ns < candidates[best].ns) best = i;
        std::vector<AutotuneChoiceEvent> choices;
        for (size_t i = 0; i < candidates.size(); ++i)
            choices.push_back({0, candidates[i].description, candidates[i].ns, i == best});
        a.scheduleChoices[site.kernel] = choices;
        if (candidates[best].kernel.name.empty()) continue;
        a.schedule.kernels[site.kernel] = candidates[best].kernel;
        ++templateCount;
        if (site.epilogue) dropped[site.kernel + 1] = true;
    }
    // Drop the epilogue kernels the templates absorbed.
    compiler::Schedule kept;
    std::vector<std::vector<AutotuneChoiceEvent>> keptChoices;
    for (size_t k = 0; k < a.schedule.kernels.size(); ++k) {
        if (dropped[k]) continue;
        kept.kernels.push_back(a.schedule.kernels[k]);
        keptChoices.push_back(a.scheduleChoices[k]);
    }
    a.schedule = std::move(kept);
    a.scheduleChoices = std::move(keptChoices);
    return {};
}

} // namespace kiln::inductor
