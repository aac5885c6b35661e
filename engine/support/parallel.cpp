// SPDX-License-Identifier: MIT
#include "support/parallel.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <omp.h>

namespace kiln {

int parallelThreads() {
    static const int threads = [] {
        if (const char* env = std::getenv("KILN_NUM_THREADS")) {
            int n = std::atoi(env);
            if (n > 0) return n;
        }
        return std::max(1, omp_get_max_threads());
    }();
    return threads;
}

void configureThreadsForCaller() {
    thread_local bool configured = false;
    if (configured) return;
    configured = true;
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
