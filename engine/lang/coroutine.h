// SPDX-License-Identifier: MIT
/// \file
/// A stackful coroutine on the calling thread, what generators run on: the body runs on a
/// stack of its own (256 MiB reserved, committed only as touched, with a guard page) and can
/// suspend itself, handing control back to whoever resumed it; the next resume continues it
/// where it stopped. Everything stays on one thread, so the thread's state (the CUDA current
/// stream, the interpreter's cancellation flag) is the same on both sides.
///
/// On x86-64 a switch saves the callee-saved registers and the floating-point control words and
/// swaps stack pointers (a few nanoseconds); elsewhere it is ucontext's swapcontext, which also
/// saves the signal mask with a system call.
///
/// Each side keeps its own C++ exception state (the caught-exception stack the runtime keeps per
/// thread), swapped at every switch, so a body that suspends inside a `catch` does not disturb
/// a resumer that is inside one of its own. Exceptions must not leave the body: it catches
/// them and hands them over itself. Under AddressSanitizer the switches are announced to it.
#pragma once

#include <cstddef>
#include <functional>

#if defined(__x86_64__) && defined(__linux__)
#define KILN_COROUTINE_ASM_SWITCH 1
#else
#include <ucontext.h>
#endif

namespace kiln::lang {

class Coroutine {
public:
    explicit Coroutine(std::function<void()> body);
    /// Frees the stack. A body that is suspended is abandoned: what its stack holds is never
    /// destroyed (callers finish their bodies first where that matters).
    ~Coroutine();
    Coroutine(const Coroutine&) = delete;
    Coroutine& operator=(const Coroutine&) = delete;

    /// Takes this coroutine's stack now (resume() takes it otherwise): std::bad_alloc when the
    /// system cannot map one or maxStacks() are in use.
    void reserveStack();
    /// Runs the body until it suspends or returns. Not from inside the body itself.
    void resume();
    /// How many coroutines may have a stack at once (from the kernel's vm.max_map_count).
    static size_t maxStacks();
    /// From inside the body: back to the resumer, until the next resume().
    void suspend();

    bool started() const { return m_started; }
    bool finished() const { return m_finished; }
    bool running() const { return m_running; }

    /// Reserved stack size of each coroutine.
    static constexpr size_t kStackBytes = size_t(256) << 20;

private:
    static void run(Coroutine* self);
#if !KILN_COROUTINE_ASM_SWITCH
    static void entryFromUcontext(unsigned high, unsigned low);
#endif
    void switchIn();
    void switchOut();

    struct ExceptionState {
        void* caught = nullptr;
        unsigned int uncaught = 0;
    };

    std::function<void()> m_body;
    void* m_stack = nullptr;
#if KILN_COROUTINE_ASM_SWITCH
    void* m_resumerSp = nullptr; ///< saved stack pointers of each side while it is switched out
    void* m_selfSp = nullptr;
#else
    ucontext_t m_resumer{};
    ucontext_t m_self{};
#endif
    ExceptionState m_bodyExceptions;    ///< the body's while the resumer runs
    ExceptionState m_resumerExceptions; ///< the resumer's while the body runs
    bool m_started = false;
    bool m_finished = false;
    bool m_running = false;
    // AddressSanitizer's view of the stacks (unused without it).
    void* m_fakeStack = nullptr;
    const void* m_resumerBottom = nullptr;
    size_t m_resumerSize = 0;
};

} // namespace kiln::lang
