// SPDX-License-Identifier: MIT
// torch._inductor (list_options, list_mode_options), torch._inductor.config and
// torch._dynamo.config: per-interpreter option values over the registries of support/options.h.
#include "torchapi/config_modules.h"

#include "lang/signature.h"
#include "torchapi/config_state.h"
#include "torchapi/torch_types.h"

#include <map>
#include <mutex>

namespace kiln::torchapi {

using namespace kiln::lang;
using detail::ConfigState;
using detail::configState;

namespace detail {

namespace {

TypeObject* stateType() {
    static const Ref<TypeObject> t = makeNativeType("ConfigState", "torch._kiln");
    return t.get();
}

Symbol stateSymbol() {
    static const Symbol s = Symbol::intern("__kiln_state__");
    return s;
}

} // namespace

ConfigState::ConfigState(const OptionRegistry& registry, ModuleObject& module, OptionValues values)
    : NativeObject(stateType())
    , registry(registry)
    , module(module)
    , values(std::move(values)) {
    for (const OptionDecl& d : registry.decls()) {
        scriptValues.push_back(optionValueToScript(this->values.value(d.index)));
        names.push_back(d.group().empty() ? Symbol::intern(d.name) : Symbol());
    }
    module.globals.set(stateSymbol(), Value(this));
}

void ConfigState::sync(Interpreter& interp) {
    for (const OptionDecl& d : registry.decls()) {
        if (!names[d.index].valid()) continue;
        const Value* v = module.globals.find(names[d.index]);
        if (!v || v->identical(scriptValues[d.index])) continue;
        scriptValues[d.index] = *v;
        values.set(d.index, optionValueFromScript(interp, *v), OptionSource::User);
    }
}

void ConfigState::assign(Interpreter& interp, size_t index, Value v, OptionSource source) {
    values.set(index, optionValueFromScript(interp, v), source);
    if (names[index].valid()) module.globals.set(names[index], v);
    scriptValues[index] = std::move(v);
}

ConfigState& configState(Interpreter& interp, const OptionRegistry& registry) {
    Ref<ModuleObject> module = interp.importModule(registry.moduleName());
    const Value* v = module->globals.find(stateSymbol());
    auto* state =
        v && v->is(ObjectKind::Native) ? dynamic_cast<ConfigState*>(v->asObject()) : nullptr;
    if (!state)
        interp.raise(builtinTypes().runtimeError.get(),
                     registry.moduleName() + ".__kiln_state__ was replaced: options unavailable");
    state->sync(interp);
    return *state;
}

} // namespace detail

namespace {

/// A nested group of options (`config.triton`, `config.trace`), like PyTorch's SubConfigProxy:
/// each option of the group is a property of its type.
class SubConfigProxy final : public NativeObject {
public:
    SubConfigProxy(TypeObject* type, Ref<ConfigState> state)
        : NativeObject(type)
        , state(std::move(state)) {}
    Ref<ConfigState> state;
};

SubConfigProxy& proxySelf(Interpreter& interp, const CallArgs& args) {
    auto* proxy = args.positional.empty() || !args.positional[0].is(ObjectKind::Native)
                      ? nullptr
                      : dynamic_cast<SubConfigProxy*>(args.positional[0].asObject());
    if (!proxy) interp.raiseTypeError("config group property needs a SubConfigProxy");
    return *proxy;
}

Value proxyGet(Interpreter& interp, const CallArgs& args, void* data) {
    const auto* decl = static_cast<const OptionDecl*>(data);
    return proxySelf(interp, args).state->scriptValues[decl->index];
}

Value proxySet(Interpreter& interp, const CallArgs& args, void* data) {
    const auto* decl = static_cast<const OptionDecl*>(data);
    proxySelf(interp, args)
        .state->assign(interp, decl->index, args.positional[1], OptionSource::User);
    return Value::none();
}

/// The type of one group's proxies, shared by all interpreters (the properties hold no state).
TypeObject* proxyType(Interpreter& interp, const OptionRegistry& registry, std::string_view group) {
    static std::mutex mutex;
    static std::map<std::string, Ref<TypeObject>> types;
    std::lock_guard lock(mutex);
    Ref<TypeObject>& t = types[registry.moduleName() + "." + std::string(group)];
    if (t) return t.get();
    t = makeNativeType("SubConfigProxy", "torch.utils._config_module");
    for (const OptionDecl& d : registry.decls()) {
        if (d.group() != group) continue;
        void* data = const_cast<OptionDecl*>(&d);
        std::string attr(d.attribute());
        t->dict.set(Symbol::intern(attr),
                    Value(makeRef<PropertyObject>(interp.newNative(attr, proxyGet, data),
                                                  interp.newNative(attr, proxySet, data))));
    }
    return t.get();
}

/// config.shallow_copy_dict(): every option and its current value.
Value shallowCopyDict(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("shallow_copy_dict()");
    sig.bind(interp, args);
    ConfigState& state = configState(interp, *static_cast<const OptionRegistry*>(data));
    auto dict = makeRef<DictObject>();
    for (const OptionDecl& d : state.registry.decls())
        dict->set(interp, strValue(d.name), state.scriptValues[d.index]);
    return Value(dict);
}

void installConfig(Interpreter& interp, ModuleObject& module, const OptionRegistry& registry) {
    std::vector<Diagnostic> problems;
    OptionValues values = OptionValues::fromEnvironment(registry, processEnvironment(), &problems);
    for (const Diagnostic& d : problems)
        interp.write(OutputStream::Stderr, "kiln: ignored " + d.kind + ": " + d.message + "\n");
    auto state = makeRef<ConfigState>(registry, module, std::move(values));
    for (const OptionDecl& d : registry.decls())
        if (state->names[d.index].valid())
            module.globals.set(state->names[d.index], state->scriptValues[d.index]);
    for (const std::string& group : registry.groups())
        module.globals.set(Symbol::intern(group), Value(makeRef<SubConfigProxy>(
                                                      proxyType(interp, registry, group), state)));
    interp.defineNative(module.globals, "shallow_copy_dict", shallowCopyDict,
                        const_cast<OptionRegistry*>(&registry));
    detail::installConfigPatch(interp, module, registry);
}

Value modeDict(Interpreter& interp, const OptionItems& items) {
    auto dict = makeRef<DictObject>();
    for (const auto& [key, value] : items)
        dict->set(interp, strValue(key), optionValueToScript(value));
    return Value(dict);
}

/// torch._inductor.list_mode_options(mode=None, dynamic=None): every mode's patch when `mode`
/// is falsy, else that mode's; an unknown mode is a KeyError as in 2.3 (a plain dict lookup).
Value listModeOptions(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("list_mode_options(mode=None, dynamic=None)");
    BoundArgs a = sig.bind(interp, args);
    const Value& mode = a[0];
    if (!interp.truthy(mode)) {
        auto all = makeRef<DictObject>();
        for (std::string_view name : compileModeNames())
            all->set(interp, strValue(std::string(name)), modeDict(interp, *modeOptions(name)));
        return Value(all);
    }
    std::optional<OptionItems> items;
    if (mode.is(ObjectKind::Str)) items = modeOptions(mode.as<StrObject>()->str());
    if (!items) {
        interp.hash(mode); // an unhashable mode fails as the dict lookup would
        interp.raise(interp.call(Value(builtinTypes().keyError), {mode}));
    }
    return modeDict(interp, *items);
}

/// torch._inductor.list_options(): the option keys in declaration order (a list, as in 2.3).
Value listOptions(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("list_options()");
    sig.bind(interp, args);
    std::vector<Value> keys;
    for (const std::string& k : inductorOptionRegistry().keys())
        keys.push_back(strValue(k));
    return listValue(std::move(keys));
}

void installInductor(Interpreter& interp, ModuleObject& module) {
    interp.defineNative(module.globals, "list_mode_options", listModeOptions);
    interp.defineNative(module.globals, "list_options", listOptions);
    interp.importModule("torch._inductor.config");
}

/// torch._dynamo as far as the config goes; the capture layer adds its functions here.
void installDynamo(Interpreter& interp, ModuleObject& module) {
    interp.importModule("torch._dynamo.config");
}

} // namespace

void installConfigModules(Interpreter& interp) {
    interp.registerNativeModule("torch._inductor", installInductor);
    interp.registerNativeModule("torch._inductor.config", [](Interpreter& i, ModuleObject& m) {
        installConfig(i, m, inductorOptionRegistry());
    });
    interp.registerNativeModule("torch._dynamo", installDynamo);
    interp.registerNativeModule("torch._dynamo.config", [](Interpreter& i, ModuleObject& m) {
        installConfig(i, m, dynamoOptionRegistry());
    });
    interp.importModule("torch._inductor");
    interp.importModule("torch._dynamo");
}

const OptionValues& inductorConfig(Interpreter& interp) {
    return configState(interp, inductorOptionRegistry()).values;
}

const OptionValues& dynamoConfig(Interpreter& interp) {
    return configState(interp, dynamoOptionRegistry()).values;
}

void setConfigOption(Interpreter& interp, const OptionRegistry& registry, std::string_view key,
                     OptionValue value, OptionSource source) {
    KILN_ASSERT(!std::holds_alternative<OtherValue>(value), "setConfigOption needs a plain value");
    ConfigState& state = configState(interp, registry);
    state.assign(interp, registry.get(key).index, optionValueToScript(value), source);
}

} // namespace kiln::torchapi
