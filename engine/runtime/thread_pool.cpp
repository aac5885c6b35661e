// SPDX-License-Identifier: MIT
#include "runtime/thread_pool.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace kiln::runtime {

namespace {

std::pair<int64_t, int64_t> chunkOf(int64_t n, int chunks, int index) {
    int64_t base = n / chunks, extra = n % chunks;
    int64_t begin = index * base + std::min<int64_t>(index, extra);
    return {begin, begin + base + (index < extra ? 1 : 0)};
}

} // namespace

ThreadPool& ThreadPool::instance() {
    static ThreadPool pool([] {
        if (const char* env = std::getenv("KILN_NUM_THREADS")) {
            int n = std::atoi(env);
            if (n > 0) return n;
        }
        return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    }());
    return pool;
}

ThreadPool::ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i)
        m_workers.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers)
        t.join();
}

void ThreadPool::workerLoop(int index) {
    int64_t seen = 0;
    for (;;) {
        const std::function<void(int64_t, int64_t)>* task = nullptr;
        int64_t n = 0;
        int chunks = 0;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
            task = m_task;
            n = m_n;
            chunks = m_chunks;
        }
        if (index < chunks) {
            auto [b, e] = chunkOf(n, chunks, index);
            (*task)(b, e);
        }
        {
            std::lock_guard lock(m_mutex);
            if (--m_pending == 0) m_done.notify_one();
        }
    }
}

void ThreadPool::parallelFor(int64_t n, int64_t minChunk,
                             const std::function<void(int64_t, int64_t)>& fn) {
    if (n <= 0) return;
    int chunks = static_cast<int>(
        std::min<int64_t>(threadCount(), std::max<int64_t>(1, n / std::max<int64_t>(1, minChunk))));
    if (chunks <= 1 || m_workers.empty()) return fn(0, n);
    std::lock_guard call(m_callMutex);
    {
        std::lock_guard lock(m_mutex);
        m_task = &fn;
        m_n = n;
        m_chunks = chunks;
        m_pending = static_cast<int>(m_workers.size());
        ++m_generation;
    }
    m_wake.notify_all();
    auto [b, e] = chunkOf(n, chunks, 0);
    fn(b, e);
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_pending == 0; });
    m_task = nullptr;
}

} // namespace kiln::runtime
