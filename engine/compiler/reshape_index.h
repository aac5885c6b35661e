// SPDX-License-Identifier: MIT
/// \file
/// Where a reshape reads: the index of the source element for an index of the result. Dims
/// are matched in groups of equal element count from the innermost (as Inductor's reshape
/// indexer does), so merging [b, h] into b * h reads b = i / h and h = i % h, and the dims a
/// reshape leaves alone map one to one. Going through the whole flat index instead would
/// leave divisions the index simplifier cannot undo, and hide that the innermost dim is still
/// contiguous (the vector loads of a copy kernel need to see it).
#pragma once

#include "compiler/index_expr.h"

#include <vector>

namespace kiln::compiler {

/// The source index of `index` (over `newSizes`) in a tensor of `oldSizes` with as many
/// elements.
std::vector<Index> reshapeSourceIndex(const std::vector<Index>& oldSizes,
                                      const std::vector<Index>& newSizes,
                                      const std::vector<Index>& index);

} // namespace kiln::compiler
