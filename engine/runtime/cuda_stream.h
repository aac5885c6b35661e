// SPDX-License-Identifier: MIT
/// \file
/// CUDA streams and events (torch.cuda.Stream / torch.cuda.Event), and the calling thread's
/// current stream: the stream that allocations are ordered on and that copies and launches
/// use unless told otherwise. The default stream is the legacy default stream (handle
/// nullptr), as PyTorch's.
#pragma once

#include "runtime/cuda_context.h"

#include <memory>

namespace kiln::runtime {

class CudaStream {
public:
    /// A new stream on the context's device; `nonBlocking` streams do not synchronise with the
    /// default stream.
    static Expected<std::shared_ptr<CudaStream>> create(const CudaContext& context,
                                                        bool nonBlocking = false);
    /// The default stream of the context's device (never destroyed).
    static std::shared_ptr<CudaStream> defaultStream(const CudaContext& context);
    ~CudaStream();
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;

    cu::Stream handle() const { return m_stream; }
    const CudaContext& context() const { return m_context; }
    bool isDefault() const { return m_stream == nullptr; }
    /// Waits for all work queued on the stream.
    Status synchronize() const;
    /// True when all queued work is done.
    Expected<bool> query() const;

private:
    CudaStream(const CudaContext& context, cu::Stream stream, bool owned);

    const CudaContext& m_context;
    cu::Stream m_stream;
    bool m_owned;
};

class CudaEvent {
public:
    /// Timing events cost more to record; PyTorch's default is enable_timing=False.
    static Expected<std::unique_ptr<CudaEvent>> create(const CudaContext& context, bool timing);
    ~CudaEvent();
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;

    cu::Event handle() const { return m_event; }
    bool timing() const { return m_timing; }
    bool recorded() const { return m_recorded; }
    Status record(const CudaStream& stream);
    Status synchronize() const;
    Expected<bool> query() const;
    /// Makes `stream` wait for this event (stream.wait_event).
    Status block(const CudaStream& stream) const;
    /// Milliseconds from this event to `end`; both must be recorded timing events that
    /// completed (PyTorch's errors otherwise).
    Expected<float> elapsedMs(const CudaEvent& end) const;

private:
    CudaEvent(const CudaContext& context, cu::Event event, bool timing);

    const CudaContext& m_context;
    cu::Event m_event;
    bool m_timing;
    bool m_recorded = false;
};

/// The calling thread's current stream for `context`'s device (the default stream unless
/// setCurrentStream chose another).
std::shared_ptr<CudaStream> currentStream(const CudaContext& context);
/// Sets it (torch.cuda.set_stream / `with torch.cuda.stream(s)`); nullptr restores the default.
void setCurrentStream(std::shared_ptr<CudaStream> stream);

} // namespace kiln::runtime
