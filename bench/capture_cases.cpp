// SPDX-License-Identifier: MIT
// torch.compile's costs on the capture side: checking a cache entry's guards, a whole compiled
// call that hits the cache, and tracing a function. Baselines are the eager equivalents
// measured in the same run.
#include "bench.h"
#include "capture/compile_api.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "tensor/ops.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"

#include <stdexcept>

namespace kiln::bench {

namespace {

constexpr int kRepeats = 5;

/// An interpreter with torch and the capture engine that has run `source`.
struct CompiledScript {
    explicit CompiledScript(const std::string& source)
        : logger(sink) {
        torchapi::installTorch(interp);
        engine = std::make_unique<capture::CaptureEngine>(interp, config, sink, logger);
        capture::installCompileApi(interp, *engine);
        run(source);
    }
    void run(const std::string& source) {
        auto module = lang::parseModule(std::make_shared<SourceFile>("<bench>", source));
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
        if (!v) throw std::runtime_error(std::string("no global ") + name);
        return *v;
    }

    NullEventSink sink;
    Logger logger;
    lang::Interpreter interp{sink};
    torchapi::ScriptCompileConfig config{interp};
    std::unique_ptr<capture::CaptureEngine> engine;
    std::vector<lang::Module> modules;
};

const char* kThreeTensors = "import torch\n"
                            "def f(x, y, z):\n"
                            "    return torch.sin(x) + y * z\n"
                            "cf = torch.compile(f, backend='eager')\n"
                            "x, y, z = torch.ones(16), torch.ones(16), torch.ones(16)\n"
                            "cf(x, y, z)\n";

Measurement guardCheck(int64_t n) {
    Measurement m{"guard_check_3_tensors",
                  "the guards of f(x, y, z)'s cache entry checked (3 TENSOR_MATCH + globals)",
                  "tensor::binary(Add) on 16 floats called from C++"};
    m.iterations = n;
    CompiledScript script(kThreeTensors);
    auto& fn = *script.global("f").as<lang::FunctionObject>();
    const capture::FrameRecord* rec = script.engine->functionRecord(*fn.code);
    if (!rec || rec->entries.empty()) throw std::runtime_error("f was not compiled");
    const capture::GuardSet& guards = rec->entries.front()->guards;
    std::vector<lang::Value> slots = {script.global("x"), script.global("y"), script.global("z")};
    int32_t failures = 0;
    m.nsPerOp = medianNs(kRepeats,
                         [&] {
                             for (int64_t i = 0; i < n; ++i)
                                 failures +=
                                     guards.firstFailure(script.interp, slots, *fn.globals) >= 0;
                         }) /
                static_cast<double>(n);
    if (failures) throw std::runtime_error("the guards failed on their own inputs");
    tensor::Tensor a = tensor::ones(std::vector<int64_t>{16}, {});
    m.baselineNsPerOp = medianNs(kRepeats,
                                 [&] {
                                     for (int64_t i = 0; i < n; ++i)
                                         tensor::binary(tensor::BinaryOp::Add, a, a);
                                 }) /
                        static_cast<double>(n);
    m.goalNsPerOp = 1000;
    return m;
}

/// ns per `call` in a script loop after `setup`, net of the same script with an empty loop.
/// Each timing runs a fresh interpreter, so setup (and the first compile) cancels out.
double loopNs(const std::string& setup, const std::string& call, int64_t n) {
    auto time = [&](const std::string& body) {
        std::string script =
            setup + "for i in range(" + std::to_string(n) + "):\n    " + body + "\n";
        return medianNs(kRepeats, [&] { CompiledScript run(script); });
    };
    return (time(call) - time("pass")) / static_cast<double>(n);
}

Measurement compiledCall(int64_t n) {
    Measurement m{"compiled_call_hit", "cf(x, y, z): a cache hit running the eager backend",
                  "f(x, y, z) called eagerly"};
    m.iterations = n;
    m.nsPerOp = loopNs(kThreeTensors, "cf(x, y, z)", n);
    m.baselineNsPerOp = loopNs(kThreeTensors, "f(x, y, z)", n);
    return m;
}

Measurement capture100(int64_t n) {
    Measurement m{"capture_100_ops", "tracing and compiling a 100-op function (after reset())",
                  "running the same function eagerly"};
    m.iterations = n;
    std::string body = "def g(x):\n";
    for (int i = 0; i < 50; ++i)
        body += "    x = torch.sin(x) * 1.01\n";
    body += "    return x\n";
    std::string setup =
        "import torch\n" + body + "cg = torch.compile(g, backend='eager')\nx = torch.ones(16)\n";
    m.nsPerOp = loopNs(setup, "torch._dynamo.reset(); cg(x)", n);
    m.baselineNsPerOp = loopNs(setup, "torch._dynamo.reset(); g(x)", n);
    m.goalNsPerOp = 5e6;
    return m;
}

} // namespace

std::vector<Case> captureCases() {
    return {
        {"guard_check_3_tensors", guardCheck, 1000000},
        {"compiled_call_hit", compiledCall, 100000},
        {"capture_100_ops", capture100, 300},
    };
}

} // namespace kiln::bench
