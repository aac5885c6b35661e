// SPDX-License-Identifier: MIT
#include "support/torch_logs_format.h"

#include "support/assert.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <variant>

namespace kiln {

namespace {

struct BrokenDownTime {
    std::tm tm{};
    int64_t microseconds = 0;
};

/// Local time, as Python's logging converts record.created with time.localtime.
BrokenDownTime localTime(int64_t wallNs) {
    BrokenDownTime t;
    std::time_t seconds = static_cast<std::time_t>(wallNs / 1'000'000'000);
    localtime_r(&seconds, &t.tm);
    t.microseconds = (wallNs / 1'000) % 1'000'000;
    return t;
}

/// glog's level letters, as PyTorch maps Python's level names (others stay spelled out).
const char* glogLevel(LogLevel level) {
    switch (level) {
    case LogLevel::Debug:
        return "V"; // glog's VERBOSE
    case LogLevel::Info:
        return "I";
    case LogLevel::Warning:
        return "W";
    case LogLevel::Error:
        return "E";
    case LogLevel::Critical:
        return "C";
    case LogLevel::NotSet:
        return "NOTSET";
    }
    return "NOTSET";
}

// --- the record attributes a Python format string can name

enum class Kind : uint8_t { Str, Int, Float };

struct KeyInfo {
    std::string_view name;
    Kind kind;
};

enum Key : uint8_t {
    kName,
    kMsg,
    kMessage,
    kLevelName,
    kLevelNo,
    kPathName,
    kFileName,
    kModule,
    kLineNo,
    kFuncName,
    kCreated,
    kMsecs,
    kRelativeCreated,
    kThread,
    kThreadName,
    kProcess,
    kProcessName,
    kAscTime,
    kKeyCount
};

constexpr std::array<KeyInfo, kKeyCount> kKeys = {{
    {"name", Kind::Str},
    {"msg", Kind::Str},
    {"message", Kind::Str},
    {"levelname", Kind::Str},
    {"levelno", Kind::Int},
    {"pathname", Kind::Str},
    {"filename", Kind::Str},
    {"module", Kind::Str},
    {"lineno", Kind::Int},
    {"funcName", Kind::Str},
    {"created", Kind::Float},
    {"msecs", Kind::Float},
    {"relativeCreated", Kind::Float},
    {"thread", Kind::Int},
    {"threadName", Kind::Str},
    {"process", Kind::Int},
    {"processName", Kind::Str},
    {"asctime", Kind::Str},
}};

using FieldValue = std::variant<std::string, int64_t, double>;

std::string_view baseName(std::string_view path) {
    size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/// Python's logging.Formatter.formatTime default: "2024-02-13 19:34:50,591".
std::string asctime(int64_t wallNs) {
    BrokenDownTime t = localTime(wallNs);
    char text[64];
    size_t n = std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &t.tm);
    std::snprintf(text + n, sizeof text - n, ",%03d", static_cast<int>(t.microseconds / 1000));
    return text;
}

FieldValue fieldValue(uint8_t key, const LogRecord& record, std::string_view logger,
                      const LogStamp& stamp) {
    switch (key) {
    case kName:
        return std::string(logger);
    case kMsg:
    case kMessage:
        return record.message;
    case kLevelName:
        return std::string(logLevelName(record.level));
    case kLevelNo:
        return static_cast<int64_t>(record.level);
    case kPathName:
        return std::string(record.location.file);
    case kFileName:
        return std::string(baseName(record.location.file));
    case kModule: {
        std::string_view file = baseName(record.location.file);
        return std::string(file.substr(0, file.rfind('.')));
    }
    case kLineNo:
        return static_cast<int64_t>(record.location.line);
    case kFuncName:
        return std::string(record.location.function);
    case kCreated:
        return static_cast<double>(stamp.wallNs) / 1e9;
    // Python >= 3.11.7 keeps whole milliseconds here (gh-89047).
    case kMsecs:
        return static_cast<double>((stamp.wallNs / 1'000'000) % 1000);
    case kRelativeCreated:
        return static_cast<double>(stamp.relativeNs) / 1e6;
    case kThread:
        return stamp.threadId;
    case kThreadName:
        return std::string("MainThread");
    case kProcess:
        return stamp.pid;
    case kProcessName:
        return std::string("MainProcess");
    case kAscTime:
        return asctime(stamp.wallNs);
    }
    KILN_UNREACHABLE("unknown log format key");
}

// --- Python's %-formatting of one value

/// Python's repr() of a float: the shortest text that reads back to the same double.
std::string pythonFloatRepr(double v) {
    if (v != v) return "nan";
    if (v == 1.0 / 0.0) return "inf";
    if (v == -1.0 / 0.0) return "-inf";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string_view sci(buf, static_cast<size_t>(end - buf));
    size_t e = sci.find('e');
    std::string sign = sci.starts_with('-') ? "-" : "";
    std::string digits;
    for (char c : sci.substr(sign.size(), e - sign.size()))
        if (c != '.') digits += c;
    int exponent = std::stoi(std::string(sci.substr(e + 1)));
    if (exponent < -4 || exponent >= 16) {
        std::string mantissa = digits.substr(0, 1);
        if (digits.size() > 1) mantissa.append(".").append(digits, 1);
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        return sign + mantissa + exp;
    }
    int point = exponent + 1; // digits before the decimal point
    if (point <= 0) return sign + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
    if (static_cast<size_t>(point) >= digits.size())
        return sign + digits + std::string(point - digits.size(), '0') + ".0";
    return sign + digits.substr(0, point) + "." + digits.substr(point);
}

/// The code point starting at byte `i` and its length in bytes, decoded leniently: a stray or
/// truncated sequence's first byte stands for itself.
std::pair<uint32_t, size_t> codePointAt(std::string_view s, size_t i) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (i + extra >= s.size()) extra = 0;
    uint32_t cp = extra ? c & (0x3fu >> extra) : c;
    for (size_t k = 1; k <= extra; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3fu);
    return {cp, extra + 1};
}

/// Python's repr() of a str; `ascii` escapes non-ASCII characters too (ascii(), %a).
std::string pythonStrRepr(std::string_view s, bool ascii) {
    bool single = s.find('\'') != std::string_view::npos;
    char quote = single && s.find('"') == std::string_view::npos ? '"' : '\'';
    std::string out(1, quote);
    for (size_t i = 0; i < s.size();) {
        auto [cp, length] = codePointAt(s, i);
        char esc[16] = {};
        if (cp == '\\' || cp == static_cast<uint32_t>(quote))
            std::snprintf(esc, sizeof esc, "\\%c", static_cast<char>(cp));
        else if (cp == '\n' || cp == '\r' || cp == '\t')
            std::snprintf(esc, sizeof esc, "\\%c", cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't');
        else if (cp < 0x20 || cp == 0x7f || (ascii && cp >= 0x80 && cp < 0x100))
            std::snprintf(esc, sizeof esc, "\\x%02x", cp);
        else if (ascii && cp >= 0x100)
            std::snprintf(esc, sizeof esc, cp < 0x10000 ? "\\u%04x" : "\\U%08x", cp);
        if (esc[0])
            out += esc;
        else
            out.append(s.substr(i, length));
        i += length;
    }
    return out + quote;
}

/// Pads to `width` characters: left-justified with '-', else right-justified.
std::string pad(std::string text, size_t chars, int width, bool left) {
    if (width < 0 || chars >= static_cast<size_t>(width)) return text;
    std::string fill(static_cast<size_t>(width) - chars, ' ');
    return left ? text + fill : fill + text;
}

std::string formatString(const std::string& s, const std::string& flags, int width, int precision) {
    // Width and precision count characters, not bytes.
    size_t chars = 0, bytes = 0;
    while (bytes < s.size() && (precision < 0 || chars < static_cast<size_t>(precision))) {
        bytes += codePointAt(s, bytes).second;
        ++chars;
    }
    return pad(s.substr(0, bytes), chars, width, flags.find('-') != std::string::npos);
}

/// %d %i %u %x %X %o as Python applies them to an int: sign, `#` prefix (0x, 0X, 0o),
/// precision as the minimum digit count, then width with spaces or (flag 0) zeros.
std::string formatInt(int64_t v, const std::string& flags, int width, int precision, char conv) {
    auto has = [&](char f) { return flags.find(f) != std::string::npos; };
    uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    int base = conv == 'x' || conv == 'X' ? 16 : conv == 'o' ? 8 : 10;
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, magnitude, base);
    std::string digits(buf, end);
    if (conv == 'X')
        for (char& c : digits)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (precision > static_cast<int>(digits.size()))
        digits.insert(0, static_cast<size_t>(precision) - digits.size(), '0');
    std::string head = v < 0 ? "-" : has('+') ? "+" : has(' ') ? " " : "";
    if (has('#') && base != 10) head += conv == 'o' ? "0o" : conv == 'x' ? "0x" : "0X";
    size_t length = head.size() + digits.size();
    if (has('0') && !has('-') && width > static_cast<int>(length))
        digits.insert(0, static_cast<size_t>(width) - length, '0');
    return pad(head + digits, head.size() + digits.size(), width, has('-'));
}

std::string formatFloat(double v, const std::string& flags, int width, int precision, char conv) {
    std::string spec = "%" + flags;
    if (width >= 0) spec += std::to_string(width);
    if (precision >= 0) spec.append(".").append(std::to_string(precision));
    spec += conv;
    char buf[512];
    std::snprintf(buf, sizeof buf, spec.c_str(), v);
    return buf;
}

std::string formatValue(const FieldValue& value, const std::string& flags, int width, int precision,
                        char conv) {
    switch (conv) {
    case 's':
    case 'r':
    case 'a': {
        std::string text;
        if (const auto* s = std::get_if<std::string>(&value))
            text = conv == 's' ? *s : pythonStrRepr(*s, conv == 'a');
        else if (const auto* i = std::get_if<int64_t>(&value))
            text = std::to_string(*i);
        else
            text = pythonFloatRepr(std::get<double>(value));
        return formatString(text, flags, width, precision);
    }
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
        const auto* d = std::get_if<double>(&value);
        int64_t v = d ? static_cast<int64_t>(*d) : std::get<int64_t>(value);
        return formatInt(v, flags, width, precision, conv == 'i' || conv == 'u' ? 'd' : conv);
    }
    default: {
        const auto* i = std::get_if<int64_t>(&value);
        double v = i ? static_cast<double>(*i) : std::get<double>(value);
        return formatFloat(v, flags, width, precision < 0 ? 6 : precision, conv);
    }
    }
}

/// The TypeError Python raises when a conversion does not apply to the attribute's type.
std::optional<Diagnostic> conversionError(Kind kind, char conv) {
    const char* type = kind == Kind::Str ? "str" : kind == Kind::Int ? "int" : "float";
    std::string_view integral = "diu", integer = "xXo", real = "eEfFgG";
    if (kind == Kind::Str && integral.find(conv) != std::string_view::npos)
        return makeDiagnostic("TypeError", std::string("%") + conv +
                                               " format: a real number is required, not str");
    if (kind != Kind::Int && integer.find(conv) != std::string_view::npos)
        return makeDiagnostic("TypeError", std::string("%") + conv +
                                               " format: an integer is required, not " + type);
    if (kind == Kind::Str && real.find(conv) != std::string_view::npos)
        return makeDiagnostic("TypeError", "must be real number, not str");
    return std::nullopt;
}

} // namespace

std::string glogPrefix(const LogRecord& record, const LogStamp& stamp) {
    BrokenDownTime t = localTime(stamp.wallNs);
    char head[96];
    std::snprintf(head, sizeof head, "%s%02d%02d %02d:%02d:%02d.%06lld %lld ",
                  glogLevel(record.level), t.tm.tm_mon + 1, t.tm.tm_mday, t.tm.tm_hour, t.tm.tm_min,
                  t.tm.tm_sec, static_cast<long long>(t.microseconds),
                  static_cast<long long>(stamp.pid));
    std::string prefix = head;
    prefix.append(record.location.file);
    prefix.append(":").append(std::to_string(record.location.line)).append("]");
    if (!record.compileId.empty()) prefix.append(" [").append(record.compileId).append("]");
    if (record.artifact) {
        prefix += " [__";
        prefix += artifactName(*record.artifact);
        prefix += "]";
    }
    return prefix;
}

std::optional<Diagnostic> LogFormat::parseField(std::string_view format, size_t& i, Field& field) {
    Diagnostic invalid =
        makeDiagnostic("ValueError", "Invalid format '" + std::string(format) + "' for '%' style");
    size_t close = format.find(')', i);
    if (i + 1 >= format.size() || format[i + 1] != '(' || close == std::string_view::npos)
        return invalid;
    std::string_view key = format.substr(i + 2, close - i - 2);
    i = close + 1;
    auto oneOf = [&](std::string_view chars) {
        return i < format.size() && chars.find(format[i]) != std::string_view::npos;
    };
    auto number = [&](int& into) {
        if (!oneOf("0123456789")) return;
        for (into = 0; oneOf("0123456789");)
            into = into * 10 + (format[i++] - '0');
    };
    while (oneOf("#0- +"))
        field.flags += format[i++];
    number(field.width);
    if (oneOf(".")) {
        ++i;
        field.precision = 0;
        number(field.precision);
    }
    while (oneOf("hlL"))
        ++i; // length modifiers: Python accepts and ignores them
    if (!oneOf("diuoxXeEfFgGsra")) return invalid;
    field.conversion = format[i++];
    auto it =
        std::find_if(kKeys.begin(), kKeys.end(), [&](const KeyInfo& k) { return k.name == key; });
    if (it == kKeys.end())
        return makeDiagnostic("ValueError",
                              "Formatting field not found in record: '" + std::string(key) + "'");
    field.key = static_cast<uint8_t>(it - kKeys.begin());
    return conversionError(it->kind, field.conversion);
}

Expected<LogFormat> LogFormat::parse(std::string_view format) {
    // PyTorch maps both names to logging.BASIC_FORMAT.
    if (format == "short" || format == "basic") format = "%(levelname)s:%(name)s:%(message)s";
    LogFormat result;
    result.m_glog = false;
    Field field;
    for (size_t i = 0; i < format.size();) {
        if (format[i] != '%') {
            field.literal += format[i++];
        } else if (i + 1 < format.size() && format[i + 1] == '%') {
            field.literal += '%';
            i += 2;
        } else {
            if (std::optional<Diagnostic> error = parseField(format, i, field)) return *error;
            result.m_fields.push_back(std::move(field));
            field = Field{};
        }
    }
    // Python's validation: at least one %(field) conversion.
    if (result.m_fields.empty())
        return makeDiagnostic("ValueError",
                              "Invalid format '" + std::string(format) + "' for '%' style");
    result.m_fields.push_back(std::move(field)); // the trailing literal
    return result;
}

std::string LogFormat::format(const LogRecord& record, std::string_view logger,
                              const LogStamp& stamp) const {
    return m_glog ? glog(record, stamp) : python(record, logger, stamp);
}

std::string LogFormat::glog(const LogRecord& record, const LogStamp& stamp) const {
    std::string prefix = glogPrefix(record, stamp);
    std::string out;
    std::string_view message = record.message;
    // Python's str.split("\n"): a trailing newline yields one more (empty) prefixed line.
    for (;;) {
        size_t newline = message.find('\n');
        out += prefix;
        out += ' ';
        out.append(message.substr(0, newline));
        out += '\n';
        if (newline == std::string_view::npos) break;
        message.remove_prefix(newline + 1);
    }
    return out;
}

std::string LogFormat::python(const LogRecord& record, std::string_view logger,
                              const LogStamp& stamp) const {
    std::string out;
    for (const Field& field : m_fields) {
        out += field.literal;
        if (field.key == kNoKey) continue;
        out += formatValue(fieldValue(field.key, record, logger, stamp), field.flags, field.width,
                           field.precision, field.conversion);
    }
    return out + '\n';
}

} // namespace kiln
