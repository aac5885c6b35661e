// SPDX-License-Identifier: MIT
#include "api/run.h"

#include "api/interpreter_thread.h"
#include "capture/compile_api.h"
#include "inductor/inductor_backend.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "runtime/device_probe.h"
#include "support/clock.h"
#include "support/cpu_info.h"
#include "support/parallel.h"
#include "support/sha256.h"
#include "support/torch_logger.h"
#include "tensor/gemm.h"
#include "torchapi/install.h"
#include "trace/json_text.h"
#include "trace/trace_writer.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

namespace kiln::api {

namespace {

namespace fs = std::filesystem;

/// Sends the script's output to the trace, to this process's stdout/stderr and to an observer,
/// counting lines on the way.
class TeeSink final : public EventSink {
public:
    TeeSink(trace::TraceWriter& trace, bool echo, EventSink* observer)
        : m_trace(trace)
        , m_echo(echo)
        , m_observer(observer) {}

    void output(OutputStream stream, std::string_view text) override {
        m_trace.output(stream, text);
        if (m_observer) m_observer->output(stream, text);
        for (char c : text)
            m_lines += c == '\n';
        if (!m_echo) return;
        if (stream != OutputStream::Stdout) { // torch logs go to stderr, as Python's logging
            std::fflush(stdout); // keep the terminal's order: prints before the traceback
            std::fwrite(text.data(), 1, text.size(), stderr);
        } else {
            std::fwrite(text.data(), 1, text.size(), stdout);
        }
    }
    int64_t lines() const { return m_lines; }

    // Capture facts go to the trace and to the observer.
    void frame(const FrameEvent& e) override { forward(&EventSink::frame, e); }
    void compile(const CompileEvent& e) override { forward(&EventSink::compile, e); }
    void guard(const GuardEvent& e) override { forward(&EventSink::guard, e); }
    void recompile(const RecompileEvent& e) override { forward(&EventSink::recompile, e); }
    void graphBreak(const GraphBreakEvent& e) override { forward(&EventSink::graphBreak, e); }
    void graph(const GraphEvent& e) override { forward(&EventSink::graph, e); }
    void config(const ConfigEvent& e) override { forward(&EventSink::config, e); }
    void timeline(const TimelineEvent& e) override { forward(&EventSink::timeline, e); }
    // And so do the compiler's and the runtime's.
    void kernel(const KernelEvent& e) override { forward(&EventSink::kernel, e); }
    void autotuneChoice(const AutotuneChoiceEvent& e) override {
        forward(&EventSink::autotuneChoice, e);
    }
    void kernelLaunch(const KernelLaunchEvent& e) override { forward(&EventSink::kernelLaunch, e); }
    void diagram(const DiagramEvent& e) override { forward(&EventSink::diagram, e); }

private:
    template <typename Event>
    void forward(void (EventSink::*method)(const Event&), const Event& e) {
        (m_trace.*method)(e);
        if (m_observer) (m_observer->*method)(e);
    }

    trace::TraceWriter& m_trace;
    bool m_echo;
    EventSink* m_observer;
    int64_t m_lines = 0;
};

Expected<std::string> readScript(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec))
        return makeDiagnostic("FileNotFoundError", "can't open file '" + path +
                                                       "': [Errno 2] No such file or directory");
    if (fs::is_directory(path, ec))
        return makeDiagnostic("IsADirectoryError", "can't run '" + path + "': it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeDiagnostic("PermissionError",
                              "can't open file '" + path + "': permission denied");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The run's --options as a JSON object of strings (the runs table's options column).
/// Where this run runs (RunInfo::machineJson): the CPU, the eager kernels' instruction set,
/// the thread count and the matrix-product libraries with their code paths.
std::string machineJson() {
    const tensor::MatmulLibraries& m = tensor::matmulLibraries();
    return "{\"cpu\": " + trace::jsonQuoted(cpuModelName()) +
           ", \"isa\": " + trace::jsonQuoted(isaName(activeIsa())) +
           ", \"threads\": " + std::to_string(parallelThreads()) +
           ", \"matmul\": {\"float32\": " + trace::jsonQuoted(m.float32) +
           ", \"bfloat16\": " + trace::jsonQuoted(m.bfloat16) +
           ", \"float64\": " + trace::jsonQuoted(m.float64) + "}}";
}

std::string optionsJson(const CompileOverrides& overrides) {
    std::string json = "{";
    for (const auto& [key, value] : overrides.options)
        json += (json.size() > 1 ? ", " : "") + trace::jsonQuoted(key) + ": " +
                trace::jsonQuoted(value);
    return json + "}";
}

struct Outcome {
    RunStatus status = RunStatus::Ok;
    int exitCode = 0;
    trace::RunError error;
    std::string location;
};

/// `raise SystemExit(code)` ends the script quietly, as CPython does: no traceback, the exit
/// status is the code (None: 0; a non-int is printed to stderr and gives 1).
Outcome systemExitOutcome(lang::Interpreter& interp, const lang::Value& exception, TeeSink& sink) {
    Outcome outcome;
    lang::Value args = interp.getAttr(exception, lang::Symbol::intern("args"));
    const auto& items = args.as<lang::TupleObject>()->items;
    lang::Value code = items.empty() ? lang::Value::none() : items.size() == 1 ? items[0] : args;
    if (code.isIntLike()) {
        outcome.exitCode = static_cast<int>(code.asInt() & 0xff);
    } else if (!code.isNone()) {
        sink.output(OutputStream::Stderr, interp.str(code) + "\n");
        outcome.exitCode = 1;
    }
    if (outcome.exitCode != 0) {
        outcome.status = RunStatus::Error;
        outcome.error = {"SystemExit", interp.str(exception), ""};
    }
    return outcome;
}

/// Parses and runs the script on the interpreter thread; reports errors Python's way.
Outcome execute(const std::shared_ptr<SourceFile>& source, TeeSink& sink, const RunConfig& config,
                std::function<void()> onStuck) {
    Outcome outcome;
    auto parsed = lang::parseModule(source);
    if (!parsed.ok()) {
        const Diagnostic& d = parsed.error();
        std::string text = lang::formatSyntaxError(d, *source);
        sink.output(OutputStream::Stderr, text);
        outcome.status = RunStatus::Error;
        outcome.exitCode = 1;
        outcome.error = {d.kind, d.message, text};
        outcome.location = d.render().substr(0, d.render().find(": " + d.kind));
        return outcome;
    }
    lang::Interpreter interp(sink);
    torchapi::TorchOptions options;
    options.defaultDevice = config.device;
    Logger logger(sink);
    capture::CaptureEngine capture(interp, sink, logger);
    capture.setOverrides(config.compile);
    capture.setInductorCompiler(inductor::makeInductorCompiler());
    options.onImported = [&capture](lang::Interpreter& i, lang::ModuleObject&) {
        capture::installCompileApi(i, capture);
    };
    torchapi::installTorch(interp, options);
    Watchdog watchdog(interp, config.timeoutSeconds, std::move(onStuck));
    try {
        interp.runMain(parsed.value());
    } catch (lang::PyException& e) {
        if (interp.isInstance(e.exception, lang::builtinTypes().systemExit.get()))
            return systemExitOutcome(interp, e.exception, sink);
        std::string text = lang::formatTraceback(interp, e.exception);
        sink.output(OutputStream::Stderr, text);
        bool cancelled = watchdog.fired();
        outcome.status = cancelled ? RunStatus::Cancelled : RunStatus::Error;
        outcome.exitCode = cancelled ? 124 : 1;
        outcome.error = {lang::exceptionTypeName(e.exception), interp.str(e.exception), text};
        if (cancelled)
            outcome.error.message =
                "run cancelled: the --timeout of " + watchdog.describeLimit() + " expired";
        lang::ErrorLocation loc = lang::innermostLocation(e.exception);
        if (loc.known)
            outcome.location = loc.file + ":" + std::to_string(loc.pos.line) + ":" +
                               std::to_string(loc.pos.column);
    }
    return outcome;
}

std::string absolutePath(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

} // namespace

std::string engineVersion() {
    return KILN_ENGINE_VERSION;
}

std::string defaultTracePath(const std::string& scriptPath) {
    fs::path p(scriptPath);
    p.replace_extension(".kiln");
    return p.string();
}

Expected<RunResult> runWorkload(const RunConfig& config, EventSink* observer) {
    const int64_t start = monotonicNs();
    std::string scriptPath = absolutePath(config.scriptPath);
    auto text = readScript(scriptPath);
    if (!text.ok()) return text.error();
    if (config.device != "cpu" && config.device != "cuda")
        return makeDiagnostic("UsageError",
                              "unknown device '" + config.device + "' (expected cpu or cuda)");
    const runtime::CudaProbe& cuda = runtime::probeCuda();
    if (config.device == "cuda" && !cuda.available())
        return makeDiagnostic("DeviceError",
                              "--device cuda: no CUDA GPU is usable: " + cuda.problem);
    if (config.device == "cuda")
        return makeDiagnostic("DeviceError",
                              "--device cuda: found " + cuda.describe() +
                                  ", but this Kiln build runs workloads on the CPU only; CUDA "
                                  "execution arrives with the CUDA backend");
    RunResult result;
    result.dbPath =
        absolutePath(config.dbPath.empty() ? defaultTracePath(scriptPath) : config.dbPath);
    auto writer = trace::TraceWriter::open(result.dbPath);
    if (!writer.ok()) return writer.error();
    trace::TraceWriter& trace = *writer.value();
    (void)trace.setMeta(trace::metakeys::kEngineVersion, engineVersion());
    (void)trace.setMeta(trace::metakeys::kDevice,
                        config.device == "cuda" ? cuda.describe() : "cpu");
    (void)trace.setMeta(trace::metakeys::kCudaDriver, cuda.describe());
    (void)trace.setMeta(trace::metakeys::kCupti, "unavailable");
    const tensor::MatmulLibraries& matmul = tensor::matmulLibraries();
    (void)trace.setMeta(trace::metakeys::kCpu, cpuModelName());
    (void)trace.setMeta(trace::metakeys::kCpuIsa, isaName(activeIsa()));
    (void)trace.setMeta(trace::metakeys::kThreads, std::to_string(parallelThreads()));
    (void)trace.setMeta(trace::metakeys::kMatmulLibrary, "float32: " + matmul.float32 +
                                                             "; bfloat16: " + matmul.bfloat16 +
                                                             "; float64: " + matmul.float64);
    trace::RunInfo info;
    info.workloadPath = scriptPath;
    info.workloadHash = sha256Hex(text.value());
    info.mode = config.compile.mode.value_or("default");
    info.backend = config.compile.backend.value_or("");
    info.optionsJson = optionsJson(config.compile);
    info.device = config.device;
    info.argv = config.argv;
    info.machineJson = machineJson();
    auto runId = trace.beginRun(info);
    if (!runId.ok()) return runId.error();
    result.runId = runId.value();
    TeeSink sink(trace, config.echoOutput, observer);
    auto source = std::make_shared<SourceFile>(scriptPath, std::move(text).value());
    // A script stuck inside one long native operation cannot see the cancel request: record the
    // cancellation and end the process rather than run past the user's limit.
    auto onStuck = [&trace, &config] {
        trace::RunError error{"KeyboardInterrupt",
                              "run cancelled: the --timeout of " +
                                  std::to_string(config.timeoutSeconds) +
                                  " s expired and the script did not stop",
                              ""};
        (void)trace.finishRun(trace::RunStatus::Cancelled, 124, &error);
        std::fprintf(stderr, "kiln: %s\n", error.message.c_str());
        std::_Exit(124);
    };
    Outcome outcome =
        runOnInterpreterThread([&] { return execute(source, sink, config, onStuck); });
    std::fflush(stdout);
    result.status = outcome.status;
    result.exitCode = outcome.exitCode;
    result.errorType = outcome.error.type;
    result.errorMessage = outcome.error.message;
    result.errorLocation = outcome.location;
    trace::RunStatus status = outcome.status == RunStatus::Ok      ? trace::RunStatus::Ok
                              : outcome.status == RunStatus::Error ? trace::RunStatus::Error
                                                                   : trace::RunStatus::Cancelled;
    Status finished = trace.finishRun(status, result.exitCode,
                                      outcome.status == RunStatus::Ok ? nullptr : &outcome.error);
    if (!finished.ok()) return finished.error();
    result.outputLines = sink.lines();
    result.wallSeconds = static_cast<double>(monotonicNs() - start) * 1e-9;
    return result;
}

void installCrashHandlers() {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction action {};
        action.sa_handler = [](int signalNumber) {
            trace::TraceWriter::emergencyFlush(signalNumber);
            std::signal(signalNumber, SIG_DFL);
            std::raise(signalNumber);
        };
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        sigaction(sig, &action, nullptr);
    }
}

} // namespace kiln::api
