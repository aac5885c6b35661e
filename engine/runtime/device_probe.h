// SPDX-License-Identifier: MIT
/// \file
/// Finds out, without linking the CUDA driver, whether this machine has a usable NVIDIA GPU and
/// if not, why: no driver, the toolkit's stub instead of a driver, a driver too old for CUDA 13,
/// or no device. The answer is what `torch.cuda.is_available()`, `kiln run --device cuda` and
/// the trace's meta report.
#pragma once

#include <string>

namespace kiln::runtime {

enum class CudaStatus {
    Available,    ///< at least one device, driver new enough
    NoDriver,     ///< libcuda.so.1 cannot be loaded, or lacks entry points
    StubDriver,   ///< cuInit returned CUDA_ERROR_STUB_LIBRARY: the toolkit's link stub
    DriverTooOld, ///< the driver supports a CUDA version below 13.0
    InitFailed,   ///< cuInit failed for another reason
    NoDevice,     ///< the driver works but sees no device
};

struct CudaProbe {
    CudaStatus status = CudaStatus::NoDriver;
    bool driverLoaded = false; ///< the driver library could be loaded
    bool initialised = false;  ///< cuInit succeeded
    int deviceCount = 0;
    int driverVersion = 0;    ///< CUDA version the driver supports, e.g. 13000 for 13.0
    std::string kernelModule; ///< the NVIDIA kernel module's version ("580.95.05") if known
    std::string deviceName;   ///< name of device 0
    int capabilityMajor = 0;  ///< compute capability of device 0 (9 for sm_90)
    int capabilityMinor = 0;
    int multiprocessors = 0;            ///< streaming multiprocessors of device 0
    unsigned long long totalMemory = 0; ///< bytes of device 0
    std::string problem;                ///< why there is no usable GPU (empty when there is one)

    bool available() const { return status == CudaStatus::Available; }
    /// "NVIDIA H200 (sm_90, driver 580.95.05, CUDA 13.0)" or "none (<problem>)".
    std::string describe() const;
    /// "13.0" from driverVersion.
    std::string cudaVersionText() const;
};

/// Probes once per process (through cudaDriver(), so KILN_CUDA_DRIVER applies) and caches it.
const CudaProbe& probeCuda();

/// Probes the given driver library now, uncached (tests point it at the toolkit's stub).
CudaProbe probeCudaLibrary(const std::string& library);

/// "no CUDA device was found: <problem>", the sentence scripts and the CLI show.
std::string noCudaDeviceMessage(const CudaProbe& probe);

} // namespace kiln::runtime
