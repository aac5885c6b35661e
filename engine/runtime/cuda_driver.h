// SPDX-License-Identifier: MIT
/// \file
/// The CUDA driver API as a table of function pointers filled by dlopen/dlsym at run time, so
/// one Kiln binary starts on machines with and without an NVIDIA driver (linking libcuda would
/// make it fail to load without one). Everything else in runtime/ calls the driver through
/// this table.
#pragma once

#include "runtime/cuda_abi.h"
#include "support/expected.h"

#include <string>

namespace kiln::runtime {

// X(member, ABI symbol, return, parameters). The symbols are the versioned names cuda.h's
// macros map to (cuMemAlloc -> cuMemAlloc_v2), the names a CUDA 13 driver exports.
#define KILN_CUDA_DRIVER_FUNCTIONS(X)                                                              \
    X(init, cuInit, cu::Result, (unsigned))                                                        \
    X(driverGetVersion, cuDriverGetVersion, cu::Result, (int*))                                    \
    X(getErrorName, cuGetErrorName, cu::Result, (cu::Result, const char**))                        \
    X(getErrorString, cuGetErrorString, cu::Result, (cu::Result, const char**))                    \
    X(deviceGetCount, cuDeviceGetCount, cu::Result, (int*))                                        \
    X(deviceGet, cuDeviceGet, cu::Result, (cu::Device*, int))                                      \
    X(deviceGetName, cuDeviceGetName, cu::Result, (char*, int, cu::Device))                        \
    X(deviceGetAttribute, cuDeviceGetAttribute, cu::Result, (int*, int, cu::Device))               \
    X(deviceTotalMem, cuDeviceTotalMem_v2, cu::Result, (size_t*, cu::Device))                      \
    X(primaryCtxRetain, cuDevicePrimaryCtxRetain, cu::Result, (cu::Context*, cu::Device))          \
    X(primaryCtxRelease, cuDevicePrimaryCtxRelease_v2, cu::Result, (cu::Device))                   \
    X(ctxSetCurrent, cuCtxSetCurrent, cu::Result, (cu::Context))                                   \
    X(ctxGetCurrent, cuCtxGetCurrent, cu::Result, (cu::Context*))                                  \
    X(ctxSynchronize, cuCtxSynchronize, cu::Result, ())                                            \
    X(memAlloc, cuMemAlloc_v2, cu::Result, (cu::DevicePtr*, size_t))                               \
    X(memFree, cuMemFree_v2, cu::Result, (cu::DevicePtr))                                          \
    X(memGetInfo, cuMemGetInfo_v2, cu::Result, (size_t*, size_t*))                                 \
    X(memcpyHtoDAsync, cuMemcpyHtoDAsync_v2, cu::Result,                                           \
      (cu::DevicePtr, const void*, size_t, cu::Stream))                                            \
    X(memcpyDtoHAsync, cuMemcpyDtoHAsync_v2, cu::Result,                                           \
      (void*, cu::DevicePtr, size_t, cu::Stream))                                                  \
    X(memcpyDtoDAsync, cuMemcpyDtoDAsync_v2, cu::Result,                                           \
      (cu::DevicePtr, cu::DevicePtr, size_t, cu::Stream))                                          \
    X(memsetD8Async, cuMemsetD8Async, cu::Result,                                                  \
      (cu::DevicePtr, unsigned char, size_t, cu::Stream))                                          \
    X(memsetD16Async, cuMemsetD16Async, cu::Result,                                                \
      (cu::DevicePtr, unsigned short, size_t, cu::Stream))                                         \
    X(memsetD32Async, cuMemsetD32Async, cu::Result,                                                \
      (cu::DevicePtr, unsigned int, size_t, cu::Stream))                                           \
    X(streamCreate, cuStreamCreate, cu::Result, (cu::Stream*, unsigned))                           \
    X(streamDestroy, cuStreamDestroy_v2, cu::Result, (cu::Stream))                                 \
    X(streamSynchronize, cuStreamSynchronize, cu::Result, (cu::Stream))                            \
    X(streamQuery, cuStreamQuery, cu::Result, (cu::Stream))                                        \
    X(streamWaitEvent, cuStreamWaitEvent, cu::Result, (cu::Stream, cu::Event, unsigned))           \
    X(eventCreate, cuEventCreate, cu::Result, (cu::Event*, unsigned))                              \
    X(eventDestroy, cuEventDestroy_v2, cu::Result, (cu::Event))                                    \
    X(eventRecord, cuEventRecord, cu::Result, (cu::Event, cu::Stream))                             \
    X(eventQuery, cuEventQuery, cu::Result, (cu::Event))                                           \
    X(eventSynchronize, cuEventSynchronize, cu::Result, (cu::Event))                               \
    X(eventElapsedTime, cuEventElapsedTime_v2, cu::Result, (float*, cu::Event, cu::Event))         \
    X(moduleLoadData, cuModuleLoadData, cu::Result, (cu::Module*, const void*))                    \
    X(moduleUnload, cuModuleUnload, cu::Result, (cu::Module))                                      \
    X(moduleGetFunction, cuModuleGetFunction, cu::Result,                                          \
      (cu::Function*, cu::Module, const char*))                                                    \
    X(funcGetAttribute, cuFuncGetAttribute, cu::Result, (int*, int, cu::Function))                 \
    X(funcSetAttribute, cuFuncSetAttribute, cu::Result, (cu::Function, int, int))                  \
    X(launchKernel, cuLaunchKernel, cu::Result,                                                    \
      (cu::Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,         \
       cu::Stream, void**, void**))

/// The driver's entry points. A CudaDriver handed out by loadCudaDriver has every pointer set.
struct CudaDriver {
#define KILN_CUDA_DECLARE(member, symbol, ret, params) ret(*member) params = nullptr;
    KILN_CUDA_DRIVER_FUNCTIONS(KILN_CUDA_DECLARE)
#undef KILN_CUDA_DECLARE

    /// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", or the number when the driver has no name.
    std::string errorText(cu::Result rc) const;
};

/// Loads `library` (a soname or a path) and resolves every entry point. It does not call
/// cuInit. Fails with kind "CudaUnavailable" when the library is missing, "CudaDriverTooOld"
/// when it lacks an entry point of CUDA 13.
/// The handle stays open for the life of the process, as drivers expect.
Expected<const CudaDriver*> loadCudaDriver(const std::string& library);

/// The process's driver: libcuda.so.1 from the loader's search path (KILN_CUDA_DRIVER names
/// another file, for tests against the toolkit's stub), loaded once.
Expected<const CudaDriver*> cudaDriver();

/// A Diagnostic of kind "CudaError": "<what> failed: CUDA_ERROR_... (text)".
Diagnostic cudaFailure(const CudaDriver& driver, const std::string& what, cu::Result rc);

/// Success, or cudaFailure(...) when rc is not CUDA_SUCCESS.
Status cudaCheck(const CudaDriver& driver, const std::string& what, cu::Result rc);

} // namespace kiln::runtime
