// SPDX-License-Identifier: MIT
// The time module: clocks and sleep. Wall-clock time is the one fact about the machine a
// workload may read (it changes nothing); calendar functions that need the machine's time
// zone are not provided.
#include "lang/builtins.h"
#include "lang/signature.h"
#include "torchapi/install.h"

#include <chrono>
#include <cmath>
#include <thread>

namespace kiln::torchapi {

using namespace kiln::lang;

namespace {

template <typename Clock>
int64_t nanosecondsOf() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

enum class Which { Wall, Monotonic, Process };

int64_t clockNs(Which which) {
    switch (which) {
    case Which::Wall:
        return nanosecondsOf<std::chrono::system_clock>();
    case Which::Monotonic:
        return nanosecondsOf<std::chrono::steady_clock>();
    case Which::Process: {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    }
    }
    return 0;
}

// data: the clock; seconds as a float (time(), perf_counter(), ...).
Value timeSeconds(Interpreter& interp, const CallArgs& args, void* data) {
    static const BuiltinSignature sig("time()");
    sig.bind(interp, args);
    auto which = static_cast<Which>(reinterpret_cast<intptr_t>(data));
    return Value::fromFloat(static_cast<double>(clockNs(which)) * 1e-9);
}

Value timeNanoseconds(Interpreter& interp, const CallArgs& args, void* data) {
    static const BuiltinSignature sig("time_ns()");
    sig.bind(interp, args);
    return Value::fromInt(clockNs(static_cast<Which>(reinterpret_cast<intptr_t>(data))));
}

// Sleeps in slices so that a cancelled run (Ctrl-C, --timeout) is noticed within 50 ms.
Value timeSleep(Interpreter& interp, const CallArgs& args, void*) {
    static const BuiltinSignature sig("sleep(secs, /)");
    BoundArgs a = sig.bind(interp, args);
    if (!a[0].isNumber() || a[0].is(ObjectKind::Str))
        interp.raiseTypeError("'" + interp.typeName(a[0]) +
                              "' object cannot be interpreted as an integer");
    double secs = a[0].toDouble();
    if (std::isnan(secs)) interp.raiseValueError("Invalid value NaN (not a number)");
    if (secs < 0) interp.raiseValueError("sleep length must be non-negative");
    if (!std::isfinite(secs))
        interp.raise(builtinTypes().overflowError.get(),
                     "timestamp too large to convert to C _PyTime_t");
    using Clock = std::chrono::steady_clock;
    Clock::time_point until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(secs));
    while (true) {
        interp.checkCancel();
        Clock::time_point now = Clock::now();
        if (now >= until) break;
        Clock::duration slice = std::chrono::milliseconds(50);
        std::this_thread::sleep_for(std::min(slice, until - now));
    }
    return Value::none();
}

void installTime(Interpreter& interp, ModuleObject& module) {
    AttrMap& g = module.globals;
    struct Clock {
        const char* name;
        Which which;
    };
    for (const Clock& c :
         {Clock{"time", Which::Wall}, Clock{"perf_counter", Which::Monotonic},
          Clock{"monotonic", Which::Monotonic}, Clock{"process_time", Which::Process}}) {
        void* data = reinterpret_cast<void*>(static_cast<intptr_t>(c.which));
        interp.defineNative(g, c.name, timeSeconds, data);
        interp.defineNative(g, std::string(c.name) + "_ns", timeNanoseconds, data);
    }
    interp.defineNative(g, "sleep", timeSleep);
}

} // namespace

void installTimeModule(Interpreter& interp) {
    interp.registerNativeModule("time", installTime);
}

} // namespace kiln::torchapi
