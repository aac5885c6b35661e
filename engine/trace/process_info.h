// SPDX-License-Identifier: MIT
/// \file
/// Facts about processes on this machine that the trace needs to judge a run: which host we
/// are on (a pid means nothing on another machine) and whether a recorded pid still runs, so a
/// 'running' run whose writer died without a word can be shown as crashed.
#pragma once

#include <cstdint>
#include <string>

namespace kiln::trace {

/// gethostname(), or "" when the system will not say.
std::string localHostName();

/// The calling process's id.
int64_t currentProcessId();

/// True while \p pid names a live process on this host. A zombie (exited, not yet reaped by its
/// parent, as a crashed `kiln run` is until the GUI waits for it) counts as dead. A pid reused
/// by an unrelated process reads as alive: the answer errs towards "still running".
bool processLooksAlive(int64_t pid);

/// "SIGSEGV", "SIGTERM", ... for the fatal and stopping signals, else "signal N".
std::string signalName(int signalNumber);

} // namespace kiln::trace
