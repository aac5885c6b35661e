// SPDX-License-Identifier: MIT
/// \file
/// The strides of a view of a strided buffer with static sizes, as PyTorch's view computes
/// them: each run of old dims that is contiguous within itself may be split or merged freely
/// (q.view(b, t, heads, d) of a slice of a projection's rows stays a view). nullopt when the
/// view needs a copy.
#pragma once

#include "compiler/index_expr.h"

#include <optional>
#include <vector>

namespace kiln::compiler {

std::optional<std::vector<Index>> viewStrides(const std::vector<Index>& oldSizes,
                                              const std::vector<Index>& oldStrides,
                                              const std::vector<Index>& newSizes);

} // namespace kiln::compiler
