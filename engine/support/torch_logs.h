// SPDX-License-Identifier: MIT
/// \file
/// TORCH_LOGS: which torch.compile log messages a run shows, with PyTorch's syntax and rules
/// (torch/_logging/_internal.py).
///
/// A setting is a comma-separated list (spaces allowed after commas) of log aliases, optionally
/// prefixed `+` (DEBUG) or `-` (ERROR), plain meaning INFO, and artifact names, which are on or
/// off. `all` is the `torch` alias, the parent of every other log. Later names win. A log that
/// is not named inherits its parent's level (WARNING when nothing is named). An artifact is shown
/// when it is named, or when its log's level lets the record through and it is not one of the
/// off-by-default artifacts (output_code, schedule, ...: those only when named).
///
/// torchLogs() is the process's state. PyTorch keeps it in Python's logging module, which is
/// process-global too; Kiln runs one workload per process at a time (the CLI; Studio runs each
/// workload in a child process), and every run resets the state from its environment when the
/// torch modules are installed, so a set_logs() of one run never leaks into the next run of the
/// same process (the tests run many). Queries are a relaxed atomic load and a bit test: a
/// disabled artifact costs a few nanoseconds, and another thread (a compile worker) may ask
/// while set_logs() changes the settings.
#pragma once

#include "support/expected.h"
#include "support/torch_logs_format.h"
#include "support/torch_logs_registry.h"

#include <array>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>

namespace kiln {

/// TORCH_LOGS, TORCH_LOGS_FORMAT and TORCH_LOGS_OUT as a run found them.
struct LogEnvironment {
    std::optional<std::string> logs;
    std::optional<std::string> format;
    std::optional<std::string> out;

    static LogEnvironment fromProcess();
};

class TorchLogs {
public:
    /// Nothing requested: every log at WARNING, no artifact on, the glog format.
    TorchLogs();
    TorchLogs(const TorchLogs& other);
    TorchLogs& operator=(const TorchLogs& other);

    /// A TORCH_LOGS value. "" requests nothing. "help" and "+help" fail with the help text,
    /// an unknown name or bad syntax with PyTorch's "Invalid log settings" text; both are
    /// ValueErrors (PyTorch raises them from `import torch`). Besides the registered names, the
    /// qualified module name of a whole registered log is accepted (`+torch._dynamo`); other
    /// module names are not, as Kiln has no Python modules to find.
    static Expected<TorchLogs> parse(std::string_view settings);
    /// A run's settings: TORCH_LOGS when set, TORCH_LOGS_FORMAT when set (a bad format fails
    /// first, as in PyTorch, whose formatter is built before the settings are read).
    /// TORCH_LOGS_OUT is only remembered: Kiln scripts write no files.
    static Expected<TorchLogs> fromEnvironment(const LogEnvironment& env);

    /// PyTorch's `TORCH_LOGS=help` text (`+help`: verbose, every artifact) for Kiln's registry.
    static std::string helpMessage(bool verbose);
    /// PyTorch's error text for an invalid setting.
    static std::string invalidSettingsMessage(std::string_view settings);

    // --- changing (set_logs and the parser; on the interpreter thread)

    /// Sets every logger of an alias ("all" and "torch" set the parent of all).
    void setAliasLevel(const LogAliasInfo& alias, LogLevel level);
    void setGroupLevel(LogGroup group, LogLevel level);
    void enableArtifact(Artifact artifact);
    /// What set_logs does: `other`'s levels and artifacts replace these; the format and the
    /// environment facts stay.
    void replaceSettings(const TorchLogs& other);
    void setFormat(LogFormat format) { m_format = std::move(format); }

    // --- queries (cheap; any thread)

    /// Whether a DEBUG record of `artifact` from its usual logger is shown: named, or its log
    /// is at DEBUG and it is not off by default.
    bool artifactEnabled(Artifact artifact) const {
        return (m_debugArtifacts.load(std::memory_order_relaxed) >>
                static_cast<unsigned>(artifact)) &
               1u;
    }
    /// Whether a record at `level` from a logger of `group` is shown (Python's isEnabledFor).
    bool enabled(LogGroup group, LogLevel level) const {
        uint64_t levels = m_effectiveLevels.load(std::memory_order_relaxed);
        return static_cast<uint8_t>(level) >=
               static_cast<uint8_t>(levels >> (8 * static_cast<unsigned>(group)));
    }
    /// A record of `group` at `level`, for `artifact` when given: the full rule.
    bool recordEnabled(LogGroup group, std::optional<Artifact> artifact, LogLevel level) const;
    /// By name: an artifact of the registry (anything else is a Kiln bug).
    bool artifactEnabled(std::string_view artifact) const;
    /// By alias ("dynamo", "all") or logger name ("torch._dynamo.guards").
    bool enabled(std::string_view aliasOrLogger, LogLevel level) const;

    // --- inspection

    /// The level TORCH_LOGS or set_logs gave the group; NotSet when it inherits.
    LogLevel requestedLevel(LogGroup group) const { return m_requested[index(group)]; }
    /// The level records must reach: the requested one or the nearest ancestor's.
    LogLevel effectiveLevel(LogGroup group) const;
    /// Named in TORCH_LOGS or set_logs.
    bool artifactRequested(Artifact artifact) const {
        return (m_requestedArtifacts.load(std::memory_order_relaxed) >>
                static_cast<unsigned>(artifact)) &
               1u;
    }
    const LogFormat& format() const { return m_format; }
    /// TORCH_LOGS was set for the run; set_logs then only warns, as in PyTorch.
    bool fromEnvironment() const { return m_fromEnvironment; }
    /// TORCH_LOGS_OUT's value when it was set (ignored, with a warning at `import torch`).
    const std::optional<std::string>& ignoredOutFile() const { return m_ignoredOutFile; }
    /// Wall clock at run start, for %(relativeCreated)d.
    int64_t startWallNs() const { return m_startWallNs; }

private:
    static size_t index(LogGroup group) { return static_cast<size_t>(group); }
    /// Derives the two words the queries read from the requested levels and artifacts.
    void publish();

    std::array<LogLevel, kLogGroupCount> m_requested{};
    // What the queries read; atomics so that other threads may ask while set_logs() runs.
    std::atomic<uint64_t> m_requestedArtifacts{0}; ///< bit per named artifact
    std::atomic<uint64_t> m_effectiveLevels{0};    ///< 8 bits per group
    std::atomic<uint64_t> m_debugArtifacts{0};     ///< bit per artifact a DEBUG record shows
    LogFormat m_format;
    bool m_fromEnvironment = false;
    std::optional<std::string> m_ignoredOutFile;
    int64_t m_startWallNs = 0;
};

/// The process's settings (see the file comment).
TorchLogs& torchLogs();

} // namespace kiln
