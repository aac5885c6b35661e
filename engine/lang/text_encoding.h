// SPDX-License-Identifier: MIT
/// \file
/// Writing str to the outside: Kiln's str is UTF-8, but like CPython's it may hold lone
/// surrogates ("\ud800", chr(0xDC00)), stored as their three-byte forms. Those are not UTF-8:
/// printing one to stdout is CPython's UnicodeEncodeError, stderr shows it backslash-escaped.
#pragma once

#include "lang/value.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::lang {

class Interpreter;
class ModuleObject;

/// The first run of consecutive surrogates in a str, in code points.
struct SurrogateRun {
    size_t start = 0;
    size_t end = 0; ///< exclusive
};

std::optional<SurrogateRun> findSurrogates(std::string_view text);
/// The text with each surrogate written as \udXXX (errors='backslashreplace').
std::string backslashReplaceSurrogates(std::string_view text);
/// UnicodeEncodeError('utf-8', text, start, end, 'surrogates not allowed').
Value makeSurrogateEncodeError(Interpreter& interp, std::string_view text, SurrogateRun run);

/// UnicodeEncodeError's __init__ and __str__.
void installUnicodeErrors(Interpreter& interp);

} // namespace kiln::lang
