// SPDX-License-Identifier: MIT
// torch.compile and the parts of torch._dynamo / torch.compiler scripts call: the compiled
// wrappers, backends (list_backends, register_backend), disable, reset, graph_break and
// mark_dynamic. explain() lives in explain_api.cpp.
#include "capture/compile_api.h"

#include "capture/compile_options.h"
#include "capture/dynamo_errors.h"
#include "capture/sym_ints.h"
#include "capture/value_kinds.h"
#include "lang/capture_hooks.h"
#include "lang/native_types.h"
#include "lang/option_value_script.h"
#include "lang/signature.h"

#include <cstdlib>

namespace kiln::capture {

using namespace kiln::lang;

namespace {

CaptureEngine& engineOf(void* data) {
    return *static_cast<CaptureEngine*>(data);
}

/// What torch.compile returns for a function: the function with a CompileSpec.
class CompiledFunction final : public NativeObject {
public:
    CompiledFunction(CompileSpec spec, Value target)
        : NativeObject(type())
        , spec(std::move(spec))
        , target(std::move(target)) {}
    static TypeObject* type() {
        static const Ref<TypeObject> t = makeNativeType("CompiledFunction", "torch._dynamo");
        return t.get();
    }
    CompileSpec spec;
    Value target;
};

std::string nameOf(Interpreter& interp, const Value& v, const std::string& fallback) {
    Value name = interp.tryGetAttr(v, Symbol::intern("__name__"));
    return name.is(ObjectKind::Str) ? name.as<StrObject>()->str() : fallback;
}

Value callCompiledFunction(Interpreter& interp, const CallArgs& args, void* data) {
    auto* compiled = args.positional[0].as<CompiledFunction>();
    CallArgs rest{args.positional.subspan(1), args.keywordNames, args.keywordValues};
    CaptureEngine& engine = engineOf(data);
    struct Site {
        CompiledCallSites& sites;
        ~Site() { sites.leave(); }
    } site{engine.callSites()};
    std::string name = site.sites.recording()
                           ? nameOf(interp, compiled->target, interp.typeName(compiled->target))
                           : std::string();
    site.sites.enter(name, args.positional[0], rest);
    return engine.callCompiled(compiled->spec, compiled->target, rest);
}

Value wrapCompiled(Interpreter& interp, CaptureEngine& engine, CompileSpec spec,
                   const Value& model) {
    auto compiled = makeRef<CompiledFunction>(std::move(spec), model);
    auto fn = makeRef<NativeFunctionObject>(nameOf(interp, model, "compiled"), callCompiledFunction,
                                            &engine);
    fn->bound = Value(compiled);
    if (!isModuleObject(interp, model)) return Value(fn);
    Ref<ModuleObject> evalFrame = interp.importModule("torch._dynamo.eval_frame");
    const Value* optimized = evalFrame->globals.find(Symbol::intern("OptimizedModule"));
    KILN_ASSERT(optimized, "torch._dynamo.eval_frame lacks OptimizedModule");
    return interp.call(*optimized, {model, Value(fn)});
}

[[noreturn]] void raiseInvalidBackend(Interpreter& interp, const Value& name) {
    Ref<ModuleObject> exc = interp.importModule("torch._dynamo.exc");
    const Value* type = exc->globals.find(Symbol::intern("InvalidBackend"));
    KILN_ASSERT(type, "torch._dynamo.exc lacks InvalidBackend");
    interp.raise(interp.call(*type, {name}));
}

/// The run's --mode/--backend/--options/--dynamic/--fullgraph applied over a call's arguments.
/// Options given with a mode in the script: the mode's patch becomes options, so both apply.
std::vector<Value> applyOverrides(Interpreter& interp, const CompileOverrides& ov,
                                  std::vector<Value> o) {
    if (ov.fullgraph) o[0] = Value::fromBool(*ov.fullgraph);
    if (ov.dynamicAuto)
        o[1] = Value::none();
    else if (ov.dynamic)
        o[1] = Value::fromBool(*ov.dynamic);
    if (ov.backend) o[2] = strValue(*ov.backend);
    if (ov.mode) {
        o[3] = strValue(*ov.mode);
        o[4] = Value::none();
    }
    if (ov.options.empty()) return o;
    auto dict = makeRef<DictObject>();
    if (o[3].is(ObjectKind::Str))
        if (std::optional<OptionItems> items = modeOptions(o[3].as<StrObject>()->str()))
            for (const auto& [key, value] : *items)
                dict->set(interp, strValue(key), optionValueToScript(value));
    if (o[4].is(ObjectKind::Dict))
        o[4].as<DictObject>()->forEach(
            [&](const Value& k, const Value& v) { dict->set(interp, k, v); });
    for (const auto& [key, text] : ov.options)
        dict->set(interp, strValue(key), optionValueToScript(optionValueFromText(text)));
    o[3] = Value::none();
    o[4] = Value(dict);
    return o;
}

/// torch.compile(model, ...) once the model is known, checked in 2.3's order: mode and options
/// (the inductor wrapper is built first), then the backend's name, then disable.
Value compileModel(Interpreter& interp, CaptureEngine& engine, const Value& model,
                   const std::vector<Value>& scriptOpts) {
    const std::vector<Value> opts = applyOverrides(interp, engine.overrides(), scriptOpts);
    const Value &fullgraph = opts[0], &dynamic = opts[1], &backend = opts[2], &mode = opts[3],
                &options = opts[4], &disable = opts[5];
    CompileSpec spec;
    spec.fullgraph = interp.truthy(fullgraph);
    if (!dynamic.isNone()) spec.dynamic = interp.truthy(dynamic);
    Status exclusive = checkModeOptionsExclusive(!mode.isNone(), !options.isNone());
    if (!exclusive) interp.raise(builtinTypes().runtimeError.get(), exclusive.error().message);
    const bool inductor =
        backend.is(ObjectKind::Str) && backend.as<StrObject>()->str() == "inductor";
    if (inductor) {
        spec.inductorPatch =
            inductorCompilePatch(interp, engine.config().inductor(), mode, options);
        spec.mode = mode.is(ObjectKind::Str) ? mode.as<StrObject>()->str() : "default";
    }
    // The backend wrapper looks the name up before `disable` is considered, as in PyTorch.
    if (backend.is(ObjectKind::Str)) {
        std::optional<Backend> found = engine.backends().find(backend.as<StrObject>()->str());
        if (!found) raiseInvalidBackend(interp, backend);
        spec.backend = *found;
    } else {
        spec.backend.kind = Backend::Kind::Custom;
        spec.backend.name = nameOf(interp, backend, "custom");
        spec.backend.callable = backend;
    }
    if (interp.truthy(disable)) {
        // 2.3's _NullDecorator: a bare `assert callable(fn)`.
        if (!interp.isCallable(model)) interp.raise(builtinTypes().assertionError.get(), "");
        return model;
    }
    if (!interp.isCallable(model))
        interp.raise(builtinTypes().assertionError.get(),
                     "A callable function is expected, but " +
                         interp.repr(Value(interp.typeOf(model))) + " is provided.");
    return wrapCompiled(interp, engine, std::move(spec), model);
}

const Signature& compileSignature() {
    static const Signature sig("compile(model=None, *, fullgraph=False, dynamic=None, "
                               "backend='inductor', mode=None, options=None, disable=False)");
    return sig;
}

/// `@torch.compile(...)`: the decorator remembers the options. `bound` is (options tuple).
Value compileDecorator(Interpreter& interp, const CallArgs& args, void* data) {
    const std::vector<Value>& opts = args.positional[0].as<TupleObject>()->items;
    if (args.positional.size() != 2)
        interp.raiseTypeError("the torch.compile decorator takes exactly one argument");
    if (args.positional[1].isNone())
        interp.raise(builtinTypes().runtimeError.get(), "Model can't be None");
    return compileModel(interp, engineOf(data), args.positional[1], opts);
}

Value torchCompile(Interpreter& interp, const CallArgs& args, void* data) {
    BoundArgs a = compileSignature().bind(interp, args);
    std::vector<Value> opts;
    for (size_t i = 1; i < 7; ++i)
        opts.push_back(a[i]);
    if (!a[0].isNone()) return compileModel(interp, engineOf(data), a[0], opts);
    auto decorator = makeRef<NativeFunctionObject>("fn", compileDecorator, data);
    decorator->bound = tupleValue(std::move(opts));
    return Value(decorator);
}

// --- torch._dynamo / torch.compiler

Value reset(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("reset()");
    sig.bind(interp, args);
    engineOf(data).reset();
    return Value::none();
}

Value isCompiling(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("is_compiling()");
    sig.bind(interp, args);
    return Value::fromBool(engineOf(data).isCompiling());
}

Value graphBreak(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("graph_break()");
    sig.bind(interp, args);
    return Value::none(); // outside a trace it does nothing; a trace breaks before the call
}

Value markDynamic(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("mark_dynamic(t, index)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].isTensor()) interp.raiseTypeError("mark_dynamic expects a Tensor");
    std::vector<Value> dims = a[1].isInt() ? std::vector<Value>{a[1]} : interp.toVector(a[1]);
    for (const Value& d : dims) {
        int64_t dim = d.asInt();
        if (dim < 0 || dim >= a[0].asTensor().dim())
            interp.raise(builtinTypes().assertionError.get(),
                         "Attempted to mark dynamic index " + std::to_string(dim) +
                             " on a tensor of rank " + std::to_string(a[0].asTensor().dim()));
        engineOf(data).markDynamic(a[0].asTensor(), dim);
    }
    return Value::none();
}

Value listBackends(Interpreter& interp, const CallArgs& args, void* data) {
    // The default, ("debug", "experimental"), is a tuple the Signature mini-language cannot
    // spell: a call without arguments stands for it.
    static const Signature sig("list_backends(exclude_tags=0)");
    BoundArgs a = sig.bind(interp, args);
    const bool defaulted = args.count() == 0;
    std::vector<std::string> exclude = {"debug", "experimental"};
    if (!defaulted) {
        exclude.clear();
        if (!a[0].isNone())
            for (const Value& tag : interp.toVector(a[0]))
                exclude.push_back(interp.str(tag));
    }
    std::vector<Value> names;
    for (const std::string& n :
         engineOf(data).backends().list(exclude, !defaulted && a[0].isNone()))
        names.push_back(strValue(n));
    return listValue(std::move(names));
}

Value registerWith(Interpreter& interp, CaptureEngine& engine, const Value& fn, const Value& name,
                   const Value& tags) {
    std::string backendName = name.isNone() ? nameOf(interp, fn, "") : interp.str(name);
    std::vector<std::string> tagList;
    if (!tags.isNone())
        for (const Value& t : interp.toVector(tags))
            tagList.push_back(interp.str(t));
    if (!engine.backends().add(backendName, fn, tagList))
        interp.raise(builtinTypes().assertionError.get(), "duplicate name: " + backendName);
    return fn;
}

/// `@register_backend(name=..., tags=...)`: `bound` is (name, tags).
Value registerDecorator(Interpreter& interp, const CallArgs& args, void* data) {
    const auto& bound = args.positional[0].as<TupleObject>()->items;
    if (args.positional.size() != 2)
        interp.raiseTypeError("register_backend's decorator takes exactly one function");
    return registerWith(interp, engineOf(data), args.positional[1], bound[0], bound[1]);
}

Value registerBackend(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("register_backend(compiler_fn=None, name=None, tags=None)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].isNone()) return registerWith(interp, engineOf(data), a[0], a[1], a[2]);
    auto decorator = makeRef<NativeFunctionObject>("register_backend", registerDecorator, data);
    decorator->bound = tupleValue({a[1], a[2]});
    return Value(decorator);
}

/// A torch.compiler.disable'd function: runs with the hook off; a trace that reaches it breaks.
Value callDisabledFunction(Interpreter& interp, const CallArgs& args, void* data) {
    CallArgs rest{args.positional.subspan(1), args.keywordNames, args.keywordValues};
    return engineOf(data).callDisabled(args.positional[0], rest);
}

Value disableDecorator(Interpreter& interp, const CallArgs& args, void* data);

Value disableWith(Interpreter& interp, CaptureEngine& engine, const Value& fn) {
    auto wrapper = makeRef<NativeFunctionObject>(nameOf(interp, fn, "disabled"),
                                                 callDisabledFunction, &engine);
    wrapper->bound = fn;
    auto info = std::make_shared<TraceInfo>();
    info->kind = TraceKind::Break;
    info->always = true;
    info->breakKind = static_cast<uint8_t>(BreakKind::Disabled);
    info->reason = "call torch._dynamo.disable() wrapped function " + interp.repr(fn);
    wrapper->trace = std::move(info);
    return Value(wrapper);
}

Value disableDecorator(Interpreter& interp, const CallArgs& args, void* data) {
    if (args.positional.size() != 2)
        interp.raiseTypeError("disable's decorator takes exactly one function");
    return disableWith(interp, engineOf(data), args.positional[1]);
}

Value disable(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("disable(fn=None, recursive=True)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].isNone()) return disableWith(interp, engineOf(data), a[0]);
    auto decorator = makeRef<NativeFunctionObject>("disable", disableDecorator, data);
    decorator->bound = Value::none();
    return Value(decorator);
}

void defineIn(Interpreter& interp, ModuleObject& module, const std::string& name, NativeFn fn,
              CaptureEngine& engine) {
    interp.defineNative(module.globals, name, fn, &engine);
}

} // namespace

void installCompileApi(Interpreter& interp, CaptureEngine& engine) {
    Ref<ModuleObject> torch = interp.importModule("torch");
    Ref<ModuleObject> dynamo = interp.importModule("torch._dynamo");
    Ref<ModuleObject> exc = interp.importModule("torch._dynamo.exc");
    dynamo->globals.set(Symbol::intern("exc"), Value(exc));
    interp.registerNativeModule("torch.compiler", [](Interpreter&, ModuleObject&) {});
    Ref<ModuleObject> compiler = interp.importModule("torch.compiler");
    torch->globals.set(Symbol::intern("compiler"), Value(compiler));

    defineIn(interp, *torch, "compile", torchCompile, engine);
    for (ModuleObject* m : {dynamo.get(), compiler.get()}) {
        defineIn(interp, *m, "reset", reset, engine);
        defineIn(interp, *m, "disable", disable, engine);
        defineIn(interp, *m, "list_backends", listBackends, engine);
        defineIn(interp, *m, "is_compiling", isCompiling, engine);
    }
    defineIn(interp, *dynamo, "register_backend", registerBackend, engine);
    defineIn(interp, *dynamo, "mark_dynamic", markDynamic, engine);
    defineIn(interp, *dynamo, "graph_break", graphBreak, engine);
    auto info = std::make_shared<TraceInfo>();
    info->kind = TraceKind::Break;
    info->always = true;
    info->breakKind = static_cast<uint8_t>(BreakKind::GraphBreakCall);
    info->reason = "'skip function graph_break in file _dynamo/decorators.py'";
    const Value* gb = dynamo->globals.find(Symbol::intern("graph_break"));
    gb->as<NativeFunctionObject>()->trace = std::move(info);
    installExplainApi(interp, engine, *dynamo);
    installSymIntNatives(interp, *dynamo, [&engine] { return engine.activeTracer(); });
    torch->globals.set(
        Symbol::intern("SymInt"),
        *interp.importModule("torch._dynamo.sym_int")->globals.find(Symbol::intern("SymInt")));
}

Value callSiteAgain(Interpreter& interp, CaptureEngine& engine, const CompiledCallSite& site) {
    std::vector<Value> positional{site.compiled};
    positional.insert(positional.end(), site.positional.begin(), site.positional.end());
    return callCompiledFunction(interp, {positional, site.keywordNames, site.keywordValues},
                                &engine);
}

} // namespace kiln::capture
