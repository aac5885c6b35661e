// SPDX-License-Identifier: MIT
/// \file
/// Internal to the api layer: a run's measurement of its compiled frames (`kiln run --measure`,
/// Studio's Compare modes). Once the script has finished, every torch.compile'd function or
/// module it called is called again with the arguments of its latest call: warm-up calls, then
/// timed calls (api/call_timer.h). Each timed call is an event of category `measure` named
/// after the function, and its launches are recorded as any others, so a comparison has many
/// warm launches per kernel and per-call times with their spread.
#pragma once

#include "api/call_timer.h"
#include "lang/value.h"
#include "support/event_sink.h"

#include <functional>

namespace kiln::lang {
class Interpreter;
}
namespace kiln::capture {
class CaptureEngine;
}

namespace kiln::api {

/// Waits for the device when `result` holds a CUDA tensor: a GPU call returns once its
/// kernels are queued, and its time must include them.
void waitForDeviceWork(const lang::Value& result);

/// Times each recorded compiled call. A call that raises ends that function's measurement
/// (the run's log says why) unless `cancelled()` says the run is being stopped: then the
/// exception propagates.
void measureCompiledCalls(lang::Interpreter& interp, capture::CaptureEngine& capture,
                          EventSink& sink, const CallTimingPlan& plan,
                          const std::function<bool()>& cancelled);

} // namespace kiln::api
