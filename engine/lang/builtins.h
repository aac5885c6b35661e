// SPDX-License-Identifier: MIT
/// \file
/// The builtins module (print, len, range, sorted, the type constructors, exceptions, ...) and
/// the methods of the built-in types (str, list, tuple, dict, int, float).
#pragma once

#include "lang/interpreter.h"

namespace kiln::lang {

void installBuiltins(Interpreter& interp, ModuleObject& builtins);

/// format(value, spec): the format-spec mini-language for numbers and strings, __format__ for
/// other objects (a 0-dim tensor formats as its Python number).
std::string formatValue(Interpreter& interp, const Value& value, const std::string& spec);
/// str % args
Value percentFormatValue(Interpreter& interp, const std::string& format, const Value& args);
/// int(d) for a float: OverflowError for infinities and for values outside Kiln's 64-bit
/// integers (CPython's ints would grow), ValueError for NaN.
int64_t floatToInt(Interpreter& interp, double d);
/// Stable sort by Python ordering (optionally by key(item)), as list.sort and sorted do.
void sortValues(Interpreter& interp, std::vector<Value>& items, const Value& key, bool reverse);

/// str.format(*args, **kwargs), the bound method of str (args[0] is the format string).
Value strFormatMethod(Interpreter& interp, const CallArgs& args, void*);
/// str.format_map(mapping)
Value strFormatMapMethod(Interpreter& interp, const CallArgs& args, void*);

// Parts installed by installBuiltins, one file each.
void installBuiltinFunctions(Interpreter& interp, ModuleObject& builtins);
void installNumericBuiltins(Interpreter& interp, ModuleObject& builtins);
void installIterationBuiltins(Interpreter& interp, ModuleObject& builtins);
void installTypeConstructors(Interpreter& interp, ModuleObject& builtins);
void installStrMethods(Interpreter& interp);
void installStrCaseMethods(Interpreter& interp);
void installContainerMethods(Interpreter& interp);
void installBuiltinMembers(Interpreter& interp);
void installTypeMethods(Interpreter& interp);

/// type.__new__(mcs, name, bases, ns, **kwargs), also behind type(name, bases, ns).
Value typeNewNative(Interpreter& interp, const CallArgs& args, void*);

} // namespace kiln::lang
