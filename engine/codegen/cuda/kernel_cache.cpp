// SPDX-License-Identifier: MIT
#include "codegen/cuda/kernel_cache.h"

#include "support/cache_file.h"
#include "support/sha256.h"

#include <filesystem>

namespace kiln::codegen::cuda {

namespace {

/// The payload is the image exactly as NVRTC produced it.
constexpr const char* kMagic = "kiln-cuda-kernel 1\n";

} // namespace

KernelCache::KernelCache(std::string directory)
    : m_directory(std::move(directory)) {}

KernelCache& KernelCache::shared() {
    static KernelCache cache(kernelCacheDirectory());
    return cache;
}

std::string KernelCache::keyFor(const std::string& source, const NvrtcOptions& options) const {
    Expected<std::string> version = nvrtcVersion();
    if (!version) return {};
    std::string key = "nvrtc " + *version + "\n";
    for (const std::string& f : options.flags())
        key += f + "\n";
    key += "source " + sha256Hex(source) + "\n";
    return key;
}

std::string KernelCache::entryPath(const std::string& key, bool ptx) const {
    if (m_directory.empty()) return {};
    return (std::filesystem::path(m_directory) /
            ("kiln_cu_" + sha256Hex(key).substr(0, 32) + (ptx ? ".ptx" : ".cubin")))
        .string();
}

Expected<CompiledImage> KernelCache::getOrCompile(const std::string& source,
                                                  const std::string& name,
                                                  const NvrtcOptions& options) {
    std::string key = keyFor(source, options);
    if (key.empty()) return compileWithNvrtc(source, name, options); // says why it cannot
    std::string path = entryPath(key, options.ptx);
    {
        std::lock_guard lock(m_mutex);
        if (auto hit = m_memory.find(key); hit != m_memory.end()) {
            ++m_stats.memoryHits;
            CompiledImage image = hit->second;
            image.fromMemoryCache = true;
            image.compileMs = 0;
            return image;
        }
        if (!path.empty()) {
            bool existed = std::filesystem::exists(path);
            if (auto payload = readCacheEntry(path, kMagic, key)) {
                ++m_stats.diskHits;
                CompiledImage image;
                image.image = std::move(*payload);
                image.ptx = options.ptx;
                m_memory[key] = image;
                image.fromDiskCache = true;
                return image;
            }
            if (existed) ++m_stats.corruptEntries; // readCacheEntry deleted it
        }
    }
    // NVRTC runs outside the lock, so a graph's kernels compile in parallel. Two threads after
    // the same key both compile it; the entry they write is the same.
    Expected<CompiledImage> compiled = compileWithNvrtc(source, name, options);
    if (!compiled) return compiled;
    std::lock_guard lock(m_mutex);
    ++m_stats.compiles;
    if (!path.empty()) writeCacheEntry(path, kMagic, key, compiled->image);
    m_memory[key] = *compiled;
    return compiled;
}

void KernelCache::clearMemory() {
    std::lock_guard lock(m_mutex);
    m_memory.clear();
}

KernelCacheStats KernelCache::stats() const {
    std::lock_guard lock(m_mutex);
    return m_stats;
}

} // namespace kiln::codegen::cuda
