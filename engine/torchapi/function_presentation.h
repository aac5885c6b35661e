// SPDX-License-Identifier: MIT
/// \file
/// How torch's functions present themselves to scripts: in PyTorch most of torch.nn.functional
/// and a few of torch's functions are Python functions (`type(F.relu).__name__ == 'function'`,
/// `<function relu at 0x...>`), torch's operators are methods of a C++ class
/// (`<built-in method cat of type object at 0x...>`) and some of F's are plain builtins of
/// torch._C._nn (`<built-in function gelu>`). Kiln implements all of them as natives; this
/// gives each the type, repr, `__module__` and `__qualname__` PyTorch 2.3 gives it.
#pragma once

#include "lang/interpreter.h"

namespace kiln::torchapi {

/// Presents the natives of torch and torch.nn.functional as PyTorch's. Called once both
/// modules are installed.
void presentFunctionsAsPyTorch(lang::Interpreter& interp, lang::ModuleObject& torch);

} // namespace kiln::torchapi
