// SPDX-License-Identifier: MIT
/// \file
/// max-autotune's measurements kept on disk, like the kernel cache: a kernel tuned once on a
/// CPU is not benchmarked again for the same code and sizes. An entry is keyed by everything
/// that decides the candidates and their speed (the kernel's identity, which names the CPU and
/// its features, the example sizes, the thread count, the candidate set, the matrix-product
/// library); a run that uses it records the cached times marked as such (fromCache), so a
/// trace never presents an old measurement as a new one.
///
/// Entries live in $XDG_CACHE_HOME/kiln/autotune (else ~/.cache/kiln/autotune), one small text
/// file per key, written to a temporary file and renamed. KILN_AUTOTUNE_CACHE=0 turns the
/// cache off; KILN_AUTOTUNE_CACHE_DIR puts it elsewhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::inductor {

/// One benchmarked candidate as the cache stores it.
struct CachedCandidate {
    std::string description; ///< as the trace shows it
    std::string choice;      ///< how to rebuild it: "vw=16,il=2", "blas", "tile=4x64"
    int64_t timeNs = 0, minNs = 0, maxNs = 0;
    int runs = 0;
    bool stoppedEarly = false;
    bool chosen = false;
};

/// The cache directory, or "" when the cache is off.
std::string tuningCacheDirectory();

/// The candidates stored for `key` (any text; hashed into a file name), if an entry exists
/// and parses; an entry for another key (a hash collision) or a damaged one reads as missing.
std::optional<std::vector<CachedCandidate>> loadTuning(const std::string& key);

/// Stores the candidates for `key`; failures (a read-only disk) only cost a future re-tune.
void storeTuning(const std::string& key, const std::vector<CachedCandidate>& candidates);

} // namespace kiln::inductor
