// SPDX-License-Identifier: MIT
/// \file
/// The logger the capture and compiler code writes TORCH_LOGS messages through. It checks the
/// settings (torchLogs()), formats the record and writes it to an EventSink as
/// OutputStream::Log, which the trace records and the CLI echoes.
///
/// Log sites use the macros, which test the cheap enabled check first and build the message
/// only when the record will be shown:
///
///     KILN_TORCH_ARTIFACT(m_logger, kiln::Artifact::Recompiles, compileId,
///                         "Recompiling function " + name + " in " + file);
///     KILN_TORCH_LOG(m_logger, kiln::LogLevel::Info, "torch._dynamo.convert_frame", compileId,
///                    "Step 1: torchdynamo start tracing " + name);
#pragma once

#include "support/event_sink.h"
#include "support/torch_logs.h"

namespace kiln {

/// Where a record's time, pid and thread come from; tests fix them.
using LogStampSource = LogStamp (*)(int64_t startWallNs);
/// The wall clock, getpid() and the calling thread.
LogStamp systemLogStamp(int64_t startWallNs);

class Logger {
public:
    explicit Logger(EventSink& sink, const TorchLogs& logs = torchLogs(),
                    LogStampSource stamp = systemLogStamp)
        : m_sink(sink)
        , m_logs(logs)
        , m_stamp(stamp) {}

    const TorchLogs& logs() const { return m_logs; }
    /// The cheap checks (see TorchLogs).
    bool enabled(LogGroup group, LogLevel level) const { return m_logs.enabled(group, level); }
    bool artifactEnabled(Artifact artifact) const { return m_logs.artifactEnabled(artifact); }

    /// Writes the record when the settings show it; returns whether it did. A record without
    /// a logger must name an artifact (its usual logger is used).
    bool log(const LogRecord& record);

private:
    EventSink& m_sink;
    const TorchLogs& m_logs;
    LogStampSource m_stamp;
};

} // namespace kiln

/// Logs the message (evaluated only when shown) at `level` from the Python logger `loggerName`
/// (a literal below torch, "torch._dynamo.convert_frame"; others do not compile), with the
/// compile id ("0/1", or "" outside a compile) and this line as the source position.
#define KILN_TORCH_LOG(logger, level, loggerName, compileId, ...)                                  \
    do {                                                                                           \
        constexpr ::kiln::LogGroup kilnLogGroup_ = ::kiln::loggerGroup(loggerName);                \
        if ((logger).enabled(kilnLogGroup_, (level))) [[unlikely]]                                 \
            (logger).log(::kiln::LogRecord{(level), (loggerName), std::nullopt,                    \
                                           std::string(compileId), KILN_LOG_HERE, __VA_ARGS__});   \
    } while (false)

/// Logs the message (evaluated only when shown) as a DEBUG record of `artifact`, as PyTorch's
/// artifact loggers mostly do.
#define KILN_TORCH_ARTIFACT(logger, artifact, compileId, ...)                                      \
    do {                                                                                           \
        if ((logger).artifactEnabled(artifact)) [[unlikely]]                                       \
            (logger).log(::kiln::LogRecord{::kiln::LogLevel::Debug,                                \
                                           {},                                                     \
                                           (artifact),                                             \
                                           std::string(compileId),                                 \
                                           KILN_LOG_HERE,                                          \
                                           __VA_ARGS__});                                          \
    } while (false)
