// SPDX-License-Identifier: MIT
// operator.attrgetter, itemgetter and methodcaller: types whose instances are callables
// (CPython 3.11's reprs and argument errors).
#include "graph/fx_objects.h"

namespace kiln::graph::detail {

using namespace kiln::lang;

namespace {

enum class GetterKind : uint8_t { Attr, Item, Method };

class GetterObject final : public NativeObject {
public:
    GetterObject(TypeObject* type, GetterKind kind, std::vector<Value> items)
        : NativeObject(type)
        , kind(kind)
        , items(std::move(items)) {}

    GetterKind kind;
    std::vector<Value> items; ///< attribute names, keys, or the method name then its arguments
    std::vector<Symbol> keywordNames; ///< methodcaller's keyword arguments
    std::vector<Value> keywordValues;
};

const char* kindName(GetterKind kind) {
    return kind == GetterKind::Attr   ? "attrgetter"
           : kind == GetterKind::Item ? "itemgetter"
                                      : "methodcaller";
}

TypeObject* getterType(GetterKind kind);

GetterObject& self(Interpreter& interp, const CallArgs& args) {
    const Value* v = args.positional.empty() ? nullptr : &args.positional[0];
    if (!v || !v->is(ObjectKind::Native))
        interp.raiseTypeError("descriptor requires an operator getter");
    auto* getter = dynamic_cast<GetterObject*>(v->asObject());
    if (!getter) interp.raiseTypeError("descriptor requires an operator getter");
    return *getter;
}

/// getattr(obj, "a.b.c") one component at a time, as attrgetter resolves dotted names.
Value dottedAttr(Interpreter& interp, Value obj, const std::string& path) {
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        obj = interp.getAttr(obj, Symbol::intern(path.substr(start, dot - start)));
        if (dot == std::string::npos) return obj;
        start = dot + 1;
    }
}

Value applyOne(Interpreter& interp, const GetterObject& g, const Value& obj, const Value& item) {
    if (g.kind == GetterKind::Attr) return dottedAttr(interp, obj, item.as<StrObject>()->str());
    return interp.getItem(obj, item);
}

Value getterCall(Interpreter& interp, const CallArgs& args, void*) {
    GetterObject& g = self(interp, args);
    std::string name = kindName(g.kind);
    if (!args.keywordNames.empty()) interp.raiseTypeError(name + "() takes no keyword arguments");
    size_t given = args.positional.size() - 1;
    if (given != 1)
        interp.raiseTypeError(name + " expected 1 argument, got " + std::to_string(given));
    const Value& obj = args.positional[1];
    if (g.kind == GetterKind::Method) {
        Value method = interp.getAttr(obj, Symbol::intern(g.items[0].as<StrObject>()->str()));
        std::span<const Value> rest(g.items);
        return interp.call(method, CallArgs{rest.subspan(1), g.keywordNames, g.keywordValues});
    }
    if (g.items.size() == 1) return applyOne(interp, g, obj, g.items[0]);
    std::vector<Value> out;
    for (const Value& item : g.items)
        out.push_back(applyOne(interp, g, obj, item));
    return tupleValue(std::move(out));
}

Value getterRepr(Interpreter& interp, const CallArgs& args, void*) {
    GetterObject& g = self(interp, args);
    std::string out = std::string("operator.") + kindName(g.kind) + "(";
    for (size_t i = 0; i < g.items.size(); ++i)
        out += (i ? ", " : "") + interp.repr(g.items[i]);
    for (size_t i = 0; i < g.keywordNames.size(); ++i)
        out += ", " + g.keywordNames[i].str() + "=" + interp.repr(g.keywordValues[i]);
    return strValue(out + ")");
}

template <GetterKind Kind>
Value construct(Interpreter& interp, const CallArgs& args, void*) {
    std::string name = kindName(Kind);
    if (Kind != GetterKind::Method && !args.keywordNames.empty())
        interp.raiseTypeError(name + "() takes no keyword arguments");
    if (args.positional.empty())
        interp.raiseTypeError(Kind == GetterKind::Method
                                  ? "methodcaller needs at least one argument, the method name"
                                  : name + " expected 1 argument, got 0");
    std::vector<Value> items(args.positional.begin(), args.positional.end());
    for (size_t i = 0; i < items.size(); ++i) {
        if (Kind == GetterKind::Attr && !items[i].is(ObjectKind::Str))
            interp.raiseTypeError("attribute name must be a string");
        if (Kind == GetterKind::Method && i == 0 && !items[i].is(ObjectKind::Str))
            interp.raiseTypeError("method name must be a string");
    }
    auto g = makeRef<GetterObject>(getterType(Kind), Kind, std::move(items));
    g->keywordNames.assign(args.keywordNames.begin(), args.keywordNames.end());
    g->keywordValues.assign(args.keywordValues.begin(), args.keywordValues.end());
    return Value(g);
}

Ref<TypeObject> createGetterType(GetterKind kind, NativeFn constructor) {
    Ref<TypeObject> t = fx::makeType(kindName(kind), "operator");
    t->constructor = Value(makeRef<NativeFunctionObject>(kindName(kind), constructor));
    fx::addMethod(*t, "__call__", getterCall);
    fx::addMethod(*t, "__repr__", getterRepr);
    return t;
}

TypeObject* getterType(GetterKind kind) {
    static const Ref<TypeObject> types[] = {
        createGetterType(GetterKind::Attr, construct<GetterKind::Attr>),
        createGetterType(GetterKind::Item, construct<GetterKind::Item>),
        createGetterType(GetterKind::Method, construct<GetterKind::Method>)};
    return types[static_cast<size_t>(kind)].get();
}

} // namespace

void installOperatorGetters(Interpreter& interp, ModuleObject& module) {
    for (GetterKind kind : {GetterKind::Attr, GetterKind::Item, GetterKind::Method})
        module.globals.set(Symbol::intern(kindName(kind)), Value(getterType(kind)));
}

} // namespace kiln::graph::detail
