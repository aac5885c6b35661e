// SPDX-License-Identifier: MIT
#include "runtime/cuda_memory.h"

#include "tensor/error.h"

#include <memory>
#include <mutex>
#include <vector>

namespace kiln::runtime {

namespace {

StreamId streamId(cu::Stream s) {
    return reinterpret_cast<StreamId>(s);
}

cu::Stream streamOf(StreamId s) {
    return reinterpret_cast<cu::Stream>(s);
}

class CudaTensorAllocator final : public tensor::Allocator {
public:
    CudaTensorAllocator(const CudaContext& context, CachingAllocator& cache)
        : m_context(context)
        , m_cache(cache) {}

    void* allocate(int64_t bytes) override {
        if (bytes < 0) tensor::failRuntime("negative allocation size");
        if (Status s = m_context.makeCurrent(); !s) tensor::failRuntime(s.error().message);
        StreamId stream = streamId(currentStream(m_context)->handle());
        Expected<DevicePtr> ptr = m_cache.allocate(static_cast<size_t>(bytes), stream);
        if (!ptr) {
            const Diagnostic& e = ptr.error();
            tensor::fail(e.kind == "OutOfMemoryError" ? tensor::ErrorKind::OutOfMemoryError
                                                      : tensor::ErrorKind::RuntimeError,
                         e.message);
        }
        return reinterpret_cast<void*>(static_cast<uintptr_t>(*ptr));
    }

    void deallocate(void* ptr, int64_t) override {
        m_cache.deallocate(static_cast<DevicePtr>(reinterpret_cast<uintptr_t>(ptr)));
    }

    tensor::Device device() const override {
        return tensor::Device{tensor::DeviceType::CUDA, m_context.device()};
    }

    void copyToHost(void* hostDst, const void* src, int64_t bytes) const override {
        check(copyDeviceToHost(m_context, hostDst, pointer(src), static_cast<size_t>(bytes)));
    }

    void copyFromHost(void* dst, const void* hostSrc, int64_t bytes) const override {
        check(copyHostToDevice(m_context, pointer(dst), hostSrc, static_cast<size_t>(bytes)));
    }

private:
    static DevicePtr pointer(const void* p) {
        return static_cast<DevicePtr>(reinterpret_cast<uintptr_t>(p));
    }
    static void check(const Status& s) {
        if (!s) tensor::failRuntime(s.error().message);
    }

    const CudaContext& m_context;
    CachingAllocator& m_cache;
};

struct DeviceMemory {
    std::unique_ptr<CachingAllocator> cache;
    std::unique_ptr<CudaTensorAllocator> tensors;
};

Expected<DeviceMemory*> deviceMemory(int device) {
    Expected<const CudaContext*> context = cudaContext(device);
    if (!context) return context.error();
    static std::mutex mutex;
    // Never destroyed: tensors held by static objects may be freed during exit.
    static auto* memories = new std::vector<std::unique_ptr<DeviceMemory>>();
    std::lock_guard lock(mutex);
    if (memories->size() <= static_cast<size_t>(device))
        memories->resize(static_cast<size_t>(device) + 1);
    auto& slot = (*memories)[static_cast<size_t>(device)];
    if (!slot) {
        slot = std::make_unique<DeviceMemory>();
        slot->cache = std::make_unique<CachingAllocator>(cudaAllocatorBackend(**context), device);
        slot->tensors = std::make_unique<CudaTensorAllocator>(**context, *slot->cache);
    }
    return slot.get();
}

template <typename Copy>
Status copyOnCurrentStream(const CudaContext& context, const char* what, Copy copy) {
    if (Status s = context.makeCurrent(); !s) return s;
    std::shared_ptr<CudaStream> stream = currentStream(context);
    if (Status s = cudaCheck(context.driver(), what, copy(stream->handle())); !s) return s;
    return stream->synchronize();
}

} // namespace

AllocatorBackend cudaAllocatorBackend(const CudaContext& context) {
    const CudaContext* c = &context;
    const CudaDriver* d = &context.driver();
    AllocatorBackend b;
    b.alloc = [c, d](size_t bytes) -> Expected<DevicePtr> {
        if (Status s = c->makeCurrent(); !s) return s.error();
        cu::DevicePtr ptr = 0;
        cu::Result rc = d->memAlloc(&ptr, bytes);
        if (rc == cu::kErrorOutOfMemory)
            return makeDiagnostic("CudaOutOfMemory", "cuMemAlloc: out of memory");
        if (rc != cu::kSuccess) return cudaFailure(*d, "cuMemAlloc", rc);
        return DevicePtr{ptr};
    };
    b.free = [c, d](DevicePtr ptr) {
        if (c->makeCurrent()) d->memFree(ptr);
    };
    b.memoryInfo = [c]() -> std::pair<size_t, size_t> {
        Expected<std::pair<size_t, size_t>> info = c->memoryInfo();
        return info ? *info : std::pair<size_t, size_t>{0, 0};
    };
    b.recordEvent = [c, d](StreamId stream) -> uint64_t {
        cu::Event event = nullptr;
        // Without an event the block cannot be reused safely: wait for the stream instead.
        if (!c->makeCurrent() || d->eventCreate(&event, cu::kEventDisableTiming) != cu::kSuccess) {
            d->streamSynchronize(streamOf(stream));
            return 0;
        }
        d->eventRecord(event, streamOf(stream));
        return reinterpret_cast<uint64_t>(event);
    };
    b.eventDone = [d](uint64_t event) {
        return event == 0 ||
               d->eventQuery(reinterpret_cast<cu::Event>(event)) != cu::kErrorNotReady;
    };
    b.eventDestroy = [d](uint64_t event) {
        if (event) d->eventDestroy(reinterpret_cast<cu::Event>(event));
    };
    b.synchronize = [c]() { (void)c->synchronize(); };
    return b;
}

Expected<CachingAllocator*> cudaCachingAllocator(int device) {
    Expected<DeviceMemory*> m = deviceMemory(device);
    if (!m) return m.error();
    return (*m)->cache.get();
}

Expected<tensor::Allocator*> cudaTensorAllocator(int device) {
    Expected<DeviceMemory*> m = deviceMemory(device);
    if (!m) return m.error();
    return static_cast<tensor::Allocator*>((*m)->tensors.get());
}

Status copyHostToDevice(const CudaContext& context, DevicePtr dst, const void* src, size_t bytes) {
    if (bytes == 0) return Status::success();
    return copyOnCurrentStream(context, "cuMemcpyHtoDAsync", [&](cu::Stream s) {
        return context.driver().memcpyHtoDAsync(dst, src, bytes, s);
    });
}

Status copyDeviceToHost(const CudaContext& context, void* dst, DevicePtr src, size_t bytes) {
    if (bytes == 0) return Status::success();
    return copyOnCurrentStream(context, "cuMemcpyDtoHAsync", [&](cu::Stream s) {
        return context.driver().memcpyDtoHAsync(dst, src, bytes, s);
    });
}

Status fillDeviceBytes(const CudaContext& context, DevicePtr dst, unsigned char value,
                       size_t bytes) {
    if (bytes == 0) return Status::success();
    return copyOnCurrentStream(context, "cuMemsetD8Async", [&](cu::Stream s) {
        return context.driver().memsetD8Async(dst, value, bytes, s);
    });
}

Status fillDevicePattern(const CudaContext& context, DevicePtr dst, uint32_t pattern, int width,
                         size_t count) {
    if (count == 0) return Status::success();
    return copyOnCurrentStream(context, "cuMemsetD32Async", [&](cu::Stream s) {
        if (width == 1)
            return context.driver().memsetD8Async(dst, static_cast<unsigned char>(pattern), count,
                                                  s);
        if (width == 2)
            return context.driver().memsetD16Async(dst, static_cast<unsigned short>(pattern), count,
                                                   s);
        return context.driver().memsetD32Async(dst, pattern, count, s);
    });
}

Status copyDeviceToDevice(const CudaContext& context, DevicePtr dst, DevicePtr src, size_t bytes) {
    if (bytes == 0) return Status::success();
    return copyOnCurrentStream(context, "cuMemcpyDtoDAsync", [&](cu::Stream s) {
        return context.driver().memcpyDtoDAsync(dst, src, bytes, s);
    });
}

Status enqueueDeviceToDevice(const CudaContext& context, DevicePtr dst, DevicePtr src,
                             size_t bytes) {
    if (bytes == 0) return Status::success();
    if (Status s = context.makeCurrent(); !s) return s;
    std::shared_ptr<CudaStream> stream = currentStream(context);
    return cudaCheck(context.driver(), "cuMemcpyDtoDAsync",
                     context.driver().memcpyDtoDAsync(dst, src, bytes, stream->handle()));
}

} // namespace kiln::runtime
