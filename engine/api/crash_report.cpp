// SPDX-License-Identifier: MIT
#include "api/crash_report.h"

#include "api/run.h"
#include "trace/trace_writer.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <string>
#include <unistd.h>

namespace kiln::api {

namespace {

// What the fatal-signal handler says about the run: "run N in PATH", written before the run
// can crash and read by the handler (only lock-free atomics and a plain buffer).
char g_crashRunText[8192];
std::atomic<size_t> g_crashRunTextLength{0};
static_assert(std::atomic<size_t>::is_always_lock_free);

} // namespace

void armCrashReport(int64_t runId, const std::string& tracePath) {
    std::string text = "run " + std::to_string(runId) + " in " + tracePath;
    size_t length = std::min(text.size(), sizeof g_crashRunText);
    g_crashRunTextLength.store(0);
    std::memcpy(g_crashRunText, text.data(), length);
    g_crashRunTextLength.store(length, std::memory_order_release);
}

void disarmCrashReport() {
    g_crashRunTextLength.store(0);
}

namespace {

const char* fatalSignalName(int signalNumber) {
    switch (signalNumber) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGABRT:
        return "SIGABRT";
    default:
        return "a fatal signal";
    }
}

void writeToStderr(const char* text, size_t length) {
    while (length > 0) {
        ssize_t n = ::write(STDERR_FILENO, text, length);
        if (n <= 0) return;
        text += n;
        length -= size_t(n);
    }
}

void writeToStderr(const char* text) {
    writeToStderr(text, std::strlen(text));
}

/// The fatal-signal handler: async-signal-safe calls only (atomics, write, nanosleep).
void onFatalSignal(int signalNumber) {
    bool marked = trace::TraceWriter::emergencyFlush(signalNumber);
    writeToStderr("kiln: crashed: killed by ");
    writeToStderr(fatalSignalName(signalNumber));
    writeToStderr("\n");
    if (size_t length = g_crashRunTextLength.load(std::memory_order_acquire); length > 0) {
        writeToStderr(marked ? "kiln: recorded as " : "kiln: ");
        writeToStderr(g_crashRunText, length);
        writeToStderr(marked ? "\n"
                             : " could not be marked crashed; readers show it as crashed once "
                               "this process is gone\n");
    }
    std::signal(signalNumber, SIG_DFL);
    std::raise(signalNumber);
}

} // namespace

void installCrashHandlers() {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction action {};
        action.sa_handler = onFatalSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        sigaction(sig, &action, nullptr);
    }
}

} // namespace kiln::api
