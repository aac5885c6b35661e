// SPDX-License-Identifier: MIT
/// \file
/// Call-style argument lists (positional, keyword, `*iterable`, `**mapping`), as a call and a
/// class statement's bases and keywords both have them.
#pragma once

#include "lang/ast.h"
#include "lang/interpreter.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln::lang {

/// The start of CPython's messages for bad `*` and `**` arguments and repeated keywords
/// ("f() argument after * must be an iterable", "Value after * must be ...").
struct ArgumentMessages {
    std::string afterStar;
    std::string afterDoubleStar;
    std::string duplicateKeyword;
};

/// Evaluates `args` with `evaluate` into `positional`, `names` and `values`; `mark` points the
/// frame at the statement before an error is raised.
void evaluateArguments(Interpreter& interp, const std::vector<Argument>& args,
                       const std::function<Value(const Expr&)>& evaluate,
                       const std::function<void()>& mark, const ArgumentMessages& messages,
                       std::vector<Value>& positional, std::vector<Symbol>& names,
                       std::vector<Value>& values);

} // namespace kiln::lang
