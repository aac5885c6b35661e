// SPDX-License-Identifier: MIT
#include "runtime/library_prefetch.h"

#include <atomic>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace kiln::runtime {

namespace {

/// Set at exit: a script that ends early does not wait for the rest of the reading.
std::atomic<bool> g_stop{false};

/// The file the dynamic loader found for `soname` (loaded as codegen/cuda/nvrtc.cpp loads it;
/// the handle is kept, the code generator opens the same library moments later).
std::string loadedPath(const char* soname) {
    void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return {};
    struct link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
    return map->l_name;
}

/// Reads the whole file into the page cache. (posix_fadvise WILLNEED, asked of cuBLASLt on an
/// H100 machine, did not take its first product's load time from 0.49 s back to the 0.19 s of
/// a cached library: it reads ahead only so far.)
void readWhole(const std::string& path) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    std::vector<char> buffer(size_t(1) << 20);
    while (!g_stop.load(std::memory_order_relaxed) && read(fd, buffer.data(), buffer.size()) > 0) {
    }
    close(fd);
}

void prefetch() {
    std::string nvrtc = loadedPath("libnvrtc.so.13");
    if (nvrtc.empty()) return;
    readWhole(nvrtc); // first: the first compile needs all of it at once
    // cuBLASLt is read, not loaded: loading its 541 MB holds the loader's lock long enough to
    // delay the first compile's dlopen of NVRTC. The toolkit installs it beside NVRTC; one found
    // elsewhere is read when it loads.
    readWhole(nvrtc.substr(0, nvrtc.rfind('/') + 1) + "libcublasLt.so.13");
}

/// Stopped and joined at exit: the process does not end under a running dlopen, and waits for
/// at most one more megabyte of reading.
struct Prefetcher {
    std::thread thread;
    ~Prefetcher() {
        g_stop = true;
        if (thread.joinable()) thread.join();
    }
};

} // namespace

void prefetchCudaLibraries() {
    static Prefetcher prefetcher;
    static std::once_flag once;
    std::call_once(once, [] { prefetcher.thread = std::thread(prefetch); });
}

} // namespace kiln::runtime
