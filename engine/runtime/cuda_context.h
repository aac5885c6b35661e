// SPDX-License-Identifier: MIT
/// \file
/// A device's primary context (cuDevicePrimaryCtxRetain, the context the CUDA runtime, cuBLAS
/// and CUPTI share; CUDA 13 changed cuCtxCreate's signature, and a private context would not
/// be shared with those libraries), made current on whichever thread uses the device: scripts
/// run on their own thread, and a context is current per thread.
#pragma once

#include "runtime/cuda_driver.h"
#include "support/expected.h"

#include <utility>

namespace kiln::runtime {

class CudaContext {
public:
    CudaContext(const CudaDriver& driver, int device, cu::Device handle, cu::Context context);
    CudaContext(const CudaContext&) = delete;
    CudaContext& operator=(const CudaContext&) = delete;

    const CudaDriver& driver() const { return m_driver; }
    int device() const { return m_device; }
    cu::Context handle() const { return m_context; }

    /// Makes the context current on the calling thread (a no-op when it already is).
    Status makeCurrent() const;
    /// Waits for all work queued on the device (torch.cuda.synchronize).
    Status synchronize() const;
    /// (free bytes, total bytes) as cuMemGetInfo reports them.
    Expected<std::pair<size_t, size_t>> memoryInfo() const;

private:
    const CudaDriver& m_driver;
    int m_device;
    cu::Device m_handle;
    cu::Context m_context;
};

/// The primary context of `device`, retained once per process and made current on the calling
/// thread. Fails with kind "CudaUnavailable" and the probe's reason when there is no usable
/// GPU ("no CUDA device was found: ...") or `device` is out of range.
Expected<const CudaContext*> cudaContext(int device = 0);

} // namespace kiln::runtime
