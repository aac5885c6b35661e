// SPDX-License-Identifier: MIT
#include "api/run_supervisor.h"

#include "support/clock.h"
#include "trace/process_info.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace kiln::api {

namespace {

// How long a script may take to stop after its timeout before the process ends regardless.
constexpr int64_t kGraceNs = 5'000'000'000;

// Every signal whose default action ends the process without a core dump of interest:
// CPython leaves SIGUSR1/2, SIGALRM, SIGVTALRM and SIGXCPU at that default, which would lose the
// lines the trace has not committed yet and leave the run 'running'.
constexpr int kStopSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,   SIGPIPE,
                                SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU};

// The self-pipe: written by the handlers, read by the supervisor of the current run.
int g_signalPipe[2] = {-1, -1};
std::once_flag g_installed;

void onStopSignal(int signalNumber) {
    int saved = errno;
    unsigned char byte = static_cast<unsigned char>(signalNumber);
    // A full pipe drops the byte: enough of the same signals are already waiting.
    [[maybe_unused]] ssize_t written = ::write(g_signalPipe[1], &byte, 1);
    errno = saved;
}

void writeAll(int fd, const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += size_t(n);
    }
}

void drain(int fd) {
    unsigned char buffer[64];
    while (::read(fd, buffer, sizeof buffer) > 0) {
    }
}

} // namespace

void installStopSignalHandlersOnce() {
    std::call_once(g_installed, [] {
        if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
        for (int sig : kStopSignals) {
            struct sigaction action {};
            action.sa_handler = onStopSignal;
            sigemptyset(&action.sa_mask);
            action.sa_flags = SA_RESTART;
            sigaction(sig, &action, nullptr);
        }
    });
}

RunSupervisor::RunSupervisor(double timeoutSeconds)
    : m_timeoutSeconds(timeoutSeconds)
    , m_deadlineNs(timeoutSeconds > 0 ? monotonicNs() + int64_t(timeoutSeconds * 1e9) : 0) {
    if (::pipe2(m_wake, O_CLOEXEC | O_NONBLOCK) != 0) m_wake[0] = m_wake[1] = -1;
    m_thread = std::thread([this] { run(); });
}

RunSupervisor::~RunSupervisor() {
    {
        std::lock_guard lock(m_stateMutex);
        m_done = true;
    }
    unsigned char byte = 0;
    [[maybe_unused]] ssize_t written = ::write(m_wake[1], &byte, 1);
    m_thread.join();
    for (int fd : m_wake)
        if (fd >= 0) ::close(fd);
}

void RunSupervisor::setRun(trace::TraceWriter* trace, int64_t runId) {
    m_trace = trace;
    m_runId = trace ? runId : 0;
}

void RunSupervisor::scriptStarted(lang::Interpreter& interp) {
    std::lock_guard lock(m_stateMutex);
    m_phase = Phase::Script;
    m_interp = &interp;
    // A timeout that expired while the script was parsed stops it at its first check.
    if (m_deadlineNs != 0 && m_graceDeadlineNs == 0 && monotonicNs() >= m_deadlineNs) {
        requestCancelLocked(Cancel::Timeout);
        m_graceDeadlineNs = monotonicNs() + kGraceNs;
    }
}

void RunSupervisor::scriptEnded() {
    std::lock_guard lock(m_stateMutex);
    m_phase = Phase::Done;
    m_interp = nullptr;
}

std::string RunSupervisor::describeTimeout() const {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", m_timeoutSeconds);
    return text;
}

void RunSupervisor::run() {
    // Signals go to the other threads; this one only reads what their handlers wrote.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    for (;;) {
        int waitMs = nextWaitMs();
        pollfd fds[2] = {{m_wake[0], POLLIN, 0}, {g_signalPipe[0], POLLIN, 0}};
        int ready = ::poll(fds, g_signalPipe[0] >= 0 ? 2 : 1, waitMs);
        if (ready < 0 && errno != EINTR) return; // cannot happen with valid descriptors
        if (ready > 0 && (fds[0].revents & POLLIN)) drain(m_wake[0]);
        {
            std::lock_guard lock(m_stateMutex);
            if (m_done) return;
        }
        if (ready > 0 && (fds[1].revents & POLLIN)) {
            unsigned char signals[16];
            ssize_t count = ::read(g_signalPipe[0], signals, sizeof signals);
            for (ssize_t i = 0; i < count; ++i)
                onSignal(signals[i]);
        }
        onTick();
    }
}

int RunSupervisor::nextWaitMs() {
    std::lock_guard lock(m_stateMutex);
    int64_t next = 0;
    if (m_graceDeadlineNs != 0)
        next = m_graceDeadlineNs;
    else if (m_deadlineNs != 0 && m_phase != Phase::Done)
        next = m_deadlineNs;
    // Without its wake-up pipe (no descriptors left) the thread polls for the destructor.
    if (next == 0) return m_wake[0] >= 0 ? -1 : 100;
    int64_t left = next - monotonicNs();
    int waitMs = left <= 0 ? 0 : int(std::min<int64_t>(left / 1'000'000 + 1, 1'000'000));
    return m_wake[0] >= 0 ? waitMs : std::min(waitMs, 100);
}

void RunSupervisor::requestCancelLocked(Cancel reason) {
    Cancel none = Cancel::None;
    m_cancel.compare_exchange_strong(none, reason);
    if (m_interp) m_interp->requestCancel();
}

void RunSupervisor::onSignal(int signalNumber) {
    std::string name = trace::signalName(signalNumber);
    bool second = false;
    {
        std::lock_guard lock(m_stateMutex);
        if (m_done) return;
        // KeyboardInterrupt in the script, once per SIGINT, as CPython; a SIGINT while the last
        // one is still waiting to be raised (a native call that does not return) stops hard.
        if (signalNumber == SIGINT && m_phase == Phase::Script && m_interp &&
            !m_interp->interruptPending()) {
            m_interrupted = true;
            m_interp->requestInterrupt();
            return;
        }
        second = signalNumber == SIGINT && m_interrupted;
    }
    stopNow(128 + signalNumber, "Signal",
            second ? "stopped by a second SIGINT" : "stopped by " + name, signalNumber != SIGPIPE);
}

void RunSupervisor::onTick() {
    const int64_t now = monotonicNs();
    std::string message;
    {
        std::lock_guard lock(m_stateMutex);
        if (m_done || m_phase == Phase::Done) return;
        if (m_graceDeadlineNs != 0 && now >= m_graceDeadlineNs) {
            message = "run cancelled: the --timeout of " + describeTimeout() +
                      " expired and the script did not stop";
        } else if (m_deadlineNs != 0 && now >= m_deadlineNs && m_graceDeadlineNs == 0) {
            if (m_phase == Phase::Script) {
                requestCancelLocked(Cancel::Timeout);
                m_graceDeadlineNs = now + kGraceNs;
                return;
            }
            message = "run cancelled: the --timeout of " + describeTimeout() +
                      " expired before the script started";
        } else {
            return;
        }
    }
    stopNow(124, "KeyboardInterrupt", message, true);
}

void RunSupervisor::stopNow(int exitCode, const std::string& errorType, const std::string& message,
                            bool flushStdout) {
    // Waits while the run's row is being begun or ended; the process ends before it unlocks.
    std::unique_lock stop(m_stopMutex);
    std::string summary = "kiln: cancelled: " + message + "\n";
    if (m_trace) {
        trace::RunError error{errorType, message, ""};
        Status recorded = m_trace->finishRunAndClose(trace::RunStatus::Cancelled, exitCode, &error);
        summary += recorded ? "kiln: recorded as run " + std::to_string(m_runId) + " in " +
                                  m_trace->path() + "\n"
                            : "kiln: error: " + recorded.error().render() + "\n";
    }
    // The script's thread may hold stdout's lock while blocked on a full pipe: never wait for
    // it, and write the summary without stdio.
    if (flushStdout && ftrylockfile(stdout) == 0) {
        std::fflush(stdout);
        funlockfile(stdout);
    }
    writeAll(STDERR_FILENO, summary);
    std::_Exit(exitCode);
}

} // namespace kiln::api
