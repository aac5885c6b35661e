// SPDX-License-Identifier: MIT
#include "support/torch_logs.h"

#include "support/assert.h"
#include "support/clock.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace kiln {

namespace {

std::optional<std::string> environmentVariable(const char* name) {
    const char* value = std::getenv(name);
    if (!value) return std::nullopt;
    return std::string(value);
}

/// Python's `\w` and `.`; bytes of non-ASCII characters count as word characters, which only
/// lets a (then unknown) non-ASCII name reach the "unknown name" error instead.
bool isNameChar(char c) {
    auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '.' || u >= 0x80;
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// PyTorch's settings regex, `((\+|-)?[\w\.]+,\s*)*(\+|-)?[\w\.]+?`, matched in full.
bool validSyntax(std::string_view s) {
    size_t i = 0;
    for (;;) {
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        size_t start = i;
        while (i < s.size() && isNameChar(s[i]))
            ++i;
        if (i == start) return false;
        if (i == s.size()) return true;
        if (s[i] != ',') return false;
        ++i;
        while (i < s.size() && isSpace(s[i]))
            ++i;
    }
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? std::string(separator) : std::string()) + items[i];
    return out;
}

std::vector<std::string> sortedAliasNames() {
    std::vector<std::string> names;
    for (const LogAliasInfo& alias : logAliases())
        names.emplace_back(alias.name);
    std::sort(names.begin(), names.end());
    return names;
}

/// The examples block of PyTorch's help text, word for word.
constexpr std::string_view kHelpExamples = R"(
Examples:
  TORCH_LOGS="+dynamo,aot" will set the log level of TorchDynamo to
  logging.DEBUG and AOT to logging.INFO

  TORCH_LOGS="-dynamo,+inductor" will set the log level of TorchDynamo to
  logging.ERROR and TorchInductor to logging.DEBUG

  TORCH_LOGS="aot_graphs" will enable the aot_graphs artifact

  TORCH_LOGS="+dynamo,schedule" will set the log level of TorchDynamo
  to logging.DEBUG and enable the schedule artifact

  TORCH_LOGS="+some.random.module,schedule" will set the log level of
  some.random.module to logging.DEBUG and enable the schedule artifact

  TORCH_LOGS="+torch._functorch._aot_autograd" will set the log level of
  torch._functorch._aot_autograd and all its submodules to logging.DEBUG
  (directory-based logging)

  TORCH_LOGS_FORMAT="%(levelname)s: %(message)s" or any provided format
  string will set the output format
  Valid keys are "levelname", "message", "pathname", "levelno", "lineno",
  "filename" and "name".

  TORCH_LOGS_OUT=/tmp/output.txt will output the logs to /tmp/output.txt as
  well. This is useful when the output is long.
)";

} // namespace

LogEnvironment LogEnvironment::fromProcess() {
    return {environmentVariable("TORCH_LOGS"), environmentVariable("TORCH_LOGS_FORMAT"),
            environmentVariable("TORCH_LOGS_OUT")};
}

TorchLogs::TorchLogs() {
    publish();
}

TorchLogs::TorchLogs(const TorchLogs& other) {
    *this = other;
}

TorchLogs& TorchLogs::operator=(const TorchLogs& other) {
    if (this == &other) return *this;
    replaceSettings(other);
    m_format = other.m_format;
    m_fromEnvironment = other.m_fromEnvironment;
    m_ignoredOutFile = other.m_ignoredOutFile;
    m_startWallNs = other.m_startWallNs;
    return *this;
}

Expected<TorchLogs> TorchLogs::parse(std::string_view settings) {
    TorchLogs logs;
    if (settings.empty()) return logs;
    if (settings == "help" || settings == "+help")
        return makeDiagnostic("ValueError", helpMessage(settings == "+help"));
    if (!validSyntax(settings))
        return makeDiagnostic("ValueError", invalidSettingsMessage(settings));
    std::string compact;
    for (char c : settings)
        if (!isSpace(c)) compact += c;
    std::string_view rest = compact;
    while (!rest.empty()) {
        size_t comma = rest.find(',');
        std::string_view name = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        LogLevel level = name[0] == '+'   ? LogLevel::Debug
                         : name[0] == '-' ? LogLevel::Error
                                          : LogLevel::Info;
        if (name[0] == '+' || name[0] == '-') name.remove_prefix(1);
        if (const LogAliasInfo* alias = findLogAlias(name))
            logs.setAliasLevel(*alias, level);
        else if (std::optional<Artifact> artifact = findArtifact(name))
            logs.enableArtifact(*artifact);
        else if (std::optional<LogGroup> group = findWholeLogModule(name))
            logs.setGroupLevel(*group, level);
        else // PyTorch reports the setting with its whitespace removed here
            return makeDiagnostic("ValueError", invalidSettingsMessage(compact));
    }
    return logs;
}

Expected<TorchLogs> TorchLogs::fromEnvironment(const LogEnvironment& env) {
    TorchLogs logs;
    std::optional<LogFormat> format;
    if (env.format) {
        Expected<LogFormat> parsed = LogFormat::parse(*env.format);
        if (!parsed) return parsed.error();
        format = std::move(parsed).value();
    }
    if (env.logs) {
        Expected<TorchLogs> parsed = parse(*env.logs);
        if (!parsed) return parsed.error();
        logs = parsed.value();
        logs.m_fromEnvironment = true;
    }
    if (format) logs.m_format = std::move(*format);
    logs.m_ignoredOutFile = env.out;
    logs.m_startWallNs = wallClockNs();
    return logs;
}

std::string TorchLogs::helpMessage(bool verbose) {
    std::vector<std::string> artifacts;
    for (size_t i = 0; i < kArtifactCount; ++i) {
        const ArtifactInfo& info = artifactInfo(static_cast<Artifact>(i));
        if (!verbose && !info.visible) continue;
        std::string name(info.name);
        name.resize(std::max<size_t>(name.size(), 30), ' ');
        artifacts.push_back(name + "\t" + std::string(info.description));
    }
    std::sort(artifacts.begin(), artifacts.end());
    std::vector<std::string> lines = {"all"};
    for (std::string& alias : sortedAliasNames())
        lines.push_back(std::move(alias));
    lines.insert(lines.end(), artifacts.begin(), artifacts.end());
    std::string heading = verbose ? "All registered names"
                                  : "Visible registered names (use TORCH_LOGS='+help' for full "
                                    "list)";
    return "\nTORCH_LOGS Info\n" + std::string(kHelpExamples) + "\n\n" + heading + "\n  " +
           joined(lines, "\n  ") + "\n";
}

std::string TorchLogs::invalidSettingsMessage(std::string_view settings) {
    std::vector<std::string> valid = {"all"};
    for (const LogAliasInfo& alias : logAliases())
        valid.emplace_back(alias.name);
    for (size_t i = 0; i < kArtifactCount; ++i)
        valid.emplace_back(artifactName(static_cast<Artifact>(i)));
    std::sort(valid.begin(), valid.end());
    return "\nInvalid log settings: " + std::string(settings) +
           ", must be a comma separated list of fully\n"
           "qualified module names, registered log names or registered artifact names.\n"
           "For more info on various settings, try TORCH_LOGS=\"help\"\n"
           "Valid settings:\n" +
           joined(valid, ", ") + "\n";
}

void TorchLogs::setAliasLevel(const LogAliasInfo& alias, LogLevel level) {
    for (size_t g = 0; g < kLogGroupCount; ++g)
        if (alias.groups & (1u << g)) m_requested[g] = level;
    publish();
}

void TorchLogs::setGroupLevel(LogGroup group, LogLevel level) {
    m_requested[index(group)] = level;
    publish();
}

void TorchLogs::enableArtifact(Artifact artifact) {
    m_requestedArtifacts.fetch_or(uint64_t{1} << static_cast<unsigned>(artifact),
                                  std::memory_order_relaxed);
    publish();
}

void TorchLogs::replaceSettings(const TorchLogs& other) {
    m_requested = other.m_requested;
    m_requestedArtifacts.store(other.m_requestedArtifacts.load(std::memory_order_relaxed),
                               std::memory_order_relaxed);
    publish();
}

LogLevel TorchLogs::effectiveLevel(LogGroup group) const {
    // NOTSET inherits (Python's getEffectiveLevel); torch itself defaults to WARNING.
    for (std::optional<LogGroup> g = group; g; g = parentLogGroup(*g))
        if (m_requested[index(*g)] != LogLevel::NotSet) return m_requested[index(*g)];
    return LogLevel::Warning;
}

void TorchLogs::publish() {
    uint64_t levels = 0;
    for (size_t g = 0; g < kLogGroupCount; ++g)
        levels |= uint64_t{static_cast<uint8_t>(effectiveLevel(static_cast<LogGroup>(g)))}
                  << (8 * g);
    m_effectiveLevels.store(levels, std::memory_order_relaxed);
    uint64_t debug = m_requestedArtifacts.load(std::memory_order_relaxed);
    for (size_t i = 0; i < kArtifactCount; ++i) {
        const ArtifactInfo& info = artifactInfo(static_cast<Artifact>(i));
        std::optional<LogGroup> group = findLogGroup(info.logger);
        KILN_ASSERT(group, "an artifact's logger lies outside torch's loggers");
        if (!info.offByDefault && effectiveLevel(*group) <= LogLevel::Debug)
            debug |= uint64_t{1} << i;
    }
    m_debugArtifacts.store(debug, std::memory_order_relaxed);
}

bool TorchLogs::recordEnabled(LogGroup group, std::optional<Artifact> artifact,
                              LogLevel level) const {
    if (artifact) {
        // A named artifact's logger is set to DEBUG; an off-by-default one does not propagate
        // to its log's handler, so nothing else shows it.
        if (artifactRequested(*artifact)) return true;
        if (artifactInfo(*artifact).offByDefault) return false;
    }
    return enabled(group, level);
}

bool TorchLogs::artifactEnabled(std::string_view artifact) const {
    std::optional<Artifact> found = findArtifact(artifact);
    KILN_ASSERT(found, "not an artifact of the TORCH_LOGS registry");
    return artifactEnabled(*found);
}

bool TorchLogs::enabled(std::string_view aliasOrLogger, LogLevel level) const {
    std::optional<LogGroup> group = findLogGroup(aliasOrLogger);
    KILN_ASSERT(group, "not a TORCH_LOGS alias or a logger below torch");
    return enabled(*group, level);
}

TorchLogs& torchLogs() {
    static TorchLogs logs;
    return logs;
}

} // namespace kiln
