// SPDX-License-Identifier: MIT
#include "codegen/cuda/cupti.h"

#include <cstdlib>
#include <cupti.h>
#include <dlfcn.h>
#include <map>
#include <mutex>

namespace kiln::codegen::cuda {

namespace {

#define KILN_CUPTI_FUNCS(X)                                                                        \
    X(cuptiGetVersion)                                                                             \
    X(cuptiGetResultString)                                                                        \
    X(cuptiActivityEnable)                                                                         \
    X(cuptiActivityDisable)                                                                        \
    X(cuptiActivityRegisterCallbacks)                                                              \
    X(cuptiActivityFlushAll)                                                                       \
    X(cuptiActivityGetNextRecord)                                                                  \
    X(cuptiActivityGetNumDroppedRecords)                                                           \
    X(cuptiActivityPushExternalCorrelationId)                                                      \
    X(cuptiActivityPopExternalCorrelationId)                                                       \
    X(cuptiGetTimestamp)

struct Library {
#define KILN_DECLARE(f) decltype(&::f) f = nullptr;
    KILN_CUPTI_FUNCS(KILN_DECLARE)
#undef KILN_DECLARE
    std::string error;
};

const Library& library() {
    static Library lib;
    static std::once_flag once;
    std::call_once(once, [] {
        void* h = dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* why = dlerror();
            lib.error = std::string("CUPTI unavailable: dlopen(libcupti.so.13) failed: ") +
                        (why ? why : "unknown error");
            return;
        }
#define KILN_LOAD(f)                                                                               \
    lib.f = reinterpret_cast<decltype(lib.f)>(dlsym(h, #f));                                       \
    if (!lib.f && lib.error.empty()) lib.error = "CUPTI unavailable: no symbol " #f;
        KILN_CUPTI_FUNCS(KILN_LOAD)
#undef KILN_LOAD
    });
    return lib;
}

/// Buffers CUPTI filled, queued by the completion callback and parsed in flush().
struct Pending {
    std::mutex mutex;
    std::vector<std::pair<uint8_t*, size_t>> buffers;
    bool active = false;
};
Pending& pending() {
    static Pending p;
    return p;
}

constexpr size_t kBufferBytes = 8 << 20;
// External correlation records are emitted for driver API records, so the driver API kind is
// on too (its records are skipped when parsing).
constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_DRIVER};

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxRecords = 0;
}

// Runs on CUPTI's thread, possibly while the program times something: only queue the buffer.
void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    Pending& p = pending();
    std::lock_guard lock(p.mutex);
    p.buffers.emplace_back(buffer, valid);
}

std::string resultText(const Library& lib, CUptiResult r) {
    const char* text = nullptr;
    if (lib.cuptiGetResultString) lib.cuptiGetResultString(r, &text);
    return text ? text : "CUPTI error " + std::to_string(static_cast<int>(r));
}

void parse(const Library& lib, uint8_t* buffer, size_t valid, ActivityRecords& out,
           std::map<uint32_t, uint64_t>& external) {
    CUpti_Activity* record = nullptr;
    while (lib.cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
            record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            KernelActivity a;
            a.name = k->name ? k->name : "";
            a.start = k->start;
            a.end = k->end;
            a.grid[0] = k->gridX, a.grid[1] = k->gridY, a.grid[2] = k->gridZ;
            a.block[0] = k->blockX, a.block[1] = k->blockY, a.block[2] = k->blockZ;
            a.registersPerThread = k->registersPerThread;
            a.staticSharedBytes = k->staticSharedMemory;
            a.dynamicSharedBytes = k->dynamicSharedMemory;
            a.deviceId = k->deviceId;
            a.streamId = k->streamId;
            a.correlationId = k->correlationId;
            out.kernels.push_back(std::move(a));
        } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            out.memcpys.push_back(
                {m->copyKind, m->bytes, m->start, m->end, m->streamId, m->correlationId, 0});
        } else if (record->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
            auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
            external[e->correlationId] = e->externalId;
        }
    }
}

} // namespace

Expected<uint32_t> CuptiSession::version() {
    const Library& lib = library();
    if (!lib.error.empty()) return makeDiagnostic("CudaUnavailable", lib.error);
    uint32_t v = 0;
    if (CUptiResult r = lib.cuptiGetVersion(&v); r != CUPTI_SUCCESS)
        return makeDiagnostic("CudaUnavailable", "CUPTI unavailable: " + resultText(lib, r));
    return v;
}

Expected<std::unique_ptr<CuptiSession>> CuptiSession::start() {
    const Library& lib = library();
    if (!lib.error.empty()) return makeDiagnostic("CudaUnavailable", lib.error);
    Pending& p = pending();
    {
        std::lock_guard lock(p.mutex);
        if (p.active)
            return makeDiagnostic("CudaUnavailable",
                                  "CUPTI unavailable: another profiling session is active");
    }
    CUptiResult r = lib.cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (r != CUPTI_SUCCESS)
        return makeDiagnostic("CudaUnavailable",
                              "CUPTI unavailable: cuptiActivityRegisterCallbacks: " +
                                  resultText(lib, r));
    for (CUpti_ActivityKind kind : kKinds) {
        r = lib.cuptiActivityEnable(kind);
        if (r != CUPTI_SUCCESS) {
            for (CUpti_ActivityKind k : kKinds)
                lib.cuptiActivityDisable(k);
            // Without a driver this is CUPTI_ERROR_UNKNOWN.
            return makeDiagnostic("CudaUnavailable",
                                  "CUPTI unavailable: cuptiActivityEnable: " + resultText(lib, r));
        }
    }
    std::lock_guard lock(p.mutex);
    p.active = true;
    return std::unique_ptr<CuptiSession>(new CuptiSession);
}

CuptiSession::~CuptiSession() {
    const Library& lib = library();
    for (CUpti_ActivityKind k : kKinds)
        lib.cuptiActivityDisable(k);
    lib.cuptiActivityFlushAll(0);
    Pending& p = pending();
    std::lock_guard lock(p.mutex);
    for (auto& [buffer, size] : p.buffers)
        std::free(buffer);
    p.buffers.clear();
    p.active = false;
}

void CuptiSession::pushExternalId(uint64_t id) {
    library().cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id);
}

void CuptiSession::popExternalId() {
    uint64_t last = 0;
    library().cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
}

uint64_t CuptiSession::timestampNs() {
    uint64_t t = 0;
    library().cuptiGetTimestamp(&t);
    return t;
}

ActivityRecords CuptiSession::flush() {
    const Library& lib = library();
    lib.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::vector<std::pair<uint8_t*, size_t>> buffers;
    {
        std::lock_guard lock(pending().mutex);
        buffers.swap(pending().buffers);
    }
    ActivityRecords out;
    std::map<uint32_t, uint64_t> external;
    for (auto& [buffer, valid] : buffers) {
        parse(lib, buffer, valid, out, external);
        std::free(buffer);
    }
    // External correlation records name the CUPTI correlation id of the launch they precede.
    for (KernelActivity& k : out.kernels)
        if (auto it = external.find(k.correlationId); it != external.end())
            k.externalId = it->second;
    for (MemcpyActivity& m : out.memcpys)
        if (auto it = external.find(m.correlationId); it != external.end())
            m.externalId = it->second;
    size_t dropped = 0;
    lib.cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
    out.droppedRecords = dropped;
    return out;
}

} // namespace kiln::codegen::cuda
