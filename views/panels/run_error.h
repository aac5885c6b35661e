// SPDX-License-Identifier: MIT
/// \file
/// Where a run stopped, read from its RunRow alone (no SQL): the frames of the traceback Python
/// printed, the innermost one in the workload file, and what the Source panel says about the
/// run's end (an error at a line, or a crash or cancellation).
#pragma once

#include "run_snapshot.h"

#include <QString>
#include <optional>
#include <vector>

namespace kiln::views {

/// One `  File "PATH", line N, in FUNCTION` line of a traceback. A SyntaxError's location has
/// no function.
struct TracebackFrame {
    QString file;
    int line = 0;
    QString function;
};

/// Every frame of \p traceback (formatted as CPython prints it), outermost first; with chained
/// exceptions, the frames of each in the order printed (the last raised comes last).
std::vector<TracebackFrame> parseTraceback(const QString& traceback);

/// The innermost frame of \p traceback in \p file: the last one printed, which for chained
/// exceptions belongs to the exception that ended the run. Null when no frame is in \p file.
std::optional<TracebackFrame> innermostFrameIn(const QString& traceback, const QString& file);

/// What the Source panel says about how a run ended.
struct RunEndNotice {
    enum class Kind {
        None,    ///< still running, or it ended well
        Error,   ///< the script (or Kiln) raised an error
        Stopped, ///< crashed, killed or cancelled: not the script's fault
    };
    Kind kind = Kind::None;
    QString text;    ///< the banner's sentence
    int line = 0;    ///< the workload line where it stopped; 0 when the traceback has none
    QString toolTip; ///< "Type: message", a blank line and the traceback
};

RunEndNotice runEndNotice(const RunSnapshot& snapshot);

} // namespace kiln::views
