// SPDX-License-Identifier: MIT
/// \file
/// One run as a Chrome trace (the Trace Event Format that Perfetto and chrome://tracing open):
/// the Timeline panel's lanes become threads of one process (pid = run id), each compile, phase,
/// compiler pass and kernel launch a complete ("X") event, autotuning steps and other instants
/// instant ("i") events. Times are microseconds since the run started, written with their
/// nanosecond fraction so no launch loses precision.
#pragma once

#include "run_snapshot.h"

#include <QByteArray>
#include <QString>

namespace kiln::views {

/// The JSON text: {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}.
QByteArray chromeTraceJson(const RunSnapshot& snapshot);

/// Writes chromeTraceJson(\p snapshot) to \p path; false with \p error set when it cannot.
bool writeChromeTrace(const RunSnapshot& snapshot, const QString& path, QString* error = nullptr);

} // namespace kiln::views
