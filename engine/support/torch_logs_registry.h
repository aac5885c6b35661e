// SPDX-License-Identifier: MIT
/// \file
/// The names TORCH_LOGS knows, as PyTorch registers them in torch/_logging/_registrations.py:
/// log aliases that set the level of one or more loggers, and artifacts, boolean switches for one
/// kind of message each.
///
/// PyTorch's levels live on Python loggers in a hierarchy; Kiln folds the loggers that one alias
/// sets into a LogGroup (the dynamo alias sets two: torch._dynamo and the dynamic-shapes
/// loggers, which the dynamic alias sets alone). A group without a level inherits its parent's:
/// torch._dynamo.backends.distributed (set by distributed) inherits torch._dynamo's, every other
/// group inherits torch's (set by `all`), and torch's default is WARNING.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>

namespace kiln {

/// Python's logging levels with their numbers (scripts pass them as ints to set_logs).
enum class LogLevel : uint8_t {
    NotSet = 0,
    Debug = 10,
    Info = 20,
    Warning = 30,
    Error = 40,
    Critical = 50,
};

/// "DEBUG", "INFO", ... as Python's logging names the level.
std::string_view logLevelName(LogLevel level);
/// The level for one of Python's level numbers (0, 10, ..., 50); nullopt for any other.
std::optional<LogLevel> logLevelFromNumber(int64_t number);

/// The artifacts of PyTorch's registry that Kiln knows (the 2.3 set plus the inductor ones the
/// debugger shows). The order is Kiln's own; names and flags are PyTorch's.
enum class Artifact : uint8_t {
    Guards,
    VerboseGuards,
    Bytecode,
    Graph,
    GraphCode,
    GraphSizes,
    TraceSource,
    TraceCall,
    AotGraphs,
    AotJointGraph,
    PostGradGraphs,
    CompiledAutograd,
    DdpGraphs,
    Recompiles,
    RecompilesVerbose,
    GraphBreaks,
    NotImplemented,
    OutputCode,
    Schedule,
    PerfHints,
    OnnxDiagnostics,
    Fusion,
    Overlap,
    KernelCode,
    IrPreFusion,
    IrPostFusion,
    Cudagraphs,
    Autotuning,
    Count
};
inline constexpr size_t kArtifactCount = static_cast<size_t>(Artifact::Count);

/// Loggers whose level one TORCH_LOGS setting controls together.
enum class LogGroup : uint8_t {
    Torch,             ///< torch (the `all` / `torch` alias)
    Dynamo,            ///< torch._dynamo
    Dynamic,           ///< torch.fx.experimental.symbolic_shapes, .sym_node, .recording
    Aot,               ///< torch._functorch.aot_autograd, torch._functorch._aot_autograd
    Inductor,          ///< torch._inductor
    Distributed,       ///< torch.distributed, torch.nn.parallel.distributed
    DynamoDistributed, ///< torch._dynamo.backends.distributed
    Onnx,              ///< torch.onnx
    Count
};
inline constexpr size_t kLogGroupCount = static_cast<size_t>(LogGroup::Count);

struct ArtifactInfo {
    std::string_view name;
    /// PyTorch's text for `TORCH_LOGS=help`; empty for the ones PyTorch leaves undescribed.
    std::string_view description;
    /// The module logger PyTorch emits it from ("torch._dynamo.guards"); its records are named
    /// "<logger>.__<name>" and it belongs to that logger's group.
    std::string_view logger;
    bool visible;      ///< listed by `TORCH_LOGS=help` (all are listed by `+help`)
    bool offByDefault; ///< only shown when named, never through an alias at DEBUG
};

struct LogAliasInfo {
    std::string_view name; ///< "dynamo"
    uint32_t groups;       ///< bit per LogGroup it sets
    LogGroup primary;      ///< the group whose level `enabled("dynamo", level)` reports
};

const ArtifactInfo& artifactInfo(Artifact artifact);
inline std::string_view artifactName(Artifact artifact) {
    return artifactInfo(artifact).name;
}
std::optional<Artifact> findArtifact(std::string_view name);

/// The log aliases (without `all`, which is another name for `torch`).
std::span<const LogAliasInfo> logAliases();
const LogAliasInfo* findLogAlias(std::string_view name);

namespace detail {
struct QualifiedLogger {
    std::string_view name;
    LogGroup group;
};
/// The registered loggers (PyTorch's qualified names) and the group each belongs to.
inline constexpr QualifiedLogger kRegisteredLoggers[] = {
    {"torch", LogGroup::Torch},
    {"torch._dynamo", LogGroup::Dynamo},
    {"torch._dynamo.backends.distributed", LogGroup::DynamoDistributed},
    {"torch.fx.experimental.symbolic_shapes", LogGroup::Dynamic},
    {"torch.fx.experimental.sym_node", LogGroup::Dynamic},
    {"torch.fx.experimental.recording", LogGroup::Dynamic},
    {"torch._functorch.aot_autograd", LogGroup::Aot},
    {"torch._functorch._aot_autograd", LogGroup::Aot},
    {"torch._inductor", LogGroup::Inductor},
    {"torch.distributed", LogGroup::Distributed},
    {"torch.nn.parallel.distributed", LogGroup::Distributed},
    {"torch.onnx", LogGroup::Onnx},
};
/// Python's logger hierarchy: `logger` is `ancestor` or one of its descendants.
constexpr bool isUnderLogger(std::string_view logger, std::string_view ancestor) {
    return logger.starts_with(ancestor) &&
           (logger.size() == ancestor.size() || logger[ancestor.size()] == '.');
}
inline constexpr size_t kNoRegisteredLogger = std::size(kRegisteredLoggers);
/// The index in kRegisteredLoggers of the nearest registered ancestor of `logger` (its own
/// entry when registered), as Python's getEffectiveLevel walks upwards; kNoRegisteredLogger
/// outside torch's loggers. An index, not a pointer: GCC's UBSan instrumentation turns a
/// pointer comparison in a constant expression into one it cannot evaluate.
constexpr size_t nearestRegisteredLoggerIndex(std::string_view logger) {
    size_t best = kNoRegisteredLogger;
    for (size_t i = 0; i < std::size(kRegisteredLoggers); ++i) {
        const QualifiedLogger& q = kRegisteredLoggers[i];
        if (isUnderLogger(logger, q.name) &&
            (best == kNoRegisteredLogger || q.name.size() > kRegisteredLoggers[best].name.size()))
            best = i;
    }
    return best;
}
/// The same entry, or nullptr.
inline const QualifiedLogger* nearestRegisteredLogger(std::string_view logger) {
    size_t i = nearestRegisteredLoggerIndex(logger);
    return i == kNoRegisteredLogger ? nullptr : &kRegisteredLoggers[i];
}
void loggerOutsideTorch(); // not constexpr: calling it makes loggerGroup fail to compile
} // namespace detail

/// The group of a logger name known at compile time ("torch._dynamo.convert_frame"), for log
/// sites; a name outside torch's loggers does not compile.
consteval LogGroup loggerGroup(std::string_view logger) {
    size_t i = detail::nearestRegisteredLoggerIndex(logger);
    if (i == detail::kNoRegisteredLogger) detail::loggerOutsideTorch();
    return detail::kRegisteredLoggers[i].group;
}

/// The group a qualified module name stands for when that module is exactly one whole
/// registered log ("torch._dynamo", "torch._inductor", "torch.onnx",
/// "torch._dynamo.backends.distributed"): TORCH_LOGS and set_logs accept these module names.
std::optional<LogGroup> findWholeLogModule(std::string_view name);

/// The group that a logger (a qualified name, "torch._dynamo.guards") or an alias ("dynamo",
/// "all") belongs to; nullopt for names outside torch's loggers.
std::optional<LogGroup> findLogGroup(std::string_view loggerOrAlias);
/// The group a group inherits its level from when it has none; nullopt for Torch.
std::optional<LogGroup> parentLogGroup(LogGroup group);

} // namespace kiln
