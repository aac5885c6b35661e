// SPDX-License-Identifier: MIT
// torch.unique and torch.unique_consecutive: the distinct values (or slices along a dimension)
// of a tensor, sorted (unique) or in runs (unique_consecutive), with the inverse (which group
// each element or slice went to) and the counts. NaN equals nothing, so each NaN is a value of
// its own; sorting puts NaNs last.
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace kiln::tensor {

namespace {

template <typename C>
bool isNaN(C v) {
    if constexpr (std::is_floating_point_v<C>)
        return std::isnan(v);
    else
        return false;
}

/// Rows of `width` values, compared lexicographically, NaN after every number.
template <typename C>
struct Rows {
    std::vector<C> values;
    int64_t width = 1;

    const C* row(int64_t i) const { return values.data() + i * width; }
    bool less(int64_t a, int64_t b) const {
        for (int64_t k = 0; k < width; ++k) {
            const C x = row(a)[k], y = row(b)[k];
            if (isNaN(x) || isNaN(y)) {
                if (isNaN(x) != isNaN(y)) return isNaN(y);
                continue;
            }
            if (x != y) return x < y;
        }
        return false;
    }
    bool equal(int64_t a, int64_t b) const {
        for (int64_t k = 0; k < width; ++k)
            if (!(row(a)[k] == row(b)[k])) return false; // NaN != NaN
        return true;
    }
};

} // namespace

UniqueResult unique(const Tensor& a, std::optional<int64_t> dim, bool consecutive) {
    const bool byDim = dim.has_value();
    const int64_t d = byDim ? wrapDim(*dim, a.dim()) : 0;
    if (byDim && a.dim() == 0) failRuntime("unique: cannot apply unique on a 0-dim tensor");
    // One row per element (dim None) or per slice along `dim`.
    Tensor moved = byDim ? movedim(a, d, 0) : reshape(a, DimVector{a.numel()});
    const int64_t n = byDim ? moved.size(0) : a.numel();
    Tensor flat = contiguous(reshape(moved, DimVector{n, n == 0 ? 0 : moved.numel() / n}));
    UniqueResult result;
    std::vector<int64_t> groupOf(static_cast<size_t>(n));
    std::vector<int64_t> counts, representatives;
    dispatchDType(a.dtype(), [&]<DType D>() {
        using T = CType<D>;
        using C = std::conditional_t<std::is_same_v<T, bool>, int, ComputeType<T>>;
        Rows<C> rows;
        rows.width = flat.dim() > 1 ? flat.size(1) : 1;
        rows.values.resize(static_cast<size_t>(flat.numel()));
        const T* data = flat.data<T>();
        for (int64_t i = 0; i < flat.numel(); ++i)
            rows.values[size_t(i)] = static_cast<C>(data[i]);
        std::vector<int64_t> order(static_cast<size_t>(n));
        std::iota(order.begin(), order.end(), int64_t(0));
        if (!consecutive)
            std::stable_sort(order.begin(), order.end(),
                             [&](int64_t x, int64_t y) { return rows.less(x, y); });
        for (size_t k = 0; k < order.size(); ++k) {
            if (k == 0 || !rows.equal(order[k - 1], order[k])) {
                representatives.push_back(order[k]);
                counts.push_back(0);
            }
            groupOf[size_t(order[k])] = static_cast<int64_t>(counts.size()) - 1;
            ++counts.back();
        }
    });
    const int64_t groups = static_cast<int64_t>(counts.size());
    Tensor picks = fromScalars(std::vector<Scalar>(representatives.begin(), representatives.end()),
                               DimVector{groups}, DType::Int64);
    Tensor values = indexSelect(byDim ? moved : reshape(a, DimVector{a.numel()}), 0, picks);
    result.values = byDim ? contiguous(movedim(values, 0, d)) : values;
    Tensor inverse = fromScalars(std::vector<Scalar>(groupOf.begin(), groupOf.end()), DimVector{n},
                                 DType::Int64);
    result.inverse = byDim ? inverse : reshape(inverse, a.sizes());
    result.counts = fromScalars(std::vector<Scalar>(counts.begin(), counts.end()),
                                DimVector{groups}, DType::Int64);
    return result;
}

} // namespace kiln::tensor
