// SPDX-License-Identifier: MIT
/// \file
/// What the Graph panel's fusion views show for a graph of a run imported from PyTorch: its log
/// has no diagrams, but it has Inductor's post-grad graphs (what Inductor lowered and fused),
/// shown as code in their place.
#pragma once

#include "run_snapshot.h"

#include <QString>

namespace kiln::views {

/// The post-grad graphs of Dynamo graph \p graphId (forward and backward, or inference), each
/// headed by what it is; empty when it has none.
QString postGradGraphsText(const RunSnapshot& snapshot, int64_t graphId);

} // namespace kiln::views
