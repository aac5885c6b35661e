// SPDX-License-Identifier: MIT
#include "lang/coroutine.h"

#include "support/assert.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define KILN_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_ASAN_FIBERS 1
#endif
#endif
#if KILN_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

// The Itanium C++ ABI's per-thread exception globals: the stack of caught exceptions and the
// count of uncaught ones (libstdc++ and libc++abi lay them out alike on x86-64 and AArch64).
namespace __cxxabiv1 {
struct __cxa_eh_globals;
extern "C" __cxa_eh_globals* __cxa_get_globals() noexcept;
} // namespace __cxxabiv1

namespace kiln::lang {

namespace {

constexpr size_t kGuardBytes = 64 << 10;

/// Freed stacks kept for the next coroutines (generators come and go in loops).
struct StackPool {
    std::mutex mutex;
    std::vector<void*> free;
};

StackPool& pool() {
    static StackPool* p = new StackPool; // never destroyed: coroutines may outlive statics
    return *p;
}

void* takeStack() {
    {
        std::lock_guard lock(pool().mutex);
        if (!pool().free.empty()) {
            void* s = pool().free.back();
            pool().free.pop_back();
            return s;
        }
    }
    void* s = mmap(nullptr, Coroutine::kStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (s == MAP_FAILED) throw std::bad_alloc();
    mprotect(s, kGuardBytes, PROT_NONE); // the stack grows down onto it: a fault, not corruption
    return s;
}

void giveBackStack(void* s) {
    std::lock_guard lock(pool().mutex);
    if (pool().free.size() < 16) {
        pool().free.push_back(s);
        return;
    }
    munmap(s, Coroutine::kStackBytes);
}

void* exceptionGlobals() {
    return __cxxabiv1::__cxa_get_globals();
}

} // namespace

Coroutine::Coroutine(std::function<void()> body)
    : m_body(std::move(body)) {}

Coroutine::~Coroutine() {
    KILN_ASSERT(!m_running, "a coroutine destroyed while it runs");
    if (m_stack) giveBackStack(m_stack);
}

void Coroutine::entry(unsigned high, unsigned low) {
    auto* self = reinterpret_cast<Coroutine*>((static_cast<uintptr_t>(high) << 32) |
                                              static_cast<uintptr_t>(low));
#if KILN_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(nullptr, &self->m_resumerBottom, &self->m_resumerSize);
#endif
    try {
        self->m_body();
    } catch (...) {
        KILN_ASSERT(false, "an exception left a coroutine's body");
    }
    self->m_finished = true;
#if KILN_ASAN_FIBERS
    __sanitizer_start_switch_fiber(nullptr, self->m_resumerBottom, self->m_resumerSize);
#endif
    setcontext(&self->m_resumer); // the body's stack is not used again
}

void Coroutine::resume() {
    KILN_ASSERT(!m_running && !m_finished, "resume of a running or finished coroutine");
    if (!m_started) {
        m_stack = takeStack();
        getcontext(&m_self);
        m_self.uc_stack.ss_sp = static_cast<char*>(m_stack) + kGuardBytes;
        m_self.uc_stack.ss_size = kStackBytes - kGuardBytes;
        m_self.uc_link = nullptr;
        auto address = reinterpret_cast<uintptr_t>(this);
        makecontext(&m_self, reinterpret_cast<void (*)()>(&Coroutine::entry), 2,
                    static_cast<unsigned>(address >> 32), static_cast<unsigned>(address));
        m_started = true;
    }
    static_assert(sizeof(ExceptionState) >= sizeof(void*) + sizeof(unsigned int));
    std::memcpy(&m_resumerExceptions, exceptionGlobals(), sizeof(ExceptionState));
    std::memcpy(exceptionGlobals(), &m_bodyExceptions, sizeof(ExceptionState));
    m_running = true;
#if KILN_ASAN_FIBERS
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, static_cast<char*>(m_stack) + kGuardBytes,
                                   kStackBytes - kGuardBytes);
#endif
    swapcontext(&m_resumer, &m_self);
#if KILN_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
    m_running = false;
    std::memcpy(&m_bodyExceptions, exceptionGlobals(), sizeof(ExceptionState));
    std::memcpy(exceptionGlobals(), &m_resumerExceptions, sizeof(ExceptionState));
}

void Coroutine::suspend() {
    KILN_ASSERT(m_running, "suspend outside the coroutine's body");
#if KILN_ASAN_FIBERS
    __sanitizer_start_switch_fiber(&m_fakeStack, m_resumerBottom, m_resumerSize);
#endif
    swapcontext(&m_self, &m_resumer);
#if KILN_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(m_fakeStack, &m_resumerBottom, &m_resumerSize);
#endif
}

} // namespace kiln::lang
