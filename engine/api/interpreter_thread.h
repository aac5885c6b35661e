// SPDX-License-Identifier: MIT
/// \file
/// Internal to the api layer: the thread scripts run on (a large stack, so deep recursion in a
/// script hits Python's recursion limit long before the C++ stack ends) and the watchdog that
/// enforces --timeout.
#pragma once

#include "lang/interpreter.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace kiln::api {

void runWithLargeStack(std::function<void()>& body);

/// Runs `fn` on a thread with a 1 GiB stack (reserved, committed only as used) and returns its
/// result; an exception thrown by `fn` is rethrown here.
template <typename Fn>
auto runOnInterpreterThread(Fn&& fn) -> decltype(fn()) {
    using Result = decltype(fn());
    std::optional<Result> result;
    std::exception_ptr error;
    std::function<void()> body = [&] {
        try {
            result.emplace(fn());
        } catch (...) {
            error = std::current_exception();
        }
    };
    runWithLargeStack(body);
    if (error) std::rethrow_exception(error);
    return std::move(*result);
}

/// Asks the interpreter to stop when the timeout expires; if the script does not stop within a
/// grace period (stuck inside one long native operation), calls `onStuck` on the watchdog
/// thread, which is expected to record the cancellation and end the process.
class Watchdog {
public:
    Watchdog(lang::Interpreter& interp, double timeoutSeconds, std::function<void()> onStuck = {});
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    bool fired() const { return m_fired; }
    std::string describeLimit() const;

private:
    void run();

    lang::Interpreter& m_interp;
    double m_timeout;
    std::function<void()> m_onStuck;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_done = false;
    std::atomic<bool> m_fired{false};
    std::thread m_thread;
};

} // namespace kiln::api
