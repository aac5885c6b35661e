// SPDX-License-Identifier: MIT
#include "runtime/cuda_driver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>

namespace kiln::runtime {

std::string CudaDriver::errorText(cu::Result rc) const {
    const char* name = nullptr;
    const char* text = nullptr;
    if (getErrorName(rc, &name) != cu::kSuccess || !name) return "CUDA error " + std::to_string(rc);
    std::string out = name;
    if (getErrorString(rc, &text) == cu::kSuccess && text) out += std::string(" (") + text + ")";
    return out;
}

Expected<const CudaDriver*> loadCudaDriver(const std::string& library) {
    // One table per library for the life of the process: dlclose of a driver is not safe once
    // it has created threads, and tests load the stub next to the real driver's name.
    static std::mutex mutex;
    static std::map<std::string, CudaDriver> loaded;
    std::lock_guard lock(mutex);
    if (auto it = loaded.find(library); it != loaded.end()) return &it->second;
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        return makeDiagnostic("CudaUnavailable",
                              "the CUDA driver (" + library +
                                  ") is not installed: " + (why ? why : "dlopen failed"));
    }
    CudaDriver driver;
    std::string missing;
#define KILN_CUDA_RESOLVE(member, symbol, ret, params)                                             \
    driver.member = reinterpret_cast<decltype(driver.member)>(dlsym(handle, #symbol));             \
    if (!driver.member) missing += (missing.empty() ? "" : ", ") + std::string(#symbol);
    KILN_CUDA_DRIVER_FUNCTIONS(KILN_CUDA_RESOLVE)
#undef KILN_CUDA_RESOLVE
    if (!missing.empty())
        return makeDiagnostic("CudaDriverTooOld",
                              library + " lacks driver API entry points (" + missing +
                                  "): the NVIDIA driver is too old for CUDA 13 (version 580 or "
                                  "later is needed)");
    return &loaded.emplace(library, driver).first->second;
}

Expected<const CudaDriver*> cudaDriver() {
    const char* override = std::getenv("KILN_CUDA_DRIVER");
    return loadCudaDriver(override && *override ? override : "libcuda.so.1");
}

Diagnostic cudaFailure(const CudaDriver& driver, const std::string& what, cu::Result rc) {
    return makeDiagnostic("CudaError", what + " failed: " + driver.errorText(rc));
}

Status cudaCheck(const CudaDriver& driver, const std::string& what, cu::Result rc) {
    if (rc == cu::kSuccess) return Status::success();
    return cudaFailure(driver, what, rc);
}

} // namespace kiln::runtime
