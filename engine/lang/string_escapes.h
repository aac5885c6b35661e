// SPDX-License-Identifier: MIT
/// \file
/// Escape sequences of non-raw string literals (plain literals and the literal parts of
/// f-strings), decoded as CPython's unicode-escape step does, with its errors.
#pragma once

#include <string>
#include <string_view>

namespace kiln::lang {

struct DecodedLiteral {
    std::string text;
    /// CPython's SyntaxError message for a malformed \x, \u or \U escape ("(unicode error)
    /// 'unicodeescape' codec can't decode bytes in position 0-2: truncated \xXX escape");
    /// empty when the body decoded.
    std::string error;
};

/// Decodes the escape sequences of a literal body. Unknown escapes stay as written, as in
/// Python. Error positions count as CPython's do: it rewrites each non-ASCII character of the
/// body as a ten-character \UXXXXXXXX escape before decoding.
DecodedLiteral decodeEscapes(std::string_view body);

} // namespace kiln::lang
