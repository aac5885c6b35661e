// SPDX-License-Identifier: MIT
// What recording kernel launches into the trace costs: the same compiled call (one tiny kernel)
// with the trace writer as the sink and with a sink that drops everything. The difference per
// launch is compared with a 50 us kernel, the size below which the specification does not ask
// for under 1%.
#include "bench.h"
#include "capture/compile_api.h"
#include "inductor/inductor_backend.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"
#include "trace/trace_writer.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace kiln::bench {

namespace {

constexpr const char* kScript = "import torch\n"
                                "f = torch.compile(lambda x: x + 1)\n"
                                "x = torch.ones(64)\n"
                                "f(x)\n";

/// Median ns of one call of the compiled `f` with `sink` receiving the launches.
double compiledCallNs(EventSink& sink, int64_t n) {
    Logger logger(sink);
    lang::Interpreter interp(sink);
    torchapi::installTorch(interp);
    torchapi::ScriptCompileConfig config(interp);
    capture::CaptureEngine engine(interp, config, sink, logger);
    engine.setInductorCompiler(inductor::makeInductorCompiler());
    capture::installCompileApi(interp, engine);
    auto module = lang::parseModule(std::make_shared<SourceFile>("<bench>", kScript));
    if (!module.ok()) throw std::runtime_error(module.error().render());
    lang::Module m = std::move(module).value();
    try {
        interp.runMain(m);
    } catch (lang::PyException& e) {
        throw std::runtime_error(lang::formatTraceback(interp, e.exception));
    }
    auto* globals = interp.importModule("__main__").get();
    lang::Value f = *globals->globals.find(lang::Symbol::intern("f"));
    std::vector<lang::Value> args = {*globals->globals.find(lang::Symbol::intern("x"))};
    return medianNs(5,
                    [&] {
                        for (int64_t i = 0; i < n; ++i)
                            interp.call(f, lang::CallArgs{args, {}, {}});
                    }) /
           static_cast<double>(n);
}

Measurement launchRecording(int64_t n) {
    Measurement m{"kernel_launch_recording",
                  "recording one kernel launch in the trace (traced call minus untraced call)",
                  "a 50 us kernel (1% of it is the budget)"};
    m.iterations = n;
    std::string path = (std::filesystem::temp_directory_path() /
                        ("kiln-bench-launches-" + std::to_string(::getpid()) + ".kiln"))
                           .string();
    std::filesystem::remove(path);
    auto writer = trace::TraceWriter::open(path);
    if (!writer) throw std::runtime_error(writer.error().render());
    if (!(*writer)->beginRun(
            trace::RunInfo{"<bench>", "", "default", "inductor", "{}", "cpu", {}, 0, 0}))
        throw std::runtime_error("cannot begin a trace run");
    double traced = compiledCallNs(**writer, n);
    (void)(*writer)->finishRun(trace::RunStatus::Ok, 0);
    writer->reset();
    std::filesystem::remove(path);
    NullEventSink none;
    double untraced = compiledCallNs(none, n);
    m.nsPerOp = std::max(0.0, traced - untraced);
    m.baselineNsPerOp = 50'000;
    m.goalNsPerOp = 500;
    return m;
}

} // namespace

std::vector<Case> launchCases() {
    return {{"kernel_launch_recording", launchRecording, 20000}};
}

} // namespace kiln::bench
