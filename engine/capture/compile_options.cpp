// SPDX-License-Identifier: MIT
// torch.compile(mode=, options=) for the inductor backend: the script's arguments checked in the
// order PyTorch 2.3's torch.compile and _TorchCompileInductorWrapper check them.
#include "capture/compile_options.h"

#include "lang/option_value_script.h"
#include "lang/types.h"

namespace kiln::capture {

using namespace kiln::lang;

namespace {

[[noreturn]] void raiseDiagnostic(Interpreter& interp, const Diagnostic& d) {
    interp.raise(builtinTypes().runtimeError.get(), d.message);
}

/// `for key, val in options.items()` as Python runs it: a dict directly, anything else through
/// its items() method (so a missing one is Python's AttributeError).
std::vector<std::pair<Value, Value>> optionPairs(Interpreter& interp, const Value& options) {
    std::vector<std::pair<Value, Value>> pairs;
    if (options.is(ObjectKind::Dict)) {
        options.as<DictObject>()->forEach(
            [&](const Value& k, const Value& v) { pairs.emplace_back(k, v); });
        return pairs;
    }
    Value items = interp.call(interp.getAttr(options, Symbol::intern("items")), {});
    for (const Value& item : interp.toVector(items)) {
        std::vector<Value> kv = interp.toVector(item);
        if (kv.size() < 2)
            interp.raiseValueError("not enough values to unpack (expected 2, got " +
                                   std::to_string(kv.size()) + ")");
        if (kv.size() > 2) interp.raiseValueError("too many values to unpack (expected 2)");
        pairs.emplace_back(kv[0], kv[1]);
    }
    return pairs;
}

OptionPatch validated(Interpreter& interp, const OptionValues& current,
                      const CompileOptionsRequest& request) {
    Expected<OptionPatch> patch = kiln::inductorCompilePatch(current, request);
    if (!patch.ok()) raiseDiagnostic(interp, patch.error());
    return std::move(patch).value();
}

} // namespace

OptionPatch inductorCompilePatch(Interpreter& interp, const OptionValues& current,
                                 const Value& mode, const Value& options) {
    Status exclusive = checkModeOptionsExclusive(!mode.isNone(), !options.isNone());
    if (!exclusive) raiseDiagnostic(interp, exclusive.error());
    CompileOptionsRequest request;
    if (!mode.isNone()) {
        // Only the mode strings are known; any other object is "unrecognized" as in 2.3.
        if (!mode.is(ObjectKind::Str))
            interp.raise(builtinTypes().runtimeError.get(),
                         unrecognizedModeMessage(interp.str(mode)));
        request.mode = mode.as<StrObject>()->str();
    }
    if (options.isNone() || !interp.truthy(options)) return validated(interp, current, request);
    request.options.emplace();
    for (const auto& [key, value] : optionPairs(interp, options)) {
        if (!key.is(ObjectKind::Str)) {
            // Python fails at key.replace("-", "_"), after the keys before it were checked.
            validated(interp, current, request);
            interp.getAttr(key, Symbol::intern("replace"));
            request.options->emplace_back(interp.str(key), optionValueFromScript(interp, value));
            continue;
        }
        request.options->emplace_back(key.as<StrObject>()->str(),
                                      optionValueFromScript(interp, value));
    }
    return validated(interp, current, request);
}

} // namespace kiln::capture
