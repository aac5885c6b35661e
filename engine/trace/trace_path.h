// SPDX-License-Identifier: MIT
/// \file
/// Checks of a trace path before SQLite sees it. SQLite reports most bad paths as "unable to
/// open database file", and happily opens a device (`/dev/null`, leaving `/dev/null-journal`
/// behind) or a FIFO; these checks name the actual problem instead.
#pragma once

#include "support/expected.h"

#include <string>

namespace kiln::trace {

enum class TracePathUse { Read, Write };

/// Refuses, with a message naming the path: a path longer than SQLite accepts (the default
/// VFS's `mxPathname`, counted on the absolute path), a symbolic-link loop, a path through a
/// file that is not a directory, an existing file that is not a regular file (a directory,
/// device, FIFO or socket) and, for reading, a file that does not exist; for writing, a
/// directory that does not exist. Other problems (permissions, a read-only file system) are
/// left to SQLite's own message.
Status checkTracePath(const std::string& path, TracePathUse use);

} // namespace kiln::trace
