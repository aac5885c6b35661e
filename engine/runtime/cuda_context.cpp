// SPDX-License-Identifier: MIT
#include "runtime/cuda_context.h"

#include "runtime/device_probe.h"
#include "runtime/library_prefetch.h"

#include <memory>
#include <mutex>
#include <vector>

namespace kiln::runtime {

namespace {

thread_local cu::Context t_current = nullptr;

Expected<std::unique_ptr<CudaContext>> retainPrimary(const CudaDriver& d, int device) {
    cu::Device handle = 0;
    if (cu::Result rc = d.deviceGet(&handle, device); rc != cu::kSuccess)
        return cudaFailure(d, "cuDeviceGet(" + std::to_string(device) + ")", rc);
    cu::Context context = nullptr;
    if (cu::Result rc = d.primaryCtxRetain(&context, handle); rc != cu::kSuccess)
        return cudaFailure(d, "cuDevicePrimaryCtxRetain", rc);
    return std::make_unique<CudaContext>(d, device, handle, context);
}

} // namespace

CudaContext::CudaContext(const CudaDriver& driver, int device, cu::Device handle,
                         cu::Context context)
    : m_driver(driver)
    , m_device(device)
    , m_handle(handle)
    , m_context(context) {}

Status CudaContext::makeCurrent() const {
    if (t_current == m_context) return Status::success();
    if (cu::Result rc = m_driver.ctxSetCurrent(m_context); rc != cu::kSuccess)
        return cudaFailure(m_driver, "cuCtxSetCurrent", rc);
    t_current = m_context;
    return Status::success();
}

Status CudaContext::synchronize() const {
    if (Status s = makeCurrent(); !s) return s;
    return cudaCheck(m_driver, "cuCtxSynchronize", m_driver.ctxSynchronize());
}

Expected<std::pair<size_t, size_t>> CudaContext::memoryInfo() const {
    if (Status s = makeCurrent(); !s) return s.error();
    size_t freeBytes = 0, totalBytes = 0;
    if (cu::Result rc = m_driver.memGetInfo(&freeBytes, &totalBytes); rc != cu::kSuccess)
        return cudaFailure(m_driver, "cuMemGetInfo", rc);
    return std::pair{freeBytes, totalBytes};
}

Expected<const CudaContext*> cudaContext(int device) {
    const CudaProbe& probe = probeCuda();
    if (!probe.available()) return makeDiagnostic("CudaUnavailable", noCudaDeviceMessage(probe));
    if (device < 0 || device >= probe.deviceCount)
        return makeDiagnostic("CudaUnavailable",
                              "CUDA error: invalid device ordinal " + std::to_string(device) +
                                  " (this machine has " + std::to_string(probe.deviceCount) +
                                  " CUDA device" + (probe.deviceCount == 1 ? "" : "s") + ")");
    static std::mutex mutex;
    static std::vector<std::unique_ptr<CudaContext>> contexts;
    const CudaContext* context = nullptr;
    {
        std::lock_guard lock(mutex);
        if (contexts.empty()) contexts.resize(static_cast<size_t>(probe.deviceCount));
        auto& slot = contexts[static_cast<size_t>(device)];
        if (!slot) {
            Expected<const CudaDriver*> driver = cudaDriver();
            if (!driver) return driver.error();
            Expected<std::unique_ptr<CudaContext>> made = retainPrimary(**driver, device);
            if (!made) return made.error();
            slot = std::move(*made);
            prefetchCudaLibraries();
        }
        context = slot.get();
    }
    if (Status s = context->makeCurrent(); !s) return s.error();
    return context;
}

} // namespace kiln::runtime
