// SPDX-License-Identifier: MIT
/// \file
/// SHA-256 (FIPS 180-4) of a byte string, as lower-case hex. The trace records the hash of each
/// workload's bytes so that runs of the same script can be matched across files and edits can be
/// noticed; a hand-written digest keeps the engine free of a crypto dependency for this one use.
#pragma once

#include <string>
#include <string_view>

namespace kiln {

/// The 64-character lower-case hex SHA-256 digest of \p bytes.
std::string sha256Hex(std::string_view bytes);

} // namespace kiln
