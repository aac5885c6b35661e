// SPDX-License-Identifier: MIT
/// \file
/// Runs work that may not return (a library call with no way to interrupt it, such as a
/// Graphviz layout) in a forked child process with a time limit, and brings its result back
/// over a pipe. The caller's process is never at risk: a child that runs out of time is
/// killed, and one that crashes only ends itself.
///
/// The child is a copy of the caller at the fork: it sees the caller's memory as it was, and
/// what it changes stays in the child. Only the thread that forks runs in it, so the work must
/// not wait on locks other threads may hold (malloc is safe; the caller's own mutexes, held by
/// the forking thread, are too).
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace kiln {

/// What the work in the child returns: an exit code of its own choosing (0..125) and bytes.
struct ChildOutput {
    int code = 0;
    std::string bytes;
};

struct ChildResult {
    enum class End {
        Finished,      ///< the work returned: `code` and `bytes` are its ChildOutput
        TimedOut,      ///< killed at the time limit
        Crashed,       ///< ended by `signal` (or exited without reporting its result)
        CouldNotStart, ///< no pipe or no fork: `error` says why
    };
    End end = End::CouldNotStart;
    int code = 0;
    int signal = 0;
    std::string bytes;
    std::string error;
};

/// Runs `work` in a child process and waits at most `limit` for it.
ChildResult runInTimeLimitedChild(const std::function<ChildOutput()>& work,
                                  std::chrono::milliseconds limit);

} // namespace kiln
