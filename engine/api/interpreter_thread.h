// SPDX-License-Identifier: MIT
/// \file
/// Internal to the api layer: the thread scripts run on (a large stack, so deep recursion in a
/// script hits Python's recursion limit long before the C++ stack ends). RunSupervisor
/// (run_supervisor.h) enforces --timeout.
#pragma once

#include <exception>
#include <functional>
#include <optional>

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

} // namespace kiln::api
