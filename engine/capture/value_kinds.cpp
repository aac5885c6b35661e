// SPDX-License-Identifier: MIT
#include "capture/value_kinds.h"

#include <set>

namespace kiln::capture {

using lang::ObjectKind;
using lang::Value;

const std::vector<Value>& sequenceItems(const Value& v) {
    static const std::vector<Value> none;
    if (v.is(ObjectKind::List)) return v.as<lang::ListObject>()->items;
    if (v.is(ObjectKind::Tuple)) return v.as<lang::TupleObject>()->items;
    return none;
}

namespace {

lang::TypeObject* nnModuleType(lang::Interpreter& interp) {
    Ref<lang::ModuleObject> nn = interp.importModule("torch.nn");
    const Value* type = nn->globals.find(lang::Symbol::intern("Module"));
    return type && type->is(ObjectKind::Type) ? type->as<lang::TypeObject>() : nullptr;
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

} // namespace

bool isModuleObject(lang::Interpreter& interp, const Value& v) {
    if (!v.is(ObjectKind::Instance)) return false;
    lang::TypeObject* module = nnModuleType(interp);
    return module && v.asObject()->type()->isSubtypeOf(module);
}

bool isEnumMember(const Value& v) {
    if (!v.is(ObjectKind::Instance) && !lang::isStrSubclassInstance(v)) return false;
    for (const lang::TypeObject* t : v.asObject()->type()->mro)
        if (t->isUserClass && t->name == "Enum" && t->moduleName == "enum") return true;
    return false;
}

bool hasForwardHooks(const Value& module) {
    if (!module.is(ObjectKind::Instance)) return false;
    const auto& attrs = module.as<lang::InstanceObject>()->attrs;
    for (const char* name : {"_forward_pre_hooks", "_forward_hooks"}) {
        const Value* hooks = attrs.find(lang::Symbol::intern(name));
        if (hooks && hooks->is(ObjectKind::Dict) && hooks->as<lang::DictObject>()->size() > 0)
            return true;
    }
    return false;
}

bool isLibraryModule(lang::Interpreter& interp, const Value& v) {
    return isModuleObject(interp, v) && startsWith(v.asObject()->type()->moduleName, "torch.");
}

bool isLibraryFunction(const lang::FunctionObject& fn) {
    return fn.globals && startsWith(fn.globals->name, "torch") &&
           (fn.globals->name == "torch" || startsWith(fn.globals->name, "torch.") ||
            startsWith(fn.globals->name, "torch_"));
}

bool isSkippedStdlibFunction(const lang::FunctionObject& fn) {
    static const std::set<std::string> skipped = {
        "abc",     "collections", "contextlib", "copy",   "dataclasses", "enum",  "functools",
        "inspect", "os",          "posixpath",  "random", "re",          "types", "typing"};
    return fn.globals && skipped.contains(fn.globals->name);
}

bool isLayerForward(const lang::FunctionObject& fn) {
    return fn.globals && startsWith(fn.globals->name, "torch.nn.modules.") && fn.code &&
           fn.code->name.str() == "forward";
}

ValueKind valueKind(lang::Interpreter& interp, const Value& v) {
    switch (v.tag()) {
    case Value::Tag::Empty:
        return ValueKind::Unguarded;
    case Value::Tag::None:
    case Value::Tag::Bool:
        return ValueKind::Identity;
    case Value::Tag::Int:
    case Value::Tag::Float:
        return ValueKind::Constant;
    case Value::Tag::Tensor:
        return ValueKind::Tensor;
    case Value::Tag::Object:
        break;
    }
    if (isEnumMember(v)) return ValueKind::Identity;
    switch (v.asObject()->kind()) {
    case ObjectKind::Str:
        return ValueKind::Constant;
    case ObjectKind::List:
    case ObjectKind::Tuple:
        return ValueKind::Sequence;
    case ObjectKind::Function:
    case ObjectKind::NativeFunction:
    case ObjectKind::Type:
    case ObjectKind::Module:
        return ValueKind::Identity;
    case ObjectKind::Instance:
        return isModuleObject(interp, v) ? ValueKind::Module : ValueKind::Object;
    case ObjectKind::Native:
        return ValueKind::Identity; // torch.dtype, torch.device: one object per value
    default:
        return ValueKind::Unguarded;
    }
}

} // namespace kiln::capture
