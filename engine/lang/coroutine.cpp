// SPDX-License-Identifier: MIT
#include "lang/coroutine.h"

#include "support/assert.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
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
#include <sanitizer/asan_interface.h>
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

/// Freed stacks kept for the next coroutines (generators come and go in loops), and how many
/// are in use.
struct StackPool {
    std::mutex mutex;
    std::vector<void*> free;
    size_t inUse = 0;
};

/// Each stack is two of the kernel's memory mappings (the stack and its guard), and the process
/// needs mappings for everything else (malloc, SQLite, libraries): stacks may take half of
/// vm.max_map_count.
size_t maxStacksInUse() {
    static const size_t limit = [] {
        size_t maps = 65530;
        if (FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
            unsigned long long v = 0;
            if (std::fscanf(f, "%llu", &v) == 1 && v > 0) maps = static_cast<size_t>(v);
            std::fclose(f);
        }
        return std::max<size_t>(1024, maps / 4);
    }();
    return limit;
}

StackPool& pool() {
    static StackPool* p = new StackPool; // never destroyed: coroutines may outlive statics
    return *p;
}

void* takeStack() {
    {
        std::lock_guard lock(pool().mutex);
        if (pool().inUse >= maxStacksInUse()) throw std::bad_alloc(); // MemoryError
        ++pool().inUse;
        if (!pool().free.empty()) {
            void* s = pool().free.back();
            pool().free.pop_back();
            return s;
        }
    }
    void* s = mmap(nullptr, Coroutine::kStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (s == MAP_FAILED) {
        std::lock_guard lock(pool().mutex);
        --pool().inUse;
        throw std::bad_alloc();
    }
    mprotect(s, kGuardBytes, PROT_NONE); // the stack grows down onto it: a fault, not corruption
    return s;
}

#if KILN_ASAN_FIBERS
/// Clears ASan's shadow of [begin, end): the frames a body left on its stack (it ends by
/// switching away, and an abandoned body never returns) keep their shadow state, which the
/// next coroutine on the stack must not inherit. The shadow's whole pages are dropped
/// (anonymous memory reads back as zero, which is "unpoisoned") instead of written:
/// ASAN_UNPOISON_MEMORY_REGION writes all 32 MB of a 256 MB stack's shadow, which stayed
/// resident, 8 GB for a chain of 250 generators.
void clearStackShadow(char* begin, char* end) {
    size_t scale = 0, offset = 0;
    __asan_get_shadow_mapping(&scale, &offset);
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t shadowBegin = (reinterpret_cast<uintptr_t>(begin) >> scale) + offset;
    const uintptr_t shadowEnd = (reinterpret_cast<uintptr_t>(end) >> scale) + offset;
    const uintptr_t pagesBegin = (shadowBegin + page - 1) & ~(page - 1);
    const uintptr_t pagesEnd = shadowEnd & ~(page - 1);
    if (pagesBegin >= pagesEnd ||
        madvise(reinterpret_cast<void*>(pagesBegin), pagesEnd - pagesBegin, MADV_DONTNEED) != 0) {
        ASAN_UNPOISON_MEMORY_REGION(begin, static_cast<size_t>(end - begin));
        return;
    }
    // The partial pages at either end, through the interface (a few KB of memory at most).
    const uintptr_t granule = uintptr_t(1) << scale;
    ASAN_UNPOISON_MEMORY_REGION(begin, (pagesBegin - shadowBegin) * granule);
    char* tail = begin + (pagesEnd - shadowBegin) * granule;
    ASAN_UNPOISON_MEMORY_REGION(tail, static_cast<size_t>(end - tail));
}
#endif

void giveBackStack(void* s) {
#if KILN_ASAN_FIBERS
    clearStackShadow(static_cast<char*>(s) + kGuardBytes,
                     static_cast<char*>(s) + Coroutine::kStackBytes);
#endif
    std::lock_guard lock(pool().mutex);
    --pool().inUse;
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

#if KILN_COROUTINE_ASM_SWITCH
// kiln_coroutine_switch(save, load): pushes the callee-saved registers and the x87 and SSE control
// words on the current stack, stores the stack pointer in *save, loads `load` and pops the
// other side's. kiln_coroutine_start is where a new stack first returns to: it calls r13(r12).
extern "C" void kiln_coroutine_switch(void** save, void* load);
extern "C" void kiln_coroutine_start();
asm(R"(
    .text
    .globl kiln_coroutine_switch
    .type kiln_coroutine_switch, @function
kiln_coroutine_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr 8(%rsp)
    fnstcw (%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    fldcw (%rsp)
    ldmxcsr 8(%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size kiln_coroutine_switch, .-kiln_coroutine_switch

    .globl kiln_coroutine_start
    .type kiln_coroutine_start, @function
kiln_coroutine_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size kiln_coroutine_start, .-kiln_coroutine_start
)");
#endif

Coroutine::Coroutine(std::function<void()> body)
    : m_body(std::move(body)) {}

Coroutine::~Coroutine() {
    KILN_ASSERT(!m_running, "a coroutine destroyed while it runs");
    if (m_stack) giveBackStack(m_stack);
}

void Coroutine::run(Coroutine* self) {
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
    self->switchOut(); // never comes back: the body's stack is not used again
    KILN_ASSERT(false, "a finished coroutine was resumed");
}

#if KILN_COROUTINE_ASM_SWITCH

namespace {

/// The stack a new coroutine first switches to: what kiln_coroutine_switch pops (control
/// words, r15..r12, rbx, rbp) under a return into kiln_coroutine_start, placed so that its call
/// finds the 16-byte alignment the ABI requires.
void* initialStack(void* stackBase, size_t size, Coroutine* self, void (*run)(Coroutine*)) {
    auto top = (reinterpret_cast<uintptr_t>(stackBase) + size) & ~uintptr_t(15);
    auto* slot = reinterpret_cast<uint64_t*>(top - 24); // the return address; 8 mod 16
    slot[0] = reinterpret_cast<uint64_t>(&kiln_coroutine_start);
    slot[-1] = 0;                                // rbp
    slot[-2] = 0;                                // rbx
    slot[-3] = reinterpret_cast<uint64_t>(self); // r12
    slot[-4] = reinterpret_cast<uint64_t>(run);  // r13
    slot[-5] = 0;                                // r14
    slot[-6] = 0;                                // r15
    slot[-7] = 0x1F80;                           // MXCSR: the default
    slot[-8] = 0x037F;                           // x87 control word: the default
    return &slot[-8];
}

} // namespace

void Coroutine::switchIn() {
    if (!m_started) {
        if (!m_stack) m_stack = takeStack();
        m_selfSp = initialStack(static_cast<char*>(m_stack) + kGuardBytes,
                                kStackBytes - kGuardBytes, this, &Coroutine::run);
        m_started = true;
    }
    kiln_coroutine_switch(&m_resumerSp, m_selfSp);
}

void Coroutine::switchOut() {
    kiln_coroutine_switch(&m_selfSp, m_resumerSp);
}

#else

void Coroutine::entryFromUcontext(unsigned high, unsigned low) {
    run(reinterpret_cast<Coroutine*>((static_cast<uintptr_t>(high) << 32) |
                                     static_cast<uintptr_t>(low)));
}

void Coroutine::switchIn() {
    if (!m_started) {
        if (!m_stack) m_stack = takeStack();
        getcontext(&m_self);
        m_self.uc_stack.ss_sp = static_cast<char*>(m_stack) + kGuardBytes;
        m_self.uc_stack.ss_size = kStackBytes - kGuardBytes;
        m_self.uc_link = nullptr;
        auto address = reinterpret_cast<uintptr_t>(this);
        makecontext(&m_self, reinterpret_cast<void (*)()>(&Coroutine::entryFromUcontext), 2,
                    static_cast<unsigned>(address >> 32), static_cast<unsigned>(address));
        m_started = true;
    }
    swapcontext(&m_resumer, &m_self);
}

void Coroutine::switchOut() {
    swapcontext(&m_self, &m_resumer);
}

#endif

size_t Coroutine::maxStacks() {
    return maxStacksInUse();
}

void Coroutine::reserveStack() {
    if (!m_stack) m_stack = takeStack();
}

void Coroutine::resume() {
    KILN_ASSERT(!m_running && !m_finished, "resume of a running or finished coroutine");
    reserveStack(); // may throw std::bad_alloc: nothing has changed yet
    static_assert(sizeof(ExceptionState) >= sizeof(void*) + sizeof(unsigned int));
    std::memcpy(&m_resumerExceptions, exceptionGlobals(), sizeof(ExceptionState));
    std::memcpy(exceptionGlobals(), &m_bodyExceptions, sizeof(ExceptionState));
    m_running = true;
#if KILN_ASAN_FIBERS
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, static_cast<char*>(m_stack) + kGuardBytes,
                                   kStackBytes - kGuardBytes);
#endif
    switchIn();
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
    switchOut();
#if KILN_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(m_fakeStack, &m_resumerBottom, &m_resumerSize);
#endif
}

} // namespace kiln::lang
