// SPDX-License-Identifier: MIT
// config.patch(...) of torch._inductor.config and torch._dynamo.config: a context manager and
// decorator that sets options for a while and then restores them, as PyTorch's ConfigPatch.
#include "lang/signature.h"
#include "torchapi/config_state.h"
#include "torchapi/torch_types.h"

namespace kiln::torchapi::detail {

using namespace kiln::lang;

namespace {

/// One patch: the changes to make and, while entered, the values they replaced (a stack, so
/// the same patch object may be entered again while it is active, as a recursive decorated
/// function does).
class ConfigPatch final : public NativeObject {
public:
    ConfigPatch(TypeObject* type, const OptionRegistry& registry)
        : NativeObject(type)
        , registry(registry) {}

    const OptionRegistry& registry;
    std::vector<std::pair<size_t, Value>> changes;
    std::vector<std::vector<std::pair<size_t, Value>>> saved;
};

ConfigPatch& patchSelf(Interpreter& interp, const CallArgs& args) {
    auto* patch = args.positional.empty() || !args.positional[0].is(ObjectKind::Native)
                      ? nullptr
                      : dynamic_cast<ConfigPatch*>(args.positional[0].asObject());
    if (!patch) interp.raiseTypeError("ConfigPatch method needs a ConfigPatch");
    return *patch;
}

void enterPatch(Interpreter& interp, ConfigPatch& patch) {
    ConfigState& state = configState(interp, patch.registry);
    std::vector<std::pair<size_t, Value>> before;
    for (const auto& [index, value] : patch.changes) {
        before.emplace_back(index, state.scriptValues[index]);
        state.assign(interp, index, value, OptionSource::User);
    }
    patch.saved.push_back(std::move(before));
}

void exitPatch(Interpreter& interp, ConfigPatch& patch) {
    if (patch.saved.empty()) return;
    ConfigState& state = configState(interp, patch.registry);
    for (auto& [index, value] : patch.saved.back())
        state.assign(interp, index, value, OptionSource::User);
    patch.saved.pop_back();
}

Value patchEnter(Interpreter& interp, const CallArgs& args, void*) {
    enterPatch(interp, patchSelf(interp, args));
    return Value::none();
}

Value patchExit(Interpreter& interp, const CallArgs& args, void*) {
    exitPatch(interp, patchSelf(interp, args));
    return Value::fromBool(false);
}

/// The function a patch decorates, called with the patch entered. `bound` holds (patch, fn).
Value patchedCall(Interpreter& interp, const CallArgs& args, void*) {
    const auto& pair = args.positional[0].as<TupleObject>()->items;
    ConfigPatch& patch = *pair[0].as<ConfigPatch>();
    enterPatch(interp, patch);
    struct Restore {
        Interpreter& interp;
        ConfigPatch& patch;
        ~Restore() { exitPatch(interp, patch); }
    } restore{interp, patch};
    return interp.call(pair[1],
                       CallArgs{args.positional.subspan(1), args.keywordNames, args.keywordValues});
}

Value patchDecorate(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() != 2 || args.count() != 2)
        interp.raiseTypeError("a config patch decorates exactly one function");
    auto wrapper = makeRef<NativeFunctionObject>("patched", patchedCall);
    wrapper->bound = tupleValue({args.positional[0], args.positional[1]});
    return Value(wrapper);
}

TypeObject* patchType(Interpreter& interp) {
    static const Ref<TypeObject> t = [&] {
        Ref<TypeObject> type = makeNativeType("ConfigPatch", "torch.utils._config_module");
        interp.defineNative(type->dict, "__enter__", patchEnter);
        interp.defineNative(type->dict, "__exit__", patchExit);
        interp.defineNative(type->dict, "__call__", patchDecorate);
        return type;
    }();
    return t.get();
}

void addChange(Interpreter& interp, ConfigPatch& patch, const Value& key, const Value& value) {
    if (!key.is(ObjectKind::Str)) interp.raiseTypeError("config.patch keys must be str");
    const std::string& name = key.as<StrObject>()->str();
    const OptionDecl* decl = patch.registry.find(name);
    if (!decl)
        interp.raise(builtinTypes().attributeError.get(),
                     patch.registry.moduleName() + "." + name + " does not exist");
    patch.changes.emplace_back(decl->index, value);
}

/// patch("key", value), patch({"key": value}) or patch(key=value, ...).
Value makePatch(Interpreter& interp, const CallArgs& args, void* data) {
    auto patch = makeRef<ConfigPatch>(patchType(interp), *static_cast<const OptionRegistry*>(data));
    if (args.positional.size() > 2)
        interp.raiseTypeError("patch() takes at most 2 positional arguments");
    if (args.positional.size() == 2) {
        addChange(interp, *patch, args.positional[0], args.positional[1]);
    } else if (args.positional.size() == 1) {
        if (!args.positional[0].is(ObjectKind::Dict))
            interp.raiseTypeError("patch() with one argument needs a dict of changes");
        args.positional[0].as<DictObject>()->forEach(
            [&](const Value& k, const Value& v) { addChange(interp, *patch, k, v); });
    }
    for (size_t i = 0; i < args.keywordNames.size(); ++i)
        addChange(interp, *patch, strValue(std::string(args.keywordNames[i].str())),
                  args.keywordValues[i]);
    return Value(patch);
}

} // namespace

void installConfigPatch(Interpreter& interp, ModuleObject& module, const OptionRegistry& registry) {
    interp.defineNative(module.globals, "patch", makePatch, const_cast<OptionRegistry*>(&registry));
}

} // namespace kiln::torchapi::detail
