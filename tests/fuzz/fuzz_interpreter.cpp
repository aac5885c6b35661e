// SPDX-License-Identifier: MIT
// libFuzzer target: scripts that parse, run by the interpreter (the language and its builtins,
// without the torch library), each for at most a short time: a watchdog cancels a script that
// runs longer (KeyboardInterrupt at the next loop iteration or call, as `kiln run --timeout`
// does). Whatever a script does must end in its own result or a Python exception, never a
// crash, a use-after-free, a leak or undefined behaviour (issue 13's crash classes: object
// lifetimes, containers mutated while being walked).
#include "lang/interpreter.h"
#include "lang/parser.h"
#include "support/event_sink.h"
#include "support/source.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>

namespace {

constexpr auto kRunLimit = std::chrono::milliseconds(300);
constexpr size_t kStackBytes = size_t(256) << 20; // deep recursion reaches RecursionError first

void* trampoline(void* arg) {
    (*static_cast<std::function<void()>*>(arg))();
    return nullptr;
}

void runWithLargeStack(std::function<void()> body) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStackBytes);
    pthread_t thread;
    if (pthread_create(&thread, &attr, trampoline, &body) != 0) __builtin_trap();
    pthread_attr_destroy(&attr);
    pthread_join(thread, nullptr);
}

void run(const kiln::lang::Module& module) {
    kiln::NullEventSink sink;
    kiln::lang::Interpreter interp(sink);
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
    std::thread watchdog([&] {
        std::unique_lock lock(mutex);
        if (!done.wait_for(lock, kRunLimit, [&] { return finished; })) interp.requestCancel();
    });
    try {
        interp.runMain(module);
    } catch (const kiln::lang::PyException&) {
        // the script's own error: fine
    }
    {
        std::lock_guard lock(mutex);
        finished = true;
    }
    done.notify_one();
    watchdog.join();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 16384) return 0;
    std::string text(reinterpret_cast<const char*>(data), size);
    auto source = std::make_shared<kiln::SourceFile>("<fuzz>.py", std::move(text));
    auto parsed = kiln::lang::parseModule(source);
    if (!parsed.ok()) return 0;
    // Any other C++ exception escaping the interpreter is our bug: it terminates the target.
    runWithLargeStack([&] { run(parsed.value()); });
    return 0;
}
