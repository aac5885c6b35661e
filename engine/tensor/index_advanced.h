// SPDX-License-Identifier: MIT
/// \file
/// The advanced (tensor-indexed) stage of a[items] and a[items] = value, shared by index.cpp:
/// the basic stage there produces a view and the tensor items still to apply; this stage plans
/// where every indexed element lives in that view and moves the elements. Internal to the
/// tensor library.
#pragma once

#include "tensor/tensor.h"

#include <vector>

namespace kiln::tensor::detail {

/// A tensor item still to apply: an int index or a bool mask over view dimension `dim` and, for
/// a k-dim mask, the k - 1 dimensions after it.
struct PendingIndex {
    int64_t dim;
    Tensor tensor;
};

struct AdvancedPlan {
    DimVector resultShape;
    /// Non-indexed view dims before the indexed ones (kept in place only when those are
    /// adjacent) and after them; sizes and element strides in the view.
    DimVector beforeSizes, beforeStrides, afterSizes, afterStrides;
    /// Element offset into the view of each broadcast index position, row-major.
    std::vector<int64_t> offsets;
};

/// Broadcasts the index tensors (masks become their true positions), checks every index against
/// its dimension with torch's messages, and lays out the result as torch does: adjacent indexed
/// dims stay in place, separated ones move to the front.
AdvancedPlan planAdvanced(const Tensor& view, const std::vector<PendingIndex>& pending);

/// Moves every element block between the view and a contiguous buffer of the result's shape:
/// gathers into the buffer, or scatters the buffer into the view (later positions win).
void transfer(const AdvancedPlan& plan, const Tensor& view, char* buffer, bool scatter);
/// Adds a contiguous buffer of the result's shape (view's dtype) into the view at the plan's
/// positions; repeated positions add up (index_put_ with accumulate=True).
void accumulate(const AdvancedPlan& plan, const Tensor& view, const char* buffer);

} // namespace kiln::tensor::detail
