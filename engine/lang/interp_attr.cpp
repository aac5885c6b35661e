// SPDX-License-Identifier: MIT
// Attribute access with Python's lookup order: data descriptors (properties), then the instance
// namespace, then class attributes bound as methods, then __getattr__.
#include "lang/interpreter.h"

#include <algorithm>

namespace kiln::lang {

namespace {

struct Names {
    Symbol cls = Symbol::intern("__class__");
    Symbol name = Symbol::intern("__name__");
    Symbol qualname = Symbol::intern("__qualname__");
    Symbol module = Symbol::intern("__module__");
    Symbol mro = Symbol::intern("__mro__");
    Symbol bases = Symbol::intern("__bases__");
    Symbol dict = Symbol::intern("__dict__");
    Symbol getattr = Symbol::intern("__getattr__");
    Symbol setattr = Symbol::intern("__setattr__");
    Symbol delattr = Symbol::intern("__delattr__");
    Symbol self = Symbol::intern("__self__");
    Symbol func = Symbol::intern("__func__");
    Symbol traceback = Symbol::intern("__traceback__");
    Symbol cause = Symbol::intern("__cause__");
    Symbol context = Symbol::intern("__context__");
    Symbol suppressContext = Symbol::intern("__suppress_context__");
    Symbol doc = Symbol::intern("__doc__");
    Symbol defaults = Symbol::intern("__defaults__");
    Symbol kwdefaults = Symbol::intern("__kwdefaults__");
    Symbol annotations = Symbol::intern("__annotations__");
};

const Names& names() {
    static const Names n;
    return n;
}

// `__dict__` of instances, classes and modules: a dict snapshot of the namespace, without the
// values an instance holds in __slots__ (they live beside its __dict__, not in it).
Value namespaceDict(Interpreter& interp, const AttrMap& attrs,
                    const std::vector<Symbol>& slots = {}) {
    auto dict = makeRef<DictObject>();
    for (const auto& e : attrs.entries())
        if (std::find(slots.begin(), slots.end(), e.key) == slots.end())
            dict->set(interp, strValue(e.key.str()), e.value);
    return Value(dict);
}

bool isUserOverride(const Value* v) {
    return v && v->is(ObjectKind::Function);
}

Value typeSpecialAttr(Interpreter& interp, TypeObject* type, Symbol name) {
    const Names& n = names();
    if (name == n.name) return strValue(type->name);
    if (name == n.qualname) return strValue(type->qualname.empty() ? type->name : type->qualname);
    if (name == n.module) return strValue(type->moduleName);
    if (name == n.mro || name == n.bases) {
        std::vector<Value> items;
        if (name == n.mro)
            for (TypeObject* t : type->mro)
                items.emplace_back(t);
        else
            for (const auto& b : type->bases)
                items.emplace_back(b);
        return tupleValue(std::move(items));
    }
    if (name == n.doc) return Value::none();
    return Value();
}

Value functionSpecialAttr(Interpreter& interp, FunctionObject& fn, Symbol name) {
    const Names& n = names();
    if (const Value* v = fn.attrs.find(name)) return *v;
    if (name == n.name) return strValue(fn.code->name.str());
    if (name == n.qualname) return strValue(fn.code->qualifiedName);
    if (name == n.module) return strValue(fn.globals->name);
    if (name == n.doc) {
        const std::string* doc = fn.code->isLambda ? nullptr : docstring(fn.code->body);
        return doc ? strValue(*doc) : Value::none();
    }
    if (name == n.annotations) { // created on first access and kept, as CPython does
        Value empty(makeRef<DictObject>());
        fn.attrs.set(name, empty);
        return empty;
    }
    if (name == n.defaults || name == n.kwdefaults) {
        std::vector<Value> positional;
        auto keywordOnly = makeRef<DictObject>();
        for (size_t i = 0; i < fn.code->params.size(); ++i) {
            if (fn.defaults[i].isEmpty()) continue;
            if (fn.code->params[i].kind == Parameter::Kind::KeywordOnly)
                keywordOnly->set(interp, strValue(fn.code->params[i].name.str()), fn.defaults[i]);
            else
                positional.push_back(fn.defaults[i]);
        }
        if (name == n.defaults)
            return positional.empty() ? Value::none() : tupleValue(std::move(positional));
        return keywordOnly->size() ? Value(keywordOnly) : Value::none();
    }
    return Value();
}

} // namespace

Value Interpreter::bindDescriptor(const Value& attr, const Value& instance, TypeObject* owner) {
    if (!attr.isObject()) return attr;
    switch (attr.asObject()->kind()) {
    case ObjectKind::Function:
        return Value(makeRef<BoundMethodObject>(instance, attr));
    case ObjectKind::NativeFunction: {
        auto* native = attr.as<NativeFunctionObject>();
        auto bound = makeRef<NativeFunctionObject>(native->name, native->fn, native->data);
        bound->bound = instance;
        bound->trace = native->trace; // a bound method is traced as the method is
        return Value(bound);
    }
    case ObjectKind::StaticMethod:
        return attr.as<StaticMethodObject>()->function;
    case ObjectKind::ClassMethod:
        return Value(
            makeRef<BoundMethodObject>(Value(owner), attr.as<ClassMethodObject>()->function));
    case ObjectKind::Property: {
        auto* p = attr.as<PropertyObject>();
        if (p->getter.isEmpty() || p->getter.isNone())
            raise(builtinTypes().attributeError.get(), "unreadable attribute");
        return call(p->getter, {instance});
    }
    default:
        return attr;
    }
}

namespace {

/// property.fget and friends, and `__isabstractmethod__` of the descriptors wrapping an
/// abstract method (abc finds abstract properties, static and class methods by it).
Value descriptorAttr(Interpreter& interp, const Object* obj, Symbol name) {
    static const Symbol abstract = Symbol::intern("__isabstractmethod__");
    static const Symbol func = Symbol::intern("__func__");
    std::vector<Value> wrapped;
    if (obj->kind() == ObjectKind::Property) {
        auto* p = static_cast<const PropertyObject*>(obj);
        const Value* fields[] = {&p->getter, &p->setter, &p->deleter};
        const char* fieldNames[] = {"fget", "fset", "fdel"};
        for (int i = 0; i < 3; ++i) {
            if (name.str() == fieldNames[i])
                return fields[i]->isEmpty() ? Value::none() : *fields[i];
            wrapped.push_back(*fields[i]);
        }
    } else {
        const Value& fn = obj->kind() == ObjectKind::StaticMethod
                              ? static_cast<const StaticMethodObject*>(obj)->function
                              : static_cast<const ClassMethodObject*>(obj)->function;
        if (name == func) return fn;
        wrapped.push_back(fn);
    }
    if (name != abstract) return Value();
    for (const Value& fn : wrapped)
        if (!fn.isEmpty() && !fn.isNone() && interp.truthy(interp.tryGetAttr(fn, abstract)))
            return Value::fromBool(true);
    return Value::fromBool(false);
}

} // namespace

/// An attribute of a class, in CPython's type_getattro order: a data descriptor (property) of
/// the metaclass, the class's MRO, the metaclass's other attributes, its __getattr__.
Value Interpreter::classAttribute(const Value& object, Symbol name, bool bindMethods) {
    const Names& n = names();
    auto* type = object.as<TypeObject>();
    static const Symbol abstract = Symbol::intern("__abstractmethods__");
    if (name == abstract) { // type's getter reads the class's own dict only
        if (const Value* v = type->dict.find(name)) return *v;
        raiseAttributeError(object, name, "__abstractmethods__");
    }
    TypeObject* meta = type->metaclass.get();
    const Value* metaAttr = meta ? meta->lookup(name) : nullptr;
    if (metaAttr && metaAttr->is(ObjectKind::Property))
        return bindDescriptor(*metaAttr, object, meta);
    if (const Value* v = type->lookup(name)) {
        if (v->is(ObjectKind::StaticMethod) || v->is(ObjectKind::ClassMethod))
            return bindDescriptor(*v, Value::none(), type);
        return *v;
    }
    if (name == n.dict) return namespaceDict(*this, type->dict);
    Value special = typeSpecialAttr(*this, type, name);
    if (!special.isEmpty()) return special;
    // Methods of the metaclass (M.method as C.method) or of type itself (type.mro).
    TypeObject* metatype = typeOf(object);
    if (!metaAttr) metaAttr = metatype->lookup(name);
    if (metaAttr) return bindMethods ? bindDescriptor(*metaAttr, object, metatype) : *metaAttr;
    if (meta)
        if (const Value* ga = meta->lookupBefore(n.getattr, builtinTypes().type.get()))
            return call(*ga, {object, strValue(name.str())});
    return Value();
}

Value Interpreter::getAttrOrEmpty(const Value& object, Symbol name, bool bindMethods) {
    const Names& n = names();
    if (name == n.cls) return Value(typeOf(object));
    if (object.isObject()) {
        Object* obj = object.asObject();
        switch (obj->kind()) {
        case ObjectKind::Instance:
        case ObjectKind::Str: {
            const AttrMap* attrs = instanceNamespace(object);
            if (!attrs) break; // a plain str
            TypeObject* type = obj->type();
            const Value* desc = type->lookup(name);
            if (desc && desc->is(ObjectKind::Property)) return bindDescriptor(*desc, object, type);
            if (const Value* v = attrs->find(name)) return *v;
            if (desc) return bindMethods ? bindDescriptor(*desc, object, type) : *desc;
            auto* inst =
                obj->kind() == ObjectKind::Instance ? static_cast<InstanceObject*>(obj) : nullptr;
            if (inst &&
                (inst->exception || type->isSubtypeOf(builtinTypes().baseException.get()))) {
                ExceptionState& st = inst->exceptionState();
                if (name == n.cause) return st.cause.isEmpty() ? Value::none() : st.cause;
                if (name == n.context) return st.context.isEmpty() ? Value::none() : st.context;
                if (name == n.suppressContext) return Value::fromBool(st.suppressContext);
                if (name == n.traceback) return Value::none();
            }
            if (name == n.dict && type->instancesHaveDict)
                return namespaceDict(*this, *attrs, type->slots);
            if (const Value* ga = type->lookup(n.getattr))
                return call(*ga, {object, strValue(name.str())});
            return Value();
        }
        case ObjectKind::Type:
            return classAttribute(object, name, bindMethods);
        case ObjectKind::Module: {
            auto* module = static_cast<ModuleObject*>(obj);
            if (const Value* v = module->globals.find(name)) return *v;
            if (name == n.dict) return namespaceDict(*this, module->globals);
            return Value();
        }
        case ObjectKind::Super: {
            auto* sup = static_cast<SuperObject*>(obj);
            // CPython's supercheck: a class below the start (super() in a class method)
            // walks its own MRO; anything else, a class in a metaclass's method included,
            // walks its type's.
            TypeObject* type = typeOf(sup->self);
            if (sup->self.is(ObjectKind::Type) &&
                sup->self.as<TypeObject>()->isSubtypeOf(sup->startAfter.get()))
                type = sup->self.as<TypeObject>();
            const auto& mro = type->mro;
            auto it = std::find(mro.begin(), mro.end(), sup->startAfter.get());
            KILN_ASSERT(it != mro.end(), "super() object whose type is not in the MRO");
            for (++it; it < mro.end(); ++it)
                if (const Value* v = (*it)->dict.find(name))
                    return bindDescriptor(*v, sup->self, type);
            return Value();
        }
        case ObjectKind::Function:
            return functionSpecialAttr(*this, *static_cast<FunctionObject*>(obj), name);
        case ObjectKind::BoundMethod: {
            auto* bm = static_cast<BoundMethodObject*>(obj);
            if (name == n.self) return bm->self;
            if (name == n.func) return bm->function;
            return getAttrOrEmpty(bm->function, name, bindMethods);
        }
        case ObjectKind::NativeFunction: {
            auto* fn = static_cast<NativeFunctionObject*>(obj);
            if (name == n.name) return strValue(fn->name);
            if (name == n.qualname) return strValue(fn->qualname.empty() ? fn->name : fn->qualname);
            if (name == n.module) return fn->module.empty() ? Value::none() : strValue(fn->module);
            break;
        }
        case ObjectKind::Property:
        case ObjectKind::StaticMethod:
        case ObjectKind::ClassMethod: {
            Value v = descriptorAttr(*this, obj, name);
            if (!v.isEmpty()) return v;
            break;
        }
        default:
            break;
        }
    }
    TypeObject* type = typeOf(object);
    if (const Value* desc = type->lookup(name))
        return bindMethods || desc->is(ObjectKind::Property) ? bindDescriptor(*desc, object, type)
                                                             : *desc;
    return Value();
}

Value Interpreter::lookupMethod(const Value& object, Symbol name, bool& isUnbound) {
    isUnbound = false;
    const AttrMap* attrs = instanceNamespace(object);
    if (attrs && attrs->contains(name)) return getAttr(object, name);
    bool plainInstance = object.is(ObjectKind::Instance);
    if (plainInstance || object.isTensor() || object.is(ObjectKind::Str) ||
        object.is(ObjectKind::List) || object.is(ObjectKind::Dict) ||
        object.is(ObjectKind::Tuple)) {
        TypeObject* type = typeOf(object);
        const Value* desc = type->lookup(name);
        if (desc && (desc->is(ObjectKind::Function) || desc->is(ObjectKind::NativeFunction))) {
            isUnbound = true;
            return *desc;
        }
    }
    return getAttr(object, name);
}

Value Interpreter::getAttr(const Value& object, Symbol name) {
    Value v = getAttrOrEmpty(object, name, true);
    if (!v.isEmpty()) return v;
    const std::string attr = name.str();
    if (object.is(ObjectKind::Module))
        raiseAttributeError(object, name,
                            "module '" + object.as<ModuleObject>()->name + "' has no attribute '" +
                                attr + "'");
    if (object.is(ObjectKind::Type))
        raiseAttributeError(object, name,
                            "type object '" + object.as<TypeObject>()->name +
                                "' has no attribute '" + attr + "'");
    raiseAttributeError(object, name,
                        "'" + typeName(object) + "' object has no attribute '" + attr + "'");
}

void Interpreter::raiseAttributeError(const Value& object, Symbol name,
                                      const std::string& message) {
    Value exc = makeException(builtinTypes().attributeError.get(), message);
    AttrMap& attrs = exc.as<InstanceObject>()->attrs;
    attrs.set(Symbol::intern("name"), strValue(name.str()));
    attrs.set(Symbol::intern("obj"), object);
    raise(exc);
}

namespace {

/// CPython's built-in types are static types: their attributes cannot be set or deleted (so a
/// script cannot replace list.append or object.__repr__ under every other script object).
bool isImmutableType(const TypeObject& type) {
    return !type.isUserClass && type.moduleName == "builtins";
}

[[noreturn]] void raiseImmutableType(Interpreter& interp, const TypeObject& type, Symbol name) {
    // CPython says "set" for deletion too.
    interp.raiseTypeError("cannot set '" + name.str() + "' attribute of immutable type '" +
                          type.qualifiedName() + "'");
}

} // namespace

Value Interpreter::tryGetAttr(const Value& object, Symbol name) {
    try {
        return getAttrOrEmpty(object, name, true);
    } catch (PyException& e) {
        if (isInstance(e.exception, builtinTypes().attributeError.get())) return Value();
        throw;
    }
}

void Interpreter::setAttr(const Value& object, Symbol name, Value value) {
    if (m_recorder) [[unlikely]]
        value = m_recorder->mutation(object, "attribute assignment", strValue(name.str()), value);
    const Names& n = names();
    if (AttrMap* attrs = instanceNamespace(object)) {
        TypeObject* type = object.asObject()->type();
        const Value* custom = type->lookup(n.setattr);
        if (isUserOverride(custom)) {
            call(*custom, {object, strValue(name.str()), value});
            return;
        }
        const Value* desc = type->lookup(name);
        if (desc && desc->is(ObjectKind::Property)) {
            auto* p = desc->as<PropertyObject>();
            if (p->setter.isEmpty() || p->setter.isNone())
                raise(builtinTypes().attributeError.get(),
                      "property '" + name.str() + "' of '" + type->name + "' object has no setter");
            call(p->setter, {object, value});
            return;
        }
        if (!type->acceptsInstanceAttribute(name)) // __slots__ leave it out
            raiseAttributeError(
                object, name, "'" + type->name + "' object has no attribute '" + name.str() + "'");
        attrs->set(name, std::move(value));
        return;
    }
    if (object.is(ObjectKind::Type)) {
        TypeObject* type = object.as<TypeObject>();
        if (TypeObject* meta = type->metaclass.get()) {
            // The metaclass's property setter or __setattr__ decides (EnumType's refuses
            // to rebind a member).
            const Value* desc = meta->lookup(name);
            if (desc && desc->is(ObjectKind::Property)) {
                auto* p = desc->as<PropertyObject>();
                if (p->setter.isEmpty() || p->setter.isNone())
                    raise(builtinTypes().attributeError.get(), "property '" + name.str() +
                                                                   "' of '" + meta->name +
                                                                   "' object has no setter");
                call(p->setter, {object, value});
                return;
            }
            const Value* custom = meta->lookupBefore(n.setattr, builtinTypes().type.get());
            if (isUserOverride(custom)) {
                call(*custom, {object, strValue(name.str()), value});
                return;
            }
        }
        setClassAttribute(*type, name, &value);
        return;
    }
    if (object.is(ObjectKind::Module)) {
        object.as<ModuleObject>()->globals.set(name, std::move(value));
        return;
    }
    if (object.is(ObjectKind::Function)) {
        object.as<FunctionObject>()->attrs.set(name, std::move(value));
        return;
    }
    const Value* desc = typeOf(object)->lookup(name);
    if (desc && desc->is(ObjectKind::Property) && !desc->as<PropertyObject>()->setter.isEmpty()) {
        call(desc->as<PropertyObject>()->setter, {object, value});
        return;
    }
    if (desc)
        raise(builtinTypes().attributeError.get(), "attribute '" + name.str() + "' of '" +
                                                       typeName(object) +
                                                       "' objects is not writable");
    raise(builtinTypes().attributeError.get(),
          "'" + typeName(object) + "' object has no attribute '" + name.str() + "'");
}

void Interpreter::delAttr(const Value& object, Symbol name) {
    if (m_recorder) [[unlikely]]
        m_recorder->mutation(object, "attribute deletion", strValue(name.str()), Value());
    if (AttrMap* attrs = instanceNamespace(object)) {
        TypeObject* type = object.asObject()->type();
        const Value* custom = type->lookup(names().delattr);
        if (isUserOverride(custom)) {
            call(*custom, {object, strValue(name.str())});
            return;
        }
        const Value* desc = type->lookup(name);
        if (desc && desc->is(ObjectKind::Property)) {
            const Value& deleter = desc->as<PropertyObject>()->deleter;
            if (deleter.isEmpty() || deleter.isNone())
                raise(builtinTypes().attributeError.get(), "property '" + name.str() + "' of '" +
                                                               type->name +
                                                               "' object has no deleter");
            call(deleter, {object});
            return;
        }
        if (attrs->erase(name)) return;
    } else if (object.is(ObjectKind::Module)) {
        if (object.as<ModuleObject>()->globals.erase(name)) return;
    } else if (object.is(ObjectKind::Type)) {
        TypeObject* type = object.as<TypeObject>();
        const Value* custom =
            type->metaclass
                ? type->metaclass->lookupBefore(names().delattr, builtinTypes().type.get())
                : nullptr;
        if (isUserOverride(custom)) {
            call(*custom, {object, strValue(name.str())});
            return;
        }
        setClassAttribute(*type, name, nullptr);
        return;
    }
    raise(builtinTypes().attributeError.get(),
          "'" + typeName(object) + "' object has no attribute '" + name.str() + "'");
}

void Interpreter::setClassAttribute(TypeObject& cls, Symbol name, const Value* value) {
    if (isImmutableType(cls)) raiseImmutableType(*this, cls, name);
    static const Symbol abstract = Symbol::intern("__abstractmethods__");
    if (value) {
        // CPython's type_set_abstractmethods: the class is abstract while the set is non-empty.
        if (name == abstract) cls.isAbstract = truthy(*value);
        cls.dict.set(name, *value);
        return;
    }
    if (!cls.dict.erase(name))
        raiseAttributeError(Value(&cls), name,
                            "type object '" + cls.name + "' has no attribute '" + name.str() + "'");
    if (name == abstract) cls.isAbstract = false;
}

} // namespace kiln::lang
