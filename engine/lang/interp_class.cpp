// SPDX-License-Identifier: MIT
// Classes: the class statement as CPython's __build_class__ runs it (bases and keywords, the
// metaclass and its __prepare__, the body), type.__new__'s part (createClass: bases, MRO,
// __slots__, __init_subclass__), and instantiation (a metaclass's __call__, else __new__ and
// __init__).
#include "lang/argument_list.h"
#include "lang/interpreter.h"

#include <algorithm>

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

Value namespaceAsDict(Interpreter& interp, const AttrMap& ns) {
    auto dict = makeRef<DictObject>();
    for (const auto& e : ns.entries())
        dict->set(interp, strValue(e.key.str()), e.value);
    return Value(dict);
}

/// Removes keyword `name` from a class statement's keywords; Empty when it is not there.
Value takeKeyword(std::vector<Symbol>& names, std::vector<Value>& values, Symbol name) {
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] != name) continue;
        Value v = std::move(values[i]);
        names.erase(names.begin() + static_cast<std::ptrdiff_t>(i));
        values.erase(values.begin() + static_cast<std::ptrdiff_t>(i));
        return v;
    }
    return Value();
}

bool isMetatype(const Value& v) {
    return v.is(ObjectKind::Type) && v.as<TypeObject>()->isSubtypeOf(builtinTypes().type.get());
}

} // namespace

void Interpreter::evalClassArguments(Frame& f, const ClassDefStmt& s, std::vector<Value>& bases,
                                     std::vector<Symbol>& names, std::vector<Value>& values) {
    static const ArgumentMessages messages{"Value after *", "__build_class__() argument after **",
                                           "__build_class__()"};
    evaluateArguments(
        *this, s.arguments, [&](const Expr& e) { return eval(f, e); }, [&] { f.mark(s.span); },
        messages, bases, names, values);
}

void Interpreter::runClassBody(Frame& f, const ClassDefStmt& s, AttrMap& ns) {
    const FunctionCode& body = *s.body;
    ns.set(sym("__module__"), strValue(f.globals->name));
    ns.set(sym("__qualname__"), strValue(body.qualifiedName));
    if (const std::string* doc = docstring(body.body)) ns.set(sym("__doc__"), strValue(*doc));
    std::vector<Ref<CellObject>> closure = buildClosure(*body.scope, f);
    Frame cf;
    cf.code = &body;
    cf.globals = f.globals;
    cf.classNamespace = &ns;
    cf.closure = &closure;
    cf.mark(body.span);
    runInFrame(cf, [&] { return execBlock(cf, body.body); });
}

namespace {

/// The namespace a metaclass's __prepare__ gives the class body (type's: an empty one). The
/// body runs in an AttrMap, so a dict it returns is copied in and the class is built from what
/// the body leaves there; another mapping is refused.
AttrMap preparedNamespace(Interpreter& interp, const Value& meta, const std::string& name,
                          const Value& bases, const CallArgs& keywords) {
    AttrMap ns;
    Value prepare;
    if (!meta.is(ObjectKind::Type))
        prepare = interp.tryGetAttr(meta, sym("__prepare__"));
    else if (meta.as<TypeObject>()->lookupBefore(sym("__prepare__"), builtinTypes().type.get()))
        prepare = interp.getAttr(meta, sym("__prepare__"));
    if (prepare.isEmpty()) return ns;
    std::vector<Value> args{strValue(name), bases};
    Value mapping =
        interp.call(prepare, CallArgs{args, keywords.keywordNames, keywords.keywordValues});
    if (!mapping.is(ObjectKind::Dict))
        interp.raiseTypeError(
            (meta.is(ObjectKind::Type) ? meta.as<TypeObject>()->name : std::string("metaclass")) +
            ".__prepare__() must return a dict in Kiln workloads, not " + interp.typeName(mapping));
    mapping.as<DictObject>()->forEach([&](const Value& k, const Value& v) {
        if (k.is(ObjectKind::Str)) ns.set(Symbol::intern(k.as<StrObject>()->str()), v);
    });
    return ns;
}

} // namespace

Value Interpreter::buildClass(Frame& f, const ClassDefStmt& s) {
    const auto& types = builtinTypes();
    std::vector<Value> baseValues;
    std::vector<Symbol> names;
    std::vector<Value> values;
    evalClassArguments(f, s, baseValues, names, values);
    f.mark(s.span);
    Value meta = takeKeyword(names, values, sym("metaclass"));
    const bool given = !meta.isEmpty();
    if (!given) meta = baseValues.empty() ? Value(types.type) : Value(typeOf(baseValues[0]));
    std::vector<Ref<TypeObject>> bases;
    for (const Value& b : baseValues) {
        if (b.is(ObjectKind::Type))
            bases.emplace_back(b.as<TypeObject>());
        else if (!given || isMetatype(meta)) // a metaclass function may take anything
            raiseTypeError("bases must be types");
    }
    if (isMetatype(meta)) meta = Value(winningMetaclass(meta.as<TypeObject>(), bases));
    const std::string name = s.body->name.str();
    Value basesTuple = tupleValue(baseValues);
    const CallArgs keywords{{}, names, values};
    AttrMap ns = preparedNamespace(*this, meta, name, basesTuple, keywords);
    runClassBody(f, s, ns);
    f.mark(s.span);
    if (meta.is(ObjectKind::Type) && meta.as<TypeObject>() == types.type.get())
        return createClass(name, std::move(bases), std::move(ns), f.globals->name, nullptr,
                           &keywords);
    std::vector<Value> metaArgs{strValue(name), basesTuple, namespaceAsDict(*this, ns)};
    return call(meta, CallArgs{metaArgs, names, values});
}

TypeObject* Interpreter::winningMetaclass(TypeObject* meta,
                                          const std::vector<Ref<TypeObject>>& bases) {
    TypeObject* winner = meta;
    for (const auto& base : bases) {
        TypeObject* baseMeta = base->type();
        if (winner->isSubtypeOf(baseMeta)) continue;
        if (baseMeta->isSubtypeOf(winner)) {
            winner = baseMeta;
            continue;
        }
        raiseTypeError("metaclass conflict: the metaclass of a derived class must be a "
                       "(non-strict) subclass of the metaclasses of all its bases");
    }
    return winner;
}

/// __slots__: the names instances may take (a string or an iterable of strings), with no
/// __dict__ unless "__dict__" is among them or a base (other than object) has one.
void Interpreter::applySlots(TypeObject& cls) {
    const Value* declared = cls.dict.find(sym("__slots__"));
    if (!declared) return;
    std::vector<Value> items =
        declared->is(ObjectKind::Str) ? std::vector<Value>{*declared} : toVector(*declared);
    bool dict = false;
    for (const Value& item : items) {
        if (!item.is(ObjectKind::Str))
            raiseTypeError("__slots__ items must be strings, not '" + typeName(item) + "'");
        Symbol name = Symbol::intern(item.as<StrObject>()->str());
        if (name.str() == "__dict__") {
            dict = true;
            continue;
        }
        if (cls.dict.contains(name))
            raise(builtinTypes().valueError.get(),
                  "'" + name.str() + "' in __slots__ conflicts with class variable");
        cls.slots.push_back(name);
    }
    const TypeObject* object = builtinTypes().object.get();
    bool baseDict = false;
    for (const auto& base : cls.bases) {
        if (base.get() == object) continue;
        baseDict = baseDict || base->instancesHaveDict;
        cls.slots.insert(cls.slots.end(), base->slots.begin(), base->slots.end());
    }
    cls.instancesHaveDict = dict || baseDict;
}

namespace {

void checkBases(Interpreter& interp, const std::vector<Ref<TypeObject>>& bases) {
    const auto& types = builtinTypes();
    for (const auto& base : bases) {
        bool subclassable = base->isUserClass || base.get() == types.object.get() ||
                            base.get() == types.str.get() || base.get() == types.type.get() ||
                            base->isSubtypeOf(types.baseException.get());
        if (!subclassable)
            interp.raiseTypeError("subclassing built-in type '" + base->name +
                                  "' is not supported by Kiln");
    }
    // An instance is a str, an exception or a class, one at most (CPython: their layouts
    // conflict).
    int layouts = 0;
    for (const TypeObject* root : {types.str.get(), types.baseException.get(), types.type.get()})
        layouts += std::any_of(bases.begin(), bases.end(),
                               [&](const auto& b) { return b->isSubtypeOf(root); });
    if (layouts > 1) interp.raiseTypeError("multiple bases have instance lay-out conflict");
}

/// What CPython's type_new does to the namespace: every class has its own __doc__, a class
/// that defines __eq__ but not __hash__ gets unhashable instances, __new__ is a static method
/// (so super().__new__(cls) passes cls once), __init_subclass__ and __class_getitem__ are
/// class methods.
void prepareNamespace(AttrMap& ns) {
    if (!ns.contains(sym("__doc__"))) ns.set(sym("__doc__"), Value::none());
    if (ns.contains(sym("__eq__")) && !ns.contains(sym("__hash__")))
        ns.set(sym("__hash__"), Value::none());
    if (const Value* fn = ns.find(sym("__new__")); fn && fn->is(ObjectKind::Function))
        ns.set(sym("__new__"), Value(makeRef<StaticMethodObject>(*fn)));
    for (const char* name : {"__init_subclass__", "__class_getitem__"})
        if (const Value* fn = ns.find(sym(name)); fn && fn->is(ObjectKind::Function))
            ns.set(sym(name), Value(makeRef<ClassMethodObject>(*fn)));
}

/// The first class a function is put in is the one whose body defined it; a function copied
/// into another class keeps its own class for super(), as CPython's __class__ cell.
void adoptFunctions(TypeObject& cls) {
    for (const auto& entry : cls.dict.entries()) {
        Value fn = entry.value;
        if (fn.is(ObjectKind::StaticMethod))
            fn = fn.as<StaticMethodObject>()->function;
        else if (fn.is(ObjectKind::ClassMethod))
            fn = fn.as<ClassMethodObject>()->function;
        else if (fn.is(ObjectKind::Property))
            fn = fn.as<PropertyObject>()->getter;
        if (fn.is(ObjectKind::Function) && !fn.as<FunctionObject>()->ownerClass)
            fn.as<FunctionObject>()->ownerClass = Ref<TypeObject>(&cls);
    }
}

} // namespace

Value Interpreter::createClass(const std::string& name, std::vector<Ref<TypeObject>> bases,
                               AttrMap ns, const std::string& module, TypeObject* metaclass,
                               const CallArgs* subclassKeywords) {
    const auto& types = builtinTypes();
    if (bases.empty()) bases.push_back(types.object);
    checkBases(*this, bases);
    prepareNamespace(ns);
    bool isMeta = std::any_of(bases.begin(), bases.end(),
                              [&](const auto& b) { return b->isSubtypeOf(types.type.get()); });
    auto cls = makeRef<TypeObject>(name, std::move(bases),
                                   isMeta ? ObjectKind::Type : ObjectKind::Instance);
    if (metaclass == types.type.get()) metaclass = nullptr;
    cls->setType(metaclass ? metaclass : types.type.get());
    cls->metaclass = Ref<TypeObject>(metaclass);
    cls->isUserClass = true;
    cls->moduleName = module;
    if (const Value* q = ns.find(sym("__qualname__")); q && q->is(ObjectKind::Str))
        cls->qualname = q->as<StrObject>()->str();
    cls->dict = std::move(ns);
    cls->computeMro();
    if (cls->mro.empty()) {
        std::string names;
        for (const auto& b : cls->bases)
            names += (names.empty() ? "" : ", ") + b->name;
        raiseTypeError("Cannot create a consistent method resolution\norder (MRO) for bases " +
                       names);
    }
    adoptFunctions(*cls);
    applySlots(*cls);
    registerUserClass(cls);
    // The nearest base's __init_subclass__ hook (an implicit classmethod) sees the new class
    // and the class statement's keywords; object's takes none.
    CallArgs keywords = subclassKeywords ? *subclassKeywords : CallArgs{};
    for (size_t i = 1; i < cls->mro.size(); ++i) {
        const Value* hook = cls->mro[i]->dict.find(sym("__init_subclass__"));
        if (!hook) continue;
        Value fn =
            hook->is(ObjectKind::ClassMethod) ? hook->as<ClassMethodObject>()->function : *hook;
        if (!fn.is(ObjectKind::Function)) break; // object's
        std::vector<Value> withCls{Value(cls)};
        call(fn, CallArgs{withCls, keywords.keywordNames, keywords.keywordValues});
        return Value(cls);
    }
    if (!keywords.keywordNames.empty())
        raiseTypeError((cls->qualname.empty() ? cls->name : cls->qualname) +
                       ".__init_subclass__() takes no keyword arguments");
    return Value(cls);
}

Value Interpreter::metaclassMethod(const Value& cls, Symbol name) {
    if (!cls.is(ObjectKind::Type)) return Value();
    TypeObject* meta = cls.as<TypeObject>()->metaclass.get();
    if (!meta) return Value();
    const Value* method = meta->lookupBefore(name, builtinTypes().type.get());
    return method ? bindDescriptor(*method, cls, meta) : Value();
}

void Interpreter::checkNotAbstract(const TypeObject& type) {
    if (!type.isAbstract) return;
    const Value* abstract = type.dict.find(sym("__abstractmethods__"));
    std::vector<std::string> names;
    if (abstract)
        for (const Value& v : toVector(*abstract))
            names.push_back(v.is(ObjectKind::Str) ? v.as<StrObject>()->str() : repr(v));
    std::sort(names.begin(), names.end());
    std::string joined;
    for (const std::string& n : names)
        joined += (joined.empty() ? "" : ", ") + n;
    raiseTypeError("Can't instantiate abstract class " + type.name + " with abstract method" +
                   (names.size() == 1 ? " " : "s ") + joined);
}

std::vector<Value> Interpreter::userSubclasses(const TypeObject& type) {
    std::vector<Value> out;
    for (const auto& cls : m_userClasses) {
        if (cls->refCount() == 1) continue; // only this list holds it: garbage
        for (const auto& base : cls->bases)
            if (base.get() == &type) {
                out.emplace_back(cls);
                break;
            }
    }
    return out;
}

Value Interpreter::callType(TypeObject& type, const CallArgs& args) {
    if (type.metaclass) [[unlikely]] {
        Value custom = metaclassMethod(Value(&type), sym("__call__"));
        if (!custom.isEmpty()) return call(custom, args);
    }
    return constructInstance(type, args);
}

namespace {

std::vector<Value> prepend(const Value& first, const CallArgs& args) {
    std::vector<Value> all{first};
    all.insert(all.end(), args.positional.begin(), args.positional.end());
    return all;
}

/// A metaclass called through type.__call__ (M(name, bases, ns)): its __new__ (type.__new__
/// unless it defines one) builds the class, its own __init__, if it has one, then sees it.
Value constructClass(Interpreter& interp, TypeObject& meta, const CallArgs& args) {
    std::vector<Value> withMeta = prepend(Value(&meta), args);
    Value cls = interp.call(*meta.lookup(sym("__new__")),
                            CallArgs{withMeta, args.keywordNames, args.keywordValues});
    if (!interp.isInstance(cls, &meta)) return cls;
    const Value* init = meta.lookupBefore(sym("__init__"), builtinTypes().type.get());
    if (init && init->is(ObjectKind::Function)) {
        std::vector<Value> withCls = prepend(cls, args);
        Value result = interp.call(*init, CallArgs{withCls, args.keywordNames, args.keywordValues});
        if (!result.isNone())
            interp.raiseTypeError("__init__() should return None, not '" + interp.typeName(result) +
                                  "'");
    }
    return cls;
}

/// The instance object.__new__ (or BaseException.__new__) makes before __init__ runs.
Value newPlainInstance(Interpreter& interp, TypeObject& type, const CallArgs& args,
                       bool isException) {
    const auto& types = builtinTypes();
    if (!isException) interp.checkNotAbstract(type);
    auto obj = makeRef<InstanceObject>(&type);
    if (isException)
        obj->attrs.set(sym("args"), tupleValue({args.positional.begin(), args.positional.end()}));
    if (type.isSubtypeOf(types.systemExit.get())) // CPython's SystemExit.code
        obj->attrs.set(sym("code"),
                       args.positional.empty() ? Value::none()
                       : args.positional.size() == 1
                           ? args.positional[0]
                           : tupleValue({args.positional.begin(), args.positional.end()}));
    if (type.isSubtypeOf(types.stopIteration.get())) // StopIteration.value: a return value
        obj->attrs.set(sym("value"), args.positional.empty() ? Value::none() : args.positional[0]);
    return Value(obj);
}

} // namespace

Value Interpreter::constructInstance(TypeObject& type, const CallArgs& args) {
    if (!type.isUserClass && !type.constructor.isEmpty()) return call(type.constructor, args);
    const auto& types = builtinTypes();
    if (type.isUserClass && type.instanceKind == ObjectKind::Type) // a metaclass
        return constructClass(*this, type, args);
    bool isException = type.isSubtypeOf(types.baseException.get());
    bool isStr = type.isSubtypeOf(types.str.get());
    if (!type.isUserClass && !isException && &type != types.object.get())
        raiseTypeError("cannot create '" + type.name + "' instances");
    Value instance;
    const Value* newFn = nullptr;
    for (TypeObject* t : type.mro) {
        if (!t->isUserClass) break;
        if ((newFn = t->dict.find(sym("__new__")))) break;
    }
    if (newFn) {
        std::vector<Value> withCls = prepend(Value(&type), args);
        instance = call(*newFn, CallArgs{withCls, args.keywordNames, args.keywordValues});
        if (!isInstance(instance, &type)) return instance;
    } else if (isStr) { // str.__new__(type, *args)
        std::vector<Value> withCls = prepend(Value(&type), args);
        const Value* strNew = types.str->dict.find(sym("__new__"));
        instance = call(strNew->as<StaticMethodObject>()->function,
                        CallArgs{withCls, args.keywordNames, args.keywordValues});
    } else {
        instance = newPlainInstance(*this, type, args, isException);
    }
    const Value* init = type.lookup(sym("__init__"));
    if (init && init->is(ObjectKind::Function)) {
        Value result = callFunction(*init->as<FunctionObject>(), args, &instance);
        if (!result.isNone())
            raiseTypeError("__init__() should return None, not '" + typeName(result) + "'");
    } else if (!isException && !isStr && !newFn &&
               (!args.positional.empty() || !args.keywordNames.empty())) {
        raiseTypeError(type.name + "() takes no arguments");
    } else if (isException && !args.keywordNames.empty()) {
        raiseTypeError(type.name + "() takes no keyword arguments");
    } else if (isException && init && init->is(ObjectKind::NativeFunction)) {
        // Built-in exceptions with their own arguments (UnicodeEncodeError's five).
        std::vector<Value> withSelf = prepend(instance, args);
        call(*init, CallArgs{withSelf, {}, {}});
    }
    return instance;
}

} // namespace kiln::lang
