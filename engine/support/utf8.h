// SPDX-License-Identifier: MIT
/// \file
/// UTF-8 validation for text that leaves Kiln for a library that assumes it (Graphviz's Pango
/// labels): well-formed sequences only, no overlong forms, no surrogates, nothing above
/// U+10FFFF.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace kiln {

/// The offset of the first byte that does not start a well-formed UTF-8 sequence; nullopt when
/// the whole text is valid.
std::optional<size_t> firstInvalidUtf8(std::string_view text);

} // namespace kiln
