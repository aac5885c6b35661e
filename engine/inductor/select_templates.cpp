// SPDX-License-Identifier: MIT
#include "inductor/select_templates.h"

#include "inductor/autotune.h"
#include "inductor/tuning_cache.h"
#include "support/clock.h"
#include "support/parallel.h"
#include "tensor/gemm.h"
#include "tensor/ops.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
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

/// The library product on random operands of the product's layout, plus the separate
/// epilogue kernel.
Expected<Timing> timeBlas(const compiler::LoopProgram& p, const compiler::Schedule& s,
                          const GemmSite& site, const std::vector<int64_t>& syms) {
    tensor::Generator gen(99);
    tensor::Tensor a = tensor::randn(std::vector<int64_t>{site.M, site.K}, {}, gen);
    tensor::Tensor b = tensor::randn(std::vector<int64_t>{site.N, site.K}, {}, gen);
    tensor::Tensor bt = tensor::transpose(b, 0, 1); // linear layers multiply by w.t()
    tensor::Tensor bias = tensor::randn(std::vector<int64_t>{site.N}, {}, gen);
    bool addmm = site.mm->externName == "addmm";
    // Into an output allocated once, as the templates' timing writes into its workspace: the
    // candidates compare their computation, not the allocator.
    tensor::Tensor out =
        tensor::Tensor::empty(std::vector<int64_t>{site.M, site.N}, tensor::DType::Float32);
    const bool rowBias = addmm && site.mm->alpha == 1.0 && site.mm->beta == 1.0;
    Timing product = timeRuns([&] {
        if (rowBias)
            tensor::detail::gemmBiasEpilogue(a, bt, &bias, tensor::detail::GemmEpilogue::None, out);
        else if (addmm)
            tensor::Tensor c = tensor::addmm(bias, a, bt, site.mm->beta, site.mm->alpha);
        else
            tensor::detail::gemmBiasEpilogue(a, bt, nullptr, tensor::detail::GemmEpilogue::None,
                                             out);
    });
    if (!site.epilogue) return product;
    auto compiled = codegen::compileKernels(p, s, {site.kernel + 1}, {});
    if (!compiled) return compiled.error();
    BenchmarkWorkspace ws(p, syms);
    Timing epilogue = timeKernel((*compiled)[0], s.kernels[site.kernel + 1], syms, ws);
    return Timing{product.medianNs + epilogue.medianNs, product.minNs + epilogue.minNs,
                  product.maxNs + epilogue.maxNs, std::min(product.runs, epilogue.runs), false};
}

/// What a template pays on every call before its kernel runs: the compiled graph packs B into
/// contiguous rows (zero-padded to whole tiles) unless it already is laid out so. The time of
/// that copy of a random operand of B's layout; zero when no packing is needed.
int64_t packingNs(const GemmSite& site, int tileN) {
    const compiler::BufferView& b = site.mm->operands[site.mm->externName == "addmm" ? 2 : 1];
    std::vector<int64_t> strides;
    for (const compiler::Index& st : b.strides) {
        int64_t v = 0;
        if (!compiler::isConstant(st, &v)) return 0;
        strides.push_back(v);
    }
    const int64_t paddedN = (site.N + tileN - 1) / tileN * tileN;
    const bool rowMajor = strides.size() == 2 && strides[1] == 1 && strides[0] == site.N;
    if (rowMajor && paddedN == site.N) return 0;
    tensor::Generator gen(7);
    // A weight used as w.t(): the common reason for B's columns to be its rows.
    tensor::Tensor source =
        rowMajor
            ? tensor::randn(std::vector<int64_t>{site.K, site.N}, {}, gen)
            : tensor::transpose(tensor::randn(std::vector<int64_t>{site.N, site.K}, {}, gen), 0, 1);
    return timeRuns([&] { // as CompiledGraph's runTemplate packs it
               if (paddedN == site.N) {
                   tensor::Tensor packed = tensor::contiguous(source);
                   return;
               }
               tensor::Tensor packed =
                   tensor::zeros(std::vector<int64_t>{site.K, paddedN}, {tensor::DType::Float32});
               tensor::copyInto(tensor::Tensor::view(packed.storage(), 0, source.sizes(),
                                                     tensor::DimVector{paddedN, 1}, packed.dtype()),
                                source);
           })
        .medianNs;
}

/// Kiln's template for the product with a tile of tm x tn (and the epilogue when fusible).
ScheduledKernel templateKernel(const compiler::Schedule& schedule, const GemmSite& site, int tm,
                               int tn, int templateCount) {
    ScheduledKernel tem;
    tem.kind = ScheduledKernel::Kind::Template;
    tem.tileM = tm;
    tem.tileN = tn;
    tem.outerRanges = {compiler::constant((site.N + tn - 1) / tn)};
    tem.stages = schedule.kernels[site.kernel].stages;
    std::set<std::string> ops(site.mm->originOps.begin(), site.mm->originOps.end());
    std::set<std::string> origins(site.mm->origins.begin(), site.mm->origins.end());
    if (site.epilogue) {
        tem.stages.push_back(schedule.kernels[site.kernel + 1].stages[0]);
        ops.insert(site.epilogue->originOps.begin(), site.epilogue->originOps.end());
        origins.insert(site.epilogue->origins.begin(), site.epilogue->origins.end());
    }
    std::string joined;
    for (const std::string& op : ops)
        joined += (joined.empty() ? "" : "_") + op;
    tem.name = "kiln_tem_fused_" + joined + "_" + std::to_string(templateCount);
    tem.origins.assign(origins.begin(), origins.end());
    return tem;
}

/// One candidate of a product: the library call (empty kernel name) or a template.
struct Candidate {
    std::string description;
    std::string choice; ///< "blas" or "tile=4x64", what the tuning cache keeps
    Timing timing;
    ScheduledKernel kernel;
};

/// The tile shapes tried, and whether each needs shape_padding.
std::vector<std::pair<int, int>> tiles(const GemmSite& site, bool padding) {
    std::vector<std::pair<int, int>> out;
    for (auto [tm, tn] : {std::pair{4, 32}, std::pair{4, 64}, std::pair{8, 32}, std::pair{2, 64}})
        if (padding || (site.M % tm == 0 && site.N % tn == 0)) out.push_back({tm, tn});
    return out;
}

std::string describeTile(const GemmSite& site, int tm, int tn) {
    bool divides = site.M % tm == 0 && site.N % tn == 0;
    std::string padded = divides ? ""
                                 : ", padded to " + std::to_string((site.M + tm - 1) / tm * tm) +
                                       "x" + std::to_string((site.N + tn - 1) / tn * tn);
    return "template " + std::to_string(tm) + "x" + std::to_string(tn) + " tile" + padded +
           (site.epilogue ? ", epilogue fused" : "");
}

/// Everything that decides a product's candidates and their speed, for the tuning cache.
std::string gemmKey(const compiler::LoopProgram& p, const compiler::Schedule& s,
                    const GemmSite& site, const std::set<std::string>& backends, bool padding) {
    std::string key = "gemm-v1;threads=" + std::to_string(parallelThreads()) + ";backends=";
    for (const std::string& b : backends)
        key += b + ",";
    key += padding ? ";padding" : ";no-padding";
    key += ";" + tensor::matmulLibraries().float32;
    key += ";product=" + codegen::kernelIdentity(p, s.kernels[site.kernel]);
    if (site.epilogue) key += ";epilogue=" + codegen::kernelIdentity(p, s.kernels[site.kernel + 1]);
    return key;
}

/// The candidates of one product, measured now (each timed against the best so far).
Expected<std::vector<Candidate>> measureSite(const PipelineContext& c, const GraphArtifacts& a,
                                             const GemmSite& site, bool blas, bool templates,
                                             const std::vector<int64_t>& syms, int templateCount) {
    const compiler::LoopProgram& p = a.lowered.program;
    const std::string& externName = a.schedule.kernels[site.kernel].name;
    std::vector<Candidate> candidates;
    auto bestNs = [&] {
        int64_t b = 0;
        for (const Candidate& cand : candidates)
            if (b == 0 || cand.timing.medianNs < b) b = cand.timing.medianNs;
        return b;
    };
    auto progress = [&](const Candidate& cand) {
        KILN_TORCH_ARTIFACT(c.logger, Artifact::Autotuning, c.compileId,
                            "autotuning " + externName + ": candidate " +
                                std::to_string(candidates.size()) + " (" + cand.description + ") " +
                                std::to_string(cand.timing.medianNs / 1000) + " us" +
                                (cand.timing.stoppedEarly ? ", stopped: cannot win" : ""));
        TimelineEvent e;
        e.category = "autotune";
        e.name = externName + ": " + cand.description;
        e.compileId = c.compileId;
        e.startNs = monotonicNs();
        e.detailJson = "{\"candidates_done\": " + std::to_string(candidates.size()) + "}";
        c.sink.timeline(e);
    };
    if (blas) {
        auto timing = timeBlas(p, a.schedule, site, syms);
        if (!timing) return timing.error();
        std::string what = externName + " (" + tensor::matmulLibraries().float32 + ")";
        if (site.epilogue) what += " + " + a.schedule.kernels[site.kernel + 1].name;
        candidates.push_back({what, "blas", *timing, {}});
        progress(candidates.back());
    }
    if (templates) {
        BenchmarkWorkspace ws(p, syms);            // every tile reads the same random operands
        std::map<int64_t, int64_t> packingByWidth; // tiles of one padded width pack alike
        for (auto [tm, tn] : tiles(site, c.options.flag("shape_padding"))) {
            ScheduledKernel tem = templateKernel(a.schedule, site, tm, tn, templateCount);
            compiler::Schedule one{{tem}};
            auto compiled = codegen::compileKernels(p, one, {0}, {});
            if (!compiled) return compiled.error();
            // The packing of B is part of what the template costs per call.
            const int64_t width = (site.N + tn - 1) / tn * tn;
            if (!packingByWidth.count(width)) packingByWidth[width] = packingNs(site, tn);
            const int64_t pack = packingByWidth[width];
            const int64_t best = bestNs();
            Timing t = timeKernel((*compiled)[0], tem, syms, ws, best > pack ? best - pack : 1);
            t.medianNs += pack;
            t.minNs += pack;
            t.maxNs += pack;
            candidates.push_back({describeTile(site, tm, tn),
                                  "tile=" + std::to_string(tm) + "x" + std::to_string(tn), t, tem});
            progress(candidates.back());
        }
    }
    return candidates;
}

/// A product's candidates and the one kept.
struct SiteChoice {
    std::vector<Candidate> candidates;
    size_t chosen = 0;
    bool fromCache = false;
};

/// The candidates of one product from the tuning cache, the chosen one rebuilt.
std::optional<SiteChoice> cachedSite(const GraphArtifacts& a, const GemmSite& site,
                                     const std::string& key, int templateCount) {
    auto cached = loadTuning(key);
    if (!cached) return std::nullopt;
    SiteChoice out;
    out.fromCache = true;
    for (const CachedCandidate& cc : *cached) {
        Candidate cand{cc.description,
                       cc.choice,
                       {cc.timeNs, cc.minNs, cc.maxNs, cc.runs, cc.stoppedEarly},
                       {}};
        if (cc.choice != "blas") {
            int tm = 0, tn = 0;
            if (std::sscanf(cc.choice.c_str(), "tile=%dx%d", &tm, &tn) != 2 || tm <= 0 || tn <= 0)
                return std::nullopt;
            if (cc.chosen) cand.kernel = templateKernel(a.schedule, site, tm, tn, templateCount);
        }
        if (cc.chosen) out.chosen = out.candidates.size();
        out.candidates.push_back(std::move(cand));
    }
    return out;
}

/// Measures a product's candidates, keeps the fastest, and stores the result in the cache.
Expected<SiteChoice> measuredSite(const PipelineContext& c, const GraphArtifacts& a,
                                  const GemmSite& site, bool blas, bool templates,
                                  const std::vector<int64_t>& syms, const std::string& key,
                                  int templateCount) {
    auto measured = measureSite(c, a, site, blas, templates, syms, templateCount);
    if (!measured) return measured.error();
    SiteChoice out;
    out.candidates = std::move(*measured);
    for (size_t i = 1; i < out.candidates.size(); ++i)
        if (out.candidates[i].timing.medianNs < out.candidates[out.chosen].timing.medianNs)
            out.chosen = i;
    std::vector<CachedCandidate> entry;
    for (size_t i = 0; i < out.candidates.size(); ++i) {
        const Candidate& cand = out.candidates[i];
        const Timing& t = cand.timing;
        entry.push_back({cand.description, cand.choice, t.medianNs, t.minNs, t.maxNs, t.runs,
                         t.stoppedEarly, i == out.chosen});
    }
    if (!entry.empty() && !key.empty()) storeTuning(key, entry);
    return out;
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
        if (!blas && !templates) continue;
        const std::string key =
            gemmKey(p, a.schedule, site, allowed, c.options.flag("shape_padding"));
        const bool useCache = c.options.flag("use_autotune_local_cache");
        std::optional<SiteChoice> choice =
            useCache ? cachedSite(a, site, key, templateCount) : std::nullopt;
        if (choice) {
            KILN_TORCH_ARTIFACT(c.logger, Artifact::Autotuning, c.compileId,
                                "autotuning " + a.schedule.kernels[site.kernel].name + ": " +
                                    std::to_string(choice->candidates.size()) +
                                    " candidates from the tuning cache (measured by an earlier "
                                    "run on this CPU)");
        } else {
            auto measured = measuredSite(c, a, site, blas, templates, syms,
                                         useCache ? key : std::string(), templateCount);
            if (!measured) return measured.error();
            choice = std::move(*measured);
        }
        const std::vector<Candidate>& candidates = choice->candidates;
        if (candidates.empty()) continue;
        const size_t best = choice->chosen;
        std::vector<AutotuneChoiceEvent> choices;
        for (size_t i = 0; i < candidates.size(); ++i) {
            AutotuneChoiceEvent e =
                choiceOf(candidates[i].description, candidates[i].timing, i == best);
            e.fromCache = choice->fromCache;
            choices.push_back(std::move(e));
        }
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
