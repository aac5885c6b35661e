// SPDX-License-Identifier: MIT
#include "api/compiler_bench.h"

#include "api/bench_isolation.h"
#include "api/call_timer.h"
#include "api/measure_compiled_calls.h"
#include "capture/compile_api.h"
#include "codegen/cpu/cpu_codegen.h"
#include "inductor/eager_device_ops.h"
#include "inductor/gpu_profiler.h"
#include "inductor/inductor_backend.h"
#include "lang/objects.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "runtime/cuda_context.h"
#include "support/clock.h"
#include "support/options.h"
#include "tensor/device_transfer.h"
#include "tensor/ops.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <stdlib.h>

namespace kiln::api {

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
    void kernelLaunch(const KernelLaunchEvent& e) override {
        if (e.device == "cpu") return;
        gpuKernelNs += e.endNs - e.startNs;
    }
    int64_t backendNs = 0;
    int kernels = 0;
    int64_t gpuKernelNs = 0; ///< CUPTI's kernel time of GPU launches reported so far
};

/// What a built-in workload's source assumes is imported.
constexpr const char* kPrelude =
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n";

/// A workload error on one line: "file:line: Type: message".
std::string describeException(lang::Interpreter& interp, const lang::Value& exception,
                              const std::string& fallbackFile) {
    std::string what = lang::formatExceptionOnly(interp, exception);
    lang::ErrorLocation loc = lang::innermostLocation(exception);
    if (loc.known && loc.pos.line > 0)
        return loc.file + ":" + std::to_string(loc.pos.line) + ": " + what;
    return fallbackFile.empty() ? what : fallbackFile + ": " + what;
}

/// One interpreter with the workload's module run (as `kiln_workload`), its fn and make_inputs.
struct Session {
    CountingSink sink;
    Logger logger{sink};
    lang::Interpreter interp{sink};
    torchapi::ScriptCompileConfig config{interp};
    std::unique_ptr<capture::CaptureEngine> engine;
    Ref<lang::ModuleObject> module;
    std::string file; ///< the workload's file, or "<name>" for a built-in one
    /// A training workload defines make_step(mode) instead of fn: it builds its model and
    /// optimizer and returns the step, compiling the model itself for the modes but "eager".
    lang::Value fn, makeInputs, makeStep;

    explicit Session(const Workload& w) {
        torchapi::installTorch(interp);
        engine = std::make_unique<capture::CaptureEngine>(interp, config, sink, logger);
        engine->setInductorCompiler(inductor::makeInductorCompiler());
        inductor::installEagerDeviceOps();
        capture::installCompileApi(interp, *engine);
        file = w.path.empty() ? "<" + w.name + ">" : w.path;
        std::string source = w.path.empty() ? std::string(kPrelude) + w.source : w.source;
        auto parsed = lang::parseModule(std::make_shared<SourceFile>(file, source));
        if (!parsed.ok()) throw std::runtime_error(parsed.error().render());
        // Seeded before the script runs too: a model built at module level (its weights drawn
        // from the generator) must be the same model in every session of this process. Run as
        // a module named kiln_workload, as Python imports one: a script's
        // `if __name__ == "__main__":` part (a training demo) is for `kiln run`.
        guarded([&] {
            interp.call(torchAttr("manual_seed"), {lang::Value::fromInt(0)});
            module = interp.runSourceModule("kiln_workload", file, source);
        });
        makeStep = optionalGlobal("make_step");
        if (makeStep.isEmpty()) fn = global("fn", "fn(*inputs)");
        makeInputs = global("make_inputs", "make_inputs()");
    }
    lang::Value optionalGlobal(const char* name) {
        const lang::Value* v = module->globals.find(lang::Symbol::intern(name));
        return v ? *v : lang::Value();
    }
    template <typename F>
    auto guarded(F&& f) -> decltype(f()) {
        try {
            return f();
        } catch (lang::PyException& e) {
            throw std::runtime_error(describeException(interp, e.exception, file));
        }
    }
    lang::Value global(const char* name, const char* what) {
        const lang::Value* v = module->globals.find(lang::Symbol::intern(name));
        if (!v)
            throw std::runtime_error(
                file + ": the workload does not define " + what +
                " (a workload defines fn(*inputs), or make_step(mode) returning "
                "a training step, and make_inputs(), which returns the tuple "
                "of their arguments)");
        return *v;
    }
    lang::Value torchAttr(const char* name) {
        return interp.getAttr(lang::Value(interp.importModule("torch")),
                              lang::Symbol::intern(name));
    }
    /// torch.manual_seed(0), then make_inputs(): fn's arguments.
    std::vector<lang::Value> inputs() {
        lang::Value made = guarded([&] {
            interp.call(torchAttr("manual_seed"), {lang::Value::fromInt(0)});
            return interp.call(makeInputs, lang::CallArgs{});
        });
        if (made.is(lang::ObjectKind::Tuple)) return made.as<lang::TupleObject>()->items;
        if (made.is(lang::ObjectKind::List)) return made.as<lang::ListObject>()->items;
        if (made.isTensor()) return {made};
        throw std::runtime_error(file + ": make_inputs() returned " + interp.typeName(made) +
                                 "; it must return the tuple of fn's arguments");
    }
    /// fn for "eager"; otherwise torch.compile(fn, mode=...) (mode=None for "default").
    lang::Value compiled(const std::string& mode) {
        if (!makeStep.isEmpty())
            return guarded([&] { return interp.call(makeStep, {lang::strValue(mode)}); });
        if (mode == "eager") return fn;
        return guarded([&] {
            std::vector<lang::Value> positional{fn};
            std::vector<lang::Symbol> names{lang::Symbol::intern("mode")};
            std::vector<lang::Value> values{mode == "default" ? lang::Value::none()
                                                              : lang::strValue(mode)};
            return interp.call(torchAttr("compile"), lang::CallArgs{positional, names, values});
        });
    }
    lang::Value call(const lang::Value& f, const std::vector<lang::Value>& args) {
        return guarded([&] { return interp.call(f, lang::CallArgs{args, {}, {}}); });
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
        tensor::Tensor a = tensor::toDType(tensor::copyToHost(got[i]), tensor::DType::Float64);
        tensor::Tensor b = tensor::toDType(tensor::copyToHost(want[i]), tensor::DType::Float64);
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
                         const std::vector<tensor::Tensor>& reference) {
    CompilerBenchRow row{w.name, mode};
    Session s(w);
    std::vector<lang::Value> args = s.inputs();
    lang::Value fn = s.compiled(mode);
    int64_t t0 = monotonicNs();
    lang::Value first = s.call(fn, args);
    waitForDeviceWork(first);
    int64_t firstNs = monotonicNs() - t0;
    row.compileMs = mode == "eager" ? 0 : static_cast<double>(s.sink.backendNs) / 1e6;
    row.firstCallMs = static_cast<double>(firstNs) / 1e6;
    row.kernels = s.sink.kernels;
    row.maxRelativeError = relativeError(tensorsOf(first), reference);
    inductor::GpuProfiler::flushIfStarted(); // the first call's launches are not timed calls'
    int64_t kernelNsBefore = s.sink.gpuKernelNs;
    // The first call was the warm-up; every timed call is made (no budget). Runs measured
    // with --measure time their calls with the same code (api/call_timer.h).
    CallTimingPlan plan{std::max(calls, 1), 0, 0};
    CallTimings timings = timeCalls([&] { waitForDeviceWork(s.call(fn, args)); }, plan);
    row.medianMs = static_cast<double>(timings.medianNs()) / 1e6;
    row.minMs = static_cast<double>(timings.minNs()) / 1e6;
    row.p90Ms = static_cast<double>(timings.p90Ns()) / 1e6;
    bool gpu = false;
    for (const tensor::Tensor& t : tensorsOf(first))
        gpu = gpu || t.device().isCuda();
    if (gpu && mode != "eager") { // eager ops' kernels are not tagged: no CUPTI time to show
        inductor::GpuProfiler::flushIfStarted();
        row.gpuKernelMsPerCall =
            static_cast<double>(s.sink.gpuKernelNs - kernelNsBefore) / 1e6 / std::max(calls, 1);
    }
    return row;
}

/// A JSON string literal.
std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char escape[8];
                std::snprintf(escape, sizeof escape, "\\u%04x", c);
                out += escape;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

/// A JSON number printed with \p format, or null when it is not finite.
std::string jsonNumber(const char* format, double value) {
    if (!std::isfinite(value)) return "null";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

/// A fresh tuning cache directory for as long as it lives (KILN_AUTOTUNE_CACHE_DIR), so that
/// max-autotune's compile time is measured cold and then warm, whatever the user's cache holds.
class TemporaryTuningCache {
public:
    TemporaryTuningCache() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "kiln-tune-XXXXXX").string();
        if (mkdtemp(pattern.data())) m_dir = pattern;
        save("KILN_AUTOTUNE_CACHE_DIR", m_savedDir);
        save("KILN_AUTOTUNE_CACHE", m_savedSwitch);
        setenv("KILN_AUTOTUNE_CACHE_DIR", m_dir.c_str(), 1);
        unsetenv("KILN_AUTOTUNE_CACHE");
    }
    ~TemporaryTuningCache() {
        restore("KILN_AUTOTUNE_CACHE_DIR", m_savedDir);
        restore("KILN_AUTOTUNE_CACHE", m_savedSwitch);
        std::error_code ec;
        if (!m_dir.empty()) std::filesystem::remove_all(m_dir, ec);
    }
    TemporaryTuningCache(const TemporaryTuningCache&) = delete;
    TemporaryTuningCache& operator=(const TemporaryTuningCache&) = delete;

private:
    static void save(const char* name, std::optional<std::string>& into) {
        if (const char* v = std::getenv(name)) into = v;
    }
    static void restore(const char* name, const std::optional<std::string>& value) {
        if (value)
            setenv(name, value->c_str(), 1);
        else
            unsetenv(name);
    }
    std::string m_dir;
    std::optional<std::string> m_savedDir, m_savedSwitch;
};

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

Expected<Workload> loadWorkloadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::error_code ec;
    if (!in || std::filesystem::is_directory(path, ec)) {
        return makeDiagnostic("error", "cannot read the workload file '" + path + "'");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return Workload{std::filesystem::path(path).stem().string(), text.str(), path};
}

std::vector<std::string> benchModeNames() {
    std::vector<std::string> names = {"eager"};
    for (std::string_view mode : compileModeNames())
        names.emplace_back(mode);
    return names;
}

namespace {

/// One workload's rows, one per mode.
std::vector<CompilerBenchRow> benchWorkload(const Workload& w,
                                            const CompilerBenchOptions& options) {
    std::vector<CompilerBenchRow> rows;
    // The reference outputs: fn called as it is, on make_inputs() after the same seed. A
    // workload that cannot give them fails every one of its rows with that error.
    std::vector<tensor::Tensor> reference;
    std::string workloadError;
    try {
        Session s(w);
        std::vector<lang::Value> args = s.inputs();
        reference = tensorsOf(s.call(s.compiled("eager"), args));
    } catch (const std::exception& e) {
        workloadError = e.what();
    }
    double eagerMs = 0;
    for (const std::string& mode : options.modes) {
        CompilerBenchRow row{w.name, mode};
        if (!workloadError.empty()) {
            row.error = workloadError;
            rows.push_back(row);
            continue;
        }
        try {
            if (mode.find("max-autotune") != std::string::npos) {
                // Cold: an empty tuning cache; then warm: the entries the cold run wrote.
                TemporaryTuningCache cache;
                row = measure(w, mode, options.calls, reference);
                row.warmCompileMs = measure(w, mode, 1, reference).compileMs;
            } else {
                row = measure(w, mode, options.calls, reference);
            }
            if (mode == "eager") eagerMs = row.medianMs;
        } catch (const std::exception& e) {
            row.error = e.what();
        }
        rows.push_back(row);
    }
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].error.empty() && eagerMs > 0) rows[i].ratioToEager = rows[i].medianMs / eagerMs;
    return rows;
}

} // namespace

std::vector<CompilerBenchRow> runCompilerBench(const CompilerBenchOptions& options) {
    codegen::setKernelCacheEnabled(false); // cold compiles: what a first run costs
    std::vector<CompilerBenchRow> rows;
    for (const Workload& w : options.workloads) {
        std::vector<CompilerBenchRow> measured =
            options.workloadTimeoutSeconds > 0
                ? measureInChild(w.name, options.modes, options.workloadTimeoutSeconds,
                                 [&] { return benchWorkload(w, options); })
                : benchWorkload(w, options);
        if (options.onWorkloadDone) options.onWorkloadDone(measured);
        rows.insert(rows.end(), measured.begin(), measured.end());
    }
    codegen::setKernelCacheEnabled(true);
    return rows;
}

std::string formatTable(const std::vector<CompilerBenchRow>& rows) {
    int width = 16; // the workload column: as wide as the longest name
    for (const CompilerBenchRow& r : rows)
        width = std::max(width, static_cast<int>(r.workload.size()));
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %-27s %10s %10s %10s %8s %9s %9s\n", width, "workload",
                  "mode", "compile ms", "1st call", "median ms", "kernels", "vs eager", "rel. err");
    out += line;
    for (const CompilerBenchRow& r : rows) {
        std::snprintf(line, sizeof line, "%-*s %-27s ", width, r.workload.c_str(), r.mode.c_str());
        out += line;
        if (!r.error.empty()) {
            out += "failed: " + r.error + "\n";
            continue;
        }
        char ratio[32] = "-"; // no eager time measured before this row
        if (r.ratioToEager > 0) std::snprintf(ratio, sizeof ratio, "%.3fx", r.ratioToEager);
        std::snprintf(line, sizeof line, "%10.1f %10.1f %10.3f %8d %9s %9.2e", r.compileMs,
                      r.firstCallMs, r.medianMs, r.kernels, ratio, r.maxRelativeError);
        out += line;
        std::snprintf(line, sizeof line, "  (calls: min %.3f, p90 %.3f ms)", r.minMs, r.p90Ms);
        out += line;
        if (r.warmCompileMs >= 0) {
            std::snprintf(line, sizeof line, "  (compile %.1f ms with the tuning cache warm)",
                          r.warmCompileMs);
            out += line;
        }
        if (r.gpuKernelMsPerCall >= 0) {
            std::snprintf(line, sizeof line, "  (GPU kernels %.3f ms per call, CUPTI)",
                          r.gpuKernelMsPerCall);
            out += line;
        }
        out += "\n";
    }
    return out;
}

std::string formatJson(const std::vector<CompilerBenchRow>& rows) {
    std::string out = "[\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const CompilerBenchRow& r = rows[i];
        out += "  {\"workload\": " + jsonString(r.workload) + ", \"mode\": " + jsonString(r.mode);
        if (r.error.empty()) {
            out += ", \"compile_ms\": " + jsonNumber("%.3f", r.compileMs) +
                   ", \"first_call_ms\": " + jsonNumber("%.3f", r.firstCallMs) +
                   ", \"median_ms\": " + jsonNumber("%.4f", r.medianMs) +
                   ", \"min_ms\": " + jsonNumber("%.4f", r.minMs) +
                   ", \"p90_ms\": " + jsonNumber("%.4f", r.p90Ms) +
                   ", \"kernels\": " + std::to_string(r.kernels) + ", \"ratio_to_eager\": " +
                   (r.ratioToEager > 0 ? jsonNumber("%.4f", r.ratioToEager) : "null") +
                   ", \"rel_error\": " + jsonNumber("%.3e", r.maxRelativeError) +
                   ", \"compile_ms_warm_tuning_cache\": " +
                   (r.warmCompileMs >= 0 ? jsonNumber("%.3f", r.warmCompileMs) : "null") +
                   ", \"gpu_kernel_ms_per_call\": " +
                   (r.gpuKernelMsPerCall >= 0 ? jsonNumber("%.4f", r.gpuKernelMsPerCall) : "null") +
                   ", \"ok\": true";
        } else {
            out += ", \"compile_ms\": null, \"first_call_ms\": null, \"median_ms\": null, "
                   "\"min_ms\": null, \"p90_ms\": null, "
                   "\"kernels\": null, \"ratio_to_eager\": null, \"rel_error\": null, \"ok\": "
                   "false, \"error\": " +
                   jsonString(r.error);
        }
        out += i + 1 < rows.size() ? "},\n" : "}\n";
    }
    return out + "]\n";
}

} // namespace kiln::api
