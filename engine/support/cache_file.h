// SPDX-License-Identifier: MIT
/// \file
/// Checksummed, atomically written cache entries: the on-disk format the CPU kernel cache
/// (`.kobj` objects) and the CUDA kernel cache (`.cubin`/`.ptx` images) share. An entry is a
/// magic line naming its format, the SHA-256 of the whole key it was made for (file names hold
/// only a prefix of it), the SHA-256 of the payload, then the payload. It is written to a
/// temporary file and renamed, so concurrent processes see either no entry or a whole one; an
/// entry with a flipped bit, a truncated payload or another key is deleted on read and the
/// caller rebuilds it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kiln {

/// The payload of the entry at `path` when it is whole and was made for `key` under `magic`
/// (a line such as "kiln-kernel 1\n"); nullopt otherwise, deleting a damaged or foreign entry.
std::optional<std::string> readCacheEntry(const std::string& path, std::string_view magic,
                                          std::string_view key);

/// Writes the entry (temporary file in the same directory, then rename); creates the directory.
/// Returns false when it could not be written (the cache is best effort: callers go on).
bool writeCacheEntry(const std::string& path, std::string_view magic, std::string_view key,
                     std::string_view payload);

/// The kernel cache directory: KILN_KERNEL_CACHE_DIR, else $XDG_CACHE_HOME/kiln/kernels, else
/// ~/.cache/kiln/kernels; empty (no disk cache) when KILN_KERNEL_CACHE=0 or no home is known.
std::string kernelCacheDirectory();

} // namespace kiln
