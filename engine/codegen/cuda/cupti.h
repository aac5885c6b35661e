// SPDX-License-Identifier: MIT
/// \file
/// CUPTI's activity API, loaded at run time (dlopen of libcupti.so.13): kernel
/// (CONCURRENT_KERNEL, read as CUpti_ActivityKernel10, the CUDA 13 layout) and memcpy records,
/// tied to Kiln's kernel ids through external correlation ids (push before a launch, pop
/// after). CUPTI hands full buffers to a callback that only queues them; records are parsed in
/// flush(), which the caller runs outside its timed region. Without a driver
/// cuptiActivityEnable returns CUPTI_ERROR_UNKNOWN: start() then says "CUPTI unavailable: ...".
#pragma once

#include "support/expected.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln::codegen::cuda {

struct KernelActivity {
    std::string name;
    uint64_t start = 0, end = 0; ///< ns, CUPTI's clock
    int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    uint16_t registersPerThread = 0;
    int32_t staticSharedBytes = 0, dynamicSharedBytes = 0;
    uint32_t deviceId = 0, streamId = 0, correlationId = 0;
    uint64_t externalId = 0; ///< the id pushed around its launch; 0 when none
};

struct MemcpyActivity {
    uint8_t copyKind = 0; ///< CUpti_ActivityMemcpyKind (1 HtoD, 2 DtoH, 8 DtoD, ...)
    uint64_t bytes = 0, start = 0, end = 0;
    uint32_t streamId = 0, correlationId = 0;
    uint64_t externalId = 0;
};

struct ActivityRecords {
    std::vector<KernelActivity> kernels;
    std::vector<MemcpyActivity> memcpys;
    uint64_t droppedRecords = 0; ///< since the previous flush (CUPTI resets its count)
};

class CuptiSession {
public:
    /// Enables kernel, memcpy and external-correlation activity for the process (one session
    /// at a time), or "CUPTI unavailable: <reason>".
    static Expected<std::unique_ptr<CuptiSession>> start();
    ~CuptiSession(); ///< disables the activity kinds and drops unparsed buffers

    CuptiSession(const CuptiSession&) = delete;
    CuptiSession& operator=(const CuptiSession&) = delete;

    /// Launches between push and pop carry `id` as their externalId.
    void pushExternalId(uint64_t id);
    void popExternalId();

    /// Flushes CUPTI's buffers (after the device finished the work) and parses every record
    /// queued since the last flush.
    ActivityRecords flush();

    /// CUPTI's clock now, ns (the clock of the records' start and end).
    static uint64_t timestampNs();
    /// CUPTI's API version (cuptiGetVersion), e.g. 130001.
    static Expected<uint32_t> version();

private:
    CuptiSession() = default;
};

} // namespace kiln::codegen::cuda
