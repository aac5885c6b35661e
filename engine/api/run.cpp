// SPDX-License-Identifier: MIT
#include "api/run.h"

#include "api/crash_report.h"
#include "api/interpreter_thread.h"
#include "api/measure_compiled_calls.h"
#include "api/run_supervisor.h"
#include "api/script_file.h"
#include "capture/backends.h"
#include "capture/compile_api.h"
#include "inductor/eager_device_ops.h"
#include "inductor/gpu_profiler.h"
#include "inductor/inductor_backend.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "runtime/device_probe.h"
#include "support/clock.h"
#include "support/cpu_info.h"
#include "support/debug_sandbox.h"
#include "support/options.h"
#include "support/parallel.h"
#include "support/sha256.h"
#include "support/torch_logger.h"
#include "tensor/gemm.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"
#include "trace/json_text.h"
#include "trace/trace_writer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
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
        sink.output(OutputStream::Stderr, lang::exceptionMessage(interp, code) + "\n");
        outcome.exitCode = 1;
    }
    if (outcome.exitCode != 0) {
        outcome.status = RunStatus::Error;
        outcome.error = {"SystemExit", lang::exceptionMessage(interp, exception), ""};
    }
    return outcome;
}

/// Tells the supervisor while the script runs, so a SIGINT or the timeout can interrupt it.
class ScriptScope {
public:
    ScriptScope(RunSupervisor& supervisor, lang::Interpreter& interp)
        : m_supervisor(supervisor) {
        m_supervisor.scriptStarted(interp);
    }
    ~ScriptScope() { m_supervisor.scriptEnded(); }
    ScriptScope(const ScriptScope&) = delete;
    ScriptScope& operator=(const ScriptScope&) = delete;

private:
    RunSupervisor& m_supervisor;
};

/// Parses and runs the script on the interpreter thread; reports errors Python's way.
Outcome execute(const std::shared_ptr<SourceFile>& source, TeeSink& sink, const RunConfig& config,
                RunSupervisor& supervisor) {
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
    torchapi::ScriptCompileConfig compileConfig(interp);
    capture::CaptureEngine capture(interp, compileConfig, sink, logger);
    capture.setOverrides(config.compile);
    capture.callSites().setRecording(config.measure.calls > 0);
    capture.setInductorCompiler(inductor::makeInductorCompiler());
    inductor::installEagerDeviceOps();
    options.onImported = [&capture](lang::Interpreter& i, lang::ModuleObject&) {
        capture::installCompileApi(i, capture);
    };
    torchapi::installTorch(interp, options);
    ScriptScope scope(supervisor, interp);
    // Without CUPTI the GPU kernels are timed with CUDA events: the run's log says so (and meta).
    if (runtime::probeCuda().available() && !inductor::GpuProfiler::instance().usesCupti())
        sink.output(OutputStream::Log, "kiln: GPU kernels are timed with " +
                                           inductor::GpuProfiler::instance().method() + "\n");
    // GPU kernel timings still pending reach the trace however the script ends.
    struct FlushGpuTimings {
        ~FlushGpuTimings() { inductor::GpuProfiler::flushIfStarted(); }
    } flushGpuTimings;
    try {
        interp.runMain(parsed.value());
        interp.checkCancel(); // a SIGINT during the last statement's native call
        if (config.measure.calls > 0)
            measureCompiledCalls(interp, capture, sink, config.measure, [&supervisor] {
                return supervisor.cancelReason() != RunSupervisor::Cancel::None;
            });
    } catch (lang::PyException& e) {
        if (interp.isInstance(e.exception, lang::builtinTypes().systemExit.get()))
            return systemExitOutcome(interp, e.exception, sink);
        std::string text = lang::formatTraceback(interp, e.exception);
        sink.output(OutputStream::Stderr, text);
        RunSupervisor::Cancel why = supervisor.cancelReason();
        // An uncaught KeyboardInterrupt after a SIGINT is the user's stop; one the script
        // raised itself, or a later error after a caught interrupt, is the script's error.
        if (why == RunSupervisor::Cancel::None && supervisor.interrupted() &&
            interp.isInstance(e.exception, lang::builtinTypes().keyboardInterrupt.get()))
            why = RunSupervisor::Cancel::Interrupt;
        outcome.status =
            why == RunSupervisor::Cancel::None ? RunStatus::Error : RunStatus::Cancelled;
        outcome.exitCode = why == RunSupervisor::Cancel::Timeout     ? 124
                           : why == RunSupervisor::Cancel::Interrupt ? 128 + SIGINT
                                                                     : 1;
        outcome.error = {lang::exceptionTypeName(e.exception),
                         lang::exceptionMessage(interp, e.exception), text};
        if (why == RunSupervisor::Cancel::Timeout)
            outcome.error.message =
                "run cancelled: the --timeout of " + supervisor.describeTimeout() + " expired";
        else if (why == RunSupervisor::Cancel::Interrupt)
            outcome.error.message = "run cancelled: interrupted by SIGINT";
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

/// "a, b, c or d"
std::string listOfNames(const std::vector<std::string>& names) {
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}

/// Device 0's facts in the trace's meta, when the machine has a usable GPU.
void recordGpuMeta(trace::TraceWriter& trace, const runtime::CudaProbe& cuda) {
    if (!cuda.available()) return;
    (void)trace.setMeta(trace::metakeys::kGpuName, cuda.deviceName);
    (void)trace.setMeta(trace::metakeys::kGpuCapability, std::to_string(cuda.capabilityMajor) +
                                                             "." +
                                                             std::to_string(cuda.capabilityMinor));
    (void)trace.setMeta(trace::metakeys::kGpuMemory, std::to_string(cuda.totalMemory));
    if (!cuda.kernelModule.empty())
        (void)trace.setMeta(trace::metakeys::kGpuDriver, cuda.kernelModule);
    (void)trace.setMeta(trace::metakeys::kCudaVersion, cuda.cudaVersionText());
}

/// The settings a run cannot start with, refused before anything is read or written.
Status checkConfig(const RunConfig& config) {
    const double timeout = config.timeoutSeconds;
    if (!std::isfinite(timeout) || timeout < 0 || timeout > kMaxTimeoutSeconds) {
        char text[64];
        std::snprintf(text, sizeof text, "%g", timeout);
        return makeDiagnostic("UsageError",
                              std::string("the timeout must be 0 (none) or a positive, finite "
                                          "number of seconds up to 2592000 (30 days), got ") +
                                  text);
    }
    const CallTimingPlan& measure = config.measure;
    if (measure.calls < 0 || measure.calls > kMaxMeasuredCalls || measure.warmup < 0 ||
        measure.warmup > kMaxMeasuredCalls || !std::isfinite(measure.budgetSeconds) ||
        measure.budgetSeconds < 0)
        return makeDiagnostic("UsageError",
                              "--measure and --warmup take a number of calls from 0 to " +
                                  std::to_string(kMaxMeasuredCalls));
    if (config.device != "cpu" && config.device != "cuda")
        return makeDiagnostic("UsageError",
                              "unknown device '" + config.device + "' (expected cpu or cuda)");
    if (const auto& mode = config.compile.mode) {
        std::vector<std::string> modes;
        for (std::string_view name : compileModeNames())
            modes.emplace_back(name);
        if (std::find(modes.begin(), modes.end(), *mode) == modes.end())
            return makeDiagnostic("UsageError", "unknown --mode '" + *mode +
                                                    "'; torch.compile's modes are " +
                                                    listOfNames(modes));
    }
    if (const auto& backend = config.compile.backend) {
        capture::BackendRegistry builtins;
        if (!builtins.find(*backend))
            return makeDiagnostic(
                "UsageError", "unknown --backend '" + *backend +
                                  "'; --backend takes a built-in backend: " +
                                  listOfNames(builtins.list({}, true)) +
                                  " (a custom backend exists only inside its script: pass it to "
                                  "torch.compile(backend=...) there)");
    }
    return Status::success();
}

/// Registers the open run with the supervisor and the crash report; withdraws both when the
/// run ends or an exception unwinds past it, before the writer goes away.
class RunRegistration {
public:
    RunRegistration(RunSupervisor& supervisor, trace::TraceWriter& trace, int64_t runId)
        : m_supervisor(supervisor) {
        m_supervisor.setRun(&trace, runId); // the caller holds the supervisor's stops
        armCrashReport(runId, trace.path());
    }
    ~RunRegistration() {
        if (!m_registered) return;
        auto hold = m_supervisor.holdStops();
        withdraw();
    }
    RunRegistration(const RunRegistration&) = delete;
    RunRegistration& operator=(const RunRegistration&) = delete;
    /// Under the supervisor's holdStops().
    void withdraw() {
        disarmCrashReport();
        m_supervisor.setRun(nullptr, 0);
        m_registered = false;
    }

private:
    RunSupervisor& m_supervisor;
    bool m_registered = true;
};

} // namespace

std::string engineVersion() {
    return KILN_ENGINE_VERSION;
}

std::string defaultTracePath(const std::string& scriptPath) {
    fs::path p(scriptPath);
    p.replace_extension(".kiln");
    return p.string();
}

namespace {

/// runWorkload's body; out of memory outside the script (which sees a MemoryError) unwinds
/// to runWorkload.
Expected<RunResult> runChecked(const RunConfig& config, EventSink* observer) {
    const int64_t start = monotonicNs();
    if (Status ok = checkConfig(config); !ok) return ok.error();
    support::setDebugSandboxRoot(config.debugDir.empty() ? "" : absolutePath(config.debugDir));
    // From here on the timeout counts: reading the script and opening the trace included.
    RunSupervisor supervisor(config.timeoutSeconds);
    std::string scriptPath = absolutePath(config.scriptPath);
    auto text = readScript(scriptPath);
    if (!text.ok()) return text.error();
    const runtime::CudaProbe& cuda = runtime::probeCuda();
    if (config.device == "cuda" && !cuda.available())
        return makeDiagnostic("DeviceError",
                              "--device cuda: " + runtime::noCudaDeviceMessage(cuda));
    RunResult result;
    result.dbPath =
        absolutePath(config.dbPath.empty() ? defaultTracePath(scriptPath) : config.dbPath);
    if (Status ok = checkTraceIsNotScript(scriptPath, result.dbPath, !config.dbPath.empty()); !ok)
        return ok.error();
    auto writer = trace::TraceWriter::open(result.dbPath);
    if (!writer.ok()) return writer.error();
    trace::TraceWriter& trace = *writer.value();
    (void)trace.setMeta(trace::metakeys::kEngineVersion, engineVersion());
    (void)trace.setMeta(trace::metakeys::kDevice,
                        config.device == "cuda" ? cuda.describe() : "cpu");
    (void)trace.setMeta(trace::metakeys::kCudaDriver, cuda.describe());
    recordGpuMeta(trace, cuda);
    // With a GPU, kernel timings come from CUPTI, or from CUDA events when it cannot start.
    (void)trace.setMeta(trace::metakeys::kCupti, cuda.available()
                                                     ? inductor::GpuProfiler::instance().method()
                                                     : "unavailable (no CUDA device)");
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
    std::optional<RunRegistration> registration;
    {
        auto hold = supervisor.holdStops();
        auto runId = trace.beginRun(info);
        if (!runId.ok()) return runId.error();
        result.runId = runId.value();
        registration.emplace(supervisor, trace, result.runId);
    }
    TeeSink sink(trace, config.echoOutput, observer);
    auto source = std::make_shared<SourceFile>(scriptPath, std::move(text).value());
    Outcome outcome;
    try {
        outcome = runOnInterpreterThread([&] { return execute(source, sink, config, supervisor); });
    } catch (const std::bad_alloc&) {
        // Outside what the script itself allocates (a MemoryError it can catch): parsing a huge
        // script, say.
        outcome.status = RunStatus::Error;
        outcome.exitCode = 1;
        outcome.error = {"MemoryError", "kiln ran out of memory running the script", ""};
    }
    std::fflush(stdout);
    // Rows the trace could not take make the run an error, and kiln's exit status says so.
    (void)trace.flush();
    bool lostRows = false;
    for (const trace::LostRows& rows : trace.lostRows())
        lostRows = lostRows || rows.runId == result.runId;
    if (lostRows && outcome.status == RunStatus::Ok) outcome.exitCode = 2;
    result.status = outcome.status;
    result.exitCode = outcome.exitCode;
    result.errorType = outcome.error.type;
    result.errorMessage = outcome.error.message;
    result.errorLocation = outcome.location;
    trace::RunStatus status = outcome.status == RunStatus::Ok      ? trace::RunStatus::Ok
                              : outcome.status == RunStatus::Error ? trace::RunStatus::Error
                                                                   : trace::RunStatus::Cancelled;
    Status finished;
    {
        auto hold = supervisor.holdStops();
        registration->withdraw();
        finished = trace.finishRun(status, result.exitCode,
                                   outcome.status == RunStatus::Ok ? nullptr : &outcome.error);
    }
    if (!finished.ok()) {
        result.traceProblem = finished.error().message;
        if (result.status == RunStatus::Ok) {
            result.status = RunStatus::Error;
            result.exitCode = 2;
            result.errorType = "TraceError";
            result.errorMessage = result.traceProblem;
        }
    }
    result.outputLines = sink.lines();
    result.wallSeconds = static_cast<double>(monotonicNs() - start) * 1e-9;
    return result;
}

} // namespace

Expected<RunResult> runWorkload(const RunConfig& config, EventSink* observer) {
    try {
        return runChecked(config, observer);
    } catch (const std::bad_alloc&) {
        return makeDiagnostic("MemoryError", "kiln ran out of memory setting up the run");
    }
}

void installStopSignalHandlers() {
    installStopSignalHandlersOnce();
    std::signal(SIGXFSZ, SIG_IGN);
}

} // namespace kiln::api
