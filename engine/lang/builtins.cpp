// SPDX-License-Identifier: MIT
// The builtin functions of the workload language: printing, introspection (isinstance,
// getattr, vars, ...), descriptors (property, staticmethod, classmethod, super).
#include "lang/builtins.h"

#include "lang/format.h"
#include "lang/generators.h"
#include "lang/iterators.h"
#include "lang/py_hash.h"
#include "lang/signature.h"
#include "lang/suggestions.h"
#include "lang/tensor_bridge.h"
#include "lang/text_encoding.h"

#include <algorithm>
#include <cmath>

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

// The text print() takes for `sep` and `end`: a str, or None for the default.
std::string printSeparator(Interpreter& interp, const Value& v, const char* what,
                           const char* dflt) {
    if (v.isNone()) return dflt;
    if (!v.is(ObjectKind::Str))
        interp.raiseTypeError(std::string(what) + " must be None or a string, not " +
                              interp.typeName(v));
    return v.as<StrObject>()->str();
}

Value builtinPrint(Interpreter& interp, const CallArgs& args, void*) {
    if (interp.recorder()) [[unlikely]]
        interp.recorder()->sideEffect("print", args); // print is a graph break in Dynamo
    static const BuiltinSignature sig("print(*values, sep=None, end=None, file=None, flush=False)");
    BoundArgs a = sig.bind(interp, args);
    std::string sep = printSeparator(interp, a[1], "sep", " ");
    std::string end = printSeparator(interp, a[2], "end", "\n");
    OutputStream stream = OutputStream::Stdout;
    bool toFile = false;
    if (a.has(3)) {
        Value name = interp.tryGetAttr(a[3], sym("name"));
        std::string fileName = name.is(ObjectKind::Str) ? name.as<StrObject>()->str() : "";
        toFile = fileName != "<stderr>" && fileName != "<stdout>";
        if (fileName == "<stderr>") stream = OutputStream::Stderr;
    }
    std::string text;
    // As CPython's stdout (UTF-8, strict), a piece holding a lone surrogate fails to encode
    // after the pieces before it were written; stderr escapes them (backslashreplace).
    auto append = [&](const std::string& piece) {
        if (toFile) {
            text += piece;
        } else if (stream == OutputStream::Stderr) {
            text += backslashReplaceSurrogates(piece);
        } else if (std::optional<SurrogateRun> run = findSurrogates(piece)) {
            interp.raise(makeSurrogateEncodeError(interp, piece, *run));
        } else {
            text += piece;
        }
    };
    const auto& values = a[0].as<TupleObject>()->items;
    try {
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) append(sep);
            append(interp.str(values[i]));
        }
        append(end);
    } catch (...) {
        // CPython writes each piece as it goes: what came before a failing str() is printed.
        if (!toFile && !text.empty()) interp.write(stream, text);
        throw;
    }
    if (toFile) {
        interp.callMethod(a[3], sym("write"), {strValue(std::move(text))});
        return Value::none();
    }
    interp.write(stream, text);
    return Value::none();
}

Value builtinLen(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("len(obj, /)");
    return Value::fromInt(interp.len(sig.bind(interp, args)[0]));
}

Value builtinRepr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("repr(obj, /)");
    // A one-argument builtin counts a recursion level in CPython (the METH_O call check).
    Interpreter::NestedCall nested(interp, " while calling a Python object");
    return strValue(interp.repr(sig.bind(interp, args)[0]));
}

/// `int | None` (types.UnionType, PEP 604) as isinstance's and issubclass's second argument.
bool isUnionType(Interpreter& interp, const Value& v) {
    if (!v.is(ObjectKind::Instance)) return false;
    TypeObject* type = interp.typeOf(v);
    return type->name == "UnionType" && type->moduleName == "types";
}

/// A metaclass's __instancecheck__/__subclasscheck__ runs as plain Python even under
/// torch.compile: Dynamo answers isinstance() on the real classes while tracing, so the answer
/// is a constant of the graph and the check's caches (ABCMeta's) are not side effects of it.
bool runClassCheck(Interpreter& interp, const Value& hook, const Value& arg) {
    Interpreter::FrameHookPause pause(interp);
    struct Unrecorded {
        Interpreter& interp;
        TraceRecorder* recorder;
        ~Unrecorded() { interp.setRecorder(recorder); }
    } unrecorded{interp, interp.recorder()};
    interp.setRecorder(nullptr);
    return interp.truthy(interp.call(hook, {arg}));
}

Value builtinIsinstance(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("isinstance(obj, class_or_tuple, /)");
    BoundArgs a = sig.bind(interp, args);
    std::function<bool(const Value&)> check = [&](const Value& cls) -> bool {
        if (isUnionType(interp, cls)) return check(interp.getAttr(cls, sym("__args__")));
        if (cls.is(ObjectKind::Tuple)) {
            for (const Value& c : cls.as<TupleObject>()->items)
                if (check(c)) return true;
            return false;
        }
        if (!cls.is(ObjectKind::Type))
            interp.raiseTypeError(
                "isinstance() arg 2 must be a type, a tuple of types, or a union");
        TypeObject* type = cls.as<TypeObject>();
        if (interp.typeOf(a[0]) == type) return true; // CPython's exact-type shortcut
        // The metaclass's __instancecheck__ (ABCMeta's registered virtual subclasses).
        Value hook = interp.metaclassMethod(cls, sym("__instancecheck__"));
        if (!hook.isEmpty()) return runClassCheck(interp, hook, a[0]);
        if (interp.isInstance(a[0], type)) return true;
        // A class's own instance test, Kiln's stand-in for a metaclass __instancecheck__ on
        // the native torch.FloatTensor (it accepts float32 CPU tensors).
        if (const Value* hook = type->dict.find(Symbol::intern("__kiln_instancecheck__")))
            return interp.truthy(interp.call(*hook, {cls, a[0]}));
        if (!a[0].is(ObjectKind::Instance)) return false;
        // torch.SymInt stands in for int (its class's __kiln_type__).
        TypeObject* own = interp.typeOf(a[0]);
        const Value* standIn = own->lookup(Symbol::intern("__kiln_type__"));
        if (standIn && standIn->is(ObjectKind::Type) && standIn->as<TypeObject>() == type)
            return true;
        // Classes that pass for a built-in one without subclassing it (a FakeTensor is a
        // torch.Tensor to a backend's checks).
        const Value* virtualBases = own->lookup(Symbol::intern("__kiln_virtual_bases__"));
        if (!virtualBases || !virtualBases->is(ObjectKind::Tuple)) return false;
        const auto& bases = virtualBases->as<TupleObject>()->items;
        return std::any_of(bases.begin(), bases.end(), [&](const Value& b) {
            return b.is(ObjectKind::Type) && b.as<TypeObject>() == type;
        });
    };
    return Value::fromBool(check(a[1]));
}

Value builtinIssubclass(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("issubclass(cls, class_or_tuple, /)");
    BoundArgs a = sig.bind(interp, args);
    std::function<bool(const Value&)> check = [&](const Value& cls) -> bool {
        if (isUnionType(interp, cls)) return check(interp.getAttr(cls, sym("__args__")));
        if (cls.is(ObjectKind::Tuple)) {
            for (const Value& c : cls.as<TupleObject>()->items)
                if (check(c)) return true;
            return false;
        }
        // The metaclass's __subclasscheck__ (ABCMeta's registered virtual subclasses).
        Value hook = interp.metaclassMethod(cls, sym("__subclasscheck__"));
        if (!hook.isEmpty()) return runClassCheck(interp, hook, a[0]);
        if (!a[0].is(ObjectKind::Type)) interp.raiseTypeError("issubclass() arg 1 must be a class");
        if (!cls.is(ObjectKind::Type))
            interp.raiseTypeError(
                "issubclass() arg 2 must be a class, a tuple of classes, or a union");
        return a[0].as<TypeObject>()->isSubtypeOf(cls.as<TypeObject>());
    };
    return Value::fromBool(check(a[1]));
}

Symbol attrName(Interpreter& interp, const Value& v) {
    if (!v.is(ObjectKind::Str))
        interp.raiseTypeError("attribute name must be string, not '" + interp.typeName(v) + "'");
    return Symbol::intern(v.as<StrObject>()->str());
}

Value builtinGetattr(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() < 2 || args.positional.size() > 3)
        interp.raiseTypeError("getattr expected at least 2 arguments, got " +
                              std::to_string(args.positional.size()));
    Symbol name = attrName(interp, args.positional[1]);
    if (args.positional.size() == 3) {
        Value v = interp.tryGetAttr(args.positional[0], name);
        return v.isEmpty() ? args.positional[2] : v;
    }
    return interp.getAttr(args.positional[0], name);
}

Value builtinHasattr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("hasattr(obj, name, /)");
    BoundArgs a = sig.bind(interp, args);
    return Value::fromBool(!interp.tryGetAttr(a[0], attrName(interp, a[1])).isEmpty());
}

Value builtinSetattr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("setattr(obj, name, value, /)");
    BoundArgs a = sig.bind(interp, args);
    interp.setAttr(a[0], attrName(interp, a[1]), a[2]);
    return Value::none();
}

Value builtinDelattr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("delattr(obj, name, /)");
    BoundArgs a = sig.bind(interp, args);
    interp.delAttr(a[0], attrName(interp, a[1]));
    return Value::none();
}

Value builtinCallable(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("callable(obj, /)");
    return Value::fromBool(interp.isCallable(sig.bind(interp, args)[0]));
}

Value builtinId(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("id(obj, /)");
    Value v = sig.bind(interp, args)[0];
    if (v.isObject())
        return Value::fromInt(static_cast<int64_t>(reinterpret_cast<uintptr_t>(v.asObject())));
    if (v.isTensor())
        return Value::fromInt(static_cast<int64_t>(reinterpret_cast<uintptr_t>(v.tensorImpl())));
    return Value::fromInt(static_cast<int64_t>(interp.hash(v)));
}

Value builtinHash(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("hash(obj, /)");
    return Value::fromInt(
        pyHashFinal(static_cast<int64_t>(interp.hash(sig.bind(interp, args)[0]))));
}

/// super(type, obj) needs obj to be an instance or a subclass of type (CPython's check).
Value makeSuper(Interpreter& interp, TypeObject* type, const Value& self) {
    const TypeObject* selfType =
        self.is(ObjectKind::Type) ? self.as<TypeObject>() : interp.typeOf(self);
    if (!selfType->isSubtypeOf(type) && !interp.typeOf(self)->isSubtypeOf(type))
        interp.raiseTypeError("super(type, obj): obj must be an instance or subtype of type");
    return Value(makeRef<SuperObject>(Ref<TypeObject>(type), self));
}

Value builtinSuper(Interpreter& interp, const CallArgs& args, void*) {
    if (args.positional.size() == 2) {
        if (!args.positional[0].is(ObjectKind::Type))
            interp.raiseTypeError("super() argument 1 must be a type, not " +
                                  interp.typeName(args.positional[0]));
        return makeSuper(interp, args.positional[0].as<TypeObject>(), args.positional[1]);
    }
    const Frame* f = interp.currentFrame();
    if (!f || !f->function || !f->function->ownerClass || f->code->params.empty())
        interp.raise(builtinTypes().runtimeError.get(), "super(): no arguments");
    Value self = f->slots[0];
    if (self.is(ObjectKind::Cell)) self = self.as<CellObject>()->value;
    if (self.isEmpty()) interp.raise(builtinTypes().runtimeError.get(), "super(): arg[0] deleted");
    return makeSuper(interp, f->function->ownerClass.get(), self);
}

Value builtinProperty(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("property(fget=None, fset=None, fdel=None, doc=None)");
    BoundArgs a = sig.bind(interp, args);
    return Value(makeRef<PropertyObject>(a[0], a[1].isNone() ? Value() : a[1],
                                         a[2].isNone() ? Value() : a[2]));
}

Value builtinStaticmethod(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("staticmethod(function, /)");
    return Value(makeRef<StaticMethodObject>(sig.bind(interp, args)[0]));
}

Value builtinClassmethod(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("classmethod(function, /)");
    return Value(makeRef<ClassMethodObject>(sig.bind(interp, args)[0]));
}

Value builtinAscii(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("ascii(obj, /)");
    return strValue(asciiEscape(interp.repr(sig.bind(interp, args)[0])));
}

// The names bound in the calling scope as a dict snapshot, like CPython's locals(): a
// function's assigned locals (closure cells read through), a class body's namespace, or the
// module globals.
Value callerNamespace(Interpreter& interp) {
    const Frame* f = interp.currentFrame();
    if (!f->function && !f->classNamespace)
        return interp.getAttr(Value(f->globals), sym("__dict__"));
    auto dict = makeRef<DictObject>();
    if (f->classNamespace) {
        for (const auto& e : f->classNamespace->entries())
            dict->set(interp, strValue(e.key.str()), e.value);
        return Value(dict);
    }
    const auto& names = f->code->scope->slots;
    for (size_t i = 0; i < names.size(); ++i) {
        Value v = f->slots[i];
        if (v.is(ObjectKind::Cell)) v = v.as<CellObject>()->value;
        if (!v.isEmpty()) dict->set(interp, strValue(names[i].str()), v);
    }
    return Value(dict);
}

Value builtinVars(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("vars(object=None, /)");
    BoundArgs a = sig.bind(interp, args);
    if (args.positional.empty()) return callerNamespace(interp);
    Value v = interp.tryGetAttr(a[0], sym("__dict__"));
    if (v.isEmpty()) interp.raiseTypeError("vars() argument must have __dict__ attribute");
    return v;
}

Value builtinLocals(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("locals()");
    sig.bind(interp, args);
    return callerNamespace(interp);
}

// A snapshot of the module namespace, like CPython's locals() in a function: scripts read it
// (`name in globals()`); assigning into it does not create globals.
Value builtinGlobals(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("globals()");
    sig.bind(interp, args);
    const Frame* f = interp.currentFrame();
    return interp.getAttr(Value(f->globals), sym("__dict__"));
}

Value builtinDir(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("dir(object=None, /)");
    BoundArgs a = sig.bind(interp, args);
    std::vector<std::string> names;
    if (args.positional.empty()) {
        for (const Value& k : callerNamespace(interp).as<DictObject>()->keys())
            names.push_back(k.as<StrObject>()->str());
        std::sort(names.begin(), names.end());
    } else {
        names = dirNames(interp, a[0]);
    }
    std::vector<Value> items;
    for (const std::string& n : names)
        items.push_back(strValue(n));
    return listValue(std::move(items));
}

Value builtinUnavailable(Interpreter& interp, const CallArgs&, void* data) {
    interp.raise(builtinTypes().notImplementedError.get(),
                 std::string(static_cast<const char*>(data)) +
                     "() is not available in Kiln workloads: scripts cannot read or write files, "
                     "run code from strings, or reach the network and other processes");
}

} // namespace

void installBuiltinFunctions(Interpreter& interp, ModuleObject& builtins) {
    AttrMap& g = builtins.globals;
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"print", builtinPrint},
        {"len", builtinLen},
        {"repr", builtinRepr},
        {"isinstance", builtinIsinstance},
        {"issubclass", builtinIssubclass},
        {"getattr", builtinGetattr},
        {"hasattr", builtinHasattr},
        {"setattr", builtinSetattr},
        {"delattr", builtinDelattr},
        {"callable", builtinCallable},
        {"id", builtinId},
        {"hash", builtinHash},
        {"super", builtinSuper},
        {"property", builtinProperty},
        {"staticmethod", builtinStaticmethod},
        {"classmethod", builtinClassmethod},
        {"ascii", builtinAscii},
        {"dir", builtinDir},
        {"vars", builtinVars},
        {"globals", builtinGlobals},
        {"locals", builtinLocals},
    };
    for (const Entry& e : entries)
        interp.defineNative(g, e.name, e.fn);
    static const char* unavailable[] = {"open", "input", "exec", "eval", "compile", "__import__"};
    for (const char* name : unavailable)
        interp.defineNative(g, name, builtinUnavailable, const_cast<char*>(name));
    g.set(sym("Ellipsis"), ellipsisValue());
    g.set(sym("NotImplemented"), notImplementedValue());
    g.set(sym("__name__"), strValue("builtins"));
    for (TypeObject* t : builtinTypes().exceptionTypes())
        g.set(Symbol::intern(t->name), Value(t));
}

void installBuiltins(Interpreter& interp, ModuleObject& builtins) {
    installBuiltinFunctions(interp, builtins);
    installNumericBuiltins(interp, builtins);
    installIterationBuiltins(interp, builtins);
    installTypeConstructors(interp, builtins);
    installStrMethods(interp);
    installContainerMethods(interp);
    installBuiltinMembers(interp);
    installTypeMethods(interp);
    installGeneratorMethods(interp);
    installUnicodeErrors(interp);
}

} // namespace kiln::lang
