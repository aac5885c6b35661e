// SPDX-License-Identifier: MIT
/// \file
/// CPython 3.11's "Did you mean" hints for NameError and AttributeError, and the attribute
/// names dir() lists.
#pragma once

#include "lang/interpreter.h"
#include "lang/scope.h"

#include <string>
#include <vector>

namespace kiln::lang {

/// The sorted attribute names of `object`, as dir(object) lists them.
std::vector<std::string> dirNames(Interpreter& interp, const Value& object);

/// The name CPython would suggest for an uncaught NameError/AttributeError ("" when none).
std::string suggestionFor(Interpreter& interp, const Value& exception);

} // namespace kiln::lang
