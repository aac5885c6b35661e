// SPDX-License-Identifier: MIT
/// \file
/// The CUDA kernel cache: compiled images keyed by the SHA-256 of the source, the target (sm_XX
/// or compute_XX), NVRTC's version and the options, in memory for the process and on disk in
/// the kernel cache directory (support/cache_file.h: checksummed entries written atomically; a
/// damaged entry is deleted and compiled again).
#pragma once

#include "codegen/cuda/nvrtc.h"

#include <map>
#include <mutex>
#include <string>

namespace kiln::codegen::cuda {

struct KernelCacheStats {
    int compiles = 0, memoryHits = 0, diskHits = 0, corruptEntries = 0;
};

class KernelCache {
public:
    /// `directory` empty: memory only.
    explicit KernelCache(std::string directory);

    /// The process-wide cache in kernelCacheDirectory() (KILN_KERNEL_CACHE=0: memory only).
    static KernelCache& shared();

    Expected<CompiledImage> getOrCompile(const std::string& source, const std::string& name,
                                         const NvrtcOptions& options);

    /// The whole key for `source` under `options` ("" when NVRTC is unavailable).
    std::string keyFor(const std::string& source, const NvrtcOptions& options) const;
    /// The entry file the key is stored in.
    std::string entryPath(const std::string& key, bool ptx) const;

    void clearMemory();
    KernelCacheStats stats() const;
    const std::string& directory() const { return m_directory; }

private:
    std::string m_directory;
    mutable std::mutex m_mutex;
    std::map<std::string, CompiledImage> m_memory;
    KernelCacheStats m_stats;
};

} // namespace kiln::codegen::cuda
