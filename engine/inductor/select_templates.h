// SPDX-License-Identifier: MIT
/// \file
/// Pass 3b, select_templates (max_autotune / max_autotune_gemm): for each matrix product,
/// benchmark the BLAS call (with its pointwise consumer as a separate kernel) against Kiln's
/// tiled template in several tile shapes (with that consumer fused as its epilogue when
/// epilogue_fusion is on), on random inputs of the graph's sizes, and keep the fastest. Which
/// candidates run follows max_autotune_gemm_backends: ATEN is the BLAS call, TRITON/CPP are
/// Kiln's templates. Every candidate's time is kept for autotune_choices.
#pragma once

#include "inductor/pipeline.h"

namespace kiln::inductor {

/// Rewrites `a.schedule` where a template wins and fills `a.scheduleChoices`.
Status selectTemplates(const PipelineContext& context, GraphArtifacts& a,
                       const std::vector<int64_t>& exampleSymbols);

} // namespace kiln::inductor
