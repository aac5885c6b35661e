// SPDX-License-Identifier: MIT
#include "support/time_limited_child.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace kiln {

namespace {

bool writeAll(int fd, const char* data, size_t size) {
    while (size > 0) {
        ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

/// The child: the caller's signal handlers are not its own (a SIGTERM to the process group
/// should end it, not run the caller's shutdown; a crash should end it, not print the caller's
/// crash report), and it ends with the parent.
[[noreturn]] void runChild(const std::function<ChildOutput()>& work, int out) {
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
                  SIGXCPU, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        ::signal(s, SIG_DFL);
#ifdef __linux__
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    ChildOutput result = work();
    // A length prefix tells a complete result from a child that died while writing it.
    uint64_t size = result.bytes.size();
    bool sent = writeAll(out, reinterpret_cast<const char*>(&size), sizeof size) &&
                writeAll(out, result.bytes.data(), result.bytes.size());
    ::_exit(sent ? result.code : 126); // no atexit handlers or destructors of the caller's
}

using Clock = std::chrono::steady_clock;

/// Reads `fd` to its end or until `deadline`; false at the deadline.
bool readUntil(int fd, Clock::time_point deadline, std::string& into) {
    char buffer[65536];
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) return false;
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true; // end of file (or an error: the child is gone either way)
        into.append(buffer, static_cast<size_t>(n));
    }
}

int waitFor(pid_t child) {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

} // namespace

ChildResult runInTimeLimitedChild(const std::function<ChildOutput()>& work,
                                  std::chrono::milliseconds limit) {
    ChildResult r;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        r.error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return r;
    }
    Clock::time_point deadline = Clock::now() + limit;
    pid_t child = ::fork();
    if (child < 0) {
        r.error = std::string("cannot start a process: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return r;
    }
    if (child == 0) {
        ::close(fds[0]);
        runChild(work, fds[1]);
    }
    ::close(fds[1]);
    std::string received;
    bool finished = readUntil(fds[0], deadline, received);
    ::close(fds[0]);
    if (!finished) ::kill(child, SIGKILL);
    int status = waitFor(child);
    if (!finished) {
        r.end = ChildResult::End::TimedOut;
        return r;
    }
    uint64_t size = 0;
    bool complete = received.size() >= sizeof size &&
                    (std::memcpy(&size, received.data(), sizeof size), true) &&
                    received.size() - sizeof size == size;
    if (WIFEXITED(status) && complete && WEXITSTATUS(status) != 126) {
        r.end = ChildResult::End::Finished;
        r.code = WEXITSTATUS(status);
        r.bytes = received.substr(sizeof size);
        return r;
    }
    r.end = ChildResult::End::Crashed;
    r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return r;
}

} // namespace kiln
