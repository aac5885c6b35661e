// SPDX-License-Identifier: MIT
// CUPTI activity records to Kiln's kernel launches (inductor/cupti_launches.h), on records
// built by hand: what a launch spans, whose geometry it carries, what is left out.
#include "inductor/cupti_launches.h"

#include <QtTest>

using namespace kiln;
using codegen::cuda::ActivityRecords;
using codegen::cuda::KernelActivity;
using codegen::cuda::MemcpyActivity;
using inductor::GpuLaunchInfo;

namespace {

KernelActivity kernel(uint64_t tag, uint64_t start, uint64_t end, int32_t gridX, int regs = 32) {
    KernelActivity k;
    k.externalId = tag;
    k.start = start;
    k.end = end;
    k.grid[0] = gridX, k.grid[1] = 1, k.grid[2] = 1;
    k.block[0] = 128, k.block[1] = 1, k.block[2] = 1;
    k.registersPerThread = static_cast<uint16_t>(regs);
    k.staticSharedBytes = 1024;
    k.dynamicSharedBytes = 512;
    return k;
}

MemcpyActivity copy(uint64_t tag, uint64_t start, uint64_t end) {
    MemcpyActivity m;
    m.copyKind = 8; // device to device
    m.bytes = 4096;
    m.externalId = tag;
    m.start = start;
    m.end = end;
    return m;
}

std::map<uint64_t, GpuLaunchInfo> tags(std::initializer_list<std::pair<uint64_t, int64_t>> ids) {
    std::map<uint64_t, GpuLaunchInfo> out;
    for (auto [tag, kernelId] : ids) {
        GpuLaunchInfo info;
        info.kernelId = kernelId;
        out[tag] = info;
    }
    return out;
}

} // namespace

class TstCuptiLaunches : public QObject {
    Q_OBJECT

private slots:
    void oneKernelIsOneLaunchWithItsGeometry() {
        ActivityRecords r;
        r.kernels.push_back(kernel(1, 1000, 3000, 64));
        auto launches = inductor::launchesFromActivity(r, tags({{1, 7}}), 100);
        QCOMPARE(launches.size(), size_t(1));
        QCOMPARE(launches[0].kernelId, int64_t(7));
        QCOMPARE(launches[0].startNs, int64_t(1100));
        QCOMPARE(launches[0].endNs, int64_t(3100));
        QCOMPARE(launches[0].grid, std::string("(64, 1, 1)"));
        QCOMPARE(launches[0].block, std::string("(128, 1, 1)"));
        QCOMPARE(launches[0].registers, 32);
        QCOMPARE(launches[0].sharedMemory, 1536);
        QCOMPARE(launches[0].device, std::string("cuda:0"));
    }

    void severalKernelsOfOneTagSpanAllWithTheFirstsGeometry() {
        ActivityRecords r; // cuBLASLt's product, then its split-k reduction
        r.kernels.push_back(kernel(5, 2000, 2500, 8, 40));
        r.kernels.push_back(kernel(4, 1000, 1800, 132, 168));
        auto launches = inductor::launchesFromActivity(r, tags({{4, 1}}), 0);
        QCOMPARE(launches.size(), size_t(1));
        QCOMPARE(launches[0].startNs, int64_t(1000));
        QCOMPARE(launches[0].grid, std::string("(132, 1, 1)"));
        QCOMPARE(launches[0].registers, 168);

        r.kernels.push_back(kernel(4, 1900, 2100, 8, 40));
        launches = inductor::launchesFromActivity(r, tags({{4, 1}}), 0);
        QCOMPARE(launches.size(), size_t(1));
        QCOMPARE(launches[0].endNs, int64_t(2100));
        QCOMPARE(launches[0].grid, std::string("(132, 1, 1)"));
    }

    void aCopyBeforeTheKernelWidensTheLaunchKeepingTheKernelsGeometry() {
        ActivityRecords r; // addmm with a full bias: the bias is copied into the output first
        r.kernels.push_back(kernel(3, 1500, 4000, 96));
        r.memcpys.push_back(copy(3, 1000, 1400));
        auto launches = inductor::launchesFromActivity(r, tags({{3, 9}}), 0);
        QCOMPARE(launches.size(), size_t(1));
        QCOMPARE(launches[0].startNs, int64_t(1000));
        QCOMPARE(launches[0].endNs, int64_t(4000));
        QCOMPARE(launches[0].grid, std::string("(96, 1, 1)"));
        QCOMPARE(launches[0].registers, 32);
    }

    void aTagThatOnlyCopiedHasNoGeometry() {
        ActivityRecords r;
        r.memcpys.push_back(copy(2, 500, 900));
        auto launches = inductor::launchesFromActivity(r, tags({{2, 3}}), 0);
        QCOMPARE(launches.size(), size_t(1));
        QCOMPARE(launches[0].kernelId, int64_t(3));
        QCOMPARE(launches[0].endNs - launches[0].startNs, int64_t(400));
        QVERIFY(launches[0].grid.empty());
        QVERIFY(launches[0].block.empty());
        QCOMPARE(launches[0].registers, 0);
        QCOMPARE(launches[0].sharedMemory, 0);
    }

    void untaggedAndUnknownRecordsAreLeftOutAndOrderFollowsFirstRecords() {
        ActivityRecords r;
        r.kernels.push_back(kernel(0, 100, 200, 1));  // an eager op's kernel: no tag
        r.kernels.push_back(kernel(99, 300, 400, 1)); // a tag this profiler did not push
        r.kernels.push_back(kernel(12, 5000, 6000, 2));
        r.memcpys.push_back(copy(11, 700, 800));
        r.kernels.push_back(kernel(11, 900, 1000, 4));
        auto launches = inductor::launchesFromActivity(r, tags({{11, 1}, {12, 2}}), 0);
        QCOMPARE(launches.size(), size_t(2));
        QCOMPARE(launches[0].kernelId, int64_t(1));
        QCOMPARE(launches[0].startNs, int64_t(700));
        QCOMPARE(launches[0].grid, std::string("(4, 1, 1)"));
        QCOMPARE(launches[1].kernelId, int64_t(2));
    }

    void noRecordsNoLaunches() {
        QVERIFY(inductor::launchesFromActivity({}, tags({{1, 1}}), 0).empty());
    }
};

QTEST_APPLESS_MAIN(TstCuptiLaunches)
#include "tst_cupti_launches.moc"
