// SPDX-License-Identifier: MIT
/// \file
/// Internal to the api layer: what ends a run from outside the script. The --timeout, counted
/// from the moment the run starts (reading the script included), and the stop signals:
///
/// - SIGINT while the script runs raises KeyboardInterrupt at its next check (every loop
///   iteration and call); a second SIGINT, or one before the script started, stops at once.
/// - SIGTERM, SIGHUP, SIGQUIT and SIGPIPE stop at once.
/// - The timeout raises KeyboardInterrupt at the next check; a script that does not stop within
///   a grace period (stuck in one native operation), or has not started yet, is stopped.
///
/// Stopping at once means: the run is recorded 'cancelled' with every line printed so far
/// (exit code 128 + signal, or 124 for the timeout), a `kiln:` line says so, and the process
/// ends with that code. Signal handlers only write the signal's number to a pipe; the work is
/// done on the supervisor's own thread.
#pragma once

#include "lang/interpreter.h"
#include "trace/trace_writer.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace kiln::api {

/// Installs the stop-signal handlers (once per process; later calls do nothing). Without them a
/// supervisor still enforces the timeout.
void installStopSignalHandlersOnce();

class RunSupervisor {
public:
    enum class Cancel { None, Timeout, Interrupt };

    /// \p timeoutSeconds 0 means no limit; the clock starts now.
    explicit RunSupervisor(double timeoutSeconds);
    ~RunSupervisor();
    RunSupervisor(const RunSupervisor&) = delete;
    RunSupervisor& operator=(const RunSupervisor&) = delete;

    /// Held while the caller begins or ends the run's row, so that a stop never records a
    /// half-begun run or one that already ended.
    std::unique_lock<std::mutex> holdStops() { return std::unique_lock(m_stopMutex); }
    /// Under holdStops(): the run a stop records, with the trace file's path; nullptr when the
    /// run has ended (a stop then only ends the process).
    void setRun(trace::TraceWriter* trace, int64_t runId);

    /// On the interpreter thread, around the script's execution.
    void scriptStarted(lang::Interpreter& interp);
    void scriptEnded();

    /// Why the interpreter was asked to stop for good: a timeout (SIGINT only interrupts: the
    /// script may catch the KeyboardInterrupt, see interrupted()).
    Cancel cancelReason() const { return m_cancel.load(); }
    /// A SIGINT raised KeyboardInterrupt in the script (or is about to).
    bool interrupted() const { return m_interrupted.load(); }
    /// The limit as the messages say it: "3 s".
    std::string describeTimeout() const;

private:
    enum class Phase { Setup, Script, Done };

    void run();
    int nextWaitMs();
    void onSignal(int signalNumber);
    void onTick();
    void requestCancelLocked(Cancel reason);
    [[noreturn]] void stopNow(int exitCode, const std::string& errorType,
                              const std::string& message, bool flushStdout);

    const double m_timeoutSeconds;
    const int64_t m_deadlineNs; ///< monotonic; 0 when there is no timeout
    int64_t m_graceDeadlineNs = 0;

    std::mutex m_stateMutex; ///< guards the phase, the interpreter and the grace deadline
    Phase m_phase = Phase::Setup;
    lang::Interpreter* m_interp = nullptr;
    std::atomic<bool> m_interrupted{false};
    std::atomic<Cancel> m_cancel{Cancel::None};

    std::mutex m_stopMutex; ///< see holdStops()
    trace::TraceWriter* m_trace = nullptr;
    int64_t m_runId = 0;

    int m_wake[2] = {-1, -1}; ///< the destructor's wake-up pipe
    bool m_done = false;      ///< under m_stateMutex
    std::thread m_thread;
};

} // namespace kiln::api
