// SPDX-License-Identifier: MIT
#include "runtime/device_probe.h"

#include "runtime/cuda_driver.h"

#include <fstream>
#include <sstream>

namespace kiln::runtime {

namespace {

/// The NVIDIA kernel module's version from /proc ("NVRM version: ... Kernel Module  580.95.05
/// ..."), which is the number nvidia-smi calls the driver version; empty where absent.
/// The driver's version from its first line, the first word of digits and dots:
/// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 ..." or, for the open
/// modules, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build".
std::string readKernelModuleVersion() {
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (!in || !std::getline(in, line)) return {};
    std::istringstream words(line);
    std::string word;
    while (words >> word)
        if (word.find('.') != std::string::npos &&
            word.find_first_not_of("0123456789.") == std::string::npos)
            return word;
    return {};
}

std::string versionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

void describeDevice(const CudaDriver& d, CudaProbe& p) {
    cu::Device device = 0;
    if (d.deviceGet(&device, 0) != cu::kSuccess) return;
    char name[256] = {};
    if (d.deviceGetName(name, sizeof name, device) == cu::kSuccess) p.deviceName = name;
    d.deviceGetAttribute(&p.capabilityMajor, cu::kAttrComputeCapabilityMajor, device);
    d.deviceGetAttribute(&p.capabilityMinor, cu::kAttrComputeCapabilityMinor, device);
    d.deviceGetAttribute(&p.multiprocessors, cu::kAttrMultiprocessorCount, device);
    size_t total = 0;
    if (d.deviceTotalMem(&total, device) == cu::kSuccess) p.totalMemory = total;
}

CudaProbe probeWith(Expected<const CudaDriver*> loaded) {
    CudaProbe p;
    if (!loaded) {
        // A driver without the CUDA 13 entry points is loaded but too old.
        p.status = loaded.error().kind == "CudaDriverTooOld" ? CudaStatus::DriverTooOld
                                                             : CudaStatus::NoDriver;
        p.problem = loaded.error().message;
        return p;
    }
    const CudaDriver& d = **loaded;
    p.driverLoaded = true;
    p.kernelModule = readKernelModuleVersion();
    cu::Result rc = d.init(0);
    if (rc == cu::kErrorStubLibrary) {
        p.status = CudaStatus::StubDriver;
        p.problem = "libcuda.so.1 is the CUDA toolkit's stub library, not an NVIDIA driver "
                    "(cuInit returned CUDA_ERROR_STUB_LIBRARY)";
        return p;
    }
    if (d.driverGetVersion(&p.driverVersion) != cu::kSuccess) p.driverVersion = 0;
    if (rc == cu::kSuccess && p.driverVersion < cu::kRequiredDriverVersion) {
        p.status = CudaStatus::DriverTooOld;
        p.problem = "the NVIDIA driver supports CUDA " + versionText(p.driverVersion) +
                    ", Kiln needs a driver for CUDA " + versionText(cu::kRequiredDriverVersion) +
                    " or newer (version 580 or later)";
        return p;
    }
    if (rc == cu::kErrorNoDevice) {
        p.status = CudaStatus::NoDevice;
        p.problem = "the NVIDIA driver is installed but reports no CUDA device";
        return p;
    }
    if (rc != cu::kSuccess) {
        p.status = CudaStatus::InitFailed;
        p.problem = "cuInit failed: " + d.errorText(rc);
        return p;
    }
    p.initialised = true;
    if (d.deviceGetCount(&p.deviceCount) != cu::kSuccess || p.deviceCount == 0) {
        p.deviceCount = 0;
        p.status = CudaStatus::NoDevice;
        p.problem = "the NVIDIA driver is installed but reports no CUDA device";
        return p;
    }
    describeDevice(d, p);
    p.status = CudaStatus::Available;
    return p;
}

} // namespace

std::string CudaProbe::cudaVersionText() const {
    return driverVersion > 0 ? versionText(driverVersion) : std::string();
}

std::string CudaProbe::describe() const {
    if (!available()) return "none (" + problem + ")";
    std::string out = deviceName + " (sm_" + std::to_string(capabilityMajor) +
                      std::to_string(capabilityMinor) + ", ";
    if (!kernelModule.empty()) out += "driver " + kernelModule + ", ";
    return out + "CUDA " + cudaVersionText() + ")";
}

const CudaProbe& probeCuda() {
    static const CudaProbe probe = probeWith(cudaDriver());
    return probe;
}

CudaProbe probeCudaLibrary(const std::string& library) {
    return probeWith(loadCudaDriver(library));
}

std::string noCudaDeviceMessage(const CudaProbe& probe) {
    return "no CUDA device was found: " + probe.problem;
}

} // namespace kiln::runtime
