// SPDX-License-Identifier: MIT
#include "runtime/device_probe.h"

#include <dlfcn.h>

namespace kiln::runtime {

namespace {

// The few driver entry points the probe needs, with the driver API's C signatures.
using CuInit = int (*)(unsigned int);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);

CudaProbe runProbe() {
    CudaProbe p;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        p.problem = "the CUDA driver (libcuda.so.1) is not installed";
        return p;
    }
    p.driverLoaded = true;
    auto cuInit = reinterpret_cast<CuInit>(dlsym(lib, "cuInit"));
    auto getVersion = reinterpret_cast<CuDriverGetVersion>(dlsym(lib, "cuDriverGetVersion"));
    auto getCount = reinterpret_cast<CuDeviceGetCount>(dlsym(lib, "cuDeviceGetCount"));
    auto getDevice = reinterpret_cast<CuDeviceGet>(dlsym(lib, "cuDeviceGet"));
    auto getName = reinterpret_cast<CuDeviceGetName>(dlsym(lib, "cuDeviceGetName"));
    if (!cuInit || !getVersion || !getCount || !getDevice || !getName) {
        p.problem = "libcuda.so.1 lacks the driver API entry points";
        return p;
    }
    int rc = cuInit(0);
    if (rc != 0) {
        p.problem = rc == 34 ? "libcuda.so.1 is the toolkit's stub, not a driver"
                             : "cuInit failed with CUDA error " + std::to_string(rc);
        return p;
    }
    p.initialised = true;
    getVersion(&p.driverVersion);
    if (getCount(&p.deviceCount) != 0 || p.deviceCount == 0) {
        p.deviceCount = 0;
        p.problem = "the CUDA driver reports no devices";
        return p;
    }
    int device = 0;
    char name[256] = {};
    if (getDevice(&device, 0) == 0 && getName(name, sizeof name, device) == 0) p.deviceName = name;
    return p;
}

} // namespace

std::string CudaProbe::describe() const {
    if (!available()) return "none (" + problem + ")";
    return deviceName + " (driver " + std::to_string(driverVersion / 1000) + "." +
           std::to_string(driverVersion % 1000 / 10) + ")";
}

const CudaProbe& probeCuda() {
    static const CudaProbe probe = runProbe();
    return probe;
}

} // namespace kiln::runtime
