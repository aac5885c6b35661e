// SPDX-License-Identifier: MIT
/// \file
/// MD5 (RFC 1321), only to check the `has_payload` digests of PyTorch's structured trace; never
/// for anything that needs a secure hash (support/sha256.h is that).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace kiln::importer {

/// An incremental MD5: payloads arrive line by line, so the digest is built without keeping the
/// payload's bytes twice.
class Md5 {
public:
    Md5();
    void update(std::string_view bytes);
    /// The 32 lower-case hex digits; the object must not be updated afterwards.
    std::string finishHex();

private:
    void block(const uint8_t* data);

    std::array<uint32_t, 4> m_state;
    std::array<uint8_t, 64> m_buffer{};
    uint64_t m_length = 0; ///< bytes seen
    bool m_finished = false;
};

/// MD5 of \p bytes as 32 lower-case hex digits.
std::string md5Hex(std::string_view bytes);

} // namespace kiln::importer
