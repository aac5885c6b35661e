// SPDX-License-Identifier: MIT
/// \file
/// Option values (support/options.h) as script values and back: what `torch._inductor.config`
/// shows a script, and what torch.compile(options=...) receives from one.
#pragma once

#include "lang/interpreter.h"
#include "support/options.h"

namespace kiln::lang {

/// None, bool, int, float, str, a list of str, or OtherValue for anything else.
OptionValue optionValueFromScript(Interpreter& interp, const Value& value);
/// The script value of a plain option value (a new list for a list of str).
Value optionValueToScript(const OptionValue& value);

} // namespace kiln::lang
