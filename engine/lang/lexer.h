// SPDX-License-Identifier: MIT
/// \file
/// The lexer: source text to tokens, with Python's indentation rules (INDENT/DEDENT), implicit
/// line joining inside brackets, explicit joining with a backslash, and string literal decoding.
/// Lexical errors come back as SyntaxError/IndentationError diagnostics worded as CPython 3.11
/// words them.
#pragma once

#include "lang/token.h"
#include "support/expected.h"

#include <vector>

namespace kiln::lang {

Expected<std::vector<Token>> tokenize(const SourceFile& source);

} // namespace kiln::lang
