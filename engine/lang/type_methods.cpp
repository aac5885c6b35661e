// SPDX-License-Identifier: MIT
// The methods of `type` a metaclass builds on (type.__new__, __init__, __call__, __prepare__,
// __instancecheck__, __subclasscheck__, __subclasses__, __repr__, __setattr__, __delattr__)
// and object's class hooks (__init_subclass__, __subclasshook__), with CPython's errors.
#include "lang/builtins.h"
#include "lang/signature.h"

namespace kiln::lang {

namespace {

Symbol sym(const char* s) {
    return Symbol::intern(s);
}

/// The class a method of `type` was called on: "descriptor '__call__' requires a 'type'
/// object but received a 'int'" otherwise.
TypeObject& typeSelf(Interpreter& interp, const CallArgs& args, const char* method) {
    if (args.positional.empty() || !args.positional[0].is(ObjectKind::Type))
        interp.raiseTypeError(std::string("descriptor '") + method +
                              "' requires a 'type' object but received a '" +
                              (args.positional.empty() ? std::string("NoneType")
                                                       : interp.typeName(args.positional[0])) +
                              "'");
    return *args.positional[0].as<TypeObject>();
}

CallArgs rest(const CallArgs& args, std::vector<Value>& storage) {
    storage.assign(args.positional.begin() + 1, args.positional.end());
    return CallArgs{storage, args.keywordNames, args.keywordValues};
}

/// The metatype type.__new__ was called with: a subtype of type.
TypeObject& newMetatype(Interpreter& interp, const CallArgs& args) {
    if (args.positional.empty()) interp.raiseTypeError("type.__new__(): not enough arguments");
    const Value& meta = args.positional[0];
    if (!meta.is(ObjectKind::Type))
        interp.raiseTypeError("type.__new__(X): X is not a type object (" + interp.typeName(meta) +
                              ")");
    TypeObject& type = *meta.as<TypeObject>();
    if (!type.isSubtypeOf(builtinTypes().type.get()))
        interp.raiseTypeError("type.__new__(" + type.name + "): " + type.name +
                              " is not a subtype of type");
    return type;
}

void checkNewArgument(Interpreter& interp, const Value& v, ObjectKind kind, int index,
                      const char* expected) {
    if (!v.is(kind))
        interp.raiseTypeError("type.__new__() argument " + std::to_string(index) + " must be " +
                              expected + ", not " + interp.typeName(v));
}

/// The module a class made by type(name, bases, dict) belongs to: its namespace's __module__,
/// else the calling code's module, as CPython takes it from the caller's globals.
std::string moduleOfNewClass(Interpreter& interp, AttrMap& attrs) {
    if (const Value* m = attrs.find(sym("__module__")); m && m->is(ObjectKind::Str))
        return m->as<StrObject>()->str();
    const Frame* f = interp.currentFrame();
    std::string module = f && f->globals ? f->globals->name : "__main__";
    attrs.set(sym("__module__"), strValue(module));
    return module;
}

/// type.__new__(mcs, name, bases, ns, **kwargs): a class whose type is the most derived of
/// mcs and its bases' metaclasses.
Value typeNew(Interpreter& interp, const CallArgs& args, void*) {
    TypeObject& meta = newMetatype(interp, args);
    const size_t given = args.positional.size() - 1;
    if (given != 3)
        interp.raiseTypeError("type.__new__() takes exactly 3 arguments (" + std::to_string(given) +
                              " given)");
    const Value& name = args.positional[1];
    const Value& bases = args.positional[2];
    const Value& ns = args.positional[3];
    checkNewArgument(interp, name, ObjectKind::Str, 1, "str");
    checkNewArgument(interp, bases, ObjectKind::Tuple, 2, "tuple");
    checkNewArgument(interp, ns, ObjectKind::Dict, 3, "dict");
    std::vector<Ref<TypeObject>> baseTypes;
    for (const Value& b : bases.as<TupleObject>()->items) {
        if (!b.is(ObjectKind::Type)) interp.raiseTypeError("bases must be types");
        baseTypes.emplace_back(b.as<TypeObject>());
    }
    TypeObject* winner = interp.winningMetaclass(&meta, baseTypes);
    if (winner != &meta) {
        // A more derived metaclass with a __new__ of its own makes the class (CPython's
        // type_new hands over to winner->tp_new).
        const Value* own = winner->lookup(sym("__new__"));
        const Value* typeOwn = builtinTypes().type->dict.find(sym("__new__"));
        if (own && typeOwn && !own->identical(*typeOwn)) {
            std::vector<Value> withWinner(args.positional.begin(), args.positional.end());
            withWinner[0] = Value(winner);
            return interp.call(*own, CallArgs{withWinner, args.keywordNames, args.keywordValues});
        }
    }
    AttrMap attrs;
    ns.as<DictObject>()->forEach([&](const Value& k, const Value& v) {
        if (k.is(ObjectKind::Str)) attrs.set(Symbol::intern(k.as<StrObject>()->str()), v);
    });
    std::string module = moduleOfNewClass(interp, attrs);
    CallArgs keywords{{}, args.keywordNames, args.keywordValues};
    return interp.createClass(name.as<StrObject>()->str(), std::move(baseTypes), std::move(attrs),
                              module, winner, &keywords);
}

Value typeInit(Interpreter& interp, const CallArgs& args, void*) {
    typeSelf(interp, args, "__init__");
    const size_t given = args.positional.size() - 1;
    if (given == 1 && !args.keywordNames.empty())
        interp.raiseTypeError("type.__init__() takes no keyword arguments");
    if (given != 1 && given != 3) interp.raiseTypeError("type.__init__() takes 1 or 3 arguments");
    return Value::none();
}

Value typeCall(Interpreter& interp, const CallArgs& args, void*) {
    TypeObject& type = typeSelf(interp, args, "__call__");
    std::vector<Value> storage;
    return interp.constructInstance(type, rest(args, storage));
}

Value typePrepare(Interpreter&, const CallArgs&, void*) {
    return Value(makeRef<DictObject>());
}

Value typeInstancecheck(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("type.__instancecheck__(self, instance, /)");
    BoundArgs a = sig.bind(interp, args);
    TypeObject& type = typeSelf(interp, args, "__instancecheck__");
    return Value::fromBool(interp.isInstance(a[1], &type));
}

Value typeSubclasscheck(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("type.__subclasscheck__(self, subclass, /)");
    BoundArgs a = sig.bind(interp, args);
    TypeObject& type = typeSelf(interp, args, "__subclasscheck__");
    if (!a[1].is(ObjectKind::Type)) interp.raiseTypeError("issubclass() arg 1 must be a class");
    return Value::fromBool(a[1].as<TypeObject>()->isSubtypeOf(&type));
}

Value typeSubclasses(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("type.__subclasses__(self, /)");
    sig.bind(interp, args);
    return listValue(interp.userSubclasses(typeSelf(interp, args, "__subclasses__")));
}

Value typeRepr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("type.__repr__(self, /)");
    sig.bind(interp, args);
    return strValue("<class '" + typeSelf(interp, args, "__repr__").qualifiedName() + "'>");
}

Value typeSetattr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("type.__setattr__(self, name, value, /)");
    BoundArgs a = sig.bind(interp, args);
    TypeObject& type = typeSelf(interp, args, "__setattr__");
    interp.setClassAttribute(type, Symbol::intern(a.toStr(1)), &a[2]);
    return Value::none();
}

Value typeDelattr(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("type.__delattr__(self, name, /)");
    BoundArgs a = sig.bind(interp, args);
    TypeObject& type = typeSelf(interp, args, "__delattr__");
    interp.setClassAttribute(type, Symbol::intern(a.toStr(1)), nullptr);
    return Value::none();
}

/// object.__init_subclass__ (reached by super().__init_subclass__(**kw)) takes no keywords.
Value objectInitSubclass(Interpreter& interp, const CallArgs& args, void*) {
    TypeObject& cls = typeSelf(interp, args, "__init_subclass__");
    if (!args.keywordNames.empty())
        interp.raiseTypeError((cls.qualname.empty() ? cls.name : cls.qualname) +
                              ".__init_subclass__() takes no keyword arguments");
    if (args.positional.size() > 1)
        interp.raiseTypeError(cls.name + ".__init_subclass__() takes no arguments (" +
                              std::to_string(args.positional.size() - 1) + " given)");
    return Value::none();
}

Value objectSubclasshook(Interpreter&, const CallArgs&, void*) {
    return notImplementedValue();
}

void defineStatic(Interpreter& interp, AttrMap& into, const char* name, NativeFn fn) {
    into.set(sym(name), Value(makeRef<StaticMethodObject>(interp.newNative(name, fn))));
}

void defineClassMethod(Interpreter& interp, AttrMap& into, const char* name, NativeFn fn) {
    into.set(sym(name), Value(makeRef<ClassMethodObject>(interp.newNative(name, fn))));
}

} // namespace

Value typeNewNative(Interpreter& interp, const CallArgs& args, void* data) {
    return typeNew(interp, args, data);
}

void installTypeMethods(Interpreter& interp) {
    AttrMap& td = builtinTypes().type->dict;
    defineStatic(interp, td, "__new__", typeNew);
    interp.defineNative(td, "__init__", typeInit);
    interp.defineNative(td, "__call__", typeCall);
    defineClassMethod(interp, td, "__prepare__", typePrepare);
    interp.defineNative(td, "__instancecheck__", typeInstancecheck);
    interp.defineNative(td, "__subclasscheck__", typeSubclasscheck);
    interp.defineNative(td, "__subclasses__", typeSubclasses);
    interp.defineNative(td, "__repr__", typeRepr);
    interp.defineNative(td, "__setattr__", typeSetattr);
    interp.defineNative(td, "__delattr__", typeDelattr);
    AttrMap& od = builtinTypes().object->dict;
    defineClassMethod(interp, od, "__init_subclass__", objectInitSubclass);
    defineClassMethod(interp, od, "__subclasshook__", objectSubclasshook);
}

} // namespace kiln::lang
