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
#include <optional>

namespace kiln::views {

/// A time range of the run, [startNs, endNs): what the Timeline's selected range exports.
struct ChromeTraceRange {
    int64_t startNs = 0;
    int64_t endNs = 0;
};

/// The JSON text: {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}. With a
/// \p range, only the events that overlap it (whole, not cut), and otherData says the range.
QByteArray chromeTraceJson(const RunSnapshot& snapshot,
                           std::optional<ChromeTraceRange> range = std::nullopt);

/// Writes chromeTraceJson(\p snapshot, \p range) to \p path; false with \p error set when it
/// cannot.
bool writeChromeTrace(const RunSnapshot& snapshot, const QString& path, QString* error = nullptr,
                      std::optional<ChromeTraceRange> range = std::nullopt);

/// "transformer_block-run-2.trace.json", or "...-run-2-range.trace.json" for a range: the file
/// name an export proposes.
QString chromeTraceFileName(const RunSnapshot& snapshot, bool range);

} // namespace kiln::views
