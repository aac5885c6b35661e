// SPDX-License-Identifier: MIT
/// \file
/// Internal to the tensor library: the dimension bookkeeping the reductions share. A set of
/// reduced dimensions travels as a bit mask (bit d set = dimension d is reduced), which makes
/// the duplicate check, the output shape and the loop layout simple bit tests.
///
/// The generic reduction (reduceWith) accumulates into one accumulator per output element.
/// It walks the input in memory order: a run along a reduced dimension folds into one
/// accumulator (reduceRun, in independent lanes so the compiler can vectorise it), a run along
/// a kept dimension updates consecutive accumulators elementwise (also vectorisable). An op
/// supplies Acc, Out, identity(), map(T), combine(Acc, Acc), finalize(Acc) and optionally its
/// own reduceRun.
#pragma once

#include "support/assert.h"
#include "tensor/convert.h"
#include "tensor/iterate.h"
#include "tensor/tensor.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace kiln::tensor::detail {

/// Mask of the dims to reduce; empty `dims` reduces all of them. Wraps negative dims
/// (IndexError as PyTorch) and rejects duplicates ("dim 0 appears multiple times ...").
uint64_t reductionMask(IntList dims, int64_t rank);
/// max/min-style reductions have no identity: reducing an empty tensor over all dims, or over
/// a dim of size 0, is an error in PyTorch's words ("amax(): Expected reduction dim 0 to have
/// non-zero size."). argmax/argmin raise IndexError where the others raise RuntimeError.
void checkNonEmptyReduction(const Tensor& a, uint64_t mask, bool dimsGiven, const char* name,
                            bool indexErrorWhenAll);
/// The shape after reducing `mask`: size 1 there with keepdim, dropped otherwise.
DimVector reducedShape(IntList sizes, uint64_t mask, bool keepdim);
/// A view of `t` without the (size-1) dims in `mask`: a keepdim result as a non-keepdim one.
Tensor dropDims(const Tensor& t, uint64_t mask);

/// A contiguous tensor seen as `outer` lines of `size` elements along one dimension, the
/// elements of one line `inner` apart: element (o, i, j) sits at (o * size + i) * inner + j.
struct DimLines {
    int64_t outer = 1;
    int64_t size = 1;
    int64_t inner = 1;
};
DimLines dimLines(IntList sizes, int64_t dim);

/// The DType whose storage type is T.
template <typename T>
constexpr DType dtypeOf() {
    if constexpr (std::is_same_v<T, bool>)
        return DType::Bool;
    else if constexpr (std::is_same_v<T, uint8_t>)
        return DType::UInt8;
    else if constexpr (std::is_same_v<T, int8_t>)
        return DType::Int8;
    else if constexpr (std::is_same_v<T, int16_t>)
        return DType::Int16;
    else if constexpr (std::is_same_v<T, int32_t>)
        return DType::Int32;
    else if constexpr (std::is_same_v<T, int64_t>)
        return DType::Int64;
    else if constexpr (std::is_same_v<T, Half>)
        return DType::Float16;
    else if constexpr (std::is_same_v<T, BFloat16>)
        return DType::BFloat16;
    else if constexpr (std::is_same_v<T, float>)
        return DType::Float32;
    else
        return DType::Float64;
}

template <typename T>
constexpr bool kIsFloatingStorage = std::is_floating_point_v<ComputeType<T>>;

/// dispatchDType for ops defined on floating dtypes only (the caller has checked the dtype).
template <typename Fn>
decltype(auto) dispatchFloating(DType dtype, Fn&& fn) {
    return dispatchDType(
        dtype, [&]<DType D>() -> decltype(fn.template operator()<DType::Float32>()) {
            if constexpr (kIsFloatingStorage<CType<D>>)
                return fn.template operator()<D>();
            else
                KILN_UNREACHABLE("dtype is checked to be floating before dispatch");
        });
}

/// The iteration of a reduction: input dims ordered by decreasing stride, with the element
/// strides of the input and of the accumulator array (0 along reduced dims).
struct ReduceLayout {
    DimVector sizes;
    DimVector inStrides;
    DimVector accStrides;
    int64_t outNumel = 1;
    int64_t reducedCount = 1;
};
ReduceLayout makeReduceLayout(const Tensor& in, uint64_t mask);

/// The fold of a plain sum in double (for foldRun).
template <typename T>
struct SumAsDouble {
    using Acc = double;
    Acc identity() const { return 0.0; }
    Acc map(T x) const { return double(ComputeType<T>(x)); }
    Acc combine(Acc a, Acc b) const { return a + b; }
};

/// Folds a run of n elements `stride` bytes apart into one accumulator.
template <typename T, typename Op>
typename Op::Acc foldRun(const Op& op, const char* p, int64_t stride, int64_t n) {
    using Acc = typename Op::Acc;
    Acc result = op.identity();
    int64_t i = 0;
    if (stride == sizeof(T)) {
        // Independent lanes break the sequential dependency so the loop vectorises.
        constexpr int kLanes = 8;
        const T* x = reinterpret_cast<const T*>(p);
        Acc lanes[kLanes];
        std::fill_n(lanes, kLanes, op.identity());
        for (; i + kLanes <= n; i += kLanes)
            for (int k = 0; k < kLanes; ++k)
                lanes[k] = op.combine(lanes[k], op.map(x[i + k]));
        for (int k = 0; k < kLanes; ++k)
            result = op.combine(result, lanes[k]);
    }
    for (; i < n; ++i)
        result = op.combine(result, op.map(*reinterpret_cast<const T*>(p + i * stride)));
    return result;
}

/// The loop dimension to split over threads: the outermost one that keeps (each accumulator
/// lies in one slice, and sees its elements in the same order as a serial loop, so the result
/// does not depend on the number of threads); -1 when none is worth splitting.
template <size_t N>
int parallelReduceDim(const LoopGeometry<N>& g) {
    int64_t total = 1;
    for (int64_t s : g.sizes)
        total *= s;
    if (total < 2 * kParallelGrain) return -1;
    for (size_t d = 0; d < g.sizes.size(); ++d)
        if (g.strides[0][d] != 0) return g.sizes[d] >= 2 ? static_cast<int>(d) : -1;
    return -1;
}

/// forEachRun over the loop with dimension d split over the threads.
template <size_t N, typename Fn>
void forEachRunSplitting(const LoopGeometry<N>& g, int d, std::array<char*, N> ptrs, Fn&& fn) {
    const size_t dim = static_cast<size_t>(d);
    int64_t perIndex = 1;
    for (size_t e = 0; e < g.sizes.size(); ++e)
        if (e != dim) perIndex *= g.sizes[e];
    parallelFor(g.sizes[dim], std::max<int64_t>(1, kParallelGrain / perIndex),
                [&](int64_t begin, int64_t end) {
                    LoopGeometry<N> slice = g;
                    slice.sizes[dim] = end - begin;
                    std::array<char*, N> p = ptrs;
                    for (size_t k = 0; k < N; ++k)
                        p[k] += begin * g.strides[k][dim];
                    forEachRun(slice, p, fn);
                });
}

/// Positions per partial result when a reduction to one value is split: fixed, so the result
/// is the same whatever the number of threads.
inline constexpr int64_t kReductionChunk = 65536;

template <typename T, typename Op>
void accumulate(typename Op::Acc* acc, const Tensor& in, const ReduceLayout& layout, const Op& op) {
    using Acc = typename Op::Acc;
    std::fill_n(acc, layout.outNumel, op.identity());
    if (in.numel() == 0) return;
    auto g =
        makeLoopGeometry<2>(layout.sizes, {IntList(layout.accStrides), IntList(layout.inStrides)},
                            {int64_t(sizeof(Acc)), int64_t(sizeof(T))});
    auto body = [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
        if (s[0] == 0) {
            Acc& a = *reinterpret_cast<Acc*>(p[0]);
            if constexpr (requires { op.reduceRun(p[1], s[1], n); })
                a = op.combine(a, op.reduceRun(p[1], s[1], n));
            else
                a = op.combine(a, foldRun<T>(op, p[1], s[1], n));
        } else if (s[0] == sizeof(Acc) && s[1] == sizeof(T)) {
            if constexpr (requires { op.accumulateRun(reinterpret_cast<Acc*>(p[0]), p[1], n); })
                return op.accumulateRun(reinterpret_cast<Acc*>(p[0]), p[1], n);
            Acc* __restrict a = reinterpret_cast<Acc*>(p[0]);
            const T* __restrict x = reinterpret_cast<const T*>(p[1]);
            for (int64_t i = 0; i < n; ++i)
                a[i] = op.combine(a[i], op.map(x[i]));
        } else {
            for (int64_t i = 0; i < n; ++i) {
                Acc& a = *reinterpret_cast<Acc*>(p[0] + i * s[0]);
                a = op.combine(a, op.map(*reinterpret_cast<const T*>(p[1] + i * s[1])));
            }
        }
    };
    std::array<char*, 2> ptrs{reinterpret_cast<char*>(acc), in.rawData()};
    if (int d = parallelReduceDim(g); d >= 0) return forEachRunSplitting(g, d, ptrs, body);
    if (layout.outNumel == 1 && in.numel() >= 4 * kReductionChunk) {
        // One value: partial results over fixed chunks, combined in order.
        const int64_t chunks = (in.numel() + kReductionChunk - 1) / kReductionChunk;
        std::unique_ptr<Acc[]> partial(new Acc[static_cast<size_t>(chunks)]);
        parallelFor(chunks, 1, [&](int64_t begin, int64_t end) {
            for (int64_t c = begin; c < end; ++c) {
                partial[c] = op.identity();
                std::array<char*, 2> p{reinterpret_cast<char*>(&partial[c]), in.rawData()};
                forEachRunInRange(g, p, c * kReductionChunk,
                                  std::min(in.numel(), (c + 1) * kReductionChunk), body);
            }
        });
        for (int64_t c = 0; c < chunks; ++c)
            acc[0] = op.combine(acc[0], partial[c]);
        return;
    }
    forEachRun(g, ptrs, body);
}

/// Reduces `in` (element type T) over `mask` with `op` into a new tensor of dtype Op::Out.
template <typename T, typename Op>
Tensor reduceWith(const Tensor& in, uint64_t mask, bool keepdim, const Op& op) {
    using Acc = typename Op::Acc;
    using Out = typename Op::Out;
    ReduceLayout layout = makeReduceLayout(in, mask);
    Tensor out = Tensor::empty(reducedShape(in.sizes(), mask, keepdim), dtypeOf<Out>());
    Acc single{};
    std::unique_ptr<Acc[]> many(layout.outNumel > 1 ? new Acc[layout.outNumel] : nullptr);
    Acc* acc = many ? many.get() : &single;
    accumulate<T>(acc, in, layout, op);
    Out* o = out.data<Out>();
    for (int64_t i = 0; i < layout.outNumel; ++i)
        o[i] = op.finalize(acc[i]);
    return out;
}

} // namespace kiln::tensor::detail
