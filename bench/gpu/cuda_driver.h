// SPDX-License-Identifier: MIT
/// \file
/// A minimal dlopen of the CUDA driver for the code generation device check. This is test code:
/// at integration the runtime layer (engine/runtime: driver loader, allocator, streams) replaces
/// it. The X-macro keeps cuda.h's `#define cuMemAlloc cuMemAlloc_v2` aliases, so the symbol
/// looked up is the real ABI name.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace kiln::bench::gpu {

#define KILN_DRIVER_FUNCS(X)                                                                       \
    X(cuInit)                                                                                      \
    X(cuDriverGetVersion)                                                                          \
    X(cuDeviceGet)                                                                                 \
    X(cuDeviceGetName)                                                                             \
    X(cuDeviceGetAttribute)                                                                        \
    X(cuDevicePrimaryCtxRetain)                                                                    \
    X(cuCtxSetCurrent)                                                                             \
    X(cuCtxSynchronize)                                                                            \
    X(cuModuleLoadData)                                                                            \
    X(cuModuleGetFunction)                                                                         \
    X(cuFuncGetAttribute)                                                                          \
    X(cuFuncSetAttribute)                                                                          \
    X(cuMemAlloc)                                                                                  \
    X(cuMemFree)                                                                                   \
    X(cuMemcpyHtoD)                                                                                \
    X(cuMemcpyDtoH)                                                                                \
    X(cuMemsetD8)                                                                                  \
    X(cuLaunchKernel)                                                                              \
    X(cuEventCreate)                                                                               \
    X(cuEventRecord)                                                                               \
    X(cuEventSynchronize)                                                                          \
    X(cuEventElapsedTime)                                                                          \
    X(cuGetErrorString)

#define KILN_STR2(x) #x
#define KILN_STR(x) KILN_STR2(x)

struct Driver {
#define KILN_DECLARE(f) decltype(&::f) f = nullptr;
    KILN_DRIVER_FUNCS(KILN_DECLARE)
#undef KILN_DECLARE
    std::string error;

    bool load() {
        void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            error = std::string("dlopen(libcuda.so.1) failed: ") + dlerror();
            return false;
        }
#define KILN_LOAD(f)                                                                               \
    f = reinterpret_cast<decltype(f)>(dlsym(h, KILN_STR(f)));                                      \
    if (!f) {                                                                                      \
        error = "libcuda.so.1 lacks " KILN_STR(f);                                                 \
        return false;                                                                              \
    }
        KILN_DRIVER_FUNCS(KILN_LOAD)
#undef KILN_LOAD
        return true;
    }
};

/// The process's driver (loaded by main).
inline Driver& driver() {
    static Driver d;
    return d;
}

#define CHECK_CU(call)                                                                             \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char* s_ = nullptr;                                                              \
            ::kiln::bench::gpu::driver().cuGetErrorString(r_, &s_);                                \
            std::fprintf(stderr, "%s failed: %s\n", #call, s_ ? s_ : "?");                         \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

/// Median CUDA-event time (µs) of `reps` runs of `launch` on the default stream, after 3
/// warm-ups; each run between its own pair of events.
template <typename F>
double timeLaunches(F&& launch, int reps) {
    Driver& drv = driver();
    for (int i = 0; i < 3; ++i)
        launch();
    std::vector<CUevent> start(reps), stop(reps);
    for (int i = 0; i < reps; ++i) {
        CHECK_CU(drv.cuEventCreate(&start[i], CU_EVENT_DEFAULT));
        CHECK_CU(drv.cuEventCreate(&stop[i], CU_EVENT_DEFAULT));
    }
    for (int i = 0; i < reps; ++i) {
        CHECK_CU(drv.cuEventRecord(start[i], nullptr));
        launch();
        CHECK_CU(drv.cuEventRecord(stop[i], nullptr));
    }
    CHECK_CU(drv.cuCtxSynchronize());
    std::vector<double> us;
    for (int i = 0; i < reps; ++i) {
        float ms = 0;
        CHECK_CU(drv.cuEventElapsedTime(&ms, start[i], stop[i]));
        us.push_back(ms * 1000.0);
    }
    return median(us);
}

} // namespace kiln::bench::gpu
