// SPDX-License-Identifier: MIT
/// \file
/// Internal to the api layer: reading a workload script, and the checks that keep a run from
/// writing its trace over the script.
#pragma once

#include "support/expected.h"

#include <cstddef>
#include <string>

namespace kiln::api {

/// The largest script `kiln run` reads (README, "Running workloads"): far beyond any workload,
/// small enough that reading and parsing it cannot exhaust memory.
constexpr size_t kMaxScriptBytes = size_t(64) << 20;

/// The script's bytes. Refuses, with CPython's wording where it has one ("can't open file
/// 'x.py': [Errno 2] No such file or directory"): a path that cannot be opened, a directory,
/// anything that is not a regular file (a device such as /dev/zero, a FIFO, which would block,
/// a socket) and a file over kMaxScriptBytes. Never blocks on the file's kind and never
/// throws: running out of memory is a MemoryError diagnostic.
Expected<std::string> readScript(const std::string& path);

/// Refuses a trace path that names the script itself (the same file, through any link): a
/// script whose name ends in `.kiln` without --db, or `--db` naming the script.
/// \p explicitDb says whether the trace path came from --db, for the message.
Status checkTraceIsNotScript(const std::string& scriptPath, const std::string& tracePath,
                             bool explicitDb);

} // namespace kiln::api
