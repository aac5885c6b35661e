// SPDX-License-Identifier: MIT
/// \file
/// How a TORCH_LOGS record becomes text. By default PyTorch's glog-style lines (PyTorch >= 2.3,
/// torch/_logging/_internal.py TorchLogsFormatter):
///
///     V1130 05:39:59.303117 2064 engine/capture/guards.cpp:123] [0/1] [__recompiles] Recompiling
///
/// level letter (V for DEBUG, I, W, E, C), month and day, local time with microseconds, process
/// id, Kiln's own source position (relative to the source tree, see KILN_LOG_HERE), then
/// ` [<compile id>]` inside a compile and ` [__<artifact>]` for artifact records. Every line of
/// a multi-line message gets the whole prefix.
///
/// With TORCH_LOGS_FORMAT the record goes through a Python logging format string instead
/// (`%(levelname)s: %(message)s`; `short` and `basic` mean logging.BASIC_FORMAT,
/// `%(levelname)s:%(name)s:%(message)s`), as PyTorch hands it to logging.Formatter: no
/// per-line prefix, no compile id.
#pragma once

#include "support/expected.h"
#include "support/torch_logs_registry.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

/// A position in Kiln's sources, for the `<path>:<line>]` part of a line.
struct LogLocation {
    std::string_view file; ///< relative to the source tree: "engine/capture/guards.cpp"
    int line = 0;
    std::string_view function; ///< for %(funcName)s
};

namespace detail {
inline constexpr std::string_view kThisHeader = __FILE__;
inline constexpr std::string_view kThisHeaderInTree = "engine/support/torch_logs_format.h";
/// The source tree's root as the compiler spells paths ("/work/main/"), found from this
/// header's own path; empty when the build spells it some other way.
consteval std::string_view sourceRoot() {
    if (!kThisHeader.ends_with(kThisHeaderInTree)) return {};
    return kThisHeader.substr(0, kThisHeader.size() - kThisHeaderInTree.size());
}
} // namespace detail

/// `file` (a __FILE__) relative to the source tree; unchanged when it lies elsewhere. Evaluated
/// by the compiler, so a log site pays nothing for it.
consteval std::string_view sourceRelativePath(std::string_view file) {
    constexpr std::string_view root = detail::sourceRoot();
    if (!root.empty() && file.starts_with(root)) return file.substr(root.size());
    return file;
}

/// The LogLocation of the line it is written on.
#define KILN_LOG_HERE                                                                              \
    ::kiln::LogLocation {                                                                          \
        ::kiln::sourceRelativePath(__FILE__), __LINE__, __func__                                   \
    }

/// One message for the TORCH_LOGS output.
struct LogRecord {
    LogLevel level = LogLevel::Info;
    /// The Python logger PyTorch would use, "torch._dynamo.convert_frame": decides the group
    /// (and so whether the record is shown) and is %(name)s. Must outlive the log() call (a
    /// literal). Artifact records may leave it empty: the artifact's own logger is used.
    std::string_view logger;
    std::optional<Artifact> artifact;
    std::string compileId; ///< "0/1"; empty outside a compile
    LogLocation location;
    std::string message;
};

/// When and where a record was made. Logger fills it from the clocks; tests fix it.
struct LogStamp {
    int64_t wallNs = 0;     ///< wall clock, nanoseconds since the Unix epoch
    int64_t relativeNs = 0; ///< since the run started (%(relativeCreated)d)
    int64_t pid = 0;
    int64_t threadId = 0;
};

class LogFormat {
public:
    /// PyTorch's glog-style format.
    LogFormat() = default;
    /// A TORCH_LOGS_FORMAT value. Fails with Python's ValueError text when the string has no
    /// %(field)s, a malformed field or an unknown one (Python reports the last two per record,
    /// while logging; Kiln refuses them up front), or a field whose conversion cannot apply.
    static Expected<LogFormat> parse(std::string_view format);

    bool isGlog() const { return m_glog; }
    /// The record's text, every line ended by '\n'. `logger` is the record's logger name with
    /// the artifact suffix already resolved ("torch._dynamo.guards.__recompiles").
    std::string format(const LogRecord& record, std::string_view logger,
                       const LogStamp& stamp) const;

private:
    /// One `%(key)...` conversion of a Python format and the literal text before it.
    struct Field {
        std::string literal; ///< with %% already reduced to %
        uint8_t key = kNoKey;
        std::string flags; ///< any of "#0- +"
        int width = -1;
        int precision = -1;
        char conversion = 's';
    };
    static constexpr uint8_t kNoKey = 0xff; ///< the trailing literal after the last field

    /// Parses the conversion starting at format[i] ('%') into `field`, advancing `i`.
    static std::optional<Diagnostic> parseField(std::string_view format, size_t& i, Field& field);

    std::string glog(const LogRecord& record, const LogStamp& stamp) const;
    std::string python(const LogRecord& record, std::string_view logger,
                       const LogStamp& stamp) const;

    bool m_glog = true;
    std::vector<Field> m_fields;
};

/// "V1130 05:39:59.303117 2064 engine/capture/guards.cpp:123] [0/1] [__recompiles]": the
/// prefix of each line of a glog-style record, without the space before the message.
std::string glogPrefix(const LogRecord& record, const LogStamp& stamp);

} // namespace kiln
