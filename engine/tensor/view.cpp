// SPDX-License-Identifier: MIT
// Views: new geometry over the same storage. Nothing here copies elements except reshape (and
// flatten through it) when the requested shape cannot be expressed with strides.
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <numeric>
#include <optional>
#include <string>

namespace kiln::tensor {

namespace {

Tensor makeView(const Tensor& a, DimVector sizes, DimVector strides, int64_t offset,
                std::string_view gradFn) {
    Tensor out = Tensor::view(a.storage(), offset, std::move(sizes), std::move(strides), a.dtype());
    recordGradFn(out, gradFn, {&a});
    attachViewDerivative(out, gradFn, a);
    return out;
}

/// Resolves one -1 in `shape` against `numel`, with PyTorch's messages for impossible shapes.
DimVector inferSize(IntList shape, int64_t numel) {
    std::optional<size_t> inferred;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (inferred) failRuntime("only one dimension can be inferred");
            inferred = i;
        } else if (shape[i] < 0) {
            failRuntime("invalid shape dimension " + std::to_string(shape[i]) + " at index " +
                        std::to_string(i) + " of shape " + shapeString(shape));
        } else {
            known *= shape[i];
        }
    }
    DimVector out(shape);
    if (inferred) {
        if (known == 0)
            failRuntime("cannot reshape tensor of 0 elements into shape " + shapeString(shape) +
                        " because the unspecified dimension size -1 can be any value and is "
                        "ambiguous");
        if (numel % known == 0) out[*inferred] = numel / known;
        known = out[*inferred] * known;
    }
    if (known != numel)
        failRuntime("shape '" + shapeString(shape) + "' is invalid for input of size " +
                    std::to_string(numel));
    return out;
}

/// Strides that let `newSizes` view memory laid out as (oldSizes, oldStrides), if any exist.
/// Old dimensions are grouped into runs that are contiguous with one another; each run must be
/// covered exactly by consecutive new dimensions (size-1 new dims fit anywhere).
std::optional<DimVector> computeViewStrides(IntList oldSizes, IntList oldStrides,
                                            IntList newSizes) {
    DimVector newStrides(newSizes.size(), 1);
    if (oldSizes.empty()) return contiguousStrides(newSizes);
    int64_t numel =
        std::accumulate(oldSizes.begin(), oldSizes.end(), int64_t{1}, std::multiplies<>());
    if (numel == 0)
        return DimVector(oldSizes) == DimVector(newSizes) ? DimVector(oldStrides)
                                                          : contiguousStrides(newSizes);
    int64_t viewDim = static_cast<int64_t>(newSizes.size()) - 1;
    int64_t chunkBaseStride = oldStrides.back();
    int64_t tensorNumel = 1;
    int64_t viewNumel = 1;
    for (int64_t d = static_cast<int64_t>(oldSizes.size()) - 1; d >= 0; --d) {
        tensorNumel *= oldSizes[d];
        bool chunkEnds =
            d == 0 || (oldSizes[d - 1] != 1 && oldStrides[d - 1] != tensorNumel * chunkBaseStride);
        if (!chunkEnds) continue;
        while (viewDim >= 0 && (viewNumel < tensorNumel || newSizes[viewDim] == 1)) {
            newStrides[viewDim] = viewNumel * chunkBaseStride;
            viewNumel *= newSizes[viewDim];
            --viewDim;
        }
        if (viewNumel != tensorNumel) return std::nullopt;
        if (d > 0) {
            chunkBaseStride = oldStrides[d - 1];
            tensorNumel = 1;
            viewNumel = 1;
        }
    }
    if (viewDim != -1) return std::nullopt;
    return newStrides;
}

void checkPermutation(const Tensor& a, IntList dims, DimVector& wrapped) {
    if (static_cast<int64_t>(dims.size()) != a.dim())
        failRuntime("permute(sparse_coo): number of dimensions in the tensor input does not match "
                    "the length of the desired ordering of dimensions i.e. input.dim() = " +
                    std::to_string(a.dim()) +
                    " is not equal to len(dims) = " + std::to_string(dims.size()));
    DimVector seen(dims.size(), 0);
    for (int64_t d : dims) {
        int64_t w = wrapDim(d, a.dim());
        if (seen[w]++) failRuntime("permute(): duplicate dims are not allowed.");
        wrapped.push_back(w);
    }
}

} // namespace

Tensor view(const Tensor& a, IntList sizes) {
    DimVector shape = inferSize(sizes, a.numel());
    std::optional<DimVector> strides = computeViewStrides(a.sizes(), a.strides(), shape);
    if (!strides)
        failRuntime("view size is not compatible with input tensor's size and stride (at least one "
                    "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    return makeView(a, std::move(shape), std::move(*strides), a.offset(), "ViewBackward0");
}

Tensor reshape(const Tensor& a, IntList sizes) {
    DimVector shape = inferSize(sizes, a.numel());
    if (std::optional<DimVector> strides = computeViewStrides(a.sizes(), a.strides(), shape))
        return makeView(a, std::move(shape), std::move(*strides), a.offset(), "ViewBackward0");
    // Like torch: the copy is contiguous, then viewed (the autograd node is _unsafe_view's).
    Tensor copy = clone(a);
    Tensor out = Tensor::view(copy.storage(), 0, shape, contiguousStrides(shape), a.dtype());
    recordGradFn(out, "UnsafeViewBackward0", {&a});
    attachViewDerivative(out, "UnsafeViewBackward0", a);
    return out;
}

Tensor permute(const Tensor& a, IntList dims) {
    DimVector order;
    checkPermutation(a, dims, order);
    DimVector sizes(order.size()), strides(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        sizes[i] = a.sizes()[order[i]];
        strides[i] = a.strides()[order[i]];
    }
    return makeView(a, std::move(sizes), std::move(strides), a.offset(), "PermuteBackward0");
}

namespace {

Tensor swapDims(const Tensor& a, int64_t dim0, int64_t dim1, std::string_view gradFn) {
    int64_t d0 = wrapDim(dim0, a.dim());
    int64_t d1 = wrapDim(dim1, a.dim());
    DimVector sizes = a.sizes(), strides = a.strides();
    if (a.dim() > 0) {
        std::swap(sizes[d0], sizes[d1]);
        std::swap(strides[d0], strides[d1]);
    }
    return makeView(a, std::move(sizes), std::move(strides), a.offset(), gradFn);
}

} // namespace

Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1) {
    return swapDims(a, dim0, dim1, "TransposeBackward0");
}

Tensor t(const Tensor& a) {
    if (a.dim() > 2)
        failRuntime("t() expects a tensor with <= 2 dimensions, but self is " +
                    std::to_string(a.dim()) + "D");
    return swapDims(a, 0, a.dim() == 2 ? 1 : 0, "TBackward0");
}

Tensor unsqueeze(const Tensor& a, int64_t dim) {
    int64_t d = wrapDim(dim, a.dim() + 1);
    DimVector sizes = a.sizes(), strides = a.strides();
    // The new dim's stride is what a contiguous layout would give it; any value is valid.
    int64_t stride = d < a.dim() ? sizes[d] * strides[d] : 1;
    sizes.insert(d, 1);
    strides.insert(d, stride);
    return makeView(a, std::move(sizes), std::move(strides), a.offset(), "UnsqueezeBackward0");
}

Tensor squeeze(const Tensor& a, IntList dims) {
    DimVector marked(static_cast<size_t>(std::max<int64_t>(a.dim(), 1)), dims.empty() ? 1 : 0);
    for (int64_t d : dims) {
        int64_t w = wrapDim(d, a.dim());
        if (marked[w])
            failRuntime("dim " + std::to_string(w) + " appears multiple times in the list of dims");
        marked[w] = 1;
    }
    DimVector sizes, strides;
    for (int64_t d = 0; d < a.dim(); ++d) {
        if (marked[d] && a.sizes()[d] == 1) continue;
        sizes.push_back(a.sizes()[d]);
        strides.push_back(a.strides()[d]);
    }
    // torch names the node after the overload: squeeze(), squeeze(dim), squeeze(dims).
    std::string_view gradFn = dims.empty()       ? "SqueezeBackward0"
                              : dims.size() == 1 ? "SqueezeBackward1"
                                                 : "SqueezeBackward2";
    return makeView(a, std::move(sizes), std::move(strides), a.offset(), gradFn);
}

namespace {

[[noreturn]] void failExpandMismatch(const Tensor& a, IntList sizes, int64_t target, int64_t dim,
                                     int64_t existing) {
    failRuntime("The expanded size of the tensor (" + std::to_string(target) +
                ") must match the existing size (" + std::to_string(existing) +
                ") at non-singleton dimension " + std::to_string(dim) + ".  Target sizes: " +
                shapeString(sizes) + ".  Tensor sizes: " + shapeString(a.sizes()));
}

} // namespace

Tensor expand(const Tensor& a, IntList sizes) {
    const int64_t rank = static_cast<int64_t>(sizes.size());
    if (rank < a.dim())
        failRuntime("expand(torch." + std::string(dtypeLegacyName(a.dtype())) + "Tensor{" +
                    shapeString(a.sizes()) + "}, size=" + shapeString(sizes) +
                    "): the number of sizes provided (" + std::to_string(rank) +
                    ") must be greater or equal to the number of dimensions in the tensor (" +
                    std::to_string(a.dim()) + ")");
    DimVector outSizes(sizes.size()), outStrides(sizes.size());
    const int64_t lead = rank - a.dim();
    for (int64_t i = rank - 1; i >= 0; --i) {
        int64_t target = sizes[i];
        if (i < lead) {
            if (target < 0)
                failRuntime("The expanded size of the tensor (" + std::to_string(target) +
                            ") isn't allowed in a leading, non-existing dimension " +
                            std::to_string(i));
            outSizes[i] = target;
            outStrides[i] = 0;
            continue;
        }
        int64_t existing = a.sizes()[i - lead];
        if (target == -1) target = existing;
        if (existing != target && existing != 1) failExpandMismatch(a, sizes, target, i, existing);
        if (target < 0) // torch fails in its numel computation for a negative target here
            failRuntime("numel: integer multiplication overflow");
        outSizes[i] = target;
        outStrides[i] = existing == target ? a.strides()[i - lead] : 0;
    }
    return makeView(a, std::move(outSizes), std::move(outStrides), a.offset(), "ExpandBackward0");
}

Tensor flatten(const Tensor& a, int64_t startDim, int64_t endDim) {
    int64_t start = wrapDim(startDim, a.dim());
    int64_t end = wrapDim(endDim, a.dim());
    if (start > end) failRuntime("flatten() has invalid args: start_dim cannot come after end_dim");
    if (a.dim() == 0) return reshape(a, DimVector{1});
    if (start == end) return a;
    DimVector shape;
    int64_t merged = 1;
    for (int64_t d = 0; d < a.dim(); ++d) {
        if (d >= start && d <= end) {
            merged *= a.sizes()[d];
            if (d == end) shape.push_back(merged);
        } else {
            shape.push_back(a.sizes()[d]);
        }
    }
    return reshape(a, shape);
}

Tensor unflatten(const Tensor& a, int64_t dim, IntList sizes) {
    if (a.dim() == 0)
        failRuntime("unflatten got an unexpected error:\nDimension specified as 0 but tensor has "
                    "no dimensions");
    int64_t d = wrapDim(dim, a.dim());
    if (sizes.empty()) failRuntime("unflatten: sizes must be non-empty");
    DimVector resolved;
    try {
        resolved = inferSize(sizes, a.sizes()[d]);
    } catch (const TensorError& e) {
        if (std::string(e.what()) == "only one dimension can be inferred")
            failRuntime(std::string("unflatten got an unexpected error:\n") + e.what());
        failRuntime("unflatten: Provided sizes " + shapeString(sizes) +
                    " don't multiply up to the size of dim " + std::to_string(d) + " (" +
                    std::to_string(a.sizes()[d]) + ") in the input tensor");
    }
    DimVector shape;
    for (int64_t i = 0; i < a.dim(); ++i) {
        if (i != d)
            shape.push_back(a.sizes()[i]);
        else
            for (int64_t s : resolved)
                shape.push_back(s);
    }
    return view(a, shape);
}

namespace {

/// The sub-range [start, start + length * step) of dimension `dim` (all already validated).
Tensor sliceUnchecked(const Tensor& a, int64_t dim, int64_t start, int64_t length, int64_t step) {
    DimVector sizes = a.sizes(), strides = a.strides();
    int64_t offset = a.offset() + start * strides[dim];
    sizes[dim] = length;
    strides[dim] *= step;
    return makeView(a, std::move(sizes), std::move(strides), offset, "SliceBackward0");
}

} // namespace

Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length) {
    if (a.dim() == 0) failRuntime("narrow() cannot be applied to a 0-dim tensor.");
    if (length < 0) failRuntime("narrow(): length must be non-negative.");
    int64_t d = wrapDim(dim, a.dim());
    int64_t size = a.sizes()[d];
    if (start < -size || start > size)
        fail(ErrorKind::IndexError, "start out of range (expected to be in range of [" +
                                        std::to_string(-size) + ", " + std::to_string(size) +
                                        "], but got " + std::to_string(start) + ")");
    if (start < 0) start += size;
    if (start + length > size)
        failRuntime("start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                    ") exceeds dimension size (" + std::to_string(size) + ").");
    return sliceUnchecked(a, d, start, length, 1);
}

Tensor select(const Tensor& a, int64_t dim, int64_t index) {
    if (a.dim() == 0) fail(ErrorKind::IndexError, "select() cannot be applied to a 0-dim tensor.");
    int64_t d = wrapDim(dim, a.dim());
    int64_t size = a.sizes()[d];
    if (index < -size || index >= size)
        fail(ErrorKind::IndexError,
             "select(): index " + std::to_string(index) + " out of range for tensor of size " +
                 shapeString(a.sizes()) + " at dimension " + std::to_string(d));
    if (index < 0) index += size;
    DimVector sizes = a.sizes(), strides = a.strides();
    int64_t offset = a.offset() + index * strides[d];
    sizes.erase(d);
    strides.erase(d);
    return makeView(a, std::move(sizes), std::move(strides), offset, "SelectBackward0");
}

Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
    if (a.dim() == 0) fail(ErrorKind::IndexError, "slice() cannot be applied to a 0-dim tensor.");
    if (step <= 0) failRuntime("slice step must be positive");
    int64_t d = wrapDim(dim, a.dim());
    int64_t size = a.sizes()[d];
    // Python's clamping: negative bounds count from the end, then clamp into [0, size].
    auto clampBound = [size](std::optional<int64_t> v, int64_t fallback) {
        if (!v) return fallback;
        int64_t b = *v < 0 ? *v + size : *v;
        return std::clamp<int64_t>(b, 0, size);
    };
    int64_t s = clampBound(start, 0);
    int64_t e = std::max(clampBound(end, size), s);
    int64_t length = (e - s + step - 1) / step;
    return sliceUnchecked(a, d, s, length, step);
}

Tensor diagonal(const Tensor& a, int64_t offset, int64_t dim1, int64_t dim2) {
    int64_t d1 = wrapDim(dim1, a.dim());
    int64_t d2 = wrapDim(dim2, a.dim());
    if (d1 == d2)
        failRuntime("diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " +
                    std::to_string(dim2));
    DimVector sizes = a.sizes(), strides = a.strides();
    int64_t start = a.offset();
    int64_t length = 0;
    if (offset >= 0) {
        length = std::max<int64_t>(std::min(sizes[d1], sizes[d2] - offset), 0);
        start += length > 0 ? offset * strides[d2] : 0;
    } else {
        length = std::max<int64_t>(std::min(sizes[d1] + offset, sizes[d2]), 0);
        start += length > 0 ? -offset * strides[d1] : 0;
    }
    int64_t diagStride = strides[d1] + strides[d2];
    sizes.erase(std::max(d1, d2));
    sizes.erase(std::min(d1, d2));
    strides.erase(std::max(d1, d2));
    strides.erase(std::min(d1, d2));
    sizes.push_back(length);
    strides.push_back(diagStride);
    return makeView(a, std::move(sizes), std::move(strides), start, "DiagonalBackward0");
}

Tensor movedim(const Tensor& a, int64_t source, int64_t destination) {
    int64_t src = wrapDim(source, a.dim());
    int64_t dst = wrapDim(destination, a.dim());
    if (a.dim() == 0) return alias(a);
    DimVector order;
    for (int64_t d = 0; d < a.dim(); ++d)
        if (d != src) order.push_back(d);
    order.insert(dst, src);
    return permute(a, order);
}

Tensor alias(const Tensor& a) {
    return makeView(a, a.sizes(), a.strides(), a.offset(), "AliasBackward0");
}

} // namespace kiln::tensor
