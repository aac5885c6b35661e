// SPDX-License-Identifier: MIT
#include "lang/interpreter.h"

#include "lang/builtins.h"
#include "lang/generators.h"
#include "lang/parser.h"
#include "tensor/error.h"

#include <algorithm>
#include <new>

namespace kiln::lang {

Interpreter::Interpreter(EventSink& output)
    : m_output(output)
    , m_builtins(makeRef<ModuleObject>("builtins")) {
    installBuiltins(*this, *m_builtins);
    m_modules["builtins"] = m_builtins;
}

Interpreter::~Interpreter() {
    m_finalizing = true;
    m_pendingCloses.clear();
    // Modules reference each other and their functions reference the modules; clearing the
    // namespaces breaks the cycles so every object (and every tensor) is freed.
    for (auto& [name, module] : m_modules)
        module->globals = AttrMap();
    // Classes reference their methods and the methods their class (and a class attribute may
    // hold an instance, which references its class): clearing the dicts breaks those cycles.
    for (auto& cls : m_userClasses)
        cls->dict = AttrMap();
    releaseGenerators(); // those the cleared namespaces did not free: cycles
}

void Interpreter::releaseGenerators() {
    std::set<GeneratorBody*> live;
    live.swap(m_liveGenerators);
    for (GeneratorBody* g : live) {
        g->interp = nullptr;
        g->coroutine.reset(); // abandoned: its stack goes back to the pool
        g->state = GeneratorBody::State::Done;
    }
}

void Interpreter::registerUserClass(Ref<TypeObject> cls) {
    if (m_userClasses.size() >= m_userClassesPruneAt) {
        // Classes only this list still references are garbage (no method cycle kept them).
        std::erase_if(m_userClasses, [](const Ref<TypeObject>& c) { return c->refCount() == 1; });
        m_userClassesPruneAt = std::max<size_t>(64, 2 * m_userClasses.size());
    }
    m_userClasses.push_back(std::move(cls));
}

void Interpreter::runMain(const Module& module) {
    auto main = makeRef<ModuleObject>("__main__");
    main->source = module.source;
    main->code = module.code;
    main->globals.set(Symbol::intern("__name__"), strValue("__main__"));
    main->globals.set(Symbol::intern("__file__"), strValue(module.source->path()));
    m_modules["__main__"] = main;
    Frame frame;
    frame.code = module.code.get();
    frame.globals = main.get();
    frame.mark(module.code->span);
    runInFrame(frame, [&] { return execBlock(frame, module.code->body); });
    runPendingCloses();
}

Ref<ModuleObject> Interpreter::runSourceModule(const std::string& name, const std::string& path,
                                               const std::string& source) {
    auto file = std::make_shared<SourceFile>(path, source);
    auto parsed = parseModule(file);
    if (!parsed.ok()) raise(builtinTypes().syntaxError.get(), parsed.error().render());
    auto module = makeRef<ModuleObject>(name);
    module->source = file;
    module->code = parsed.value().code;
    module->globals.set(Symbol::intern("__name__"), strValue(name));
    m_modules[name] = module;
    Frame frame;
    frame.code = module->code.get();
    frame.globals = module.get();
    frame.mark(module->code->span);
    runInFrame(frame, [&] { return execBlock(frame, module->code->body); });
    return module;
}

void Interpreter::registerNativeModule(const std::string& name, NativeModuleInit init) {
    m_nativeModules[name] = std::move(init);
}

void Interpreter::registerSourceModule(const std::string& name, const std::string& path,
                                       std::string source) {
    m_sourceModules[name] = SourceModule{path, std::move(source)};
}

Ref<ModuleObject> Interpreter::importModule(const std::string& name) {
    if (auto it = m_modules.find(name); it != m_modules.end()) return it->second;
    Ref<ModuleObject> parent;
    size_t dot = name.rfind('.');
    if (dot != std::string::npos) parent = importModule(name.substr(0, dot));
    if (auto it = m_modules.find(name); it != m_modules.end())
        return it->second; // the parent's initialisation imported it
    if (parent && !m_nativeModules.contains(name) && !m_sourceModules.contains(name)) {
        // A module the parent bound as its attribute (os binds posixpath as os.path, which
        // CPython's os.py also enters in sys.modules).
        const Value* sub = parent->globals.find(Symbol::intern(name.substr(dot + 1)));
        if (sub && sub->is(ObjectKind::Module)) {
            Ref<ModuleObject> bound(sub->as<ModuleObject>());
            m_modules[name] = bound;
            return bound;
        }
    }
    Ref<ModuleObject> module;
    if (auto it = m_nativeModules.find(name); it != m_nativeModules.end()) {
        module = makeRef<ModuleObject>(name);
        module->globals.set(Symbol::intern("__name__"), strValue(name));
        m_modules[name] = module;
        it->second(*this, *module);
    } else if (auto src = m_sourceModules.find(name); src != m_sourceModules.end()) {
        module = runSourceModule(name, src->second.path, src->second.source);
    } else {
        raiseModuleNotFound(name);
    }
    if (parent) {
        Symbol attr = Symbol::intern(name.substr(dot + 1));
        if (!parent->globals.contains(attr)) parent->globals.set(attr, Value(module));
    }
    return module;
}

void Interpreter::raiseModuleNotFound(const std::string& name) {
    Value exc =
        makeException(builtinTypes().moduleNotFoundError.get(), "No module named '" + name + "'");
    exc.as<InstanceObject>()->attrs.set(Symbol::intern("name"), strValue(name));
    // CPython's message, then a note (PEP 678, printed under the message) saying why.
    // A submodule of a package Kiln has (torch.distributions) is named whole: "'torch' is not
    // one of them" contradicted the import of torch that had just worked.
    const std::string root = name.substr(0, name.find('.'));
    const bool knownPackage = root != name && m_modules.count(root) > 0;
    std::string note =
        root == "numpy" ? "numpy is not available in Kiln workloads: use torch tensors"
        : knownPackage
            ? "Kiln provides " + root + " but not its module '" + name + "' (see docs/language.md)"
            : "Kiln workloads can import torch and the standard library modules that Kiln "
              "provides; '" +
                  root + "' is not one of them";
    exc.as<InstanceObject>()->attrs.set(Symbol::intern("__notes__"), listValue({strValue(note)}));
    raise(exc);
}

Value Interpreter::libraryAttr(const std::string& module, const char* name) {
    Ref<ModuleObject> m = importModule(module);
    const Value* v = m->globals.find(Symbol::intern(name));
    if (!v)
        raiseAttributeError(Value(m), Symbol::intern(name),
                            "module '" + module + "' has no attribute '" + name + "'");
    return *v;
}

bool Interpreter::isCallable(const Value& v) {
    if (!v.isObject()) return false;
    switch (v.asObject()->kind()) {
    case ObjectKind::Function:
    case ObjectKind::NativeFunction:
    case ObjectKind::BoundMethod:
    case ObjectKind::Type:
        return true;
    default:
        return !tryGetAttr(v, Symbol::intern("__call__")).isEmpty();
    }
}

void Interpreter::checkCancel() {
    if (m_cancelRequested.load(std::memory_order_relaxed)) [[unlikely]]
        raise(builtinTypes().keyboardInterrupt.get(), "run cancelled");
    if (m_interruptPending.load(std::memory_order_relaxed)) [[unlikely]]
        if (m_interruptPending.exchange(false)) raise(builtinTypes().keyboardInterrupt.get(), "");
}

Value Interpreter::makeException(TypeObject* type, const std::string& message) {
    auto exc = makeRef<InstanceObject>(type);
    std::vector<Value> args;
    if (!message.empty()) args.push_back(strValue(message));
    if (type->isSubtypeOf(builtinTypes().stopIteration.get())) // as StopIteration(...) sets it
        exc->attrs.set(Symbol::intern("value"), args.empty() ? Value::none() : args[0]);
    exc->attrs.set(Symbol::intern("args"), tupleValue(std::move(args)));
    return Value(exc);
}

void Interpreter::raise(TypeObject* type, const std::string& message) {
    raise(makeException(type, message));
}

void Interpreter::raise(const Value& exception) {
    if (!m_handledExceptions.empty() && exception.is(ObjectKind::Instance)) {
        ExceptionState& state = exception.as<InstanceObject>()->exceptionState();
        const Value& handling = m_handledExceptions.back();
        if (state.context.isEmpty() && !handling.identical(exception)) state.context = handling;
    }
    throw PyException{exception};
}

void Interpreter::raiseTypeError(const std::string& message) {
    raise(builtinTypes().typeError.get(), message);
}

void Interpreter::raiseValueError(const std::string& message) {
    raise(builtinTypes().valueError.get(), message);
}

PyException Interpreter::currentAsPyException() {
    const auto& types = builtinTypes();
    auto withContext = [&](Value exc) {
        if (!m_handledExceptions.empty())
            exc.as<InstanceObject>()->exceptionState().context = m_handledExceptions.back();
        return PyException{std::move(exc)};
    };
    try {
        throw;
    } catch (PyException& e) {
        return e;
    } catch (const TraceUnwind&) {
        throw; // capture-layer unwinding passes through handlers untouched
    } catch (const tensor::TensorError& e) {
        TypeObject* type = types.runtimeError.get();
        switch (e.kind()) {
        case tensor::ErrorKind::IndexError:
            type = types.indexError.get();
            break;
        case tensor::ErrorKind::TypeError:
            type = types.typeError.get();
            break;
        case tensor::ErrorKind::ValueError:
            type = types.valueError.get();
            break;
        case tensor::ErrorKind::NotImplementedError:
            type = types.notImplementedError.get();
            break;
        case tensor::ErrorKind::OutOfMemoryError:
            type = types.outOfMemoryError.get();
            break;
        case tensor::ErrorKind::RuntimeError:
            break;
        }
        return withContext(makeException(type, e.what()));
    } catch (const std::bad_alloc&) {
        return withContext(makeException(types.memoryError.get(), ""));
    } catch (const std::exception& e) {
        return withContext(makeException(types.runtimeError.get(), e.what()));
    }
}

TypeObject* Interpreter::typeOf(const Value& v) const {
    const auto& t = builtinTypes();
    switch (v.tag()) {
    case Value::Tag::Empty:
    case Value::Tag::None:
        return t.noneType.get();
    case Value::Tag::Bool:
        return t.boolType.get();
    case Value::Tag::Int:
        return t.intType.get();
    case Value::Tag::Float:
        return t.floatType.get();
    case Value::Tag::Tensor:
        return v.tensorImpl()->isParameter ? t.parameter.get() : t.tensor.get();
    case Value::Tag::Object:
        return v.asObject()->type();
    }
    return t.object.get();
}

bool Interpreter::isInstance(const Value& v, const TypeObject* type) const {
    return typeOf(v)->isSubtypeOf(type);
}

std::string Interpreter::typeName(const Value& v) const {
    return typeOf(v)->name;
}

Value Interpreter::newNative(const std::string& name, NativeFn fn, void* data) {
    return Value(makeRef<NativeFunctionObject>(name, fn, data));
}

void Interpreter::defineNative(AttrMap& into, const std::string& name, NativeFn fn, void* data) {
    into.set(Symbol::intern(name), newNative(name, fn, data));
}

const Frame* Interpreter::userFrame() const {
    for (const Frame* f = m_frame; f; f = f->parent)
        if (f->globals && f->globals->name == "__main__") return f;
    return m_frame;
}

std::string exceptionTypeName(const Value& exception) {
    if (!exception.isObject()) return "exception";
    return exception.asObject()->type()->name;
}

} // namespace kiln::lang
