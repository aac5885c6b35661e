// SPDX-License-Identifier: MIT
#include "support/cache_file.h"

#include "support/sha256.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace kiln {

namespace fs = std::filesystem;

namespace {

constexpr size_t kHashLength = 64;

std::string header(std::string_view magic, std::string_view key) {
    return std::string(magic) + sha256Hex(key) + "\n";
}

} // namespace

std::optional<std::string> readCacheEntry(const std::string& path, std::string_view magic,
                                          std::string_view key) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    const std::string head = header(magic, key);
    bool ok = text.size() > head.size() + kHashLength + 1 &&
              text.compare(0, head.size(), head) == 0 && text[head.size() + kHashLength] == '\n';
    std::string payload;
    if (ok) {
        payload = text.substr(head.size() + kHashLength + 1);
        ok = text.compare(head.size(), kHashLength, sha256Hex(payload)) == 0;
    }
    if (!ok) {
        std::error_code ec;
        fs::remove(path, ec);
        return std::nullopt;
    }
    return payload;
}

bool writeCacheEntry(const std::string& path, std::string_view magic, std::string_view key,
                     std::string_view payload) {
    std::error_code ec;
    fs::path final(path);
    if (final.has_parent_path()) fs::create_directories(final.parent_path(), ec);
    fs::path temp = final;
    temp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary);
        out << header(magic, key) << sha256Hex(payload) << "\n";
        out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
        if (!out) {
            out.close();
            fs::remove(temp, ec);
            return false;
        }
    }
    fs::rename(temp, final, ec);
    if (ec) {
        fs::remove(temp, ec);
        return false;
    }
    return true;
}

std::string kernelCacheDirectory() {
    const char* off = std::getenv("KILN_KERNEL_CACHE");
    if (off && std::string(off) == "0") return {};
    if (const char* dir = std::getenv("KILN_KERNEL_CACHE_DIR"); dir && *dir) return dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/kiln/kernels";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/kiln/kernels";
    return {};
}

} // namespace kiln
