// SPDX-License-Identifier: MIT
/// \file
/// Immutable snapshots of trace rows, shared between the session's reader thread and the models
/// on the GUI thread (a refresh replaces the pointer, never the rows).
#pragma once

#include "trace/trace_types.h"

#include <QMetaType>
#include <memory>
#include <vector>

namespace kiln::views {

template <typename Row>
using Rows = std::shared_ptr<const std::vector<Row>>;
using RunRows = Rows<trace::RunRow>;
using GraphBreakRows = Rows<trace::GraphBreakRow>;
using CompileRows = Rows<trace::CompileRow>;
using GuardRows = Rows<trace::GuardRow>;
using RecompileRows = Rows<trace::RecompileRow>;
using ConfigRows = Rows<trace::ConfigRow>;
using OutputRows = Rows<trace::OutputLine>;

/// A kernel with its launch statistics (count 0 when it never ran).
struct KernelRecord {
    trace::KernelRow kernel;
    trace::KernelLaunchStats launches;
};
using KernelRecords = std::shared_ptr<const std::vector<KernelRecord>>;

/// A snapshot of \p rows (a copy the models can share).
template <typename Row>
Rows<Row> shareRows(std::vector<Row> rows) {
    return std::make_shared<const std::vector<Row>>(std::move(rows));
}

} // namespace kiln::views

Q_DECLARE_METATYPE(kiln::views::RunRows)
