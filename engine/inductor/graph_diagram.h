// SPDX-License-Identifier: MIT
/// \file
/// trace.graph_diagram: the post-fusion diagram (one record node per kernel) and the pre-fusion
/// one (one per loop-IR node), as DOT text in the style of PyTorch's draw_buffers (reference
/// §9.1): placeholders for graph inputs, an output node, an edge per buffer read, record labels
/// `{name=%buf0_buf1|op_code=call_function|target=fused: kiln_red_fused_..._0|...}`, and a fill
/// colour picked by a hash of the target text, so one kernel name always has one colour. Unlike
/// PyTorch, the shape and dtype rows show the kernel's real output, not the fusion group.
#pragma once

#include "inductor/compiled_graph.h"

#include <string>

namespace kiln::inductor {

std::string postFusionDot(const GraphArtifacts& artifacts);
std::string preFusionDot(const GraphArtifacts& artifacts);

} // namespace kiln::inductor
