// SPDX-License-Identifier: MIT
// torch._logging (set_logs) and the constants of Python's logging module that scripts pass to
// it. The run's TORCH_LOGS state (support/torch_logs.h) is reset from the environment when the
// modules are installed, at run start; a bad TORCH_LOGS or TORCH_LOGS_FORMAT makes
// `import torch` fail, as it does in PyTorch, because torch imports torch._logging.
#include "lang/signature.h"
#include "support/torch_logger.h"
#include "torchapi/install.h"

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

/// The interpreter's output as an EventSink, for the few lines this module logs itself.
class InterpreterLogSink final : public EventSink {
public:
    explicit InterpreterLogSink(Interpreter& interp)
        : m_interp(interp) {}
    void output(OutputStream stream, std::string_view text) override {
        m_interp.write(stream, text);
    }

private:
    Interpreter& m_interp;
};

/// A WARNING from torch._logging._internal, shown unless the settings silence torch.
void warn(Interpreter& interp, std::string message, LogLocation where) {
    InterpreterLogSink sink(interp);
    Logger(sink).log({LogLevel::Warning, "torch._logging._internal", std::nullopt, "", where,
                      std::move(message)});
}

/// set_logs' level keywords in PyTorch's order, which is also the order they apply in (dynamo
/// before dynamic: `set_logs(dynamo=DEBUG, dynamic=INFO)` leaves the shape logs at INFO).
std::vector<std::string_view> levelKeywords() {
    std::vector<std::string_view> keywords = {"all"};
    for (const LogAliasInfo& alias : logAliases())
        if (alias.name != "torch") keywords.push_back(alias.name);
    return keywords;
}

std::string setLogsSpec() {
    std::string spec = "set_logs(*";
    for (std::string_view keyword : levelKeywords())
        spec.append(", ").append(keyword).append("=None");
    for (size_t i = 0; i < kArtifactCount; ++i)
        spec.append(", ").append(artifactName(static_cast<Artifact>(i))).append("=False");
    return spec + ", modules=None)";
}

std::optional<LogLevel> levelOf(const Value& v) {
    // Python tests `val in logging._levelToName`: 10.0 and False (0) are levels, True is not.
    if (v.isIntLike()) return logLevelFromNumber(v.asInt());
    if (v.isFloat() && v.asFloat() == static_cast<double>(static_cast<int64_t>(v.asFloat())))
        return logLevelFromNumber(static_cast<int64_t>(v.asFloat()));
    return std::nullopt;
}

LogLevel checkedLevel(Interpreter& interp, std::string_view log, const Value& v) {
    std::optional<LogLevel> level = levelOf(v);
    if (!level)
        interp.raiseValueError("Unrecognized log level for log " + std::string(log) + ": " +
                               interp.str(v) + ", valid level values are: 50,40,30,20,10,0");
    return *level;
}

void applyArtifact(Interpreter& interp, TorchLogs& settings, Artifact artifact, const Value& v) {
    if (v.isEmpty() || v.isNone()) return;
    if (!v.isBool())
        interp.raiseValueError("Expected bool to enable artifact " +
                               std::string(artifactName(artifact)) + ", received " + interp.str(v));
    if (v.asBool()) settings.enableArtifact(artifact);
}

void applyLevel(Interpreter& interp, TorchLogs& settings, std::string_view alias, const Value& v) {
    if (v.isEmpty() || v.isNone()) return;
    settings.setAliasLevel(*findLogAlias(alias), checkedLevel(interp, alias, v));
}

/// `modules={name: value}`: artifact and log names, and the module names of whole logs.
void applyModules(Interpreter& interp, TorchLogs& settings, const Value& modules) {
    if (!modules.is(ObjectKind::Dict)) {
        std::string message = "'";
        message.append(interp.typeName(modules)).append("' object has no attribute 'items'");
        interp.raiseAttributeError(modules, Symbol::intern("items"), message);
    }
    modules.as<DictObject>()->forEach([&](const Value& key, const Value& value) {
        if (value.isNone()) return;
        std::string name = key.is(ObjectKind::Str) ? key.as<StrObject>()->str() : interp.str(key);
        if (std::optional<Artifact> artifact = findArtifact(name))
            applyArtifact(interp, settings, *artifact, value);
        else if (name != "all" && findLogAlias(name))
            applyLevel(interp, settings, name, value);
        else if (std::optional<LogGroup> group = findWholeLogModule(name))
            settings.setGroupLevel(*group, checkedLevel(interp, name, value));
        else
            interp.raiseValueError("Unrecognized log or artifact name passed to set_logs: " + name);
    });
}

Value setLogs(Interpreter& interp, const CallArgs& args, void*) {
    static const std::string spec = setLogsSpec();
    static const Signature sig(spec);
    BoundArgs a = sig.bind(interp, args);
    if (torchLogs().fromEnvironment()) {
        warn(interp,
             "Using TORCH_LOGS environment variable for log settings, ignoring call to set_logs",
             KILN_LOG_HERE);
        return Value::none();
    }
    // Validate everything before changing anything: a bad argument leaves the settings as
    // they were.
    TorchLogs settings;
    size_t i = 0;
    for (std::string_view keyword : levelKeywords())
        applyLevel(interp, settings, keyword == "all" ? "torch" : keyword, a[i++]);
    for (size_t k = 0; k < kArtifactCount; ++k)
        applyArtifact(interp, settings, static_cast<Artifact>(k), a[i++]);
    if (a.has(i)) applyModules(interp, settings, a[i]);
    torchLogs().replaceSettings(settings);
    return Value::none();
}

void installTorchLogging(Interpreter& interp, ModuleObject& module,
                         const std::optional<Diagnostic>& environmentError) {
    if (environmentError) {
        if (environmentError->kind == "TypeError") interp.raiseTypeError(environmentError->message);
        interp.raiseValueError(environmentError->message);
    }
    if (const std::optional<std::string>& out = torchLogs().ignoredOutFile())
        warn(interp,
             "TORCH_LOGS_OUT=" + *out +
                 " is ignored: Kiln scripts write no files; the log lines are in the trace",
             KILN_LOG_HERE);
    interp.defineNative(module.globals, "set_logs", setLogs);
}

/// The level constants of Python's logging module.
void installLogging(Interpreter&, ModuleObject& module) {
    for (auto [name, level] :
         {std::pair{"CRITICAL", 50}, std::pair{"FATAL", 50}, std::pair{"ERROR", 40},
          std::pair{"WARNING", 30}, std::pair{"WARN", 30}, std::pair{"INFO", 20},
          std::pair{"DEBUG", 10}, std::pair{"NOTSET", 0}})
        module.globals.set(Symbol::intern(name), Value::fromInt(level));
}

} // namespace

void installLoggingModules(Interpreter& interp) {
    // Run start: this run's settings come from its environment, never from an earlier run's
    // set_logs. The error, if any, waits for `import torch`, as in PyTorch.
    Expected<TorchLogs> logs = TorchLogs::fromEnvironment(LogEnvironment::fromProcess());
    std::optional<Diagnostic> error;
    if (logs.ok()) {
        torchLogs() = logs.value();
    } else {
        torchLogs() = TorchLogs();
        error = logs.error();
    }
    interp.registerNativeModule("logging", installLogging);
    interp.registerNativeModule("torch._logging", [error](Interpreter& i, ModuleObject& m) {
        installTorchLogging(i, m, error);
    });
}

} // namespace kiln::torchapi
