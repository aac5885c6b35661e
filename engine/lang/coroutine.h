// SPDX-License-Identifier: MIT
/// \file
/// A stackful coroutine on the calling thread, what generators run on: the body runs on a
/// stack of its own (256 MiB reserved, committed only as touched, with a guard page) and can
/// suspend itself, handing control back to whoever resumed it; the next resume continues it
/// where it stopped. Everything stays on one thread, so the thread's state (the CUDA current
/// stream, the interpreter's cancellation flag) is the same on both sides.
///
/// Each side keeps its own C++ exception state (the caught-exception stack the runtime keeps per
/// thread), swapped at every switch, so a body that suspends inside a `catch` does not disturb
/// a resumer that is inside one of its own. Exceptions must not leave the body: it catches
/// them and hands them over itself. Under AddressSanitizer the switches are announced to it.
#pragma once

#include <cstddef>
#include <functional>
#include <ucontext.h>

namespace kiln::lang {

class Coroutine {
public:
    explicit Coroutine(std::function<void()> body);
    /// Frees the stack. A body that is suspended is abandoned: what its stack holds is never
    /// destroyed (callers finish their bodies first where that matters).
    ~Coroutine();
    Coroutine(const Coroutine&) = delete;
    Coroutine& operator=(const Coroutine&) = delete;

    /// Runs the body until it suspends or returns. Not from inside the body itself.
    void resume();
    /// From inside the body: back to the resumer, until the next resume().
    void suspend();

    bool started() const { return m_started; }
    bool finished() const { return m_finished; }
    bool running() const { return m_running; }

    /// Reserved stack size of each coroutine.
    static constexpr size_t kStackBytes = size_t(256) << 20;

private:
    static void entry(unsigned high, unsigned low);

    struct ExceptionState {
        void* caught = nullptr;
        unsigned int uncaught = 0;
    };

    std::function<void()> m_body;
    void* m_stack = nullptr;
    ucontext_t m_resumer{};
    ucontext_t m_self{};
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
