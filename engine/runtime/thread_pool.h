// SPDX-License-Identifier: MIT
/// \file
/// The pool that runs compiled kernels' outer loops in parallel: one worker per core (minus the
/// calling thread, which takes a share too), started once and kept. parallelFor splits a range
/// into one contiguous chunk per thread, as OpenMP's static schedule does for Inductor's CPU code.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::runtime {

class ThreadPool {
public:
    /// The process-wide pool, sized by KILN_NUM_THREADS or the number of cores.
    static ThreadPool& instance();

    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threadCount() const { return static_cast<int>(m_workers.size()) + 1; }

    /// Runs fn(begin, end) over [0, n) in up to threadCount() chunks and waits for all of them.
    /// Ranges of fewer than `minChunk` iterations per thread use fewer threads (tiny kernels run
    /// inline on the caller). Not reentrant: fn must not call parallelFor.
    void parallelFor(int64_t n, int64_t minChunk, const std::function<void(int64_t, int64_t)>& fn);

private:
    void workerLoop(int index);

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    const std::function<void(int64_t, int64_t)>* m_task = nullptr;
    int64_t m_n = 0;
    int m_chunks = 0;
    int64_t m_generation = 0;
    int m_pending = 0;
    bool m_stop = false;
    std::mutex m_callMutex; ///< one parallelFor at a time
};

} // namespace kiln::runtime
