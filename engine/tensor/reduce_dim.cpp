// SPDX-License-Identifier: MIT
// Ops that work along one dimension: max/min with indices, argmax/argmin, softmax and
// log_softmax, cumsum and cumprod. Each makes its input contiguous and sees it as lines along
// the dimension (outer x size x inner); when the dimension is not innermost the loops run
// across `inner` so consecutive iterations touch consecutive memory.
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/fast_math.h"
#include "tensor/ops.h"
#include "tensor/reduce_util.h"
#include "tensor/vec_math.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <tuple>

namespace kiln::tensor {

using detail::DimLines;
using detail::dimLines;

namespace {

/// Strict "better than": NaN beats every number and the first NaN stays (PyTorch's rule).
template <bool Largest, typename C>
bool better(C candidate, C best) {
    if constexpr (std::is_floating_point_v<C>) {
        if (best != best) return false;
        if (candidate != candidate) return true;
    }
    return Largest ? candidate > best : candidate < best;
}

/// Best value and index of one contiguous line.
template <bool Largest, typename T>
std::pair<ComputeType<T>, int64_t> bestOfLine(const T* line, int64_t n) {
    using C = ComputeType<T>;
    C best = C(line[0]);
    int64_t index = 0;
    for (int64_t i = 1; i < n; ++i) {
        const C v = C(line[i]);
        if (better<Largest>(v, best)) {
            best = v;
            index = i;
        }
    }
    return {best, index};
}

/// Best values and indices of `w` interleaved lines of n elements, side by side.
template <bool Largest, typename T>
void bestOfColumns(const T* x, int64_t n, int64_t w, ComputeType<T>* best, int64_t* idx) {
    for (int64_t j = 0; j < w; ++j) {
        best[j] = ComputeType<T>(x[j]);
        idx[j] = 0;
    }
    for (int64_t i = 1; i < n; ++i) {
        for (int64_t j = 0; j < w; ++j) {
            const ComputeType<T> v = ComputeType<T>(x[i * w + j]);
            if (better<Largest>(v, best[j])) {
                best[j] = v;
                idx[j] = i;
            }
        }
    }
}

/// Best value and its index along each line; `values` may be null (argmax).
template <bool Largest, typename T>
void indexReduce(const T* x, DimLines l, T* values, int64_t* indices) {
    using C = ComputeType<T>;
    std::unique_ptr<C[]> best(new C[l.inner]);
    for (int64_t o = 0; o < l.outer; ++o) {
        const T* block = x + o * l.size * l.inner;
        if (l.inner == 1)
            std::tie(best[0], indices[o]) = bestOfLine<Largest>(block, l.size);
        else
            bestOfColumns<Largest>(block, l.size, l.inner, best.get(), indices + o * l.inner);
        if (values)
            for (int64_t j = 0; j < l.inner; ++j)
                values[o * l.inner + j] = T(best[j]);
    }
}

struct IndexResult {
    Tensor values;
    Tensor indices;
};

/// max/min (withValues) or argmax/argmin over `dim`, or over all elements when unset.
template <bool Largest>
IndexResult indexReduction(const Tensor& a, std::optional<int64_t> dim, bool keepdim,
                           bool withValues, const char* name) {
    uint64_t mask = detail::reductionMask(dim ? DimVector{*dim} : DimVector{}, a.dim());
    detail::checkNonEmptyReduction(a, mask, dim.has_value(), name, !withValues);
    Tensor x = contiguous(a);
    DimLines lines = dim ? dimLines(x.sizes(), a.dim() == 0 ? 0 : wrapDim(*dim, a.dim()))
                         : DimLines{1, x.numel(), 1};
    DimVector shape = detail::reducedShape(x.sizes(), mask, keepdim);
    IndexResult result;
    result.indices = Tensor::empty(shape, DType::Int64);
    if (withValues) result.values = Tensor::empty(shape, a.dtype());
    dispatchDType(x.dtype(), [&]<DType D>() {
        using T = CType<D>;
        indexReduce<Largest>(x.data<T>(), lines, withValues ? result.values.data<T>() : nullptr,
                             result.indices.data<int64_t>());
    });
    return result;
}

template <bool Largest>
std::pair<Tensor, Tensor> extremeWithIndex(const Tensor& a, int64_t dim, bool keepdim) {
    IndexResult r = indexReduction<Largest>(a, dim, keepdim, true, Largest ? "max" : "min");
    recordGradFn(r.values, Largest ? "MaxBackward0" : "MinBackward0", {&a});
    attachIndexedExtremumDerivative(r.values, a, r.indices, dim, keepdim);
    return {r.values, r.indices};
}

template <bool Largest>
Tensor argExtreme(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
    const char* name = Largest ? "argmax" : "argmin";
    if (a.dtype() == DType::Bool)
        fail(ErrorKind::NotImplementedError, std::string(name) + "(): does not support bool input");
    return indexReduction<Largest>(a, dim, keepdim, false, name).indices;
}

} // namespace

std::pair<Tensor, Tensor> maxDim(const Tensor& a, int64_t dim, bool keepdim) {
    return extremeWithIndex<true>(a, dim, keepdim);
}

std::pair<Tensor, Tensor> minDim(const Tensor& a, int64_t dim, bool keepdim) {
    return extremeWithIndex<false>(a, dim, keepdim);
}

Tensor argmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
    return argExtreme<true>(a, dim, keepdim);
}

Tensor argmin(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
    return argExtreme<false>(a, dim, keepdim);
}

namespace {

// ---------------------------------------------------------------------------------------------
// softmax / log_softmax

/// max that keeps a NaN from either side, written branch-free.
template <typename C>
C nanMax(C a, C b) {
    return ((b > a) | (b != b)) ? b : a;
}

/// The largest of n values (a NaN wins), in 16 independent lanes so the loop vectorises.
template <typename T>
ComputeType<T> maxOfLine(const T* x, int64_t n) {
    using C = ComputeType<T>;
    constexpr int kLanes = 16;
    C lanes[kLanes];
    std::fill_n(lanes, kLanes, -std::numeric_limits<C>::infinity());
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int k = 0; k < kLanes; ++k)
            lanes[k] = nanMax(lanes[k], C(x[i + k]));
    C result = -std::numeric_limits<C>::infinity();
    for (C lane : lanes)
        result = nanMax(result, lane);
    for (; i < n; ++i)
        result = nanMax(result, C(x[i]));
    return result;
}

/// scratch[i] = exp(scratch[i]) for n contiguous values, with the vectorised exp.
template <typename C>
void expInPlace(C* scratch, int64_t n) {
    auto kernel = detail::vecMath().forType<C>();
    auto* bytes = reinterpret_cast<char*>(scratch);
    kernel(detail::VecMath::Exp, bytes, sizeof(C), bytes, sizeof(C), n);
}

/// One line of `size` contiguous elements (the dimension is innermost).
template <bool Log, typename T>
void softmaxRow(const T* x, T* out, int64_t size, ComputeType<T>* scratch) {
    using C = ComputeType<T>;
    const C maxValue = maxOfLine(x, size);
    for (int64_t i = 0; i < size; ++i)
        scratch[i] = C(x[i]) - maxValue;
    expInPlace(scratch, size);
    const double total = detail::foldRun<C>(
        detail::SumAsDouble<C>{}, reinterpret_cast<const char*>(scratch), sizeof(C), size);
    if constexpr (Log) {
        const C logTotal = C(std::log(total));
        for (int64_t i = 0; i < size; ++i)
            out[i] = T(C(x[i]) - maxValue - logTotal);
    } else {
        const C scale = C(1.0 / total);
        for (int64_t i = 0; i < size; ++i)
            out[i] = T(scratch[i] * scale);
    }
}

/// `inner` interleaved lines (the dimension is not innermost), processed side by side.
template <bool Log, typename T>
void softmaxColumns(const T* x, T* out, DimLines l, ComputeType<T>* scratch, ComputeType<T>* maxes,
                    double* totals) {
    using C = ComputeType<T>;
    const int64_t n = l.size, w = l.inner;
    std::fill_n(maxes, w, -std::numeric_limits<C>::infinity());
    std::fill_n(totals, w, 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < w; ++j)
            maxes[j] = nanMax(maxes[j], C(x[i * w + j]));
    for (int64_t i = 0; i < n * w; i += w)
        for (int64_t j = 0; j < w; ++j)
            scratch[i + j] = C(x[i + j]) - maxes[j];
    expInPlace(scratch, n * w);
    for (int64_t i = 0; i < n * w; i += w)
        for (int64_t j = 0; j < w; ++j)
            totals[j] += scratch[i + j];
    for (int64_t j = 0; j < w; ++j)
        totals[j] = Log ? std::log(totals[j]) : 1.0 / totals[j];
    for (int64_t i = 0; i < n * w; i += w) {
        for (int64_t j = 0; j < w; ++j) {
            if constexpr (Log)
                out[i + j] = T(C(x[i + j]) - maxes[j] - C(totals[j]));
            else
                out[i + j] = T(scratch[i + j] * C(totals[j]));
        }
    }
}

/// The lines of each outer block are independent: the blocks are split over the threads.
template <bool Log, typename T>
void softmaxLines(const T* x, T* out, DimLines l) {
    using C = ComputeType<T>;
    const int64_t block = l.size * l.inner;
    parallelFor(l.outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(block, 1)),
                [&](int64_t begin, int64_t end) {
                    std::unique_ptr<C[]> scratch(new C[std::max<int64_t>(block, 1)]);
                    if (l.inner == 1) {
                        for (int64_t o = begin; o < end; ++o)
                            softmaxRow<Log>(x + o * block, out + o * block, l.size, scratch.get());
                        return;
                    }
                    std::unique_ptr<C[]> maxes(new C[l.inner]);
                    std::unique_ptr<double[]> totals(new double[l.inner]);
                    for (int64_t o = begin; o < end; ++o)
                        softmaxColumns<Log>(x + o * block, out + o * block, l, scratch.get(),
                                            maxes.get(), totals.get());
                });
}

template <bool Log>
Tensor softmaxOf(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
    Tensor x = contiguous(dtype ? toDType(a, *dtype) : a);
    const int64_t d = wrapDim(dim, x.dim());
    if (!isFloating(x.dtype())) {
        const bool lastDim = d == std::max<int64_t>(x.dim(), 1) - 1;
        std::string kernel = std::string(Log ? "log_softmax" : "softmax") +
                             (lastDim ? "_lastdim_kernel_impl" : "_kernel_impl");
        detail::failNotImplementedFor(kernel, x.dtype());
    }
    Tensor out = Tensor::empty(x.sizes(), x.dtype());
    DimLines lines = dimLines(x.sizes(), x.dim() == 0 ? 0 : d);
    detail::dispatchFloating(x.dtype(), [&]<DType D>() {
        using T = CType<D>;
        softmaxLines<Log>(x.data<T>(), out.data<T>(), lines);
    });
    recordGradFn(out, Log ? "LogSoftmaxBackward0" : "SoftmaxBackward0", {&a});
    attachSoftmaxDerivative(out, Log, a, x.dim() == 0 ? 0 : d);
    return out;
}

// ---------------------------------------------------------------------------------------------
// cumsum / cumprod

template <bool Product, typename Acc>
Acc scanStep(Acc total, Acc value) {
    return Product ? total * value : total + value;
}

/// `w` interleaved lines of n elements (w == 1: one contiguous line, total kept in a register).
template <bool Product, typename T, typename Out, typename Acc>
void scanBlock(const T* __restrict x, Out* __restrict o, int64_t n, int64_t w,
               Acc* __restrict totals) {
    if (w == 1) {
        Acc total = Acc(Product ? 1 : 0);
        for (int64_t i = 0; i < n; ++i) {
            total = scanStep<Product>(total, Acc(ComputeType<T>(x[i])));
            o[i] = castValue<Out>(total);
        }
        return;
    }
    std::fill_n(totals, w, Acc(Product ? 1 : 0));
    for (int64_t i = 0; i < n * w; i += w) {
        for (int64_t j = 0; j < w; ++j) {
            totals[j] = scanStep<Product>(totals[j], Acc(ComputeType<T>(x[i + j])));
            o[i + j] = castValue<Out>(totals[j]);
        }
    }
}

template <bool Product, typename T>
void scanLines(const T* x, DimLines l, const Tensor& out) {
    using Acc = std::conditional_t<detail::kIsFloatingStorage<T>, double, uint64_t>;
    using Out = std::conditional_t<detail::kIsFloatingStorage<T>, T, int64_t>;
    std::unique_ptr<Acc[]> totals(new Acc[l.inner]);
    const int64_t block = l.size * l.inner;
    for (int64_t o = 0; o < l.outer; ++o)
        scanBlock<Product>(x + o * block, out.data<Out>() + o * block, l.size, l.inner,
                           totals.get());
}

template <bool Product>
Tensor scanOf(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
    if (dtype == DType::Bool)
        detail::failNotImplementedFor(Product ? "cumprod_out_cpu" : "cumsum_out_cpu", *dtype);
    Tensor x = contiguous(dtype ? toDType(a, *dtype) : a);
    const int64_t d = wrapDim(dim, x.dim());
    Tensor out = Tensor::empty(x.sizes(), isFloating(x.dtype()) ? x.dtype() : DType::Int64);
    DimLines lines = dimLines(x.sizes(), x.dim() == 0 ? 0 : d);
    dispatchDType(x.dtype(), [&]<DType D>() {
        using T = CType<D>;
        scanLines<Product>(x.data<T>(), lines, out);
    });
    if (dtype) // integers accumulate into int64; an explicit dtype is what the result keeps
        out = toDType(out, *dtype);
    recordGradFn(out, Product ? "CumprodBackward0" : "CumsumBackward0", {&a});
    if constexpr (Product)
        attachCumprodDerivative(out, a, dim);
    else
        attachCumsumDerivative(out, a, dim);
    return out;
}

} // namespace

Tensor softmax(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
    return softmaxOf<false>(a, dim, dtype);
}

Tensor logSoftmax(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
    return softmaxOf<true>(a, dim, dtype);
}

Tensor cumsum(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
    return scanOf<false>(a, dim, dtype);
}

Tensor cumprod(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
    return scanOf<true>(a, dim, dtype);
}

} // namespace kiln::tensor
