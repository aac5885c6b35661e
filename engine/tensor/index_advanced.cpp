// SPDX-License-Identifier: MIT
// The advanced stage of indexing: index tensors and bool masks broadcast together, turned into
// one element offset per broadcast position, and whole blocks of the remaining dimensions moved
// between the indexed view and a contiguous buffer.
#include "tensor/index_advanced.h"

#include "tensor/error.h"
#include "tensor/iterate.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <cstring>
#include <string>

namespace kiln::tensor::detail {

namespace {

/// One int index tensor per indexed view dimension (bool masks already turned into indices).
struct IndexDim {
    int64_t dim;
    Tensor index;
};

void checkMaskShape(const Tensor& view, const PendingIndex& p) {
    for (int64_t j = 0; j < p.tensor.dim(); ++j) {
        int64_t d = p.dim + j;
        if (d >= view.dim() || p.tensor.sizes()[j] != view.sizes()[d])
            fail(ErrorKind::IndexError,
                 "The shape of the mask " + shapeString(p.tensor.sizes()) + " at index " +
                     std::to_string(j) + " does not match the shape of the indexed tensor " +
                     shapeString(view.sizes()) + " at index " + std::to_string(d));
    }
}

std::vector<IndexDim> expandMasks(const Tensor& view, const std::vector<PendingIndex>& pending) {
    std::vector<IndexDim> out;
    for (const PendingIndex& p : pending) {
        if (p.tensor.dtype() != DType::Bool) {
            out.push_back({p.dim, p.tensor});
            continue;
        }
        checkMaskShape(view, p);
        Tensor positions = nonzero(p.tensor); // [count, mask dims]
        for (int64_t j = 0; j < p.tensor.dim(); ++j)
            out.push_back({p.dim + j, select(positions, 1, j)});
    }
    return out;
}

DimVector broadcastIndexShapes(const std::vector<IndexDim>& dims) {
    DimVector shape = dims.front().index.sizes();
    try {
        for (const IndexDim& d : dims)
            shape = broadcastShapes(shape, d.index.sizes());
    } catch (const TensorError&) {
        std::string list;
        for (size_t k = 0; k < dims.size(); ++k)
            list += (k ? ", " : "") + shapeString(dims[k].index.sizes());
        fail(ErrorKind::IndexError,
             "shape mismatch: indexing tensors could not be broadcast together with shapes " +
                 list);
    }
    return shape;
}

/// Adds index * stride for every broadcast position of one index tensor to `offsets`.
void addIndexOffsets(std::vector<int64_t>& offsets, const Tensor& index, IntList shape,
                     int64_t size, int64_t stride, size_t ordinal) {
    DimVector strides = broadcastStrides(index, shape);
    auto g = makeLoopGeometry<1>(shape, {IntList(strides)}, {itemSize(index.dtype())});
    int64_t* out = offsets.data();
    auto run = [&]<typename T>(std::array<char*, 1> p, std::array<int64_t, 1> s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            int64_t v = *reinterpret_cast<const T*>(p[0] + i * s[0]);
            if (v < -size || v >= size)
                fail(ErrorKind::IndexError,
                     "index " + std::to_string(v) + " is out of bounds for dimension " +
                         std::to_string(ordinal) + " with size " + std::to_string(size));
            *out++ += (v < 0 ? v + size : v) * stride;
        }
    };
    forEachRun(g, {index.rawData()},
               [&](std::array<char*, 1> p, std::array<int64_t, 1> s, int64_t n) {
                   if (index.dtype() == DType::Int32)
                       run.template operator()<int32_t>(p, s, n);
                   else
                       run.template operator()<int64_t>(p, s, n);
               });
}

/// Element offsets of every position of a strided block, row-major ({0} for no dims).
std::vector<int64_t> blockStarts(IntList sizes, IntList strides) {
    const int64_t count = checkedNumel(sizes);
    std::vector<int64_t> starts;
    starts.reserve(static_cast<size_t>(count));
    DimVector counter(sizes.size(), 0);
    int64_t offset = 0;
    for (int64_t i = 0; i < count; ++i) {
        starts.push_back(offset);
        for (size_t d = sizes.size(); d-- > 0;) {
            offset += strides[d];
            if (++counter[d] < sizes[d]) break;
            offset -= strides[d] * sizes[d];
            counter[d] = 0;
        }
    }
    return starts;
}

/// The true positions of a lone mask as element offsets into the view, found by walking the
/// mask and the dims it covers together (no index tensors materialised).
std::vector<int64_t> maskOffsets(const Tensor& view, const PendingIndex& p) {
    const Tensor& mask = p.tensor;
    const int64_t rank = mask.dim(), count = mask.numel();
    const bool* m = mask.data<bool>();
    std::vector<int64_t> offsets;
    DimVector counter(static_cast<size_t>(rank), 0);
    int64_t maskAt = 0, viewAt = 0;
    for (int64_t i = 0; i < count; ++i) {
        if (m[maskAt]) offsets.push_back(viewAt);
        for (int64_t d = rank - 1; d >= 0; --d) {
            const int64_t size = mask.sizes()[d], vs = view.strides()[p.dim + d];
            maskAt += mask.strides()[d];
            viewAt += vs;
            if (++counter[d] < size) break;
            maskAt -= mask.strides()[d] * size;
            viewAt -= vs * size;
            counter[d] = 0;
        }
    }
    return offsets;
}

/// Fills in the non-indexed dims around `firstIndexed` and the result's shape.
void layOut(AdvancedPlan& plan, const Tensor& view, const DimVector& indexed, int64_t firstIndexed,
            bool adjacent, IntList indexShape) {
    // torch keeps adjacent indexed dims in place and moves separated ones to the front.
    for (int64_t d = 0; d < view.dim(); ++d) {
        if (indexed[d]) continue;
        bool before = adjacent && d < firstIndexed;
        (before ? plan.beforeSizes : plan.afterSizes).push_back(view.sizes()[d]);
        (before ? plan.beforeStrides : plan.afterStrides).push_back(view.strides()[d]);
    }
    plan.resultShape = plan.beforeSizes;
    for (int64_t s : indexShape)
        plan.resultShape.push_back(s);
    for (int64_t s : plan.afterSizes)
        plan.resultShape.push_back(s);
}

/// x[mask] and its relatives: one mask and nothing else advanced.
AdvancedPlan planLoneMask(const Tensor& view, const PendingIndex& p) {
    checkMaskShape(view, p);
    AdvancedPlan plan;
    plan.offsets = maskOffsets(view, p);
    DimVector indexed(static_cast<size_t>(view.dim()), 0);
    for (int64_t j = 0; j < p.tensor.dim(); ++j)
        indexed[p.dim + j] = 1;
    layOut(plan, view, indexed, p.dim, true, DimVector{static_cast<int64_t>(plan.offsets.size())});
    return plan;
}

} // namespace

AdvancedPlan planAdvanced(const Tensor& view, const std::vector<PendingIndex>& pending) {
    if (pending.size() == 1 && pending[0].tensor.dtype() == DType::Bool)
        return planLoneMask(view, pending[0]);
    std::vector<IndexDim> dims = expandMasks(view, pending);
    DimVector shape = broadcastIndexShapes(dims);
    AdvancedPlan plan;
    plan.offsets.assign(static_cast<size_t>(checkedNumel(shape)), 0);
    DimVector indexed(static_cast<size_t>(view.dim()), 0);
    bool adjacent = true;
    for (size_t k = 0; k < dims.size(); ++k) {
        int64_t d = dims[k].dim;
        addIndexOffsets(plan.offsets, dims[k].index, shape, view.sizes()[d], view.strides()[d], k);
        indexed[d] = 1;
        adjacent = adjacent && d == dims.front().dim + static_cast<int64_t>(k);
    }
    layOut(plan, view, indexed, dims.front().dim, adjacent, shape);
    return plan;
}

namespace {

/// Single elements of `Bytes` bytes: the copy compiles to one load and one store.
template <size_t Bytes>
void moveElements(const AdvancedPlan& plan, char* base, char* buffer, bool scatter) {
    for (int64_t b : blockStarts(plan.beforeSizes, plan.beforeStrides)) {
        for (int64_t off : plan.offsets) {
            char* v = base + (b + off) * static_cast<int64_t>(Bytes);
            std::memcpy(scatter ? v : buffer, scatter ? buffer : v, Bytes);
            buffer += Bytes;
        }
    }
}

} // namespace

void transfer(const AdvancedPlan& plan, const Tensor& view, char* buffer, bool scatter) {
    const int64_t item = itemSize(view.dtype());
    if (plan.afterSizes.empty()) {
        switch (item) {
        case 1:
            return moveElements<1>(plan, view.rawData(), buffer, scatter);
        case 2:
            return moveElements<2>(plan, view.rawData(), buffer, scatter);
        case 4:
            return moveElements<4>(plan, view.rawData(), buffer, scatter);
        default:
            return moveElements<8>(plan, view.rawData(), buffer, scatter);
        }
    }
    DimVector bufferStrides = contiguousStrides(plan.afterSizes);
    auto g = makeLoopGeometry<2>(
        plan.afterSizes, {IntList(bufferStrides), IntList(plan.afterStrides)}, {item, item});
    const int64_t blockBytes = checkedNumel(plan.afterSizes) * item;
    char* base = view.rawData();
    auto copyRun = [item, scatter](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
        char* dst = scatter ? p[1] : p[0];
        const char* src = scatter ? p[0] : p[1];
        int64_t ds = scatter ? s[1] : s[0], ss = scatter ? s[0] : s[1];
        if (ds == item && ss == item) {
            std::memcpy(dst, src, static_cast<size_t>(n * item));
            return;
        }
        for (int64_t i = 0; i < n; ++i)
            std::memcpy(dst + i * ds, src + i * ss, static_cast<size_t>(item));
    };
    for (int64_t b : blockStarts(plan.beforeSizes, plan.beforeStrides)) {
        for (int64_t off : plan.offsets) {
            forEachRun(g, {buffer, base + (b + off) * item}, copyRun);
            buffer += blockBytes;
        }
    }
}

void accumulate(const AdvancedPlan& plan, const Tensor& view, const char* buffer) {
    const int64_t item = itemSize(view.dtype());
    DimVector bufferStrides = contiguousStrides(plan.afterSizes);
    auto g = makeLoopGeometry<2>(
        plan.afterSizes, {IntList(bufferStrides), IntList(plan.afterStrides)}, {item, item});
    const int64_t blockBytes = checkedNumel(plan.afterSizes) * item;
    char* base = view.rawData();
    dispatchDType(view.dtype(), [&]<DType D>() {
        using T = CType<D>;
        using C = ComputeType<T>;
        auto addRun = [](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
            for (int64_t i = 0; i < n; ++i) {
                T* dst = reinterpret_cast<T*>(p[1] + i * s[1]);
                const T src = *reinterpret_cast<const T*>(p[0] + i * s[0]);
                *dst = static_cast<T>(static_cast<C>(*dst) + static_cast<C>(src));
            }
        };
        const char* from = buffer;
        for (int64_t b : blockStarts(plan.beforeSizes, plan.beforeStrides)) {
            for (int64_t off : plan.offsets) {
                forEachRun(g, {const_cast<char*>(from), base + (b + off) * item}, addRun);
                from += blockBytes;
            }
        }
    });
}

} // namespace kiln::tensor::detail
