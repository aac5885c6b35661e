// SPDX-License-Identifier: MIT
/// \file
/// The few JSON texts the writer stores (runs.argv, compiles.phases_json). Encoding only: the
/// reader decodes them with SQLite's json_each, so the two sides agree on one parser's rules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::trace {

/// \p text as a JSON string literal, quotes included. Bytes >= 0x80 pass through unchanged
/// (UTF-8 stays UTF-8); control characters become \u00XX escapes.
std::string jsonQuoted(std::string_view text);

/// ["a","b"]; "[]" for no items.
std::string jsonStringArray(const std::vector<std::string>& items);

/// {"name":123,...} in the given order; "{}" for no pairs.
std::string jsonIntObject(const std::vector<std::pair<std::string, int64_t>>& pairs);

} // namespace kiln::trace
