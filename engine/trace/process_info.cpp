// SPDX-License-Identifier: MIT
#include "trace/process_info.h"

#include <cerrno>
#include <csignal>
#include <fstream>
#include <iterator>
#include <sys/types.h>
#include <unistd.h>

namespace kiln::trace {

std::string localHostName() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return {};
    return name;
}

int64_t currentProcessId() {
    return int64_t(getpid());
}

namespace {

// /proc/<pid>/stat is "pid (comm) state ...", and comm may itself contain ") ".
bool isZombie(int64_t pid) {
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    if (!file) return false;
    std::string stat((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    size_t close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size()) return false;
    char state = stat[close + 2];
    return state == 'Z' || state == 'X';
}

} // namespace

bool processLooksAlive(int64_t pid) {
    if (pid <= 0) return false;
    // EPERM means the process exists but belongs to someone else.
    if (kill(pid_t(pid), 0) != 0 && errno == ESRCH) return false;
    return !isZombie(pid);
}

std::string signalName(int signalNumber) {
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
    case SIGTRAP:
        return "SIGTRAP";
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGHUP:
        return "SIGHUP";
    case SIGQUIT:
        return "SIGQUIT";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGUSR1:
        return "SIGUSR1";
    case SIGUSR2:
        return "SIGUSR2";
    case SIGALRM:
        return "SIGALRM";
    case SIGVTALRM:
        return "SIGVTALRM";
    case SIGXCPU:
        return "SIGXCPU";
    default:
        return "signal " + std::to_string(signalNumber);
    }
}

} // namespace kiln::trace
