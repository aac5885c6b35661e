// SPDX-License-Identifier: MIT
// Shape ops: splitting into views (split, chunk, unbind) and building new tensors from pieces
// (cat, stack, repeat, flip, roll). The copies all go through copyInto on strided views, so the
// element loops (and their contiguous fast paths) live in one place.
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <string>

namespace kiln::tensor {

using detail::recordGradFnAny;

namespace {

/// Views of consecutive pieces of `dim` with the given lengths, named `gradFn`.
std::vector<Tensor> splitPieces(const Tensor& a, int64_t dim, IntList lengths,
                                std::string_view gradFn) {
    std::vector<Tensor> out;
    out.reserve(lengths.size());
    int64_t start = 0;
    for (int64_t length : lengths) {
        DimVector sizes = a.sizes();
        sizes[dim] = length;
        Tensor piece = Tensor::view(a.storage(), a.offset() + start * a.strides()[dim],
                                    std::move(sizes), a.strides(), a.dtype());
        recordGradFn(piece, gradFn, {&a});
        attachViewDerivative(piece, gradFn, a);
        markMultiOutputView(piece, static_cast<uint32_t>(out.size()), gradFn);
        out.push_back(std::move(piece));
        start += length;
    }
    return out;
}

void requireDimensioned(const Tensor& a) {
    if (a.dim() == 0) failRuntime("split expects at least a 1-dimensional tensor");
}

} // namespace

std::vector<Tensor> split(const Tensor& a, int64_t splitSize, int64_t dim) {
    requireDimensioned(a);
    int64_t d = wrapDim(dim, a.dim());
    int64_t size = a.sizes()[d];
    if (splitSize < 0)
        failRuntime("split expects split_size be non-negative, but got split_size=" +
                    std::to_string(splitSize));
    if (splitSize == 0 && size != 0)
        failRuntime("split_size can only be 0 if dimension size is 0, but got dimension size of " +
                    std::to_string(size));
    int64_t count = splitSize == 0 ? 1 : std::max<int64_t>((size + splitSize - 1) / splitSize, 1);
    DimVector lengths(static_cast<size_t>(count), splitSize);
    lengths.back() = size - splitSize * (count - 1);
    return splitPieces(a, d, lengths, "SplitBackward0");
}

std::vector<Tensor> splitWithSizes(const Tensor& a, IntList sizes, int64_t dim) {
    requireDimensioned(a);
    int64_t d = wrapDim(dim, a.dim());
    int64_t total = 0;
    for (int64_t s : sizes) {
        if (s < 0)
            failRuntime("split_with_sizes expects split_sizes have only non-negative entries, but "
                        "got split_sizes=" +
                        shapeString(sizes));
        total += s;
    }
    if (total != a.sizes()[d])
        failRuntime("split_with_sizes expects split_sizes to sum exactly to " +
                    std::to_string(a.sizes()[d]) + " (input tensor's size at dimension " +
                    std::to_string(d) + "), but got split_sizes=" + shapeString(sizes));
    return splitPieces(a, d, sizes, "SplitWithSizesBackward0");
}

std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim) {
    if (a.dim() == 0) failRuntime("chunk expects at least a 1-dimensional tensor");
    if (chunks <= 0)
        failRuntime("chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
    int64_t d = wrapDim(dim, a.dim());
    int64_t size = a.sizes()[d];
    // torch gives an empty dimension `chunks` empty pieces, not one.
    if (size == 0) return splitWithSizes(a, DimVector(static_cast<size_t>(chunks), 0), d);
    return split(a, (size + chunks - 1) / chunks, d);
}

std::vector<Tensor> unbind(const Tensor& a, int64_t dim) {
    if (a.dim() == 0)
        fail(ErrorKind::IndexError, "Dimension specified as 0 but tensor has no dimensions");
    int64_t d = wrapDim(dim, a.dim());
    std::vector<Tensor> out;
    out.reserve(static_cast<size_t>(a.sizes()[d]));
    for (int64_t i = 0; i < a.sizes()[d]; ++i) {
        DimVector sizes = a.sizes(), strides = a.strides();
        sizes.erase(d);
        strides.erase(d);
        Tensor piece = Tensor::view(a.storage(), a.offset() + i * a.strides()[d], std::move(sizes),
                                    std::move(strides), a.dtype());
        recordGradFn(piece, "UnbindBackward0", {&a});
        attachViewDerivative(piece, "UnbindBackward0", a);
        markMultiOutputView(piece, static_cast<uint32_t>(i), "UnbindBackward0");
        out.push_back(std::move(piece));
    }
    return out;
}

namespace {

/// torch.cat's legacy rule: a 1-D tensor with no elements takes no part in shape checks.
bool skippedByCat(const Tensor& t) {
    return t.dim() == 1 && t.numel() == 0;
}

/// Validates cat's inputs and returns the index of the tensor whose shape the result follows
/// (or -1 when every input is a skipped empty tensor).
int64_t checkCatInputs(const std::vector<Tensor>& tensors) {
    if (tensors.empty())
        fail(ErrorKind::ValueError, "torch.cat(): expected a non-empty list of Tensors");
    for (size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].dim() == 0)
            failRuntime("zero-dimensional tensor (at position " + std::to_string(i) +
                        ") cannot be concatenated");
    for (size_t i = 0; i < tensors.size(); ++i)
        if (!skippedByCat(tensors[i])) return static_cast<int64_t>(i);
    return -1;
}

void checkCatShapes(const std::vector<Tensor>& tensors, const Tensor& ref, int64_t dim) {
    for (size_t i = 0; i < tensors.size(); ++i) {
        const Tensor& t = tensors[i];
        if (skippedByCat(t)) continue;
        if (t.dim() != ref.dim())
            failRuntime("Tensors must have same number of dimensions: got " +
                        std::to_string(ref.dim()) + " and " + std::to_string(t.dim()));
        for (int64_t d = 0; d < ref.dim(); ++d)
            if (d != dim && t.sizes()[d] != ref.sizes()[d])
                failRuntime("Sizes of tensors must match except in dimension " +
                            std::to_string(dim) + ". Expected size " +
                            std::to_string(ref.sizes()[d]) + " but got size " +
                            std::to_string(t.sizes()[d]) + " for tensor number " +
                            std::to_string(i) + " in the list.");
    }
}

} // namespace

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
    int64_t refIndex = checkCatInputs(tensors);
    DType dtype = tensors.front().dtype();
    for (const Tensor& t : tensors)
        dtype = promoteTypes(dtype, t.dtype());
    if (refIndex < 0) {
        Tensor out = Tensor::empty(DimVector{0}, dtype);
        recordGradFnAny(out, "CatBackward0", tensors);
        return out;
    }
    const Tensor& ref = tensors[static_cast<size_t>(refIndex)];
    int64_t d = wrapDim(dim, ref.dim());
    checkCatShapes(tensors, ref, d);
    DimVector sizes = ref.sizes();
    sizes[d] = 0;
    for (const Tensor& t : tensors)
        sizes[d] += skippedByCat(t) ? 0 : t.sizes()[d];
    Tensor out = Tensor::empty(sizes, dtype);
    int64_t start = 0;
    for (const Tensor& t : tensors) {
        if (skippedByCat(t)) continue;
        copyInto(narrow(out, d, start, t.sizes()[d]), t);
        start += t.sizes()[d];
    }
    recordGradFnAny(out, "CatBackward0", tensors);
    attachCatDerivative(out, tensors, d);
    return out;
}

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
    if (tensors.empty()) failRuntime("stack expects a non-empty TensorList");
    const Tensor& first = tensors.front();
    for (size_t i = 1; i < tensors.size(); ++i)
        if (!(tensors[i].sizes() == first.sizes()))
            failRuntime("stack expects each tensor to be equal size, but got " +
                        shapeString(first.sizes()) + " at entry 0 and " +
                        shapeString(tensors[i].sizes()) + " at entry " + std::to_string(i));
    int64_t d = wrapDim(dim, first.dim() + 1);
    std::vector<Tensor> pieces;
    pieces.reserve(tensors.size());
    for (const Tensor& t : tensors)
        pieces.push_back(unsqueeze(t, d));
    Tensor out = cat(pieces, d);
    renameGradFn(out, "StackBackward0");
    return out;
}

Tensor repeat(const Tensor& a, IntList repeats) {
    const int64_t rank = static_cast<int64_t>(repeats.size());
    if (rank < a.dim())
        failRuntime("Number of dimensions of repeat dims can not be smaller than number of "
                    "dimensions of tensor");
    const int64_t lead = rank - a.dim();
    DimVector outSizes(repeats.size());
    for (int64_t i = 0; i < rank; ++i)
        outSizes[i] = repeats[i] * (i < lead ? 1 : a.sizes()[i - lead]);
    Tensor out = Tensor::empty(outSizes, a.dtype());
    // View the output as (r0, s0, r1, s1, ...) and broadcast the input over every r axis.
    DimVector pairSizes, outStrides, srcStrides;
    const DimVector contiguous = out.strides();
    for (int64_t i = 0; i < rank; ++i) {
        int64_t size = i < lead ? 1 : a.sizes()[i - lead];
        pairSizes.push_back(repeats[i]);
        pairSizes.push_back(size);
        outStrides.push_back(contiguous[i] * size);
        outStrides.push_back(contiguous[i]);
        srcStrides.push_back(0);
        srcStrides.push_back(i < lead ? 0 : a.strides()[i - lead]);
    }
    if (out.numel() > 0)
        copyInto(Tensor::view(out.storage(), 0, pairSizes, outStrides, out.dtype()),
                 Tensor::view(a.storage(), a.offset(), pairSizes, srcStrides, a.dtype()));
    recordGradFn(out, "RepeatBackward0", {&a});
    attachRepeatDerivative(out, a, repeats);
    return out;
}

namespace {

/// Marks each listed dim (wrapped) once; torch's error for a dim listed twice.
DimVector markDims(const Tensor& a, IntList dims) {
    DimVector marked(static_cast<size_t>(std::max<int64_t>(a.dim(), 1)), 0);
    for (int64_t d : dims) {
        int64_t w = wrapDim(d, a.dim());
        if (marked[w]++)
            failRuntime("dim " + std::to_string(w) + " appears multiple times in the list of dims");
    }
    return marked;
}

} // namespace

Tensor flip(const Tensor& a, IntList dims) {
    DimVector marked = markDims(a, dims);
    // Read through a view that walks the flipped dims backwards (negative strides are fine for
    // the copy loop, which only adds strides to pointers).
    DimVector strides = a.strides();
    int64_t offset = a.offset();
    for (int64_t d = 0; d < a.dim(); ++d) {
        if (!marked[d] || a.sizes()[d] == 0) continue;
        offset += (a.sizes()[d] - 1) * strides[d];
        strides[d] = -strides[d];
    }
    Tensor out = Tensor::empty(a.sizes(), a.dtype());
    copyInto(out, Tensor::view(a.storage(), offset, a.sizes(), strides, a.dtype()));
    recordGradFn(out, "FlipBackward0", {&a});
    attachFlipDerivative(out, dims);
    return out;
}

namespace {

/// Copies `src` rolled by `shifts[k]` along `dims[k]` for k >= `k` into `dst`: each rolled dim
/// splits the copy into the two blocks that trade places.
void rollInto(const Tensor& dst, const Tensor& src, IntList shifts, IntList dims, size_t k) {
    if (k == dims.size()) {
        copyInto(dst, src);
        return;
    }
    int64_t d = dims[k];
    int64_t size = src.sizes()[d];
    int64_t shift = size == 0 ? 0 : ((shifts[k] % size) + size) % size;
    if (shift == 0) {
        rollInto(dst, src, shifts, dims, k + 1);
        return;
    }
    rollInto(narrow(dst, d, shift, size - shift), narrow(src, d, 0, size - shift), shifts, dims,
             k + 1);
    rollInto(narrow(dst, d, 0, shift), narrow(src, d, size - shift, shift), shifts, dims, k + 1);
}

} // namespace

Tensor roll(const Tensor& a, IntList shifts, IntList dims) {
    Tensor out = Tensor::empty(a.sizes(), a.dtype());
    if (dims.empty() && shifts.size() == 1) {
        // No dims: roll the flattened tensor, written straight into the result's storage.
        Tensor src = contiguous(a);
        DimVector flat{a.numel()}, unit{1};
        rollInto(Tensor::view(out.storage(), 0, flat, unit, a.dtype()),
                 Tensor::view(src.storage(), src.offset(), flat, unit, a.dtype()), shifts,
                 DimVector{0}, 0);
        recordGradFn(out, "RollBackward0", {&a});
        attachRollDerivative(out, shifts, dims);
        return out;
    }
    if (shifts.size() != dims.size())
        failRuntime("shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
                    ", dims:" + std::to_string(dims.size()));
    if (a.dim() == 0)
        fail(ErrorKind::IndexError, "Dimension specified as 0 but tensor has no dimensions");
    DimVector wrapped;
    for (int64_t d : dims)
        wrapped.push_back(wrapDim(d, a.dim()));
    rollInto(out, a, shifts, wrapped, 0);
    recordGradFn(out, "RollBackward0", {&a});
    attachRollDerivative(out, shifts, wrapped);
    return out;
}

} // namespace kiln::tensor
