// SPDX-License-Identifier: MIT
// Index-driven writes: scatter (a tensor or a scalar), scatter_add, scatter_reduce, and the
// dimension-wise index_add, index_copy, index_fill, and bincount. The scatter family walks
// every position of `index` (not of src: index may be smaller than src in every dimension) and
// writes self at that position with the dimension `dim` replaced by the index value.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::tensor {

namespace {

bool isIntIndex(const Tensor& index) {
    return index.dtype() == DType::Int64 || index.dtype() == DType::Int32;
}

/// The first element of `t`'s storage (offsets below count from it, `t.offset()` included).
template <typename T>
T* storageBase(const Tensor& t) {
    return static_cast<T*>(t.storage()->data());
}

/// PyTorch's scatter checks: dtypes, ranks, and index no larger than self (apart from dim)
/// nor than src.
void checkScatter(const char* op, const Tensor& self, int64_t dim, const Tensor& index,
                  const Tensor* src) {
    if (index.numel() == 0) return; // PyTorch checks nothing when nothing is written
    // 2.3 takes int64 only (newer releases accept int32 too).
    if (index.dtype() != DType::Int64)
        failRuntime(std::string(op) + "(): Expected dtype int64 for index");
    if (src && src->dtype() != self.dtype())
        failRuntime(std::string(op) + "(): Expected self.dtype to be equal to src.dtype");
    if (std::max<int64_t>(index.dim(), 1) != std::max<int64_t>(self.dim(), 1))
        failRuntime("Index tensor must have the same number of dimensions as self tensor");
    if (src && std::max<int64_t>(src->dim(), 1) != std::max<int64_t>(index.dim(), 1))
        failRuntime("Index tensor must have the same number of dimensions as src tensor");
    bool fits = true;
    // A 0-dim tensor counts as one element along its one dimension.
    auto sizeAt = [](const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.sizes()[d]; };
    for (int64_t d = 0; d < std::max<int64_t>(index.dim(), 1); ++d) {
        const int64_t size = sizeAt(index, d);
        if (d != dim && size > sizeAt(self, d)) fits = false;
        if (src && size > sizeAt(*src, d)) fits = false;
    }
    if (fits) return;
    std::string message = "Expected index " + shapeString(index.sizes()) +
                          " to be no larger than self " + shapeString(self.sizes()) +
                          " apart from dimension " + std::to_string(dim);
    if (src) message += " and to be no larger size than src " + shapeString(src->sizes());
    failRuntime(message);
}

/// Every position of `index`, in row-major order: fn(offset in self without dim, offset in
/// src, the index value). Offsets are in elements of the given strides.
template <typename Fn>
void forEachIndexPosition(const Tensor& index, int64_t dim, const Tensor& self, const Tensor* src,
                          Fn&& fn) {
    const int64_t rank = index.dim();
    const int64_t size = self.dim() == 0 ? 1 : self.sizes()[dim];
    std::vector<int64_t> pos(static_cast<size_t>(rank), 0);
    const int64_t n = index.numel();
    for (int64_t i = 0; i < n; ++i) {
        int64_t indexOffset = index.offset(), selfOffset = 0, srcOffset = src ? src->offset() : 0;
        for (int64_t d = 0; d < rank; ++d) {
            const int64_t p = pos[size_t(d)];
            indexOffset += p * index.strides()[d];
            if (d != dim && d < self.dim()) selfOffset += p * self.strides()[d];
            if (src && d < src->dim()) srcOffset += p * src->strides()[d];
        }
        const int64_t value = index.dtype() == DType::Int32
                                  ? storageBase<int32_t>(index)[indexOffset]
                                  : storageBase<int64_t>(index)[indexOffset];
        if (value < 0 || value >= size)
            failRuntime("index " + std::to_string(value) + " is out of bounds for dimension " +
                        std::to_string(dim) + " with size " + std::to_string(size));
        fn(selfOffset + (self.dim() == 0 ? 0 : value * self.strides()[dim]), srcOffset);
        for (int64_t d = rank - 1; d >= 0; --d) {
            if (++pos[size_t(d)] < index.sizes()[d]) break;
            pos[size_t(d)] = 0;
        }
    }
}

template <typename C>
C identityOf(ScatterReduce reduce) {
    switch (reduce) {
    case ScatterReduce::Prod:
        return C(1);
    case ScatterReduce::Amax:
        return std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity()
                                                    : std::numeric_limits<C>::lowest();
    case ScatterReduce::Amin:
        return std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity()
                                                    : std::numeric_limits<C>::max();
    default:
        return C(0);
    }
}

template <typename C>
C combine(ScatterReduce reduce, C into, C value) {
    switch (reduce) {
    case ScatterReduce::Sum:
    case ScatterReduce::Mean:
        return into + value;
    case ScatterReduce::Prod:
        return into * value;
    case ScatterReduce::Amax:
        return value > into || value != value ? value : into; // NaN propagates
    case ScatterReduce::Amin:
        return value < into || value != value ? value : into;
    case ScatterReduce::None:
        return value;
    }
    return value;
}

/// Writes into `self` (a contiguous tensor the caller owns) every element `src` (or `value`)
/// sends it through `index`, with `reduce`.
void scatterInPlace(Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, Scalar value,
                    ScatterReduce reduce, bool includeSelf) {
    if (index.numel() == 0) return;
    dispatchDType(self.dtype(), [&]<DType D>() {
        using T = CType<D>;
        using C = std::conditional_t<std::is_same_v<T, bool>, int64_t, ComputeType<T>>;
        T* out = storageBase<T>(self) + self.offset();
        const T* in = src ? storageBase<T>(*src) : nullptr;
        auto valueAt = [&](int64_t srcOffset) {
            return in ? static_cast<C>(in[srcOffset]) : value.to<C>();
        };
        if (reduce == ScatterReduce::None) {
            forEachIndexPosition(index, dim, self, src, [&](int64_t at, int64_t from) {
                out[at] = castValue<T>(valueAt(from));
            });
            return;
        }
        // Accumulate in the compute type, only for the positions index reaches (a few values
        // into a large buffer cost what they touch); the others keep self.
        struct Slot {
            C acc;
            int64_t count;
        };
        std::unordered_map<int64_t, Slot> slots;
        slots.reserve(static_cast<size_t>(std::min(index.numel(), self.numel())));
        forEachIndexPosition(index, dim, self, src, [&](int64_t at, int64_t from) {
            auto [it, fresh] = slots.try_emplace(at, Slot{C(0), 0});
            Slot& slot = it->second;
            if (fresh) slot.acc = includeSelf ? static_cast<C>(out[at]) : identityOf<C>(reduce);
            slot.acc = combine(reduce, slot.acc, valueAt(from));
            ++slot.count;
        });
        for (const auto& [at, slot] : slots) {
            C result = slot.acc;
            if (reduce == ScatterReduce::Mean) {
                const C n = static_cast<C>(slot.count + (includeSelf ? 1 : 0));
                if constexpr (std::is_integral_v<C>) {
                    C q = result / n;
                    result = (result % n != 0 && ((result < 0) != (n < 0))) ? q - 1 : q;
                } else {
                    result = result / n;
                }
            }
            out[at] = castValue<T>(result);
        }
    });
}

/// A contiguous copy of `self` to scatter into: the out-of-place forms write a new tensor,
/// the in-place ones copy it back (self may be any view).
Tensor scatterTarget(const Tensor& self) {
    return clone(self);
}

const char* reduceGradFn(ScatterReduce reduce) {
    return reduce == ScatterReduce::None ? "ScatterBackward0" : "ScatterReduceBackward0";
}

} // namespace

ScatterReduce scatterReduceOf(const std::string& name, bool twoArgForm) {
    if (twoArgForm) {
        if (name == "add") return ScatterReduce::Sum;
        if (name == "multiply") return ScatterReduce::Prod;
        failRuntime("reduce argument must be either add or multiply.");
    }
    if (name == "sum") return ScatterReduce::Sum;
    if (name == "prod") return ScatterReduce::Prod;
    if (name == "mean") return ScatterReduce::Mean;
    if (name == "amax") return ScatterReduce::Amax;
    if (name == "amin") return ScatterReduce::Amin;
    failRuntime("reduce argument must be either sum, prod, mean, amax or amin, got " + name);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               ScatterReduce reduce, bool includeSelf, const char* op) {
    const int64_t d = wrapDim(dim, self.dim());
    checkScatter(op, self, d, index, &src);
    Tensor out = scatterTarget(self);
    scatterInPlace(out, d, index, &src, Scalar(int64_t(0)), reduce, includeSelf);
    const bool add = std::string_view(op) == "scatter_add";
    // scatter(reduce=...) has no derivative in PyTorch: its node raises at backward.
    const bool legacyReduce = std::string_view(op) == "scatter" && reduce != ScatterReduce::None;
    recordGradFn(out,
                 add            ? "ScatterAddBackward0"
                 : legacyReduce ? "NotImplemented"
                                : reduceGradFn(reduce),
                 {&self, &src});
    if (legacyReduce)
        attachScatterNotImplemented(out);
    else if (reduce == ScatterReduce::None || reduce == ScatterReduce::Sum)
        attachScatterDerivative(out, self, d, index, &src,
                                reduce == ScatterReduce::None || (!includeSelf && !add));
    else
        attachScatterReduceDerivative(out, self, d, index, src, reduce, includeSelf);
    return out;
}

Tensor scatterValue(const Tensor& self, int64_t dim, const Tensor& index, Scalar value,
                    ScatterReduce reduce) {
    const int64_t d = wrapDim(dim, self.dim());
    checkScatter("scatter", self, d, index, nullptr);
    Tensor out = scatterTarget(self);
    scatterInPlace(out, d, index, nullptr, value, reduce, true);
    recordGradFn(out, reduce == ScatterReduce::None ? "ScatterBackward1" : "NotImplemented",
                 {&self});
    if (reduce == ScatterReduce::None)
        attachScatterDerivative(out, self, d, index, nullptr, true);
    else
        attachScatterNotImplemented(out);
    return out;
}

Tensor indexAdd(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                Scalar alpha) {
    const int64_t d = wrapDim(dim, self.dim());
    if (!isIntIndex(index))
        failRuntime(std::string("index_add_(): Expected dtype int32/int64 for index but got: ") +
                    std::string(dtypeLegacyName(index.dtype())));
    if (index.dim() > 1)
        fail(ErrorKind::IndexError, "index_add_(): Index is supposed to be a vector");
    if (source.dtype() != self.dtype())
        failRuntime("index_add_(): self (" + std::string(dtypeLegacyName(self.dtype())) +
                    ") and source (" + std::string(dtypeLegacyName(source.dtype())) +
                    ") must have the same scalar type");
    if (source.dim() > 0 && d >= source.dim())
        failRuntime("index_add_(): Indexing dim " + std::to_string(d) +
                    " is out of bounds of the source tensor with dim " +
                    std::to_string(source.dim()));
    bool sameShape = source.dim() == self.dim();
    for (int64_t c = 0; sameShape && c < self.dim(); ++c)
        sameShape = c == d || source.sizes()[c] == self.sizes()[c];
    if (!sameShape)
        failRuntime("source tensor shape must match self tensor shape, excluding the specified "
                    "dimension. Got self.shape = " +
                    shapeString(self.sizes()) + " source.shape = " + shapeString(source.sizes()));
    const int64_t n = index.numel();
    const int64_t sourceSize = source.dim() == 0 ? 1 : source.sizes()[d];
    if (n != sourceSize)
        failRuntime("index_add_(): Number of indices (" + std::to_string(n) +
                    ") should be equal to source.size(dim): (" + std::to_string(sourceSize) +
                    "), for dim: " + std::to_string(d));
    Tensor out = clone(self);
    Tensor positions = contiguous(toDType(reshape(index, DimVector{n}), DType::Int64));
    const int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
    {
        detail::NoGradGuard noGrad;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t at = positions.data<int64_t>()[i];
            if (at < 0 || at >= size)
                failRuntime("index " + std::to_string(at) + " is out of bounds for dimension " +
                            std::to_string(d) + " with size " + std::to_string(size));
            Tensor target = self.dim() == 0 ? out : select(out, d, at);
            Tensor slice = source.dim() == 0 ? source : select(source, d, i);
            copyInto(target, addScaled(target, slice, alpha));
        }
    }
    recordGradFn(out, "IndexAddBackward0", {&self, &source});
    attachIndexAddDerivative(out, d, positions, source, alpha);
    return out;
}

Tensor indexCopy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
    const int64_t d = wrapDim(dim, self.dim());
    if (index.dtype() != DType::Int64)
        failRuntime(std::string("index_copy_(): Expected a long tensor for index, but got ") +
                    std::string(dtypeLegacyName(index.dtype())));
    if (index.dim() > 1)
        fail(ErrorKind::IndexError, "index_copy_(): Index should have dimension 1 or 0");
    if (source.dtype() != self.dtype())
        failRuntime("index_copy_(): self and source expected to have the same dtype, but got "
                    "(self) " +
                    std::string(dtypeLegacyName(self.dtype())) + " and (source) " +
                    std::string(dtypeLegacyName(source.dtype())));
    if (source.dim() > 0 && self.dim() > 0 && source.dim() != self.dim())
        fail(ErrorKind::IndexError,
             "index_copy_(): When source and destination are not scalars, their dimensionality "
             "must match. Source dimensionality (" +
                 std::to_string(source.dim()) + "), destination dimensionality (" +
                 std::to_string(self.dim()) + ")");
    for (int64_t c = 0, slice = 0; source.dim() > 0 && c < self.dim(); ++c) {
        if (c == d) continue;
        if (source.sizes()[c] != self.sizes()[c])
            failRuntime("index_copy_(): Source/destination tensor must have same slice shapes. "
                        "Destination slice shape: " +
                        std::to_string(self.sizes()[c]) + " at dimension " + std::to_string(slice) +
                        " and source slice shape: " + std::to_string(source.sizes()[c]) +
                        " at dimension " + std::to_string(slice) + ".");
        ++slice;
    }
    const int64_t n = index.numel();
    const int64_t sourceSize = source.dim() == 0 ? 1 : source.sizes()[d];
    if (n != sourceSize)
        fail(ErrorKind::IndexError, "index_copy_(): Number of indices (" + std::to_string(n) +
                                        ") should be equal to source.size(dim) (" +
                                        std::to_string(sourceSize) + ")");
    Tensor out = clone(self);
    Tensor positions = contiguous(reshape(index, DimVector{n}));
    const int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
    for (int64_t i = 0; i < n; ++i) {
        const int64_t at = positions.data<int64_t>()[i];
        if (at < 0 || at >= size)
            fail(ErrorKind::IndexError, "index_copy_(): index " + std::to_string(at) +
                                            " is out of bounds for dimension " + std::to_string(d) +
                                            " with size " + std::to_string(size));
        copyInto(self.dim() == 0 ? out : select(out, d, at),
                 source.dim() == 0 ? source : select(source, d, i));
    }
    recordGradFn(out, "IndexCopyBackward0", {&self, &source});
    return out;
}

Tensor indexFill(const Tensor& self, int64_t dim, const Tensor& index, Scalar value) {
    const int64_t d = wrapDim(dim, self.dim());
    if (index.dtype() != DType::Int64)
        fail(ErrorKind::IndexError, "index_fill_(): Expected dtype int64 for index.");
    if (index.dim() > 1)
        fail(ErrorKind::IndexError, "index_fill_(): Index is supposed to be a vector");
    Tensor out = clone(self);
    const int64_t n = index.numel();
    Tensor positions = contiguous(reshape(index, DimVector{n}));
    const int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
    Tensor filler = full(DimVector{}, value, TensorOptions{self.dtype(), {}, false});
    for (int64_t i = 0; i < n; ++i) {
        int64_t at = positions.data<int64_t>()[i];
        if (at < -size || at >= size)
            fail(ErrorKind::IndexError, "index " + std::to_string(at) +
                                            " is out of bounds for dimension " + std::to_string(d) +
                                            " with size " + std::to_string(size));
        if (at < 0) at += size;
        copyInto(self.dim() == 0 ? out : select(out, d, at), filler);
    }
    recordGradFn(out, "IndexFillBackward0", {&self});
    return out;
}

Tensor bincount(const Tensor& input, const Tensor* weights, int64_t minlength) {
    if (isFloating(input.dtype()) || input.dtype() == DType::Bool)
        fail(ErrorKind::NotImplementedError, "\"bincount_cpu\" not implemented for '" +
                                                 std::string(dtypeLegacyName(input.dtype())) + "'");
    if (minlength < 0) failRuntime("minlength should be >= 0");
    if (input.dim() != 1) failRuntime("bincount only supports 1-d non-negative integral inputs.");
    const int64_t n = input.numel();
    // An empty input is minlength zeros before the weights are looked at.
    if (n == 0) return zeros(DimVector{minlength}, TensorOptions{DType::Int64, {}, false});
    if (weights && (weights->dim() != 1 || weights->numel() != input.numel()))
        failRuntime("weights should be 1-d and have the same length as input");
    Tensor values = contiguous(toDType(input, DType::Int64));
    int64_t largest = -1;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t v = values.data<int64_t>()[i];
        if (v < 0) failRuntime("bincount only supports 1-d non-negative integral inputs.");
        largest = std::max(largest, v);
    }
    // The counts need largest + 1 slots (a too large count fails to allocate, cleanly).
    if (largest == std::numeric_limits<int64_t>::max())
        failRuntime("maximum value of input overflowed, it should be < " + std::to_string(largest) +
                    " but got " + std::to_string(largest));
    const int64_t length = std::max(largest + 1, minlength);
    if (!weights) {
        Tensor out = zeros(DimVector{length}, TensorOptions{DType::Int64, {}, false});
        for (int64_t i = 0; i < n; ++i)
            ++out.data<int64_t>()[values.data<int64_t>()[i]];
        return out;
    }
    // float32 weights count in float32; every other dtype in float64, as PyTorch's CPU kernel.
    const DType outType = weights->dtype() == DType::Float32 ? DType::Float32 : DType::Float64;
    Tensor w = contiguous(toDType(*weights, DType::Float64));
    std::vector<double> sums(static_cast<size_t>(length), 0.0);
    for (int64_t i = 0; i < n; ++i)
        sums[size_t(values.data<int64_t>()[i])] += w.data<double>()[i];
    Tensor out = zeros(DimVector{length}, TensorOptions{outType, {}, false});
    for (int64_t i = 0; i < length; ++i)
        writeScalar(out.rawData() + i * itemSize(outType), outType, Scalar(sums[size_t(i)]));
    return out;
}

} // namespace kiln::tensor
