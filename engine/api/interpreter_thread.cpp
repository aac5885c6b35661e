// SPDX-License-Identifier: MIT
#include "api/interpreter_thread.h"

#include <pthread.h>

namespace kiln::api {

namespace {

constexpr size_t kInterpreterStackBytes = size_t(1) << 30;

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

} // namespace kiln::api
