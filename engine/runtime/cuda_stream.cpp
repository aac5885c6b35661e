// SPDX-License-Identifier: MIT
#include "runtime/cuda_stream.h"

namespace kiln::runtime {

namespace {

thread_local std::shared_ptr<CudaStream> t_current;

} // namespace

CudaStream::CudaStream(const CudaContext& context, cu::Stream stream, bool owned)
    : m_context(context)
    , m_stream(stream)
    , m_owned(owned) {}

CudaStream::~CudaStream() {
    // A failure here only leaks a stream handle; the driver frees it at exit.
    if (m_owned && m_context.makeCurrent()) m_context.driver().streamDestroy(m_stream);
}

Expected<std::shared_ptr<CudaStream>> CudaStream::create(const CudaContext& context,
                                                         bool nonBlocking) {
    if (Status s = context.makeCurrent(); !s) return s.error();
    cu::Stream stream = nullptr;
    const CudaDriver& d = context.driver();
    if (cu::Result rc = d.streamCreate(&stream, nonBlocking ? cu::kStreamNonBlocking : 0);
        rc != cu::kSuccess)
        return cudaFailure(d, "cuStreamCreate", rc);
    return std::shared_ptr<CudaStream>(new CudaStream(context, stream, true));
}

std::shared_ptr<CudaStream> CudaStream::defaultStream(const CudaContext& context) {
    return std::shared_ptr<CudaStream>(new CudaStream(context, nullptr, false));
}

Status CudaStream::synchronize() const {
    if (Status s = m_context.makeCurrent(); !s) return s;
    return cudaCheck(m_context.driver(), "cuStreamSynchronize",
                     m_context.driver().streamSynchronize(m_stream));
}

Expected<bool> CudaStream::query() const {
    if (Status s = m_context.makeCurrent(); !s) return s.error();
    cu::Result rc = m_context.driver().streamQuery(m_stream);
    if (rc == cu::kSuccess) return true;
    if (rc == cu::kErrorNotReady) return false;
    return cudaFailure(m_context.driver(), "cuStreamQuery", rc);
}

CudaEvent::CudaEvent(const CudaContext& context, cu::Event event, bool timing)
    : m_context(context)
    , m_event(event)
    , m_timing(timing) {}

CudaEvent::~CudaEvent() {
    if (m_context.makeCurrent()) m_context.driver().eventDestroy(m_event);
}

Expected<std::unique_ptr<CudaEvent>> CudaEvent::create(const CudaContext& context, bool timing) {
    if (Status s = context.makeCurrent(); !s) return s.error();
    cu::Event event = nullptr;
    const CudaDriver& d = context.driver();
    if (cu::Result rc = d.eventCreate(&event, timing ? 0 : cu::kEventDisableTiming);
        rc != cu::kSuccess)
        return cudaFailure(d, "cuEventCreate", rc);
    return std::unique_ptr<CudaEvent>(new CudaEvent(context, event, timing));
}

Status CudaEvent::record(const CudaStream& stream) {
    if (Status s = m_context.makeCurrent(); !s) return s;
    Status s = cudaCheck(m_context.driver(), "cuEventRecord",
                         m_context.driver().eventRecord(m_event, stream.handle()));
    if (s) m_recorded = true;
    return s;
}

Status CudaEvent::synchronize() const {
    if (Status s = m_context.makeCurrent(); !s) return s;
    return cudaCheck(m_context.driver(), "cuEventSynchronize",
                     m_context.driver().eventSynchronize(m_event));
}

Expected<bool> CudaEvent::query() const {
    if (Status s = m_context.makeCurrent(); !s) return s.error();
    cu::Result rc = m_context.driver().eventQuery(m_event);
    if (rc == cu::kSuccess) return true;
    if (rc == cu::kErrorNotReady) return false;
    return cudaFailure(m_context.driver(), "cuEventQuery", rc);
}

Status CudaEvent::block(const CudaStream& stream) const {
    if (Status s = m_context.makeCurrent(); !s) return s;
    return cudaCheck(m_context.driver(), "cuStreamWaitEvent",
                     m_context.driver().streamWaitEvent(stream.handle(), m_event, 0));
}

Expected<float> CudaEvent::elapsedMs(const CudaEvent& end) const {
    // PyTorch's checks (torch/csrc/cuda/Event.cpp and c10's CUDA event), in its words.
    if (!m_timing || !end.m_timing)
        return makeDiagnostic("RuntimeError",
                              "Both events must be created with argument 'enable_timing=True'.");
    if (!m_recorded || !end.m_recorded)
        return makeDiagnostic("RuntimeError",
                              "Both events must be recorded before calculating elapsed time.");
    if (Status s = m_context.makeCurrent(); !s) return s.error();
    float ms = 0;
    const CudaDriver& d = m_context.driver();
    if (cu::Result rc = d.eventElapsedTime(&ms, m_event, end.m_event); rc != cu::kSuccess)
        return cudaFailure(d, "cuEventElapsedTime", rc);
    return ms;
}

std::shared_ptr<CudaStream> currentStream(const CudaContext& context) {
    if (t_current && &t_current->context() == &context) return t_current;
    return CudaStream::defaultStream(context);
}

void setCurrentStream(std::shared_ptr<CudaStream> stream) {
    t_current = std::move(stream);
}

} // namespace kiln::runtime
