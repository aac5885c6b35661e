// SPDX-License-Identifier: MIT
#include "inductor/tuning_cache.h"

#include "support/sha256.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kiln::inductor {

namespace {

namespace fs = std::filesystem;

constexpr const char* kHeader = "kiln-tuning-cache 1";

/// Tabs and newlines cannot appear in a field: they separate fields and records.
std::string clean(std::string text) {
    for (char& c : text)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return text;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, '\t'))
        fields.push_back(field);
    return fields;
}

std::optional<int64_t> number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (*end != '\0') return std::nullopt;
    return static_cast<int64_t>(v);
}

fs::path entryPath(const std::string& dir, const std::string& key) {
    return fs::path(dir) / (sha256Hex(key).substr(0, 32) + ".tune");
}

} // namespace

std::string tuningCacheDirectory() {
    const char* off = std::getenv("KILN_AUTOTUNE_CACHE");
    if (off && std::string(off) == "0") return {};
    if (const char* dir = std::getenv("KILN_AUTOTUNE_CACHE_DIR"); dir && *dir) return dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/kiln/autotune";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/kiln/autotune";
    return {};
}

std::optional<std::vector<CachedCandidate>> loadTuning(const std::string& key) {
    std::string dir = tuningCacheDirectory();
    if (dir.empty()) return std::nullopt;
    std::ifstream in(entryPath(dir, key));
    std::string header, storedKey;
    if (!std::getline(in, header) || header != kHeader || !std::getline(in, storedKey) ||
        storedKey != "key\t" + clean(key))
        return std::nullopt;
    std::vector<CachedCandidate> out;
    bool anyChosen = false;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> f = split(line);
        if (f.size() != 8) return std::nullopt;
        auto time = number(f[2]), lo = number(f[3]), hi = number(f[4]), runs = number(f[5]);
        if (!time || !lo || !hi || !runs || (f[6] != "0" && f[6] != "1") ||
            (f[7] != "0" && f[7] != "1"))
            return std::nullopt;
        CachedCandidate c{f[0],        f[1],       *time, *lo, *hi, static_cast<int>(*runs),
                          f[6] == "1", f[7] == "1"};
        anyChosen |= c.chosen;
        out.push_back(std::move(c));
    }
    if (out.empty() || !anyChosen) return std::nullopt;
    return out;
}

void storeTuning(const std::string& key, const std::vector<CachedCandidate>& candidates) {
    std::string dir = tuningCacheDirectory();
    if (dir.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    fs::path final = entryPath(dir, key);
    fs::path temp = final;
    temp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::trunc);
        if (!out) return;
        out << kHeader << "\nkey\t" << clean(key) << "\n";
        for (const CachedCandidate& c : candidates)
            out << clean(c.description) << '\t' << clean(c.choice) << '\t' << c.timeNs << '\t'
                << c.minNs << '\t' << c.maxNs << '\t' << c.runs << '\t' << (c.stoppedEarly ? 1 : 0)
                << '\t' << (c.chosen ? 1 : 0) << '\n';
        if (!out) {
            fs::remove(temp, ec);
            return;
        }
    }
    fs::rename(temp, final, ec);
    if (ec) fs::remove(temp, ec);
}

} // namespace kiln::inductor
