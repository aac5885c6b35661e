// SPDX-License-Identifier: MIT
/// \file
/// The exceptions of torch._dynamo.exc (Unsupported, UserError, BackendCompilerFailed,
/// InvalidBackend), raised from C++ with PyTorch 2.3's messages.
#pragma once

#include "lang/interpreter.h"

#include <string>

namespace kiln::capture {

/// Raises torch._dynamo.exc.<typeName>(message) in the script.
[[noreturn]] void raiseDynamoError(lang::Interpreter& interp, const std::string& typeName,
                                   const std::string& message);
/// The trailer 2.3 appends to errors it could have suppressed.
std::string suppressHint();

} // namespace kiln::capture
