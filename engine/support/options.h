// SPDX-License-Identifier: MIT
/// \file
/// The declared option registry: every option of `torch._inductor.config` and
/// `torch._dynamo.config` is declared once (name, type, PyTorch 2.3 default, description, the
/// environment variable that overrides it and how its value is read), and OptionValues holds the
/// current values of one registry with, per option, where each value came from.
///
/// On top of that sit the torch.compile rules of PyTorch 2.3: the modes as option patches
/// (`list_mode_options()`), the validation of `mode=` and `options=` with PyTorch's messages,
/// and the effective configuration of a compile (current values, then the mode's or the
/// options' patch). Values are Python values (OptionValue) because scripts assign them: PyTorch's
/// config modules accept any object on assignment, so a value need not match its option's type;
/// the typed accessors say when it does not.
#pragma once

#include "support/capture_events.h"
#include "support/expected.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace kiln {

/// A Python object that is none of the plain option types (a dict, a tuple, a function): kept by
/// what PyTorch's messages and the trace need of it.
struct OtherValue {
    std::string typeName; ///< type(v).__name__
    std::string repr;
    bool truthy = true;
    bool operator==(const OtherValue&) const = default;
};

/// None, bool, int, float, str, a list of str, or another object.
using OptionValue = std::variant<std::monostate, bool, int64_t, double, std::string,
                                 std::vector<std::string>, OtherValue>;

/// type(v).__name__ as Python prints it: "NoneType", "bool", "int", "float", "str", "list".
std::string pythonTypeName(const OptionValue& value);
/// repr(v) as Python prints it: None, True, 64, 0.5, 'ATEN,TRITON', ['a', 'b'].
std::string pythonRepr(const OptionValue& value);
/// bool(v) with Python's truth rules.
bool pythonTruth(const OptionValue& value);

enum class OptionType : uint8_t { Bool, Int, Float, Str, OptionalStr, OptionalInt, StrList };

/// The declared type as PyTorch's annotations spell it: "bool", "Optional[str]", "List[str]".
const char* optionTypeName(OptionType type);
/// Whether `value` is of the declared type (bool is not an int here, as in the config checks).
bool valueFitsType(OptionType type, const OptionValue& value);

/// How an environment variable's text becomes the option's value (PyTorch's config.py idioms).
enum class EnvParse : uint8_t {
    None,        ///< no environment override
    EqualsOne,   ///< os.environ.get(X) == "1"
    NonEmpty,    ///< bool(os.environ.get(X)): any non-empty text is True
    Int,         ///< int(os.environ.get(X)); invalid text keeps the default and is reported
    Upper,       ///< os.environ.get(X).upper()
    Raw,         ///< the text itself
    DebugDirRoot ///< os.path.join(os.environ[X], "torch_compile_debug")
};

/// One row of a registry's data table (options_inductor.cpp, options_dynamo.cpp).
struct OptionSpec {
    const char* name; ///< dotted for nested groups: "triton.cudagraphs"
    OptionType type;
    const char* defaultLiteral; ///< a Python literal: True, 64, 'fork', None
    const char* envVar;         ///< nullptr when no variable overrides it
    EnvParse envParse;
    const char* description;
    OptionValue (*computeDefault)() = nullptr; ///< replaces defaultLiteral when set (CPU count)
};

struct OptionDecl {
    size_t index = 0;
    std::string name;
    OptionType type = OptionType::Bool;
    OptionValue defaultValue;
    std::string description;
    std::string envVar; ///< empty when none
    EnvParse envParse = EnvParse::None;

    /// "triton" for "triton.cudagraphs", empty for a top-level option.
    std::string_view group() const;
    /// The attribute within its group: "cudagraphs" for "triton.cudagraphs".
    std::string_view attribute() const;
};

/// The options of one config module, in declaration order.
class OptionRegistry {
public:
    OptionRegistry(std::string moduleName, std::span<const OptionSpec> specs);

    /// "torch._inductor.config": the prefix of PyTorch's "X.name does not exist" messages.
    const std::string& moduleName() const { return m_moduleName; }
    size_t size() const { return m_decls.size(); }
    const OptionDecl& at(size_t index) const { return m_decls.at(index); }
    const std::vector<OptionDecl>& decls() const { return m_decls; }
    /// The declaration of `name`, or null for a name that is not an option.
    const OptionDecl* find(std::string_view name) const;
    /// The declaration of `name`; asserts that it is one (Kiln's code asking for an option).
    const OptionDecl& get(std::string_view name) const;
    /// Every key in declaration order, as torch._inductor.list_options() returns them.
    std::vector<std::string> keys() const;
    /// The nested groups in declaration order: "triton", "trace".
    std::vector<std::string> groups() const;

private:
    std::string m_moduleName;
    std::vector<OptionDecl> m_decls;
};

/// torch._inductor.config of PyTorch 2.3 (the options the specification and the reference name).
const OptionRegistry& inductorOptionRegistry();
/// torch._dynamo.config of PyTorch 2.3, except cache_size_limit = 64 as the specification says.
const OptionRegistry& dynamoOptionRegistry();

/// Where an option's value came from. "user" is a script assignment or torch.compile(options=).
enum class OptionSource : uint8_t { Default, Env, User, Mode };

/// "default", "env", "user", "mode" (the trace's config.source column).
const char* optionSourceName(OptionSource source);

/// Reads an environment variable: its text, or nullopt when it is not set.
using EnvLookup = std::function<std::optional<std::string>(const char* name)>;
/// The process environment (std::getenv).
EnvLookup processEnvironment();

/// The current values of one registry's options, each with its source.
class OptionValues {
public:
    /// Every option at its default.
    explicit OptionValues(const OptionRegistry& registry);

    /// Defaults overridden by the environment as PyTorch reads it when its config is imported.
    /// Unreadable values (int options) keep their default and are reported in `problems`.
    static OptionValues fromEnvironment(const OptionRegistry& registry, const EnvLookup& env,
                                        std::vector<Diagnostic>* problems = nullptr);

    const OptionRegistry& registry() const { return *m_registry; }
    size_t size() const { return m_values.size(); }

    const OptionValue& value(size_t index) const { return m_values.at(index); }
    const OptionValue& value(std::string_view key) const;
    OptionSource source(size_t index) const { return m_sources.at(index); }
    OptionSource source(std::string_view key) const;
    void set(size_t index, OptionValue value, OptionSource source);
    void set(std::string_view key, OptionValue value, OptionSource source);

    /// bool(value), as PyTorch's `if config.max_autotune:` reads it.
    bool flag(std::string_view key) const;
    /// The value when it is an int (or bool); nullopt otherwise.
    std::optional<int64_t> integer(std::string_view key) const;
    /// The value when it is a str; nullopt otherwise (None included).
    std::optional<std::string> text(std::string_view key) const;

private:
    const OptionRegistry* m_registry;
    std::vector<OptionValue> m_values;
    std::vector<OptionSource> m_sources;
};

// --- modes and torch.compile(mode=, options=)

/// The modes in the order list_mode_options() returns them: default, reduce-overhead,
/// max-autotune-no-cudagraphs, max-autotune.
std::span<const std::string_view> compileModeNames();

/// Option key and value pairs in the order they apply (a mode's patch, options=).
using OptionItems = std::vector<std::pair<std::string, OptionValue>>;

/// The options a mode sets (list_mode_options(mode) of 2.3: coordinate descent is not part of
/// max-autotune); nullopt for an unknown mode.
std::optional<OptionItems> modeOptions(std::string_view mode);

/// "Unrecognized mode=X, should be one of: ..." for a mode torch.compile does not know.
std::string unrecognizedModeMessage(std::string_view mode);

/// torch.compile's first check, for every backend: mode and options are exclusive.
Status checkModeOptionsExclusive(bool modeGiven, bool optionsGiven);

/// What torch.compile received: nullopt stands for None.
struct CompileOptionsRequest {
    std::optional<std::string> mode;
    std::optional<OptionItems> options;
};

/// One option a compile changes from the current values.
struct OptionPatchEntry {
    size_t index = 0;
    OptionValue value;
    OptionSource source = OptionSource::User;
};
using OptionPatch = std::vector<OptionPatchEntry>;

/// What 2.3's inductor wrapper builds in torch.compile(): the mode's patch or the options'
/// patch, validated against `current` (the values at torch.compile time; the type check compares
/// with the type of the current value). Fails with a RuntimeError Diagnostic worded as PyTorch's.
Expected<OptionPatch> inductorCompilePatch(const OptionValues& current,
                                           const CompileOptionsRequest& request);

/// An option's value as `kiln run --options KEY=VALUE` writes it: True/False (or true/false),
/// None, an int, a float, else the text as a str.
OptionValue optionValueFromText(const std::string& text);
/// Checks `--options` pairs as torch.compile(options=) will (the key is an inductor option,
/// the value of its type), so a bad one is a usage error before the script runs.
Status checkCommandLineOptions(const std::vector<std::pair<std::string, std::string>>& pairs);

/// The configuration a compile runs with: `current` with `patch` applied on top.
OptionValues applyPatch(const OptionValues& current, const OptionPatch& patch);

/// Every option of `values` as the capture layer records it (value and default as Python
/// reprs, the source's name), in declaration order.
std::vector<ConfigEvent> configEvents(const OptionValues& values);

} // namespace kiln
