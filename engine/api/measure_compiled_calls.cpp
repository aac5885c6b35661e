// SPDX-License-Identifier: MIT
#include "api/measure_compiled_calls.h"

#include "capture/capture_engine.h"
#include "capture/compile_api.h"
#include "lang/interpreter.h"
#include "lang/objects.h"
#include "lang/traceback.h"
#include "runtime/cuda_context.h"
#include "tensor/tensor.h"

namespace kiln::api {

namespace {

bool holdsCudaTensor(const lang::Value& v) {
    if (v.isTensor()) return v.asTensor().device().isCuda();
    if (v.is(lang::ObjectKind::Tuple))
        for (const lang::Value& item : v.as<lang::TupleObject>()->items)
            if (holdsCudaTensor(item)) return true;
    if (v.is(lang::ObjectKind::List))
        for (const lang::Value& item : v.as<lang::ListObject>()->items)
            if (holdsCudaTensor(item)) return true;
    return false;
}

std::string detailOf(int index, const CallTimingPlan& plan) {
    return "{\"call\":" + std::to_string(index) + ",\"calls\":" + std::to_string(plan.calls) +
           ",\"warmup\":" + std::to_string(plan.warmup) + "}";
}

void measureSite(lang::Interpreter& interp, capture::CaptureEngine& capture, EventSink& sink,
                 const capture::CompiledCallSite& site, const CallTimingPlan& plan) {
    sink.output(OutputStream::Log, "kiln: measuring " + site.name + ": " +
                                       std::to_string(plan.warmup) + " warm-up and " +
                                       std::to_string(plan.calls) +
                                       " timed calls with the arguments of its last call\n");
    // Repeated under the grad mode of the recorded call, so the cached entry's guards hold.
    struct GradModeScope {
        bool previous = tensor::gradModeEnabled();
        explicit GradModeScope(bool on) { tensor::setGradModeEnabled(on); }
        ~GradModeScope() { tensor::setGradModeEnabled(previous); }
    } gradMode(site.gradMode);
    auto call = [&] { waitForDeviceWork(capture::callSiteAgain(interp, capture, site)); };
    auto observe = [&](int index, int64_t startNs, int64_t ns) {
        sink.timeline({"measure", site.name, "", startNs, ns, detailOf(index, plan)});
    };
    CallTimings timings = timeCalls(call, plan, observe);
    sink.output(OutputStream::Log, "kiln: measured " + site.name + ": " + timings.summary() + "\n");
}

} // namespace

void waitForDeviceWork(const lang::Value& result) {
    if (!holdsCudaTensor(result)) return;
    if (auto context = runtime::cudaContext(0)) (void)(*context)->synchronize();
}

void measureCompiledCalls(lang::Interpreter& interp, capture::CaptureEngine& capture,
                          EventSink& sink, const CallTimingPlan& plan,
                          const std::function<bool()>& cancelled) {
    capture::CompiledCallSites& sites = capture.callSites();
    sites.setRecording(false); // the measured calls replace nobody's arguments
    if (sites.sites().empty()) {
        sink.output(OutputStream::Log,
                    "kiln: nothing to measure: the script called no torch.compile'd function\n");
        return;
    }
    for (const capture::CompiledCallSite& site : sites.sites()) {
        try {
            measureSite(interp, capture, sink, site, plan);
        } catch (lang::PyException& e) {
            // A timeout, or Ctrl-C (KeyboardInterrupt), ends all measuring, not one function's.
            if (cancelled() ||
                interp.isInstance(e.exception, lang::builtinTypes().keyboardInterrupt.get()))
                throw;
            sink.output(OutputStream::Log, "kiln: measuring " + site.name + " stopped: " +
                                               lang::formatExceptionOnly(interp, e.exception));
        }
    }
}

} // namespace kiln::api
