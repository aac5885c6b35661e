// SPDX-License-Identifier: MIT
// The caching allocator's policy against a fake device: PyTorch's size classes and segment
// sizes, best-fit reuse with splitting and merging, stream-ordered reuse, the cache released
// before an out-of-memory error (with PyTorch's message), and the statistics behind
// torch.cuda.memory_allocated / max_memory_allocated / memory_reserved.
#include "fake_device.h"

#include <QtTest>

using kiln::runtime::CachingAllocator;
using kiln::runtime::DevicePtr;
using kiln::testing::FakeDevice;

namespace {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * 1024;

DevicePtr take(CachingAllocator& a, size_t bytes, kiln::runtime::StreamId stream = 0) {
    auto p = a.allocate(bytes, stream);
    if (!p) qFatal("allocation failed: %s", p.error().message.c_str());
    return *p;
}

} // namespace

class TstCachingAllocator : public QObject {
    Q_OBJECT

private slots:
    void sizeClassesArePyTorchs() {
        QCOMPARE(CachingAllocator::roundSize(1), size_t(512));
        QCOMPARE(CachingAllocator::roundSize(512), size_t(512));
        QCOMPARE(CachingAllocator::roundSize(513), size_t(1024));
        QCOMPARE(CachingAllocator::roundSize(3 * MiB + 1), 3 * MiB + 512);
        QCOMPARE(CachingAllocator::segmentSize(512), 2 * MiB);
        QCOMPARE(CachingAllocator::segmentSize(MiB), 2 * MiB);
        QCOMPARE(CachingAllocator::segmentSize(MiB + 512), 20 * MiB);
        QCOMPARE(CachingAllocator::segmentSize(10 * MiB - 512), 20 * MiB);
        QCOMPARE(CachingAllocator::segmentSize(10 * MiB), 10 * MiB);
        QCOMPARE(CachingAllocator::segmentSize(11 * MiB + 512), 12 * MiB);
    }

    void smallRequestsShareOneSegment() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        DevicePtr p = take(a, 100);
        DevicePtr q = take(a, 1000);
        QCOMPARE(dev.allocCalls, std::vector<size_t>{2 * MiB});
        QCOMPARE(q, p + 512); // the rest of the first block, split off
        auto s = a.stats();
        QCOMPARE(s.allocated.current, int64_t(512 + 1024));
        QCOMPARE(s.requested.current, int64_t(1100));
        QCOMPARE(s.reserved.current, int64_t(2 * MiB));
    }

    void freedBlockIsReusedAndNeighboursMerge() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        DevicePtr p = take(a, 4 * MiB);
        DevicePtr q = take(a, 4 * MiB);
        QCOMPARE(dev.allocCalls, std::vector<size_t>{20 * MiB}); // one 20 MiB large segment
        QCOMPARE(q, p + 4 * MiB);
        a.deallocate(p);
        QCOMPARE(take(a, 4 * MiB), p); // best fit: the freed block, not the tail
        a.deallocate(p);
        a.deallocate(q);
        // p, q and the tail merged back into the whole segment: 20 MiB fits without the device.
        QCOMPARE(take(a, 19 * MiB), p);
        QCOMPARE(dev.allocCalls.size(), size_t(1));
    }

    void largePoolKeepsOnlyUsefulRemainders() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        DevicePtr p = take(a, 12 * MiB); // a 12 MiB segment of its own
        a.deallocate(p);
        // 11.5 MiB leaves 0.5 MiB, not worth a block in the large pool: the request gets all.
        QCOMPARE(take(a, 11 * MiB + 512 * KiB), p);
        QCOMPARE(a.blockSize(p), 12 * MiB);
        QCOMPARE(a.stats().allocated.current, int64_t(12 * MiB));
    }

    void reuseFollowsTheStream() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        DevicePtr p = take(a, 4 * MiB, /*stream*/ 1);
        a.deallocate(p);
        DevicePtr q = take(a, 4 * MiB, /*stream*/ 2);
        QVERIFY(q != p); // a block freed on stream 1 is not handed to stream 2
        QCOMPARE(dev.allocCalls.size(), size_t(2));
        QCOMPARE(take(a, 4 * MiB, 1), p);
    }

    void recordStreamDelaysReuseUntilTheEvent() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        DevicePtr p = take(a, 256, 1);
        a.recordStream(p, 2);
        a.deallocate(p);
        QCOMPARE(dev.pendingEvents.size(), size_t(1)); // an event on stream 2
        DevicePtr q = take(a, 256, 1);
        QVERIFY(q != p);           // stream 2 may still read p
        dev.pendingEvents.clear(); // stream 2 reached the event
        a.deallocate(q);
        QCOMPARE(take(a, 256, 1), p);
        QCOMPARE(dev.destroyedEvents.size(), size_t(1));
    }

    void emptyCacheReturnsOnlyWholeFreeSegments() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        DevicePtr small = take(a, 1000);
        DevicePtr big = take(a, 30 * MiB);
        a.deallocate(big);
        QCOMPARE(a.stats().reserved.current, int64_t(32 * MiB));
        a.emptyCache();
        QCOMPARE(dev.frees, 1); // the 30 MiB segment; the small one is still in use
        QCOMPARE(a.stats().reserved.current, int64_t(2 * MiB));
        a.deallocate(small);
        a.emptyCache();
        QCOMPARE(a.stats().reserved.current, int64_t(0));
        QVERIFY(dev.live.empty());
    }

    void outOfMemoryReleasesTheCacheAndRetries() {
        FakeDevice dev;
        dev.capacity = 64 * MiB;
        CachingAllocator a(dev.backend(), 0);
        a.deallocate(take(a, 40 * MiB)); // cached, not in use
        DevicePtr p = take(a, 50 * MiB); // only fits after the 40 MiB go back
        QVERIFY(p != 0);
        QCOMPARE(a.stats().cacheFlushes, int64_t(1));
        QCOMPARE(a.stats().reserved.current, int64_t(50 * MiB));
    }

    void outOfMemoryIsADiagnosticWithPyTorchsMessage() {
        FakeDevice dev;
        dev.capacity = 64 * MiB;
        CachingAllocator a(dev.backend(), 3);
        DevicePtr held = take(a, 30 * MiB);
        auto r = a.allocate(40 * MiB, 0);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, std::string("OutOfMemoryError"));
        QCOMPARE(QString::fromStdString(r.error().message).section(". If reserved", 0, 0),
                 QString("CUDA out of memory. Tried to allocate 40.00 MiB. GPU 3 has a total "
                         "capacity of 64.00 MiB of which 34.00 MiB is free. Of the allocated "
                         "memory 30.00 MiB is allocated by PyTorch, and 0 bytes is reserved by "
                         "PyTorch but unallocated"));
        QVERIFY(r.error().message.find("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True") !=
                std::string::npos);
        QCOMPARE(a.stats().ooms, int64_t(1));
        a.deallocate(held);
    }

    void peakStatisticsAndTheirReset() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        DevicePtr p = take(a, 3 * MiB);
        DevicePtr q = take(a, 5 * MiB);
        a.deallocate(q);
        auto s = a.stats();
        QCOMPARE(s.allocated.current, int64_t(3 * MiB));
        QCOMPARE(s.allocated.peak, int64_t(8 * MiB));
        QCOMPARE(s.reserved.peak, int64_t(20 * MiB));
        a.resetPeakStats();
        QCOMPARE(a.stats().allocated.peak, int64_t(3 * MiB));
        a.deallocate(p);
        QCOMPARE(a.stats().allocated.current, int64_t(0));
    }

    void zeroBytesNeedNoMemory() {
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        QCOMPARE(take(a, 0), DevicePtr(0));
        a.deallocate(0);
        QVERIFY(dev.allocCalls.empty());
    }

    void fragmentationIsBoundedByMerging() {
        // Many interleaved sizes freed in a scattered order leave the segments whole again.
        FakeDevice dev;
        CachingAllocator a(dev.backend(), 0);
        std::vector<DevicePtr> blocks;
        for (int i = 0; i < 200; ++i)
            blocks.push_back(take(a, (i % 7 + 1) * 700 * KiB));
        const int64_t reserved = a.stats().reserved.current;
        for (size_t i = 0; i < blocks.size(); i += 2)
            a.deallocate(blocks[i]);
        for (size_t i = 1; i < blocks.size(); i += 2)
            a.deallocate(blocks[i]);
        QCOMPARE(a.stats().allocated.current, int64_t(0));
        const size_t calls = dev.allocCalls.size();
        for (int i = 0; i < 200; ++i)
            blocks[static_cast<size_t>(i)] = take(a, (i % 7 + 1) * 700 * KiB);
        QCOMPARE(dev.allocCalls.size(), calls); // all served from the cache
        QCOMPARE(a.stats().reserved.current, reserved);
        for (DevicePtr p : blocks)
            a.deallocate(p);
        a.emptyCache();
        QVERIFY(dev.live.empty());
    }

    void formatMemorySizeIsPyTorchs() {
        using kiln::runtime::formatMemorySize;
        QCOMPARE(formatMemorySize(0), std::string("0 bytes"));
        QCOMPARE(formatMemorySize(1024), std::string("1024 bytes"));
        QCOMPARE(formatMemorySize(1536), std::string("1.50 KiB"));
        QCOMPARE(formatMemorySize(20 * MiB), std::string("20.00 MiB"));
        QCOMPARE(formatMemorySize(size_t(150) << 30), std::string("150.00 GiB"));
    }
};

QTEST_GUILESS_MAIN(TstCachingAllocator)
#include "tst_caching_allocator.moc"
