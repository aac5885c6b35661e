// SPDX-License-Identifier: MIT
/// \file
/// A script's bytes as CPython's tokenizer reads them: UTF-8 (with an optional byte order
/// mark), universal newlines (\r\n and a lone \r end lines like \n), no NUL bytes.
#pragma once

#include "support/expected.h"

#include <string>
#include <string_view>

namespace kiln::lang {

/// The text the lexer reads, or CPython's SyntaxError: "Non-UTF-8 code starting with '\xff' in
/// file PATH on line 2, ..." (no position), "source code cannot contain null bytes".
/// Encoding declarations other than UTF-8 are refused when the text is not plain ASCII.
Expected<std::string> decodeSourceText(const std::string& path, std::string_view bytes);

/// The text without a leading byte order mark and with every line ending turned into \n, so
/// line numbers agree with the lexer's (for showing a syntax error's line).
std::string normalizeSourceText(std::string_view bytes);

} // namespace kiln::lang
