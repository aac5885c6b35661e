// SPDX-License-Identifier: MIT
// Index-driven reads that produce new tensors: gather, index_select, masked_select, nonzero.
// gather and index_select share one kernel: the source is restrided so that the indexed
// dimension has stride 0, and each element adds index * (that dimension's real stride).
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/iterate.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <cstring>
#include <string>

namespace kiln::tensor {

namespace {

enum class BoundsMessage { Gather, IndexSelect };

[[noreturn]] void failIndexBounds(BoundsMessage style, int64_t index, int64_t dim, int64_t size) {
    if (style == BoundsMessage::Gather)
        failRuntime("index " + std::to_string(index) + " is out of bounds for dimension " +
                    std::to_string(dim) + " with size " + std::to_string(size));
    // PyTorch's CPU index_select has a dedicated kernel for dim 1 with its own wording.
    if (dim != 1) fail(ErrorKind::IndexError, "index out of range in self");
    failRuntime("INDICES element is out of DATA bounds, id=" + std::to_string(index) +
                " axis_dim=" + std::to_string(size));
}

struct GatherGeometry {
    Tensor source; ///< the input with the output's sizes and stride 0 along `dim`
    Tensor index;  ///< the index with the output's sizes (broadcast where needed)
    int64_t dim = 0;
    int64_t dimSize = 1;
    int64_t dimStride = 0;
};

/// out[i] = source[i + index[i] * dimStride] for every position, with bounds checks.
void gatherKernel(const Tensor& out, const GatherGeometry& geo, BoundsMessage style) {
    const int64_t item = itemSize(out.dtype());
    const int64_t step = geo.dimStride * item;
    auto g = makeLoopGeometry<3>(
        out.sizes(),
        {IntList(out.strides()), IntList(geo.source.strides()), IntList(geo.index.strides())},
        {item, item, itemSize(geo.index.dtype())});
    auto run = [&]<typename I>(std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            int64_t v = *reinterpret_cast<const I*>(p[2] + i * s[2]);
            if (v < 0 || v >= geo.dimSize) failIndexBounds(style, v, geo.dim, geo.dimSize);
            std::memcpy(p[0] + i * s[0], p[1] + i * s[1] + v * step, static_cast<size_t>(item));
        }
    };
    forEachRun(g, {out.rawData(), geo.source.rawData(), geo.index.rawData()},
               [&](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
                   if (geo.index.dtype() == DType::Int32)
                       run.template operator()<int32_t>(p, s, n);
                   else
                       run.template operator()<int64_t>(p, s, n);
               });
}

/// `a` seen with `sizes`, its stride along `dim` zeroed (a 0-dim tensor acts as size [1]).
Tensor restrideSource(const Tensor& a, IntList sizes, int64_t dim) {
    DimVector strides = a.dim() == 0 ? DimVector(sizes.size(), 0) : a.strides();
    if (!strides.empty()) strides[dim] = 0;
    return Tensor::view(a.storage(), a.offset(), sizes, strides, a.dtype());
}

void checkGatherShapes(const Tensor& a, int64_t dim, const Tensor& index) {
    if (std::max<int64_t>(a.dim(), 1) != std::max<int64_t>(index.dim(), 1))
        failRuntime("Index tensor must have the same number of dimensions as input tensor");
    for (int64_t d = 0; d < std::min(a.dim(), index.dim()); ++d)
        if (d != dim && index.sizes()[d] > a.sizes()[d])
            failRuntime("Size does not match at dimension " + std::to_string(d) +
                        " expected index " + shapeString(index.sizes()) +
                        " to be no larger than self " + shapeString(a.sizes()) +
                        " apart from dimension " + std::to_string(dim));
}

bool isIntIndex(const Tensor& index) {
    return index.dtype() == DType::Int64 || index.dtype() == DType::Int32;
}

} // namespace

Tensor gather(const Tensor& a, int64_t dim, const Tensor& index) {
    int64_t d = wrapDim(dim, a.dim());
    // 2.3 takes int64 only (newer releases accept int32 too).
    if (index.dtype() != DType::Int64) failRuntime("gather(): Expected dtype int64 for index");
    checkGatherShapes(a, d, index);
    Tensor out = Tensor::empty(index.sizes(), a.dtype());
    if (out.numel() > 0) {
        GatherGeometry geo;
        geo.source = restrideSource(a, index.sizes(), d);
        geo.index = index;
        geo.dim = d;
        geo.dimSize = a.dim() == 0 ? 1 : a.sizes()[d];
        geo.dimStride = a.dim() == 0 ? 0 : a.strides()[d];
        gatherKernel(out, geo, BoundsMessage::Gather);
    }
    recordGradFn(out, "GatherBackward0", {&a});
    attachGatherDerivative(out, a, d, index);
    return out;
}

Tensor indexSelect(const Tensor& a, int64_t dim, const Tensor& index) {
    int64_t d = wrapDim(dim, a.dim());
    if (index.dim() > 1)
        fail(ErrorKind::IndexError, "index_select(): Index is supposed to be a vector");
    if (!isIntIndex(index)) failRuntime("index_select(): Expected dtype int32 or int64 for index");
    if (a.dim() == 0 && index.numel() != 1)
        failRuntime("index_select(): Index to scalar can have only 1 value, got " +
                    std::to_string(index.numel()) + " value(s)");
    const int64_t size = a.dim() == 0 ? 1 : a.sizes()[d];
    Tensor positions = toDType(reshape(index, DimVector{index.numel()}), DType::Int64);
    for (int64_t i = 0; i < positions.numel(); ++i) {
        int64_t v = positions.data<int64_t>()[i * positions.strides()[0]];
        if (v < 0 || v >= size) failIndexBounds(BoundsMessage::IndexSelect, v, d, size);
    }
    Tensor out;
    if (a.dim() == 0) {
        out = clone(a);
    } else {
        // a[:, ..., :, index] with `d` full slices: rows move as whole blocks.
        std::vector<IndexItem> items(static_cast<size_t>(d), IndexItem{IndexItem::Kind::Slice});
        items.push_back(IndexItem{IndexItem::Kind::Tensor});
        items.back().tensor = positions;
        detail::NoGradGuard noGrad;
        out = kiln::tensor::index(a, items);
    }
    recordGradFn(out, "IndexSelectBackward0", {&a});
    if (a.dim() > 0) attachIndexSelectDerivative(out, a, d, positions);
    return out;
}

Tensor maskedSelect(const Tensor& a, const Tensor& mask) {
    if (mask.dtype() != DType::Bool) failRuntime("masked_select: expected BoolTensor for mask");
    DimVector shape = broadcastShapes(mask.sizes(), a.sizes());
    DimVector aStrides = broadcastStrides(a, shape);
    DimVector mStrides = broadcastStrides(mask, shape);
    const int64_t item = itemSize(a.dtype());
    auto g = makeLoopGeometry<2>(shape, {IntList(aStrides), IntList(mStrides)}, {item, 1});
    std::array<char*, 2> base{a.rawData(), mask.rawData()};
    int64_t count = 0;
    forEachRun(g, base, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
        for (int64_t i = 0; i < n; ++i)
            count += *reinterpret_cast<const bool*>(p[1] + i * s[1]);
    });
    Tensor out = Tensor::empty(DimVector{count}, a.dtype());
    char* dst = out.rawData();
    forEachRun(g, base, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            if (!*reinterpret_cast<const bool*>(p[1] + i * s[1])) continue;
            std::memcpy(dst, p[0] + i * s[0], static_cast<size_t>(item));
            dst += item;
        }
    });
    recordGradFn(out, "MaskedSelectBackward0", {&a});
    return out;
}

Tensor nonzero(const Tensor& a) {
    // != 0 as a bool cast (NaN counts as nonzero), then one scan in row-major order.
    Tensor mask = contiguous(toDType(a, DType::Bool));
    const bool* m = mask.data<bool>();
    const int64_t n = mask.numel();
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i)
        count += m[i];
    const int64_t rank = a.dim();
    Tensor out = Tensor::empty(DimVector{count, rank}, DType::Int64);
    int64_t* dst = out.data<int64_t>();
    DimVector counter(static_cast<size_t>(rank), 0);
    for (int64_t i = 0; i < n; ++i) {
        if (m[i] && rank > 0) { // a 0-D input's rows are empty (and its counter null)
            std::memcpy(dst, counter.data(), static_cast<size_t>(rank) * sizeof(int64_t));
            dst += rank;
        }
        for (int64_t d = rank - 1; d >= 0; --d) {
            if (++counter[d] < a.sizes()[d]) break;
            counter[d] = 0;
        }
    }
    return out;
}

} // namespace kiln::tensor
