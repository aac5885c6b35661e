// SPDX-License-Identifier: MIT
// torch.compile's modes and options as PyTorch 2.3 treats them (torch/__init__.py,
// _TorchCompileInductorWrapper; torch/_inductor/__init__.py, list_mode_options), and the
// effective configuration of a compile.
#include "support/options.h"

#include <algorithm>
#include <cstdlib>

namespace kiln {

namespace {

constexpr std::string_view kModeNames[] = {"default", "reduce-overhead",
                                           "max-autotune-no-cudagraphs", "max-autotune"};

Diagnostic runtimeError(std::string message) {
    return makeDiagnostic("RuntimeError", std::move(message));
}

/// `list(current_config.keys())` as the message prints it.
std::string knownOptionsList(const OptionRegistry& registry) {
    return pythonRepr(OptionValue(registry.keys()));
}

/// apply_options() of the 2.3 wrapper: dashes stand for underscores, the key must be an
/// option, and the value must have exactly the type of the option's current value (so an int
/// for a bool option, or a str for an option that is None, is refused). A key given twice keeps
/// its last value.
Status applyOptions(const OptionValues& current, const OptionItems& items, OptionSource source,
                    OptionPatch& patch) {
    const OptionRegistry& registry = current.registry();
    for (const auto& [key, value] : items) {
        std::string name = key;
        std::replace(name.begin(), name.end(), '-', '_');
        const OptionDecl* decl = registry.find(name);
        if (!decl)
            return runtimeError("Unexpected optimization option " + key + ", known options are " +
                                knownOptionsList(registry));
        std::string given = pythonTypeName(value);
        std::string expected = pythonTypeName(current.value(decl->index));
        if (given != expected)
            return runtimeError("Unexpected type of attr " + key + ", got " + given +
                                " should be " + expected);
        auto same = [&](const OptionPatchEntry& e) { return e.index == decl->index; };
        if (auto it = std::find_if(patch.begin(), patch.end(), same); it != patch.end())
            *it = {decl->index, value, source};
        else
            patch.push_back({decl->index, value, source});
    }
    return Status::success();
}

} // namespace

OptionValue optionValueFromText(const std::string& text) {
    if (text == "True" || text == "true") return true;
    if (text == "False" || text == "false") return false;
    if (text == "None") return std::monostate{};
    char* end = nullptr;
    long long i = std::strtoll(text.c_str(), &end, 10);
    if (!text.empty() && *end == '\0') return int64_t(i);
    double d = std::strtod(text.c_str(), &end);
    if (!text.empty() && *end == '\0') return d;
    return text;
}

Status checkCommandLineOptions(const std::vector<std::pair<std::string, std::string>>& pairs) {
    OptionItems items;
    for (const auto& [key, text] : pairs)
        items.emplace_back(key, optionValueFromText(text));
    OptionPatch patch;
    return applyOptions(OptionValues(inductorOptionRegistry()), items, OptionSource::User, patch);
}

std::span<const std::string_view> compileModeNames() {
    return kModeNames;
}

std::optional<OptionItems> modeOptions(std::string_view mode) {
    if (mode == "default") return OptionItems{};
    if (mode == "reduce-overhead") return OptionItems{{"triton.cudagraphs", true}};
    if (mode == "max-autotune-no-cudagraphs") return OptionItems{{"max_autotune", true}};
    if (mode == "max-autotune")
        return OptionItems{{"max_autotune", true}, {"triton.cudagraphs", true}};
    return std::nullopt;
}

std::string unrecognizedModeMessage(std::string_view mode) {
    return "Unrecognized mode=" + std::string(mode) +
           ", should be one of: default, reduce-overhead, max-autotune, "
           "max-autotune-no-cudagraphs";
}

Status checkModeOptionsExclusive(bool modeGiven, bool optionsGiven) {
    if (modeGiven && optionsGiven)
        return runtimeError("Either mode or options can be specified, but both can't be "
                            "specified at the same time.");
    return Status::success();
}

Expected<OptionPatch> inductorCompilePatch(const OptionValues& current,
                                           const CompileOptionsRequest& request) {
    Status exclusive =
        checkModeOptionsExclusive(request.mode.has_value(), request.options.has_value());
    if (!exclusive) return exclusive.error();
    OptionPatch patch;
    if (request.mode) {
        std::optional<OptionItems> items = modeOptions(*request.mode);
        if (!items) return runtimeError(unrecognizedModeMessage(*request.mode));
        Status s = applyOptions(current, *items, OptionSource::Mode, patch);
        if (!s) return s.error();
    }
    if (request.options) {
        Status s = applyOptions(current, *request.options, OptionSource::User, patch);
        if (!s) return s.error();
    }
    return patch;
}

OptionValues applyPatch(const OptionValues& current, const OptionPatch& patch) {
    OptionValues out = current;
    for (const OptionPatchEntry& e : patch)
        out.set(e.index, e.value, e.source);
    return out;
}

std::vector<ConfigEvent> configEvents(const OptionValues& values) {
    std::vector<ConfigEvent> out;
    out.reserve(values.size());
    for (const OptionDecl& d : values.registry().decls())
        out.push_back({d.name, pythonRepr(values.value(d.index)), pythonRepr(d.defaultValue),
                       optionSourceName(values.source(d.index))});
    return out;
}

} // namespace kiln
