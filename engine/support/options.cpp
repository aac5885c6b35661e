// SPDX-License-Identifier: MIT
// Option values as Python values, the registry built from its data table, and current values
// with their sources (defaults, then the environment as PyTorch's config.py reads it).
#include "support/options.h"

#include "support/debug_sandbox.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kiln {

namespace {

std::string strRepr(const std::string& s) {
    // CPython picks double quotes only when the text has a single quote and no double quote.
    char quote = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
    std::string out(1, quote);
    for (unsigned char c : s) {
        if (c == '\\' || c == static_cast<unsigned char>(quote)) {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + quote;
}

/// repr(float): the shortest text that reads back the same value, in fixed notation for
/// exponents -4..15 and scientific notation (two-digit exponent at least) otherwise.
std::string floatRepr(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    size_t e = sci.find('e');
    std::string mantissa = sci.substr(0, e);
    int exponent = std::atoi(sci.c_str() + e + 1);
    bool negative = mantissa[0] == '-';
    std::string digits;
    for (char c : mantissa)
        if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
    std::string out = negative ? "-" : "";
    if (exponent >= -4 && exponent < 16) {
        int point = exponent + 1; // digits before the decimal point
        if (point <= 0) {
            out += "0." + std::string(static_cast<size_t>(-point), '0') + digits;
        } else if (static_cast<size_t>(point) >= digits.size()) {
            out += digits + std::string(static_cast<size_t>(point) - digits.size(), '0') + ".0";
        } else {
            out += digits.substr(0, static_cast<size_t>(point)) + "." +
                   digits.substr(static_cast<size_t>(point));
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    std::string exp = std::to_string(std::abs(exponent));
    if (exp.size() < 2) exp = "0" + exp;
    return out + (exponent < 0 ? "e-" : "e+") + exp;
}

/// Python's int() of a str: surrounding whitespace, a sign, digits with single underscores.
std::optional<int64_t> parsePythonInt(std::string_view text) {
    size_t b = 0, e = text.size();
    while (b < e && std::isspace(static_cast<unsigned char>(text[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1])))
        --e;
    std::string digits;
    bool negative = false;
    if (b < e && (text[b] == '+' || text[b] == '-')) negative = text[b++] == '-';
    for (size_t i = b; i < e; ++i) {
        char c = text[i];
        if (c == '_' && i > b && i + 1 < e && std::isdigit(static_cast<unsigned char>(text[i - 1])))
            continue;
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        digits += c;
    }
    if (digits.empty()) return std::nullopt;
    int64_t v = 0;
    auto res = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (res.ec != std::errc() || res.ptr != digits.data() + digits.size()) return std::nullopt;
    return negative ? -v : v;
}

/// The Python literals the data tables use for defaults: True, False, None, ints, floats and
/// single-quoted strings without escapes.
OptionValue parseLiteral(std::string_view text) {
    if (text == "True") return true;
    if (text == "False") return false;
    if (text == "None") return std::monostate{};
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
        return std::string(text.substr(1, text.size() - 2));
    if (auto i = parsePythonInt(text)) return *i;
    double d = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), d);
    KILN_ASSERT(res.ec == std::errc() && res.ptr == text.data() + text.size(),
                "option default is not a Python literal");
    return d;
}

std::string joinDebugDir(const std::string& root) {
    if (root.empty()) return "torch_compile_debug";
    return root.back() == '/' ? root + "torch_compile_debug" : root + "/torch_compile_debug";
}

std::string upper(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

/// The value an environment variable's text gives, or a Diagnostic when int() rejects it.
Expected<OptionValue> parseEnv(const OptionDecl& decl, const std::string& text) {
    switch (decl.envParse) {
    case EnvParse::None:
        break;
    case EnvParse::EqualsOne:
        return OptionValue(text == "1");
    case EnvParse::NonEmpty:
        return OptionValue(!text.empty());
    case EnvParse::Int:
        if (auto v = parsePythonInt(text)) return OptionValue(*v);
        return makeDiagnostic("ValueError", decl.envVar + ": invalid literal for int() with base " +
                                                "10: " + strRepr(text));
    case EnvParse::Upper:
        return OptionValue(upper(text));
    case EnvParse::Raw:
        return OptionValue(text);
    case EnvParse::DebugDirRoot:
        // kiln run --debug-dir is the more specific choice of the same thing.
        return OptionValue(support::debugSandboxRootIsSet() ? support::debugSandboxRoot()
                                                            : joinDebugDir(text));
    }
    KILN_UNREACHABLE("option without an environment variable");
}

} // namespace

std::string pythonTypeName(const OptionValue& value) {
    switch (value.index()) {
    case 0:
        return "NoneType";
    case 1:
        return "bool";
    case 2:
        return "int";
    case 3:
        return "float";
    case 4:
        return "str";
    case 5:
        return "list";
    default:
        return std::get<OtherValue>(value).typeName;
    }
}

std::string pythonRepr(const OptionValue& value) {
    switch (value.index()) {
    case 0:
        return "None";
    case 1:
        return std::get<bool>(value) ? "True" : "False";
    case 2:
        return std::to_string(std::get<int64_t>(value));
    case 3:
        return floatRepr(std::get<double>(value));
    case 4:
        return strRepr(std::get<std::string>(value));
    case 5: {
        std::string out = "[";
        for (const std::string& s : std::get<std::vector<std::string>>(value))
            out += (out.size() > 1 ? ", " : "") + strRepr(s);
        return out + "]";
    }
    default:
        return std::get<OtherValue>(value).repr;
    }
}

bool pythonTruth(const OptionValue& value) {
    switch (value.index()) {
    case 0:
        return false;
    case 1:
        return std::get<bool>(value);
    case 2:
        return std::get<int64_t>(value) != 0;
    case 3:
        return std::get<double>(value) != 0.0;
    case 4:
        return !std::get<std::string>(value).empty();
    case 5:
        return !std::get<std::vector<std::string>>(value).empty();
    default:
        return std::get<OtherValue>(value).truthy;
    }
}

const char* optionTypeName(OptionType type) {
    switch (type) {
    case OptionType::Bool:
        return "bool";
    case OptionType::Int:
        return "int";
    case OptionType::Float:
        return "float";
    case OptionType::Str:
        return "str";
    case OptionType::OptionalStr:
        return "Optional[str]";
    case OptionType::OptionalInt:
        return "Optional[int]";
    case OptionType::StrList:
        return "List[str]";
    }
    return "object";
}

bool valueFitsType(OptionType type, const OptionValue& value) {
    bool none = std::holds_alternative<std::monostate>(value);
    switch (type) {
    case OptionType::Bool:
        return std::holds_alternative<bool>(value);
    case OptionType::Int:
        return std::holds_alternative<int64_t>(value);
    case OptionType::Float:
        return std::holds_alternative<double>(value);
    case OptionType::Str:
        return std::holds_alternative<std::string>(value);
    case OptionType::OptionalStr:
        return none || std::holds_alternative<std::string>(value);
    case OptionType::OptionalInt:
        return none || std::holds_alternative<int64_t>(value);
    case OptionType::StrList:
        return std::holds_alternative<std::vector<std::string>>(value);
    }
    return false;
}

std::string_view OptionDecl::group() const {
    size_t dot = name.find('.');
    return dot == std::string::npos ? std::string_view() : std::string_view(name).substr(0, dot);
}

std::string_view OptionDecl::attribute() const {
    size_t dot = name.find('.');
    return dot == std::string::npos ? std::string_view(name)
                                    : std::string_view(name).substr(dot + 1);
}

OptionRegistry::OptionRegistry(std::string moduleName, std::span<const OptionSpec> specs)
    : m_moduleName(std::move(moduleName)) {
    m_decls.reserve(specs.size());
    for (const OptionSpec& s : specs) {
        OptionDecl d;
        d.index = m_decls.size();
        d.name = s.name;
        d.type = s.type;
        d.defaultValue = s.computeDefault ? s.computeDefault() : parseLiteral(s.defaultLiteral);
        d.description = s.description;
        d.envVar = s.envVar ? s.envVar : "";
        d.envParse = s.envParse;
        KILN_ASSERT(d.envVar.empty() == (d.envParse == EnvParse::None),
                    "an option's environment variable and its parse rule go together");
        KILN_ASSERT(!find(d.name), "option declared twice");
        m_decls.push_back(std::move(d));
    }
}

const OptionDecl* OptionRegistry::find(std::string_view name) const {
    for (const OptionDecl& d : m_decls)
        if (d.name == name) return &d;
    return nullptr;
}

const OptionDecl& OptionRegistry::get(std::string_view name) const {
    const OptionDecl* d = find(name);
    KILN_ASSERT(d, "no such option in the registry");
    return *d;
}

std::vector<std::string> OptionRegistry::keys() const {
    std::vector<std::string> out;
    out.reserve(m_decls.size());
    for (const OptionDecl& d : m_decls)
        out.push_back(d.name);
    return out;
}

std::vector<std::string> OptionRegistry::groups() const {
    std::vector<std::string> out;
    for (const OptionDecl& d : m_decls) {
        std::string g(d.group());
        if (!g.empty() && std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
    }
    return out;
}

const char* optionSourceName(OptionSource source) {
    switch (source) {
    case OptionSource::Default:
        return "default";
    case OptionSource::Env:
        return "env";
    case OptionSource::User:
        return "user";
    case OptionSource::Mode:
        return "mode";
    }
    return "default";
}

EnvLookup processEnvironment() {
    return [](const char* name) -> std::optional<std::string> {
        const char* v = std::getenv(name);
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
}

OptionValues::OptionValues(const OptionRegistry& registry)
    : m_registry(&registry)
    , m_sources(registry.size(), OptionSource::Default) {
    m_values.reserve(registry.size());
    for (const OptionDecl& d : registry.decls())
        m_values.push_back(d.defaultValue);
}

OptionValues OptionValues::fromEnvironment(const OptionRegistry& registry, const EnvLookup& env,
                                           std::vector<Diagnostic>* problems) {
    OptionValues values(registry);
    for (const OptionDecl& d : registry.decls()) {
        if (d.envVar.empty()) continue;
        std::optional<std::string> text = env(d.envVar.c_str());
        if (!text) continue;
        Expected<OptionValue> v = parseEnv(d, *text);
        if (v.ok())
            values.set(d.index, std::move(v).value(), OptionSource::Env);
        else if (problems)
            problems->push_back(v.error());
    }
    return values;
}

const OptionValue& OptionValues::value(std::string_view key) const {
    return m_values[m_registry->get(key).index];
}

OptionSource OptionValues::source(std::string_view key) const {
    return m_sources[m_registry->get(key).index];
}

void OptionValues::set(size_t index, OptionValue value, OptionSource source) {
    KILN_ASSERT(index < m_values.size(), "option index out of range");
    m_values[index] = std::move(value);
    m_sources[index] = source;
}

void OptionValues::set(std::string_view key, OptionValue value, OptionSource source) {
    set(m_registry->get(key).index, std::move(value), source);
}

bool OptionValues::flag(std::string_view key) const {
    return pythonTruth(value(key));
}

std::optional<int64_t> OptionValues::integer(std::string_view key) const {
    const OptionValue& v = value(key);
    if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
    if (const bool* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
    return std::nullopt;
}

std::optional<std::string> OptionValues::text(std::string_view key) const {
    const OptionValue& v = value(key);
    if (const std::string* s = std::get_if<std::string>(&v)) return *s;
    return std::nullopt;
}

} // namespace kiln
