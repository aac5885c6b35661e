// SPDX-License-Identifier: MIT
#include "lang/types.h"

namespace kiln::lang {

namespace {

Ref<TypeObject> makeType(const char* name, std::vector<Ref<TypeObject>> bases,
                         ObjectKind instanceKind) {
    auto t = makeRef<TypeObject>(name, std::move(bases), instanceKind);
    t->computeMro();
    return t;
}

BuiltinTypes createTypes() {
    BuiltinTypes t;
    t.object = makeType("object", {}, ObjectKind::Instance);
    t.type = makeType("type", {t.object}, ObjectKind::Type);
    // Types were created before `type` existed; give every type object its metatype now.
    t.object->setType(t.type.get());
    t.type->setType(t.type.get());
    auto simple = [&](const char* name, ObjectKind kind) {
        auto ty = makeType(name, {t.object}, kind);
        ty->setType(t.type.get());
        return ty;
    };
    t.noneType = simple("NoneType", ObjectKind::Native);
    t.intType = simple("int", ObjectKind::Native);
    t.boolType = makeType("bool", {t.intType}, ObjectKind::Native);
    t.boolType->setType(t.type.get());
    t.floatType = simple("float", ObjectKind::Native);
    t.str = simple("str", ObjectKind::Str);
    t.list = simple("list", ObjectKind::List);
    t.tuple = simple("tuple", ObjectKind::Tuple);
    t.dict = simple("dict", ObjectKind::Dict);
    t.function = simple("function", ObjectKind::Function);
    t.builtinFunction = simple("builtin_function_or_method", ObjectKind::NativeFunction);
    t.method = simple("method", ObjectKind::BoundMethod);
    t.cell = simple("cell", ObjectKind::Cell);
    t.module = simple("module", ObjectKind::Module);
    t.range = simple("range", ObjectKind::Range);
    t.slice = simple("slice", ObjectKind::Slice);
    t.iterator = simple("iterator", ObjectKind::Iterator);
    t.generator = simple("generator", ObjectKind::Iterator);
    t.property = simple("property", ObjectKind::Property);
    t.staticmethod = simple("staticmethod", ObjectKind::StaticMethod);
    t.classmethod = simple("classmethod", ObjectKind::ClassMethod);
    t.super = simple("super", ObjectKind::Super);
    t.ellipsisType = simple("ellipsis", ObjectKind::Native);
    t.notImplementedType = simple("NotImplementedType", ObjectKind::Native);
    t.dictKeys = simple("dict_keys", ObjectKind::DictView);
    t.dictValues = simple("dict_values", ObjectKind::DictView);
    t.dictItems = simple("dict_items", ObjectKind::DictView);

    auto exc = [&](const char* name, const Ref<TypeObject>& base) {
        auto ty = makeType(name, {base}, ObjectKind::Instance);
        ty->setType(t.type.get());
        return ty;
    };
    t.baseException = exc("BaseException", t.object);
    t.exception = exc("Exception", t.baseException);
    t.arithmeticError = exc("ArithmeticError", t.exception);
    t.zeroDivisionError = exc("ZeroDivisionError", t.arithmeticError);
    t.overflowError = exc("OverflowError", t.arithmeticError);
    t.assertionError = exc("AssertionError", t.exception);
    t.attributeError = exc("AttributeError", t.exception);
    t.lookupError = exc("LookupError", t.exception);
    t.indexError = exc("IndexError", t.lookupError);
    t.keyError = exc("KeyError", t.lookupError);
    t.nameError = exc("NameError", t.exception);
    t.unboundLocalError = exc("UnboundLocalError", t.nameError);
    t.runtimeError = exc("RuntimeError", t.exception);
    t.notImplementedError = exc("NotImplementedError", t.runtimeError);
    t.recursionError = exc("RecursionError", t.runtimeError);
    t.stopIteration = exc("StopIteration", t.exception);
    t.typeError = exc("TypeError", t.exception);
    t.valueError = exc("ValueError", t.exception);
    t.unicodeError = exc("UnicodeError", t.valueError);
    t.unicodeEncodeError = exc("UnicodeEncodeError", t.unicodeError);
    t.importError = exc("ImportError", t.exception);
    t.moduleNotFoundError = exc("ModuleNotFoundError", t.importError);
    t.syntaxError = exc("SyntaxError", t.exception);
    t.memoryError = exc("MemoryError", t.exception);
    t.keyboardInterrupt = exc("KeyboardInterrupt", t.baseException);
    t.systemExit = exc("SystemExit", t.baseException);
    t.generatorExit = exc("GeneratorExit", t.baseException);
    t.osError = exc("OSError", t.exception);
    t.timeoutError = exc("TimeoutError", t.osError);
    t.warning = exc("Warning", t.exception);
    t.userWarning = exc("UserWarning", t.warning);
    for (const char* name : {"DeprecationWarning", "PendingDeprecationWarning", "SyntaxWarning",
                             "RuntimeWarning", "FutureWarning", "ImportWarning", "UnicodeWarning",
                             "BytesWarning", "ResourceWarning", "EncodingWarning"})
        t.warningCategories.push_back(exc(name, t.warning));
    t.outOfMemoryError = exc("OutOfMemoryError", t.runtimeError);
    t.outOfMemoryError->moduleName = "torch";

    t.tensor = simple("Tensor", ObjectKind::Native);
    t.tensor->moduleName = "torch";
    t.parameter = makeType("Parameter", {t.tensor}, ObjectKind::Native);
    t.parameter->setType(t.type.get());
    t.parameter->moduleName = "torch.nn.parameter";
    return t;
}

} // namespace

std::vector<TypeObject*> BuiltinTypes::exceptionTypes() const {
    std::vector<TypeObject*> all = {baseException.get(),
                                    exception.get(),
                                    arithmeticError.get(),
                                    zeroDivisionError.get(),
                                    overflowError.get(),
                                    assertionError.get(),
                                    attributeError.get(),
                                    lookupError.get(),
                                    indexError.get(),
                                    keyError.get(),
                                    nameError.get(),
                                    unboundLocalError.get(),
                                    runtimeError.get(),
                                    notImplementedError.get(),
                                    recursionError.get(),
                                    stopIteration.get(),
                                    typeError.get(),
                                    valueError.get(),
                                    importError.get(),
                                    moduleNotFoundError.get(),
                                    syntaxError.get(),
                                    memoryError.get(),
                                    keyboardInterrupt.get(),
                                    systemExit.get(),
                                    generatorExit.get(),
                                    osError.get(),
                                    timeoutError.get(),
                                    userWarning.get(),
                                    unicodeError.get(),
                                    unicodeEncodeError.get(),
                                    warning.get()};
    for (const auto& w : warningCategories)
        all.push_back(w.get());
    return all;
}

const BuiltinTypes& builtinTypes() {
    static const BuiltinTypes types = createTypes();
    return types;
}

Value ellipsisValue() {
    static Ref<NativeObject> ellipsis = makeRef<NativeObject>(builtinTypes().ellipsisType.get());
    return Value(ellipsis);
}

Value notImplementedValue() {
    static Ref<NativeObject> ni = makeRef<NativeObject>(builtinTypes().notImplementedType.get());
    return Value(ni);
}

} // namespace kiln::lang
