// SPDX-License-Identifier: MIT
/// \file
/// The built-in Python types (object, int, str, list, the exception hierarchy, ...). They are
/// created once per process; the interpreter and the torch bindings fill in their methods.
#pragma once

#include "lang/objects.h"

namespace kiln::lang {

struct BuiltinTypes {
    Ref<TypeObject> object, type, noneType, boolType, intType, floatType, str, list, tuple, dict,
        function, builtinFunction, method, cell, module, range, slice, iterator, property,
        staticmethod, classmethod, super, ellipsisType, notImplementedType, dictKeys, dictValues,
        dictItems, generator;
    // Exceptions, in CPython's hierarchy.
    Ref<TypeObject> baseException, exception, arithmeticError, zeroDivisionError, overflowError,
        assertionError, attributeError, lookupError, indexError, keyError, nameError,
        unboundLocalError, runtimeError, notImplementedError, recursionError, stopIteration,
        typeError, valueError, importError, moduleNotFoundError, syntaxError, memoryError,
        keyboardInterrupt, systemExit, generatorExit, timeoutError, osError, userWarning,
        unicodeError, unicodeEncodeError;
    /// Warning and its subclasses other than UserWarning (the warnings module's categories).
    Ref<TypeObject> warning;
    std::vector<Ref<TypeObject>> warningCategories;
    /// torch.OutOfMemoryError (also torch.cuda.OutOfMemoryError), a RuntimeError; created here
    /// so the interpreter can raise it for a TensorError of that kind.
    Ref<TypeObject> outOfMemoryError;
    /// torch.Tensor and torch.nn.Parameter; created here so the interpreter can type tensors,
    /// filled with methods by the torch bindings.
    Ref<TypeObject> tensor, parameter;

    /// All exception types by name, for the builtins module.
    std::vector<TypeObject*> exceptionTypes() const;
};

const BuiltinTypes& builtinTypes();

/// The singletons Ellipsis and NotImplemented.
Value ellipsisValue();
Value notImplementedValue();

} // namespace kiln::lang
