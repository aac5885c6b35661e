// SPDX-License-Identifier: MIT
/// \file
/// The elementwise loop machinery every eager kernel is built on.
///
/// An op describes its operands (output first) as byte pointers with per-dimension byte strides
/// over one common iteration shape (broadcast dims have stride 0). LoopGeometry coalesces
/// dimensions that are laid out back to back in every operand, so a contiguous or broadcast-
/// scalar operation becomes one long inner run; forEachRun then calls the kernel once per inner
/// run. Kernels specialise the two shapes that matter for speed (all contiguous, one operand a
/// broadcast scalar) as plain counted loops the compiler vectorises, and keep a strided fallback.
#pragma once

#include "support/parallel.h"
#include "tensor/dim_vector.h"
#include "tensor/tensor.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace kiln::tensor {

template <size_t N>
struct LoopGeometry {
    DimVector sizes;                  ///< outermost first; empty for a single element
    std::array<DimVector, N> strides; ///< byte strides per operand, same rank as sizes
};

/// Builds the loop for `sizes` where operand k has element strides `elemStrides[k]` (same rank
/// as sizes) and element size `itemSizes[k]`. Size-1 dimensions are dropped and adjacent
/// dimensions merged where every operand allows it.
template <size_t N>
LoopGeometry<N> makeLoopGeometry(IntList sizes, const std::array<IntList, N>& elemStrides,
                                 const std::array<int64_t, N>& itemSizes) {
    LoopGeometry<N> g;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] == 1) continue;
        bool merge = !g.sizes.empty();
        for (size_t k = 0; k < N && merge; ++k) {
            int64_t inner = elemStrides[k][d] * itemSizes[k];
            merge = g.strides[k].back() == inner * sizes[d];
        }
        if (merge) {
            g.sizes.back() *= sizes[d];
            for (size_t k = 0; k < N; ++k)
                g.strides[k].back() = elemStrides[k][d] * itemSizes[k];
            continue;
        }
        g.sizes.push_back(sizes[d]);
        for (size_t k = 0; k < N; ++k)
            g.strides[k].push_back(elemStrides[k][d] * itemSizes[k]);
    }
    return g;
}

/// Calls fn(ptrs, innerStrides, count) once per innermost run of the loop.
template <size_t N, typename Fn>
void forEachRun(const LoopGeometry<N>& g, std::array<char*, N> ptrs, Fn&& fn) {
    const size_t rank = g.sizes.size();
    std::array<int64_t, N> inner{};
    if (rank == 0) {
        fn(ptrs, inner, int64_t{1});
        return;
    }
    for (size_t k = 0; k < N; ++k)
        inner[k] = g.strides[k][rank - 1];
    const int64_t count = g.sizes[rank - 1];
    if (count == 0) return;
    for (size_t d = 0; d + 1 < rank; ++d)
        if (g.sizes[d] == 0) return;
    DimVector counter(rank, 0);
    while (true) {
        fn(ptrs, inner, count);
        size_t d = rank - 1;
        while (true) {
            if (d == 0) return;
            --d;
            for (size_t k = 0; k < N; ++k)
                ptrs[k] += g.strides[k][d];
            if (++counter[d] < g.sizes[d]) break;
            for (size_t k = 0; k < N; ++k)
                ptrs[k] -= g.strides[k][d] * g.sizes[d];
            counter[d] = 0;
        }
    }
}

/// Elements per thread below which a parallel loop is not worth waking a thread for (PyTorch's
/// at::internal::GRAIN_SIZE).
inline constexpr int64_t kParallelGrain = 32768;

/// forEachRun over the positions [begin, end) of the loop in row-major order: the first and
/// last runs may be partial.
template <size_t N, typename Fn>
void forEachRunInRange(const LoopGeometry<N>& g, std::array<char*, N> ptrs, int64_t begin,
                       int64_t end, Fn&& fn) {
    const size_t rank = g.sizes.size();
    DimVector counter(rank, 0);
    int64_t position = begin;
    for (size_t d = rank; d-- > 0;) {
        counter[d] = position % g.sizes[d];
        position /= g.sizes[d];
        for (size_t k = 0; k < N; ++k)
            ptrs[k] += counter[d] * g.strides[k][d];
    }
    std::array<int64_t, N> inner{};
    for (size_t k = 0; k < N; ++k)
        inner[k] = g.strides[k][rank - 1];
    for (int64_t remaining = end - begin;;) {
        const int64_t n = std::min(remaining, g.sizes[rank - 1] - counter[rank - 1]);
        fn(ptrs, inner, n);
        remaining -= n;
        if (remaining == 0) return;
        // The run reached the end of the innermost dimension: rewind it and carry.
        for (size_t k = 0; k < N; ++k)
            ptrs[k] -= counter[rank - 1] * inner[k];
        counter[rank - 1] = 0;
        for (size_t d = rank - 1; d-- > 0;) {
            for (size_t k = 0; k < N; ++k)
                ptrs[k] += g.strides[k][d];
            if (++counter[d] < g.sizes[d]) break;
            for (size_t k = 0; k < N; ++k)
                ptrs[k] -= g.strides[k][d] * g.sizes[d];
            counter[d] = 0;
        }
    }
}

/// forEachRun split over the threads: every position is visited once, in contiguous ranges of
/// the loop's row-major order. For kernels whose runs are independent (elementwise ops writing
/// each output element once, from inputs it does not overlap).
template <size_t N, typename Fn>
void forEachRunParallel(const LoopGeometry<N>& g, std::array<char*, N> ptrs, Fn&& fn) {
    int64_t total = 1;
    for (int64_t s : g.sizes)
        total *= s;
    if (total < 2 * kParallelGrain || g.sizes.empty()) return forEachRun(g, ptrs, fn);
    parallelFor(total, kParallelGrain,
                [&](int64_t begin, int64_t end) { forEachRunInRange(g, ptrs, begin, end, fn); });
}

/// Whether operands 0 and 1 walk the innermost two loop dimensions in opposite orders (each is
/// dense along a different one), as a transposing copy does: forEachRunTiled keeps both in cache.
template <size_t N>
bool innerDimsTransposed(const LoopGeometry<N>& g, const std::array<int64_t, N>& itemSizes) {
    const size_t rank = g.sizes.size();
    if (rank < 2) return false;
    const auto& s0 = g.strides[0];
    const auto& s1 = g.strides[1];
    return s0[rank - 1] == itemSizes[0] && s1[rank - 2] == itemSizes[1] &&
           s1[rank - 1] != itemSizes[1] && g.sizes[rank - 1] >= 16 && g.sizes[rank - 2] >= 16;
}

/// forEachRun with the innermost two dimensions visited in square tiles (runs of at most a
/// tile's width), split over the threads by rows of tiles. Every position is visited once.
template <size_t N, typename Fn>
void forEachRunTiled(const LoopGeometry<N>& g, std::array<char*, N> ptrs, Fn&& fn) {
    constexpr int64_t kTile = 32;
    const size_t rank = g.sizes.size();
    const int64_t rows = g.sizes[rank - 2], cols = g.sizes[rank - 1];
    LoopGeometry<N> outer;
    for (size_t d = 0; d + 2 < rank; ++d) {
        outer.sizes.push_back(g.sizes[d]);
        for (size_t k = 0; k < N; ++k)
            outer.strides[k].push_back(g.strides[k][d]);
    }
    int64_t outerCount = 1;
    for (int64_t s : outer.sizes)
        outerCount *= s;
    const int64_t tileRows = (rows + kTile - 1) / kTile;
    std::array<int64_t, N> inner{};
    for (size_t k = 0; k < N; ++k)
        inner[k] = g.strides[k][rank - 1];
    parallelFor(outerCount * tileRows, std::max<int64_t>(1, kParallelGrain / (kTile * cols)),
                [&](int64_t begin, int64_t end) {
                    for (int64_t item = begin; item < end; ++item) {
                        std::array<char*, N> base = ptrs;
                        for (int64_t rest = item / tileRows, d = int64_t(outer.sizes.size());
                             d-- > 0;) {
                            const int64_t index = rest % outer.sizes[size_t(d)];
                            rest /= outer.sizes[size_t(d)];
                            for (size_t k = 0; k < N; ++k)
                                base[k] += index * outer.strides[k][size_t(d)];
                        }
                        const int64_t r0 = (item % tileRows) * kTile;
                        const int64_t r1 = std::min(rows, r0 + kTile);
                        for (int64_t c0 = 0; c0 < cols; c0 += kTile)
                            for (int64_t r = r0; r < r1; ++r) {
                                std::array<char*, N> p = base;
                                for (size_t k = 0; k < N; ++k)
                                    p[k] += r * g.strides[k][rank - 2] + c0 * inner[k];
                                fn(p, inner, std::min(kTile, cols - c0));
                            }
                    }
                });
}

/// out[i] = fn(a[i]) over one run.
template <typename TOut, typename TA, typename Fn>
inline void unaryRun(std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n, Fn&& fn) {
    if (s[0] == sizeof(TOut) && s[1] == sizeof(TA)) {
        TOut* __restrict o = reinterpret_cast<TOut*>(p[0]);
        const TA* __restrict a = reinterpret_cast<const TA*>(p[1]);
        for (int64_t i = 0; i < n; ++i)
            o[i] = fn(a[i]);
    } else if (s[0] == sizeof(TOut) && s[1] == 0) {
        TOut* __restrict o = reinterpret_cast<TOut*>(p[0]);
        const TOut v = fn(*reinterpret_cast<const TA*>(p[1]));
        for (int64_t i = 0; i < n; ++i)
            o[i] = v;
    } else {
        for (int64_t i = 0; i < n; ++i)
            *reinterpret_cast<TOut*>(p[0] + i * s[0]) =
                fn(*reinterpret_cast<const TA*>(p[1] + i * s[1]));
    }
}

/// out[i] = fn(a[i], b[i]) over one run.
template <typename TOut, typename TA, typename TB, typename Fn>
inline void binaryRun(std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n, Fn&& fn) {
    if (s[0] == sizeof(TOut)) {
        TOut* __restrict o = reinterpret_cast<TOut*>(p[0]);
        if (s[1] == sizeof(TA) && s[2] == sizeof(TB)) {
            const TA* __restrict a = reinterpret_cast<const TA*>(p[1]);
            const TB* __restrict b = reinterpret_cast<const TB*>(p[2]);
            for (int64_t i = 0; i < n; ++i)
                o[i] = fn(a[i], b[i]);
            return;
        }
        if (s[1] == sizeof(TA) && s[2] == 0) {
            const TA* __restrict a = reinterpret_cast<const TA*>(p[1]);
            const TB b = *reinterpret_cast<const TB*>(p[2]);
            for (int64_t i = 0; i < n; ++i)
                o[i] = fn(a[i], b);
            return;
        }
        if (s[1] == 0 && s[2] == sizeof(TB)) {
            const TA a = *reinterpret_cast<const TA*>(p[1]);
            const TB* __restrict b = reinterpret_cast<const TB*>(p[2]);
            for (int64_t i = 0; i < n; ++i)
                o[i] = fn(a, b[i]);
            return;
        }
    }
    for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<TOut*>(p[0] + i * s[0]) =
            fn(*reinterpret_cast<const TA*>(p[1] + i * s[1]),
               *reinterpret_cast<const TB*>(p[2] + i * s[2]));
}

/// out[i] = fn(a[i], b[i], c[i]) over one run (where, clamp with tensor bounds, lerp).
template <typename TOut, typename TA, typename TB, typename TC, typename Fn>
inline void ternaryRun(std::array<char*, 4> p, std::array<int64_t, 4> s, int64_t n, Fn&& fn) {
    if (s[0] == sizeof(TOut) && s[1] == sizeof(TA) && s[2] == sizeof(TB) && s[3] == sizeof(TC)) {
        TOut* __restrict o = reinterpret_cast<TOut*>(p[0]);
        const TA* __restrict a = reinterpret_cast<const TA*>(p[1]);
        const TB* __restrict b = reinterpret_cast<const TB*>(p[2]);
        const TC* __restrict c = reinterpret_cast<const TC*>(p[3]);
        for (int64_t i = 0; i < n; ++i)
            o[i] = fn(a[i], b[i], c[i]);
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<TOut*>(p[0] + i * s[0]) =
            fn(*reinterpret_cast<const TA*>(p[1] + i * s[1]),
               *reinterpret_cast<const TB*>(p[2] + i * s[2]),
               *reinterpret_cast<const TC*>(p[3] + i * s[3]));
}

} // namespace kiln::tensor
