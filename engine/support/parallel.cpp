// SPDX-License-Identifier: MIT
#include "support/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <omp.h>

namespace kiln {

namespace {

int initialThreads() {
    if (const char* env = std::getenv("KILN_NUM_THREADS")) {
        int n = std::atoi(env);
        if (n > 0) return n;
    }
    return std::max(1, omp_get_max_threads());
}

std::atomic<int> g_threads{0};    ///< 0 until first read or set
std::atomic<int> g_generation{1}; ///< bumped by every set: threads apply it again

} // namespace

int parallelThreads() {
    int n = g_threads.load(std::memory_order_relaxed);
    if (n > 0) return n;
    int expected = 0;
    g_threads.compare_exchange_strong(expected, initialThreads());
    return g_threads.load(std::memory_order_relaxed);
}

void setParallelThreads(int n) {
    g_threads.store(std::max(1, n), std::memory_order_relaxed);
    g_generation.fetch_add(1, std::memory_order_release); // publishes the count with it
}

void configureThreadsForCaller() {
    thread_local int applied = 0;
    const int generation = g_generation.load(std::memory_order_acquire);
    if (applied == generation) return;
    applied = generation;
    omp_set_num_threads(parallelThreads());
}

void parallelFor(int64_t n, int64_t grain, RangeFn fn) {
    if (n <= 0) return;
    const int64_t maxChunks = n / std::max<int64_t>(1, grain);
    const int chunks = static_cast<int>(std::min<int64_t>(parallelThreads(), maxChunks));
    if (chunks <= 1 || omp_in_parallel()) return fn(0, n);
    configureThreadsForCaller();
    std::exception_ptr failure;
    std::mutex failureMutex;
#pragma omp parallel num_threads(chunks)
    {
        // The team may be smaller than asked (OMP_THREAD_LIMIT): split by its real size.
        const int64_t team = omp_get_num_threads(), index = omp_get_thread_num();
        const int64_t base = n / team, extra = n % team;
        const int64_t begin = index * base + std::min(index, extra);
        const int64_t end = begin + base + (index < extra ? 1 : 0);
        try {
            if (begin < end) fn(begin, end);
        } catch (...) {
            std::lock_guard lock(failureMutex);
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
}

} // namespace kiln
