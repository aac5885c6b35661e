// SPDX-License-Identifier: MIT
#include "tensor/reduce_util.h"

#include "tensor/error.h"

#include <numeric>
#include <string>

namespace kiln::tensor::detail {

uint64_t reductionMask(IntList dims, int64_t rank) {
    KILN_ASSERT(rank <= 64, "reductions support at most 64 dimensions");
    if (dims.empty()) return rank == 64 ? ~uint64_t(0) : (uint64_t(1) << rank) - 1;
    uint64_t mask = 0;
    for (int64_t dim : dims) {
        int64_t d = wrapDim(dim, rank);
        if (mask >> d & 1)
            failRuntime("dim " + std::to_string(d) + " appears multiple times in the list of dims");
        mask |= uint64_t(1) << d;
    }
    return rank == 0 ? 0 : mask; // a 0-dim tensor accepts dim 0 but has nothing to reduce
}

void checkNonEmptyReduction(const Tensor& a, uint64_t mask, bool dimsGiven, const char* name,
                            bool indexErrorWhenAll) {
    if (a.numel() != 0) return;
    if (!dimsGiven) {
        std::string message = std::string(name) +
                              "(): Expected reduction dim to be specified for input.numel() == 0.";
        if (indexErrorWhenAll) fail(ErrorKind::IndexError, message);
        failRuntime(message + " Specify the reduction dim with the 'dim' argument.");
    }
    for (int64_t d = 0; d < a.dim(); ++d)
        if ((mask >> d & 1) && a.sizes()[d] == 0)
            fail(ErrorKind::IndexError, std::string(name) + "(): Expected reduction dim " +
                                            std::to_string(d) + " to have non-zero size.");
}

DimVector reducedShape(IntList sizes, uint64_t mask, bool keepdim) {
    DimVector shape;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (!(mask >> d & 1))
            shape.push_back(sizes[d]);
        else if (keepdim)
            shape.push_back(1);
    }
    return shape;
}

Tensor dropDims(const Tensor& t, uint64_t mask) {
    DimVector sizes, strides;
    for (int64_t d = 0; d < t.dim(); ++d) {
        if (mask >> d & 1) continue;
        sizes.push_back(t.sizes()[d]);
        strides.push_back(t.strides()[d]);
    }
    return Tensor::view(t.storage(), t.offset(), std::move(sizes), std::move(strides), t.dtype());
}

DimLines dimLines(IntList sizes, int64_t dim) {
    DimLines lines;
    for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d) {
        if (d < dim)
            lines.outer *= sizes[d];
        else if (d == dim)
            lines.size = sizes[d];
        else
            lines.inner *= sizes[d];
    }
    return lines;
}

ReduceLayout makeReduceLayout(const Tensor& in, uint64_t mask) {
    const int64_t rank = in.dim();
    const auto& sizes = in.sizes();
    const auto& strides = in.strides();
    ReduceLayout layout;
    DimVector accStrides(rank, 0);
    for (int64_t d = rank - 1; d >= 0; --d) {
        if (mask >> d & 1) {
            layout.reducedCount *= sizes[d];
            continue;
        }
        accStrides[d] = layout.outNumel;
        layout.outNumel *= sizes[d];
    }
    // Walk the input in memory order: outermost = largest stride.
    DimVector order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return std::abs(strides[a]) > std::abs(strides[b]);
    });
    for (int64_t d : order) {
        layout.sizes.push_back(sizes[d]);
        layout.inStrides.push_back(strides[d]);
        layout.accStrides.push_back(accStrides[d]);
    }
    return layout;
}

} // namespace kiln::tensor::detail
