// SPDX-License-Identifier: MIT
#include "synthetic_trace.h"

#include "support/clock.h"

#include <cmath>
#include <random>
#include <stdexcept>

namespace kiln::bench {

namespace {

struct KernelShape {
    const char* kind;
    const char* prefix;
    int64_t minNs;
    int64_t maxNs;
};

// A graph's kernels in execution order: a matrix product, its epilogue, a reduction, a
// pointwise tail; the shapes of Inductor's output for a linear layer followed by a norm.
constexpr KernelShape kKernelShapes[] = {
    {"extern", "extern_mm", 60'000, 220'000},
    {"pointwise", "kiln_poi_fused_add_gelu", 4'000, 30'000},
    {"reduction", "kiln_red_fused_native_layer_norm", 12'000, 60'000},
    {"pointwise", "kiln_poi_fused_mul_add", 3'000, 20'000},
    {"template", "kiln_tem_fused_mm_relu", 50'000, 160'000},
    {"fallback", "fallback_aten_index_put", 8'000, 40'000},
};
constexpr const char* kPasses[] = {"decompose", "lower_to_loops", "schedule_and_fuse",
                                   "plan_memory", "codegen"};

const KernelShape& kernelShape(int graph, int k) {
    // Every 7th graph uses an autotuned template instead of the BLAS call, every 11th has an
    // op without a lowering.
    if (k == 0 && graph % 7 == 3) return kKernelShapes[4];
    if (k == 3 && graph % 11 == 5) return kKernelShapes[5];
    return kKernelShapes[k % 4];
}

std::string compileIdOf(int graph) {
    return std::to_string(graph / 2) + "/" + std::to_string(graph % 2);
}

std::string kernelName(int graph, int k) {
    return std::string(kernelShape(graph, k).prefix) + "_" + std::to_string(graph * 10 + k);
}

std::string readableCode(int graph, const SyntheticShape& shape) {
    std::string dim = graph % 2 ? "s0" : "64";
    std::string code = "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[" +
                       dim + ", 512]\", L_w_: \"f32[512, 512]\"):\n        l_x_ = L_x_\n";
    for (int n = 0; n < shape.nodesPerGraph - 3; ++n)
        code += "        v" + std::to_string(n) + " = torch.nn.functional.gelu(" +
                (n ? "v" + std::to_string(n - 1) : std::string("l_x_ @ L_w_")) + ")\n";
    code += "        return (v" + std::to_string(shape.nodesPerGraph - 4) + ",)\n";
    return code;
}

GraphEvent graphEvent(int graph, const SyntheticShape& shape) {
    GraphEvent g;
    g.compileId = compileIdOf(graph);
    g.graphIndex = graph;
    g.readableCode = readableCode(graph, shape);
    g.nodeCount = shape.nodesPerGraph;
    g.opCount = shape.nodesPerGraph - 3;
    std::string dim = graph % 2 ? "s0" : "64";
    g.nodes.push_back(
        {"l_x_", "placeholder", "L_x_", "", "[" + dim + ", 512]", "torch.float32", 3});
    g.nodes.push_back({"l_w_", "placeholder", "L_w_", "", "[512, 512]", "torch.float32", 3});
    for (int n = 0; n < shape.nodesPerGraph - 3; ++n)
        g.nodes.push_back({"v" + std::to_string(n), "call_function",
                           n % 3 == 0 ? "torch.matmul" : "torch.nn.functional.gelu",
                           n ? "(v" + std::to_string(n - 1) + ",)" : "(l_x_, l_w_)",
                           "[" + dim + ", 512]", "torch.float32", 4 + n});
    g.nodes.push_back({"output", "output", "output", "((v0,),)", "", "", 0});
    return g;
}

std::string diagramDot(const GraphEvent& g, bool postFusion) {
    std::string dot = "digraph G {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
    for (size_t n = 0; n + 1 < g.nodes.size(); ++n) {
        dot += "  n" + std::to_string(n) + " [label=\"" + g.nodes[n].name + "\\n" +
               g.nodes[n].target + "\"" + (postFusion && n % 3 ? ", style=filled" : "") + "];\n";
        if (n) dot += "  n" + std::to_string(n - 1) + " -> n" + std::to_string(n) + ";\n";
    }
    return dot + "}\n";
}

std::string kernelSource(const std::string& name, const KernelShape& s) {
    return "# kernel IR\n" + name + "(in_ptr0, in_ptr1, out_ptr0, xnumel=32768):\n" +
           "  for x0 in range(xnumel):  # parallel\n    tmp0 = load(in_ptr0, x0)\n" +
           "    tmp1 = load(in_ptr1, x0 % 512)\n    tmp2 = " + s.kind + "(tmp0, tmp1)\n" +
           "    store(out_ptr0, x0, tmp2)\n\n; LLVM IR\ndefine void @" + name +
           "(ptr noalias %in_ptr0, ptr noalias %in_ptr1, ptr noalias %out_ptr0) {\n" +
           "entry:\n  br label %loop\nloop:\n  %x0 = phi i64 [ 0, %entry ], [ %x0.next, %loop ]\n"
           "  %x0.next = add nuw nsw i64 %x0, 16\n  %done = icmp eq i64 %x0.next, 32768\n"
           "  br i1 %done, label %exit, label %loop\nexit:\n  ret void\n}\n";
}

void emitGuards(trace::TraceWriter& w, const std::string& compileId, int graph) {
    const char* sizes = graph % 2 ? "[None, 512]" : "[64, 512]";
    w.guard({compileId, "TENSOR_MATCH", "L['x']",
             std::string("check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, "
                         "device=None, requires_grad=False, size=") +
                 sizes + ", stride=[512, 1])",
             sizes, 3});
    w.guard({compileId, "TENSOR_MATCH", "L['w']", "check_tensor(L['w'], ...)", "[512, 512]", 3});
    w.guard({compileId, "TYPE_MATCH", "G['torch']", "___check_type_id(G['torch'], 94773)", "module",
             1});
    w.guard({compileId, "ID_MATCH", "G['F']", "___check_obj_id(G['F'], 14046)", "module", 2});
}

void emitCompileFacts(trace::TraceWriter& w, const SyntheticShape& shape, int graph,
                      int64_t kernelBase, const std::string& compileId, int64_t passStart,
                      int64_t passNs) {
    GraphEvent g = graphEvent(graph, shape);
    for (int k = 0; k < shape.kernelsPerGraph; ++k) {
        const KernelShape& s = kernelShape(graph, k);
        std::string name = kernelName(graph, k);
        w.kernel({kernelBase + k, compileId, graph, name, s.kind,
                  "v" + std::to_string(k * 2) + ",v" + std::to_string(k * 2 + 1),
                  kernelSource(name, s), "threads=4 outer=64 inner=512 vector=16"});
        if (std::string(s.kind) == "template")
            for (int c = 0; c < 3; ++c)
                w.autotuneChoice({kernelBase + k,
                                  "template tile=" + std::to_string(32 << c) + "x64x32 +epilogue",
                                  90'000 - c * 15'000, c == 2});
    }
    w.diagram({compileId, graph, "pre_fusion", diagramDot(g, false)});
    w.diagram({compileId, graph, "post_fusion", diagramDot(g, true)});
    w.graph(g);
    int64_t step = passNs / static_cast<int64_t>(std::size(kPasses));
    for (size_t p = 0; p < std::size(kPasses); ++p)
        w.timeline({"pass", kPasses[p], compileId, passStart + static_cast<int64_t>(p) * step,
                    step - 1000, "{}"});
}

} // namespace

int64_t emitCompiledGraph(trace::TraceWriter& w, const SyntheticShape& shape, int graph,
                          int64_t kernelBase, int64_t atNs) {
    std::mt19937 rng(static_cast<uint32_t>(graph));
    std::string compileId = compileIdOf(graph);
    int frame = graph / 2;
    if (graph % 2 == 0)
        w.frame({frame, "layer_" + std::to_string(frame) + "_forward", "synthetic_model.py",
                 3 + frame * 6, "function", -1, 0});
    CompileEvent c{compileId,  frame,     graph % 2, graph % 2 ? "recompile" : "first",
                   atNs,       0,         "",        "",
                   "inductor", "default", {}};
    w.compile(c);
    if (graph % 2)
        w.recompile({compileId, compileIdOf(graph - 1), "L['x']", "64", "96",
                     "tensor 'L['x']' size mismatch at index 0. expected 64, actual 96"});
    emitGuards(w, compileId, graph);
    int64_t traceNs = 4'000'000 + rng() % 8'000'000;
    int64_t backendNs = 10'000'000 + rng() % 30'000'000;
    emitCompileFacts(w, shape, graph, kernelBase, compileId, atNs + traceNs, backendNs);
    c.durationNs = traceNs + backendNs;
    c.status = graph % 20 == 4 ? "break" : "ok";
    c.phases = {{"trace", traceNs}, {"backend_compile", backendNs}};
    w.compile(c);
    if (c.status == "break")
        w.graphBreak(
            {compileId, graph / 20 + 1, "synthetic_model.py", 5 + frame * 6, 8, "print",
             "builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>]",
             "  File \"synthetic_model.py\", line " + std::to_string(5 + frame * 6) +
                 ", in layer_" + std::to_string(frame) + "_forward\n    print(h.shape)"});
    w.timeline({"compile", "layer_" + std::to_string(frame) + "_forward", compileId, atNs,
                c.durationNs, "{\"status\": \"" + c.status + "\"}"});
    return atNs + c.durationNs;
}

int64_t emitGraphCall(trace::TraceWriter& w, const SyntheticShape& shape, int graph,
                      int64_t kernelBase, int64_t atNs) {
    static thread_local std::mt19937 rng(7);
    int64_t t = atNs;
    for (int k = 0; k < shape.kernelsPerGraph; ++k) {
        const KernelShape& s = kernelShape(graph, k);
        int64_t ns =
            s.minNs + static_cast<int64_t>(rng() % static_cast<uint32_t>(s.maxNs - s.minNs));
        KernelLaunchEvent e;
        e.kernelId = kernelBase + k;
        e.startNs = t;
        e.endNs = t + ns;
        e.grid = "threads=4";
        w.kernelLaunch(e);
        t += ns + 1'500 + static_cast<int64_t>(rng() % 2'000); // launch overhead
    }
    return t;
}

SyntheticCounts writeSyntheticRun(const std::string& path, const SyntheticShape& shape) {
    auto opened = trace::TraceWriter::open(path);
    if (!opened) throw std::runtime_error(opened.error().render());
    trace::TraceWriter& w = **opened;
    SyntheticCounts counts;
    auto run = w.beginRun({"synthetic_model.py",
                           "",
                           "default",
                           "inductor",
                           "{}",
                           "cpu",
                           {"kiln", "run", "synthetic_model.py"},
                           0,
                           0});
    if (!run) throw std::runtime_error(run.error().render());
    counts.runId = *run;
    const int64_t origin = monotonicNs();
    w.config({"max_autotune", "False", "False", "default"});
    w.config({"epilogue_fusion", "True", "True", "default"});
    w.config({"triton.cudagraphs", "False", "False", "default"});
    // The first step calls every graph once (compiling it first); later steps call graph g
    // with a Zipf-like frequency, so a few layers dominate as in a real model's hot loop.
    std::mt19937 rng(42);
    std::vector<double> weights;
    for (int g = 0; g < shape.graphs; ++g)
        weights.push_back(1.0 / std::pow(g + 1, 0.8));
    std::discrete_distribution<int> pick(weights.begin(), weights.end());
    int64_t t = origin + 2'000'000;
    int64_t calls = shape.launches / shape.kernelsPerGraph;
    for (int64_t call = 0; call < calls; ++call) {
        int g = call < shape.graphs ? static_cast<int>(call) : pick(rng);
        int64_t kernelBase = 1 + static_cast<int64_t>(g) * shape.kernelsPerGraph;
        if (call < shape.graphs) t = emitCompiledGraph(w, shape, g, kernelBase, t) + 50'000;
        t = emitGraphCall(w, shape, g, kernelBase, t);
        if (call % 250 == 249)
            w.output(OutputStream::Stdout, "step " + std::to_string(call / 250) + " loss " +
                                               std::to_string(2.5 / (1 + call / 5000.0)) + "\n");
    }
    if (auto flushed = w.flush(); !flushed) throw std::runtime_error(flushed.error().render());
    if (auto done = w.finishRun(trace::RunStatus::Ok, 0); !done)
        throw std::runtime_error(done.error().render());
    counts.compiles = counts.graphs = shape.graphs;
    counts.kernels = static_cast<int64_t>(shape.graphs) * shape.kernelsPerGraph;
    counts.launches = calls * shape.kernelsPerGraph;
    counts.extentNs = t - origin;
    return counts;
}

} // namespace kiln::bench
