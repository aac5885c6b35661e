// SPDX-License-Identifier: MIT
/// \file
/// The parser: tokens to an AST, for the subset of Python that DESIGN.md section 3 lists.
/// Syntax errors and unsupported constructs (yield, async, match, set displays, ...) are
/// reported as SyntaxError diagnostics with the position of the offending token; the message
/// names the construct, so a script never misbehaves silently.
#pragma once

#include "lang/ast.h"
#include "support/expected.h"

namespace kiln::lang {

/// Parses and scope-resolves a whole file.
Expected<Module> parseModule(SourceFilePtr source);

} // namespace kiln::lang
