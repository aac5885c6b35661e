// SPDX-License-Identifier: MIT
// torch.cuda: device queries, synchronize, seeds, the caching allocator's statistics,
// torch.cuda.Stream and torch.cuda.Event, and torch.cuda.OutOfMemoryError. Without a GPU the
// queries answer as PyTorch does on such a machine (is_available() False, device_count() 0,
// memory statistics 0) and everything that needs a device raises "no CUDA device was found".
#include "runtime/cuda_memory.h"
#include "runtime/cuda_tensor.h"
#include "runtime/device_probe.h"
#include "tensor/random.h"
#include "torchapi/bindings.h"
#include "torchapi/cuda_support.h"

#include <memory>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

tensor::Device g_defaultDevice;

class StreamObject final : public NativeObject {
public:
    StreamObject(TypeObject* type, std::shared_ptr<runtime::CudaStream> s)
        : NativeObject(type)
        , stream(std::move(s)) {}
    std::shared_ptr<runtime::CudaStream> stream;
};

class EventObject final : public NativeObject {
public:
    EventObject(TypeObject* type, std::unique_ptr<runtime::CudaEvent> e)
        : NativeObject(type)
        , event(std::move(e)) {}
    std::unique_ptr<runtime::CudaEvent> event;
};

struct CudaTypes {
    Ref<TypeObject> stream = makeNativeType("Stream", "torch.cuda");
    Ref<TypeObject> event = makeNativeType("Event", "torch.cuda");
};

const CudaTypes& cudaTypes() {
    static const CudaTypes types;
    return types;
}

[[noreturn]] void raiseRuntime(Interpreter& interp, const std::string& message) {
    interp.raise(builtinTypes().runtimeError.get(), message);
}

template <typename T>
T orRaise(Interpreter& interp, Expected<T> e) {
    if (!e) raiseRuntime(interp, e.error().message);
    return std::move(e).value();
}

void orRaise(Interpreter& interp, const Status& s) {
    if (!s) raiseRuntime(interp, s.error().message);
}

/// The device index of an optional `device` argument (None: the current device).
int deviceIndexArg(Interpreter& interp, const BoundArgs& a, size_t i) {
    requireCuda(interp);
    if (!a.has(i)) return runtime::currentCudaDevice();
    tensor::Device d = a[i].isIntLike() ? tensor::Device{tensor::DeviceType::CUDA,
                                                         static_cast<int32_t>(a.toInt(i))}
                                        : deviceOf(interp, a[i]);
    if (!d.isCuda()) raiseRuntime(interp, "Expected a cuda device, but got: " + d.str());
    return d.index < 0 ? runtime::currentCudaDevice() : d.index;
}

const runtime::CudaContext& contextArg(Interpreter& interp, const BoundArgs& a, size_t i) {
    return *orRaise(interp, runtime::cudaContext(deviceIndexArg(interp, a, i)));
}

Value isAvailable(Interpreter&, const CallArgs&, void*) {
    return Value::fromBool(runtime::probeCuda().available());
}

Value deviceCount(Interpreter&, const CallArgs&, void*) {
    return Value::fromInt(runtime::probeCuda().deviceCount);
}

Value currentDevice(Interpreter& interp, const CallArgs&, void*) {
    requireCuda(interp);
    return Value::fromInt(runtime::currentCudaDevice());
}

Value getDeviceName(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("get_device_name(device=None)");
    BoundArgs a = sig.bind(interp, args);
    deviceIndexArg(interp, a, 0);
    return strValue(runtime::probeCuda().deviceName);
}

Value getDeviceCapability(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("get_device_capability(device=None)");
    BoundArgs a = sig.bind(interp, args);
    deviceIndexArg(interp, a, 0);
    const runtime::CudaProbe& p = runtime::probeCuda();
    return tupleValue({Value::fromInt(p.capabilityMajor), Value::fromInt(p.capabilityMinor)});
}

Value synchronize(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("synchronize(device=None)");
    BoundArgs a = sig.bind(interp, args);
    orRaise(interp, contextArg(interp, a, 0).synchronize());
    return Value::none();
}

/// torch.cuda.manual_seed(_all): PyTorch queues the seed until CUDA starts, so neither raises
/// without a GPU.
Value manualSeed(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("manual_seed(seed)");
    BoundArgs a = sig.bind(interp, args);
    cudaGenerator().manualSeed(static_cast<uint64_t>(a.toInt(0)));
    return Value::none();
}

Value initialSeed(Interpreter& interp, const CallArgs&, void*) {
    return Value::fromInt(static_cast<int64_t>(cudaGenerator().initialSeed()));
}

enum class Stat { Allocated, MaxAllocated, Reserved, MaxReserved };

/// Memory statistics: 0 while CUDA is unavailable, as PyTorch reports before initialisation.
Value memoryStat(Interpreter& interp, const CallArgs& args, void* data) {
    static const Signature sig("memory_stat(device=None)");
    BoundArgs a = sig.bind(interp, args);
    if (!runtime::probeCuda().available()) return Value::fromInt(0);
    runtime::CachingAllocator* cache =
        orRaise(interp, runtime::cudaCachingAllocator(deviceIndexArg(interp, a, 0)));
    runtime::AllocatorStats s = cache->stats();
    switch (static_cast<Stat>(reinterpret_cast<intptr_t>(data))) {
    case Stat::Allocated:
        return Value::fromInt(s.allocated.current);
    case Stat::MaxAllocated:
        return Value::fromInt(s.allocated.peak);
    case Stat::Reserved:
        return Value::fromInt(s.reserved.current);
    case Stat::MaxReserved:
        return Value::fromInt(s.reserved.peak);
    }
    return Value::fromInt(0);
}

Value emptyCache(Interpreter& interp, const CallArgs&, void*) {
    if (!runtime::probeCuda().available()) return Value::none();
    orRaise(interp, runtime::cudaCachingAllocator(runtime::currentCudaDevice()))->emptyCache();
    return Value::none();
}

Value resetPeakMemoryStats(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("reset_peak_memory_stats(device=None)");
    BoundArgs a = sig.bind(interp, args);
    orRaise(interp, runtime::cudaCachingAllocator(deviceIndexArg(interp, a, 0)))->resetPeakStats();
    return Value::none();
}

Value streamValue(std::shared_ptr<runtime::CudaStream> s) {
    return Value(makeRef<StreamObject>(cudaTypes().stream.get(), std::move(s)));
}

StreamObject& streamSelf(Interpreter& interp, const Value& v) {
    if (!v.is(ObjectKind::Native) || v.asObject()->type() != cudaTypes().stream.get())
        interp.raiseTypeError("expected a torch.cuda.Stream, got " + interp.typeName(v));
    return *v.as<StreamObject>();
}

EventObject& eventSelf(Interpreter& interp, const Value& v) {
    if (!v.is(ObjectKind::Native) || v.asObject()->type() != cudaTypes().event.get())
        interp.raiseTypeError("expected a torch.cuda.Event, got " + interp.typeName(v));
    return *v.as<EventObject>();
}

Value streamCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("Stream(device=None, priority=0)");
    BoundArgs a = sig.bind(interp, args);
    return streamValue(orRaise(interp, runtime::CudaStream::create(contextArg(interp, a, 0))));
}

template <bool Default>
Value streamGetter(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(Default ? "default_stream(device=None)"
                                       : "current_stream(device=None)");
    BoundArgs a = sig.bind(interp, args);
    const runtime::CudaContext& c = contextArg(interp, a, 0);
    return streamValue(Default ? runtime::CudaStream::defaultStream(c) : runtime::currentStream(c));
}

Value streamSynchronize(Interpreter& interp, const CallArgs& args, void*) {
    orRaise(interp, streamSelf(interp, args.positional[0]).stream->synchronize());
    return Value::none();
}

Value streamQuery(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromBool(orRaise(interp, streamSelf(interp, args.positional[0]).stream->query()));
}

Value streamWaitEvent(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("wait_event(self, event)");
    BoundArgs a = sig.bind(interp, args);
    orRaise(interp, eventSelf(interp, a[1]).event->block(*streamSelf(interp, a[0]).stream));
    return Value::none();
}

/// stream.wait_stream(other): work queued on `stream` later waits for what `other` has queued.
Value streamWaitStream(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("wait_stream(self, stream)");
    BoundArgs a = sig.bind(interp, args);
    StreamObject& self = streamSelf(interp, a[0]);
    auto e = orRaise(interp, runtime::CudaEvent::create(self.stream->context(), false));
    orRaise(interp, e->record(*streamSelf(interp, a[1]).stream));
    orRaise(interp, e->block(*self.stream));
    return Value::none();
}

Value streamEq(Interpreter& interp, const CallArgs& args, void*) {
    const Value& other = args.positional[1];
    if (!other.is(ObjectKind::Native) || other.asObject()->type() != cudaTypes().stream.get())
        return notImplementedValue();
    return Value::fromBool(streamSelf(interp, args.positional[0]).stream->handle() ==
                           other.as<StreamObject>()->stream->handle());
}

Value streamRepr(Interpreter& interp, const CallArgs& args, void*) {
    const StreamObject& s = streamSelf(interp, args.positional[0]);
    char handle[32];
    std::snprintf(handle, sizeof handle, "%#llx",
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(s.stream->handle())));
    return strValue(
        "<torch.cuda.Stream device=cuda:" + std::to_string(s.stream->context().device()) +
        " cuda_stream=" + (s.stream->isDefault() ? std::string("0x0") : std::string(handle)) + ">");
}

Value eventCtor(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("Event(enable_timing=False, blocking=False, interprocess=False)");
    BoundArgs a = sig.bind(interp, args);
    requireCuda(interp);
    const runtime::CudaContext& c =
        *orRaise(interp, runtime::cudaContext(runtime::currentCudaDevice()));
    auto e = orRaise(interp, runtime::CudaEvent::create(c, a.toBool(0)));
    return Value(makeRef<EventObject>(cudaTypes().event.get(), std::move(e)));
}

Value eventRecord(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("record(self, stream=None)");
    BoundArgs a = sig.bind(interp, args);
    EventObject& self = eventSelf(interp, a[0]);
    const runtime::CudaContext& c =
        *orRaise(interp, runtime::cudaContext(runtime::currentCudaDevice()));
    std::shared_ptr<runtime::CudaStream> s =
        a.has(1) ? streamSelf(interp, a[1]).stream : runtime::currentStream(c);
    orRaise(interp, self.event->record(*s));
    return Value::none();
}

Value eventSynchronize(Interpreter& interp, const CallArgs& args, void*) {
    orRaise(interp, eventSelf(interp, args.positional[0]).event->synchronize());
    return Value::none();
}

Value eventQuery(Interpreter& interp, const CallArgs& args, void*) {
    return Value::fromBool(orRaise(interp, eventSelf(interp, args.positional[0]).event->query()));
}

Value eventElapsedTime(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("elapsed_time(self, end_event)");
    BoundArgs a = sig.bind(interp, args);
    float ms =
        orRaise(interp, eventSelf(interp, a[0]).event->elapsedMs(*eventSelf(interp, a[1]).event));
    return Value::fromFloat(static_cast<double>(ms));
}

Value eventWait(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig("wait(self, stream=None)");
    BoundArgs a = sig.bind(interp, args);
    const runtime::CudaContext& c =
        *orRaise(interp, runtime::cudaContext(runtime::currentCudaDevice()));
    std::shared_ptr<runtime::CudaStream> s =
        a.has(1) ? streamSelf(interp, a[1]).stream : runtime::currentStream(c);
    orRaise(interp, eventSelf(interp, a[0]).event->block(*s));
    return Value::none();
}

void installStreamAndEvent(Interpreter& interp, AttrMap& g) {
    const CudaTypes& t = cudaTypes();
    t.stream->constructor = interp.newNative("Stream", streamCtor);
    interp.defineNative(t.stream->dict, "synchronize", streamSynchronize);
    interp.defineNative(t.stream->dict, "query", streamQuery);
    interp.defineNative(t.stream->dict, "wait_event", streamWaitEvent);
    interp.defineNative(t.stream->dict, "wait_stream", streamWaitStream);
    interp.defineNative(t.stream->dict, "__eq__", streamEq);
    interp.defineNative(t.stream->dict, "__repr__", streamRepr);
    t.event->constructor = interp.newNative("Event", eventCtor);
    interp.defineNative(t.event->dict, "record", eventRecord);
    interp.defineNative(t.event->dict, "synchronize", eventSynchronize);
    interp.defineNative(t.event->dict, "query", eventQuery);
    interp.defineNative(t.event->dict, "elapsed_time", eventElapsedTime);
    interp.defineNative(t.event->dict, "wait", eventWait);
    g.set(Symbol::intern("Stream"), Value(t.stream));
    g.set(Symbol::intern("Event"), Value(t.event));
    interp.defineNative(g, "current_stream", streamGetter<false>);
    interp.defineNative(g, "default_stream", streamGetter<true>);
}

} // namespace

void requireCuda(Interpreter& interp) {
    const runtime::CudaProbe& p = runtime::probeCuda();
    if (!p.available()) raiseRuntime(interp, runtime::noCudaDeviceMessage(p));
}

tensor::Device cudaResolved(Interpreter& interp, tensor::Device device) {
    if (!device.isCuda()) return tensor::Device{};
    requireCuda(interp);
    if (device.index < 0) device.index = runtime::currentCudaDevice();
    if (device.index >= runtime::probeCuda().deviceCount)
        raiseRuntime(interp, "CUDA error: invalid device ordinal");
    return device;
}

tensor::Device defaultFactoryDevice() {
    return g_defaultDevice;
}

void setDefaultFactoryDevice(tensor::Device device) {
    g_defaultDevice = device;
}

tensor::Generator& cudaGenerator() {
    static tensor::Generator generator;
    return generator;
}

void installCudaModule(Interpreter& interp, ModuleObject& cuda) {
    AttrMap& g = cuda.globals;
    interp.defineNative(g, "is_available", isAvailable);
    interp.defineNative(g, "is_initialized", isAvailable);
    interp.defineNative(g, "device_count", deviceCount);
    interp.defineNative(g, "current_device", currentDevice);
    interp.defineNative(g, "get_device_name", getDeviceName);
    interp.defineNative(g, "get_device_capability", getDeviceCapability);
    interp.defineNative(g, "synchronize", synchronize);
    interp.defineNative(g, "manual_seed", manualSeed);
    interp.defineNative(g, "manual_seed_all", manualSeed);
    interp.defineNative(g, "initial_seed", initialSeed);
    auto stat = [](Stat s) { return reinterpret_cast<void*>(static_cast<intptr_t>(s)); };
    interp.defineNative(g, "memory_allocated", memoryStat, stat(Stat::Allocated));
    interp.defineNative(g, "max_memory_allocated", memoryStat, stat(Stat::MaxAllocated));
    interp.defineNative(g, "memory_reserved", memoryStat, stat(Stat::Reserved));
    interp.defineNative(g, "max_memory_reserved", memoryStat, stat(Stat::MaxReserved));
    interp.defineNative(g, "empty_cache", emptyCache);
    interp.defineNative(g, "reset_peak_memory_stats", resetPeakMemoryStats);
    installStreamAndEvent(interp, g);
    g.set(Symbol::intern("OutOfMemoryError"), Value(builtinTypes().outOfMemoryError));
}

} // namespace kiln::torchapi
