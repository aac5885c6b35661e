// SPDX-License-Identifier: MIT
#include "api/interpreter_thread.h"

#include <cstdio>
#include <pthread.h>

namespace kiln::api {

namespace {

constexpr size_t kInterpreterStackBytes = size_t(1) << 30;
constexpr double kGraceSeconds = 5.0;

void* trampoline(void* arg) {
    (*static_cast<std::function<void()>*>(arg))();
    return nullptr;
}

} // namespace

void runWithLargeStack(std::function<void()>& body) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kInterpreterStackBytes);
    pthread_t thread;
    if (pthread_create(&thread, &attr, trampoline, &body) != 0) {
        // Could not reserve the large stack (address-space limits): run here instead.
        pthread_attr_destroy(&attr);
        body();
        return;
    }
    pthread_attr_destroy(&attr);
    pthread_join(thread, nullptr);
}

Watchdog::Watchdog(lang::Interpreter& interp, double timeoutSeconds, std::function<void()> onStuck)
    : m_interp(interp)
    , m_timeout(timeoutSeconds)
    , m_onStuck(std::move(onStuck)) {
    if (m_timeout > 0) m_thread = std::thread([this] { run(); });
}

Watchdog::~Watchdog() {
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable()) m_thread.join();
}

void Watchdog::run() {
    std::unique_lock lock(m_mutex);
    auto limit = std::chrono::duration<double>(m_timeout);
    if (m_cv.wait_for(lock, limit, [this] { return m_done; })) return;
    m_fired = true;
    m_interp.requestCancel();
    if (m_cv.wait_for(lock, std::chrono::duration<double>(kGraceSeconds),
                      [this] { return m_done; }))
        return;
    if (m_onStuck) m_onStuck();
}

std::string Watchdog::describeLimit() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", m_timeout);
    return buf;
}

} // namespace kiln::api
