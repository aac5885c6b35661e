// SPDX-License-Identifier: MIT
/// \file
/// Finds out, without linking the CUDA driver, whether this machine has an NVIDIA GPU: the
/// driver library is loaded with dlopen at run time, so one build runs with and without a GPU.
#pragma once

#include <string>

namespace kiln::runtime {

struct CudaProbe {
    bool driverLoaded = false; ///< libcuda.so.1 could be loaded
    bool initialised = false;  ///< cuInit succeeded
    int deviceCount = 0;
    int driverVersion = 0;  ///< e.g. 13000 for CUDA 13.0
    std::string deviceName; ///< name of device 0
    std::string problem;    ///< why there is no usable GPU (empty when there is one)

    bool available() const { return deviceCount > 0; }
    /// "NVIDIA H200 (driver 13.0)" or "none (<problem>)".
    std::string describe() const;
};

/// Probes once per process and caches the answer.
const CudaProbe& probeCuda();

} // namespace kiln::runtime
