// SPDX-License-Identifier: MIT
/// \file
/// Parallel loops. Every parallel loop in Kiln (eager kernels, compiled kernels, autotuning)
/// and the matrix-product libraries (oneDNN, BLIS) run on one OpenMP team of threads, so a
/// library's threads never spin on a core that Kiln's next kernel needs (libgomp's workers
/// busy-wait for a while after each region before they sleep).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace kiln {

/// Threads a parallel loop uses: set by setParallelThreads (torch.set_num_threads), else
/// KILN_NUM_THREADS when set, else OpenMP's count (OMP_NUM_THREADS, else one per core this
/// process may run on).
int parallelThreads();
/// torch.set_num_threads: the loops and matrix products that start from now on use `n` (> 0).
void setParallelThreads(int n);

/// Makes the calling thread's OpenMP regions (Kiln's and the libraries') use parallelThreads().
/// OpenMP keeps the thread count per thread; parallelFor and the matrix products call this, so
/// a thread other than main (the interpreter's) gets the same count.
void configureThreadsForCaller();

/// A non-owning reference to a callable `void(int64_t begin, int64_t end)`.
class RangeFn {
public:
    template <typename F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, RangeFn>)
        RangeFn(F&& f) // NOLINT(google-explicit-constructor): a parameter type, like std::function
        : m_object(const_cast<void*>(static_cast<const void*>(&f)))
        , m_call([](void* o, int64_t b, int64_t e) {
            (*static_cast<std::remove_reference_t<F>*>(o))(b, e);
        }) {}
    void operator()(int64_t begin, int64_t end) const { m_call(m_object, begin, end); }

private:
    void* m_object;
    void (*m_call)(void*, int64_t, int64_t);
};

/// Runs fn(begin, end) over [0, n) in contiguous chunks, one per thread (OpenMP's static
/// schedule, as Inductor's CPU code), using only as many threads as give each at least `grain`
/// iterations; returns when all are done. Runs inline for a small n or inside another parallel
/// region. An exception thrown by fn is rethrown here (the first one) after every chunk ended.
void parallelFor(int64_t n, int64_t grain, RangeFn fn);

} // namespace kiln
