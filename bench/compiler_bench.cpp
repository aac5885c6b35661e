// SPDX-License-Identifier: MIT
#include "compiler_bench.h"

#include "bench.h"
#include "capture/compile_api.h"
#include "codegen/cpu/cpu_codegen.h"
#include "inductor/inductor_backend.h"
#include "lang/objects.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "support/clock.h"
#include "tensor/ops.h"
#include "torchapi/install.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kiln::bench {

namespace {

/// Counts what the compiler reports: compile durations and kernels.
class CountingSink final : public EventSink {
public:
    void output(OutputStream, std::string_view) override {}
    void compile(const CompileEvent& e) override {
        if (e.status.empty()) return;
        for (const auto& [phase, ns] : e.phases)
            if (phase == "backend_compile") backendNs += ns;
    }
    void kernel(const KernelEvent&) override { ++kernels; }
    int64_t backendNs = 0;
    int kernels = 0;
};

struct Session {
    CountingSink sink;
    Logger logger{sink};
    lang::Interpreter interp{sink};
    std::unique_ptr<capture::CaptureEngine> engine;
    std::vector<lang::Module> modules;

    Session() {
        torchapi::installTorch(interp);
        engine = std::make_unique<capture::CaptureEngine>(interp, sink, logger);
        engine->setInductorCompiler(inductor::makeInductorCompiler());
        capture::installCompileApi(interp, *engine);
    }
    void run(const std::string& source) {
        auto module = lang::parseModule(std::make_shared<SourceFile>("<workload>", source));
        if (!module.ok()) throw std::runtime_error(module.error().render());
        modules.push_back(std::move(module).value());
        try {
            interp.runMain(modules.back());
        } catch (lang::PyException& e) {
            throw std::runtime_error(lang::formatTraceback(interp, e.exception));
        }
    }
    lang::Value global(const char* name) {
        const lang::Value* v =
            interp.importModule("__main__")->globals.find(lang::Symbol::intern(name));
        if (!v) throw std::runtime_error(std::string("the workload has no ") + name);
        return *v;
    }
    lang::Value call(const lang::Value& fn, const std::vector<lang::Value>& args) {
        try {
            return interp.call(fn, lang::CallArgs{args, {}, {}});
        } catch (lang::PyException& e) {
            throw std::runtime_error(lang::formatTraceback(interp, e.exception));
        }
    }
};

std::vector<tensor::Tensor> tensorsOf(const lang::Value& v) {
    if (v.isTensor()) return {v.asTensor()};
    std::vector<tensor::Tensor> out;
    if (v.is(lang::ObjectKind::Tuple))
        for (const lang::Value& item : v.as<lang::TupleObject>()->items)
            for (tensor::Tensor& t : tensorsOf(item))
                out.push_back(t);
    return out;
}

double relativeError(const std::vector<tensor::Tensor>& got,
                     const std::vector<tensor::Tensor>& want) {
    if (got.size() != want.size()) return INFINITY;
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        tensor::Tensor a = tensor::toDType(got[i], tensor::DType::Float64);
        tensor::Tensor b = tensor::toDType(want[i], tensor::DType::Float64);
        if (a.sizes() != b.sizes()) return INFINITY;
        a = tensor::contiguous(a);
        b = tensor::contiguous(b);
        double diff = 0, norm = 0;
        for (int64_t j = 0; j < a.numel(); ++j) {
            double x = a.data<double>()[j], y = b.data<double>()[j];
            diff += (x - y) * (x - y);
            norm += y * y;
        }
        worst = std::max(worst, std::sqrt(diff) / std::max(std::sqrt(norm), 1e-30));
    }
    return worst;
}

CompilerBenchRow measure(const Workload& w, const std::string& mode, int calls,
                         const std::vector<tensor::Tensor>* reference) {
    CompilerBenchRow row{w.name, mode};
    Session s;
    std::string compile =
        mode == "eager" ? "compiled = fn\n"
                        : "compiled = torch.compile(fn, mode=" +
                              std::string(mode == "default" ? "None" : "'" + mode + "'") + ")\n";
    s.run("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + w.source +
          "\ntorch.manual_seed(0)\ninputs = make_inputs()\n" + compile);
    lang::Value fn = s.global("compiled");
    lang::Value inputs = s.global("inputs");
    std::vector<lang::Value> args = inputs.as<lang::TupleObject>()->items;
    int64_t t0 = monotonicNs();
    lang::Value first = s.call(fn, args);
    int64_t firstNs = monotonicNs() - t0;
    row.compileMs = mode == "eager" ? 0 : static_cast<double>(s.sink.backendNs) / 1e6;
    row.firstCallMs = static_cast<double>(firstNs) / 1e6;
    row.kernels = s.sink.kernels;
    if (reference) row.maxRelativeError = relativeError(tensorsOf(first), *reference);
    std::vector<double> times;
    for (int i = 0; i < calls; ++i) {
        int64_t start = monotonicNs();
        s.call(fn, args);
        times.push_back(static_cast<double>(monotonicNs() - start) / 1e6);
    }
    std::sort(times.begin(), times.end());
    row.medianMs = times[times.size() / 2];
    return row;
}

} // namespace

std::vector<Workload> builtinWorkloads(bool quick) {
    std::string n = quick ? "2**20" : "2**24";
    std::string rows = quick ? "1024" : "4096";
    std::string mlp = quick ? "256" : "1024";
    return {
        {"sin_cos", "def fn(x):\n    return torch.sin(x) + torch.cos(x)\n"
                    "def make_inputs():\n    return (torch.randn(" +
                        n + "),)\n"},
        {"softmax_rows", "def fn(x):\n    m = x.amax(-1, keepdim=True)\n    e = (x - m).exp()\n"
                         "    return e / e.sum(-1, keepdim=True)\n"
                         "def make_inputs():\n    return (torch.randn(" +
                             rows + ", 4096),)\n"},
        {"gelu_layer_norm", "def fn(x):\n    return F.gelu(F.layer_norm(x, (4096,)))\n"
                            "def make_inputs():\n    return (torch.randn(" +
                                rows + ", 4096),)\n"},
        {"mlp",
         "def fn(x, w1, b1, w2, b2):\n    return F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)\n"
         "def make_inputs():\n    return (torch.randn(" +
             mlp +
             ", 1024), torch.randn(4096, 1024) * 0.03,"
             " torch.randn(4096) * 0.03, torch.randn(1024, 4096) * 0.015, torch.randn(1024) * "
             "0.03)\n"},
    };
}

std::vector<CompilerBenchRow> runCompilerBench(const CompilerBenchOptions& options) {
    codegen::setKernelCacheEnabled(false); // cold compiles: what a first run costs
    std::vector<CompilerBenchRow> rows;
    for (const Workload& w : options.workloads) {
        std::vector<tensor::Tensor> reference;
        double eagerMs = 0;
        for (const std::string& mode : options.modes) {
            CompilerBenchRow row{w.name, mode};
            try {
                if (reference.empty()) {
                    Session s;
                    s.run("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" +
                          w.source +
                          "\ntorch.manual_seed(0)\ninputs = make_inputs()\nref = fn(*inputs)\n");
                    reference = tensorsOf(s.global("ref"));
                }
                row = measure(w, mode, options.calls, &reference);
                if (mode == "eager") eagerMs = row.medianMs;
                row.ratioToEager = eagerMs > 0 ? row.medianMs / eagerMs : 0;
            } catch (const std::exception& e) {
                row.error = e.what();
            }
            rows.push_back(row);
        }
    }
    codegen::setKernelCacheEnabled(true);
    return rows;
}

std::string formatTable(const std::vector<CompilerBenchRow>& rows) {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-16s %-27s %10s %10s %10s %8s %9s %9s\n", "workload", "mode",
                  "compile ms", "1st call", "median ms", "kernels", "vs eager", "rel. err");
    out += line;
    for (const CompilerBenchRow& r : rows) {
        if (!r.error.empty()) {
            out += r.workload + " " + r.mode + ": failed: " + r.error + "\n";
            continue;
        }
        std::snprintf(line, sizeof line, "%-16s %-27s %10.1f %10.1f %10.3f %8d %8.3fx %9.2e\n",
                      r.workload.c_str(), r.mode.c_str(), r.compileMs, r.firstCallMs, r.medianMs,
                      r.kernels, r.ratioToEager, r.maxRelativeError);
        out += line;
    }
    return out;
}

std::string formatJson(const std::vector<CompilerBenchRow>& rows) {
    std::string out = "[\n";
    char line[512];
    for (size_t i = 0; i < rows.size(); ++i) {
        const CompilerBenchRow& r = rows[i];
        std::snprintf(line, sizeof line,
                      "  {\"workload\": \"%s\", \"mode\": \"%s\", \"compile_ms\": %.3f, "
                      "\"first_call_ms\": %.3f, "
                      "\"median_ms\": %.4f, \"kernels\": %d, \"ratio_to_eager\": %.4f, "
                      "\"rel_error\": %.3e, \"ok\": %s}%s\n",
                      r.workload.c_str(), r.mode.c_str(), r.compileMs, r.firstCallMs, r.medianMs,
                      r.kernels, r.ratioToEager, r.maxRelativeError,
                      r.error.empty() ? "true" : "false", i + 1 < rows.size() ? "," : "");
        out += line;
    }
    return out + "]\n";
}

} // namespace kiln::bench
