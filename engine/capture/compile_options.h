// SPDX-License-Identifier: MIT
/// \file
/// torch.compile(mode=, options=) with backend="inductor", validated as PyTorch 2.3 does when
/// torch.compile is called.
#pragma once

#include "lang/interpreter.h"
#include "support/options.h"

namespace kiln::capture {

/// The patch that `mode` or `options` (script values) make to `current`, the inductor
/// configuration: raises RuntimeError in the script (or the AttributeError Python would raise
/// for an options object without items() or a key that is not a str).
OptionPatch inductorCompilePatch(lang::Interpreter& interp, const OptionValues& current,
                                 const lang::Value& mode, const lang::Value& options);

} // namespace kiln::capture
