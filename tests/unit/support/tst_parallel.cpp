// SPDX-License-Identifier: MIT
// Parallel loops (support/parallel.h) and the loop splitting the eager kernels build on
// (tensor/iterate.h): every iteration runs exactly once whatever the split, a nested loop runs
// inline, an exception reaches the caller, and the CPU facts are read from CPUID.
#include "support/cpu_info.h"
#include "support/parallel.h"
#include "tensor/iterate.h"

#include <QtTest>
#include <atomic>
#include <random>
#include <stdexcept>
#include <vector>

using namespace kiln;

namespace {

/// Visits every position of a geometry over one operand whose byte strides are given, and
/// counts how often each element offset is reached.
std::vector<int> visits(const tensor::LoopGeometry<1>& g, int64_t extent, bool tiled,
                        bool parallel) {
    std::vector<std::atomic<int>> counts(static_cast<size_t>(extent));
    char* base = nullptr;
    auto fn = [&](std::array<char*, 1> p, std::array<int64_t, 1> s, int64_t n) {
        for (int64_t i = 0; i < n; ++i)
            ++counts[static_cast<size_t>((p[0] - base) + i * s[0])];
    };
    if (tiled)
        tensor::forEachRunTiled(g, {base}, fn);
    else if (parallel)
        tensor::forEachRunParallel(g, {base}, fn);
    else
        tensor::forEachRun(g, {base}, fn);
    std::vector<int> out;
    for (auto& c : counts)
        out.push_back(c.load());
    return out;
}

} // namespace

class ParallelTest : public QObject {
    Q_OBJECT

private slots:
    void everyIterationRunsOnce() {
        QVERIFY(parallelThreads() >= 1);
        for (int64_t n : {0, 1, 7, 1000, 65537, 1 << 20})
            for (int64_t grain : {1, 100, 32768}) {
                std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
                std::atomic<bool> badRange{false}; // Qt Test's checks belong to the main thread
                parallelFor(n, grain, [&](int64_t b, int64_t e) {
                    if (!(0 <= b && b < e && e <= n)) badRange = true;
                    for (int64_t i = b; i < e && !badRange; ++i)
                        ++hits[static_cast<size_t>(i)];
                });
                QVERIFY(!badRange);
                for (auto& h : hits)
                    QCOMPARE(h.load(), 1);
            }
    }

    void aNestedLoopRunsInlineOnItsThread() {
        std::atomic<int> inner{0}, split{0};
        parallelFor(1 << 16, 1, [&](int64_t b, int64_t e) {
            parallelFor(e - b, 1, [&](int64_t ib, int64_t ie) {
                if (ib != 0 || ie != e - b) ++split; // one chunk: the whole inner range
                ++inner;
            });
        });
        QCOMPARE(split.load(), 0);
        QVERIFY(inner.load() >= 1 && inner.load() <= parallelThreads());
    }

    void anExceptionReachesTheCaller() {
        bool caught = false;
        try {
            parallelFor(1 << 20, 1, [](int64_t b, int64_t) {
                if (b == 0) throw std::runtime_error("chunk 0 failed");
            });
        } catch (const std::runtime_error& e) {
            caught = QString(e.what()) == "chunk 0 failed";
        }
        QVERIFY(caught);
    }

    void splitLoopsVisitEveryPositionOnce() {
        std::mt19937 gen(7);
        for (int trial = 0; trial < 40; ++trial) {
            // A random 2-4 dimensional geometry, dense or permuted, of byte-sized elements.
            const size_t rank = 2 + gen() % 3;
            tensor::LoopGeometry<1> g;
            std::vector<int64_t> sizes;
            // Up to about a million positions: large enough to be split over the threads.
            const int64_t largest = rank == 2 ? 1000 : rank == 3 ? 100 : 30;
            for (size_t d = 0; d < rank; ++d)
                sizes.push_back(int64_t(1 + gen() % largest));
            int64_t stride = 1;
            std::vector<int64_t> strides(rank);
            std::vector<size_t> order(rank);
            for (size_t d = 0; d < rank; ++d)
                order[d] = d;
            std::shuffle(order.begin(), order.end(), gen);
            for (size_t d : order) {
                strides[d] = stride;
                stride *= sizes[d];
            }
            for (size_t d = 0; d < rank; ++d) {
                g.sizes.push_back(sizes[d]);
                g.strides[0].push_back(strides[d]);
            }
            const int64_t total = stride;
            for (bool tiled : {false, true})
                for (bool parallel : {false, true}) {
                    if (tiled && (sizes[rank - 1] < 2 || sizes[rank - 2] < 2)) continue;
                    std::vector<int> counts = visits(g, total, tiled, parallel);
                    for (int c : counts)
                        QCOMPARE(c, 1);
                }
        }
    }

    void theCpuIsDescribedByItsFeatures() {
        QVERIFY(!cpuModelName().empty());
        QVERIFY(activeIsa() <= supportedIsa());
        QVERIFY(QString(isaName(activeIsa())) == "baseline" ||
                QString(isaName(activeIsa())) == "avx2" ||
                QString(isaName(activeIsa())) == "avx512");
    }
};

QTEST_GUILESS_MAIN(ParallelTest)
#include "tst_parallel.moc"
