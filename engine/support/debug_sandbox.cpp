// SPDX-License-Identifier: MIT
#include "support/debug_sandbox.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>

namespace kiln::support {
namespace fs = std::filesystem;

namespace {

std::mutex g_mutex;
std::string g_root;

std::string defaultRoot() {
    if (const char* env = std::getenv("TORCH_COMPILE_DEBUG_DIR"); env && *env)
        return (fs::path(env) / "torch_compile_debug").string();
    std::error_code ec;
    fs::path cwd = fs::current_path(ec);
    return ((ec ? fs::path(".") : cwd) / "torch_compile_debug").string();
}

/// Absolute, `..` folded, symbolic links of the existing prefix followed: what the kernel will
/// open, so a link inside the root cannot lead out of it.
fs::path resolved(const std::string& path) {
    std::error_code ec;
    fs::path abs = fs::absolute(fs::path(path), ec);
    if (ec) abs = fs::path(path);
    fs::path canonical = fs::weakly_canonical(abs, ec);
    return (ec ? abs : canonical).lexically_normal();
}

bool isWithin(const fs::path& path, const fs::path& root) {
    auto p = path.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++p) {
        if (r->empty()) continue; // a trailing separator
        if (p == path.end() || *p != *r) return false;
    }
    return true;
}

} // namespace

void setDebugSandboxRoot(const std::string& root) {
    std::lock_guard lock(g_mutex);
    g_root = root;
}

std::string debugSandboxRoot() {
    std::lock_guard lock(g_mutex);
    return g_root.empty() ? defaultRoot() : g_root;
}

bool debugSandboxRootIsSet() {
    std::lock_guard lock(g_mutex);
    return !g_root.empty();
}

Expected<std::string> confineToDebugSandbox(const std::string& requested, const std::string& what) {
    fs::path root = resolved(debugSandboxRoot());
    fs::path path = resolved(requested);
    if (isWithin(path, root)) return path.string();
    return Diagnostic{"PermissionError",
                      what + " '" + requested + "' is outside the directory this run may write " +
                          "debug traces to (" + root.string() +
                          "); workloads cannot write elsewhere: choose the directory with " +
                          "kiln run --debug-dir DIR or TORCH_COMPILE_DEBUG_DIR"};
}

} // namespace kiln::support
