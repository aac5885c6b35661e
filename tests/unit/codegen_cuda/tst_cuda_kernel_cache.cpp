// SPDX-License-Identifier: MIT
// The CUDA kernel cache and the entry format it shares with the CPU cache: a miss compiles,
// a repeat is a memory hit, a fresh process (a new cache object) finds the disk entry, a
// corrupt or foreign entry is deleted and compiled again, writes leave no temporary files.
#include "codegen/cuda/kernel_cache.h"
#include "support/cache_file.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace kiln;
using namespace kiln::codegen::cuda;

namespace {

const char* kSource = "extern \"C\" __global__ void twice(float* p, long long n) {\n"
                      "    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
                      "    if (i < n) p[i] *= 2.0f;\n"
                      "}\n";

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

int filesIn(const QString& dir) {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.toStdString())) {
        (void)e;
        ++n;
    }
    return n;
}

} // namespace

class TstCudaKernelCache : public QObject {
    Q_OBJECT
private slots:
    void entryFormatRoundTrips() {
        QTemporaryDir dir;
        std::string path = dir.filePath("e.bin").toStdString();
        QVERIFY(writeCacheEntry(path, "magic 1\n", "key", std::string("pay\0load", 8)));
        auto back = readCacheEntry(path, "magic 1\n", "key");
        QVERIFY(back.has_value());
        QCOMPARE(*back, std::string("pay\0load", 8));
        QCOMPARE(filesIn(dir.path()), 1); // the temporary file was renamed
        // Another key, another format: not ours, deleted.
        QVERIFY(!readCacheEntry(path, "magic 1\n", "other key").has_value());
        QVERIFY(!std::filesystem::exists(path));
        QVERIFY(writeCacheEntry(path, "magic 1\n", "key", "payload"));
        QVERIFY(!readCacheEntry(path, "magic 2\n", "key").has_value());
        QVERIFY(!std::filesystem::exists(path));
    }

    void damagedEntriesAreRejected_data() {
        QTest::addColumn<int>("where"); // 0: header, 1: checksum, 2: payload, 3: truncated
        QTest::newRow("header") << 0;
        QTest::newRow("checksum") << 1;
        QTest::newRow("payload") << 2;
        QTest::newRow("truncated") << 3;
    }
    void damagedEntriesAreRejected() {
        QFETCH(int, where);
        QTemporaryDir dir;
        std::string path = dir.filePath("e.bin").toStdString();
        QVERIFY(writeCacheEntry(path, "magic 1\n", "key", std::string(100, 'x')));
        std::string bytes = readAll(path);
        size_t headerEnd = bytes.find('\n', 8) + 1;
        if (where == 0) bytes[10] ^= 1;
        if (where == 1) bytes[headerEnd + 3] ^= 1;
        if (where == 2) bytes[bytes.size() - 5] ^= 1;
        if (where == 3) bytes.resize(bytes.size() - 10);
        writeAll(path, bytes);
        QVERIFY(!readCacheEntry(path, "magic 1\n", "key").has_value());
        QVERIFY(!std::filesystem::exists(path));
    }

    void hitMissAndRecompile() {
        if (!nvrtcVersion()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
        QTemporaryDir dir;
        NvrtcOptions options;
        std::string path;
        {
            KernelCache cache(dir.path().toStdString());
            auto first = cache.getOrCompile(kSource, "twice", options);
            QVERIFY(first.ok());
            QVERIFY(!first->fromMemoryCache && !first->fromDiskCache);
            QVERIFY(first->compileMs > 0);
            auto second = cache.getOrCompile(kSource, "twice", options);
            QVERIFY(second.ok());
            QVERIFY(second->fromMemoryCache);
            QCOMPARE(second->image, first->image);
            QCOMPARE(cache.stats().compiles, 1);
            QCOMPARE(cache.stats().memoryHits, 1);
            path = cache.entryPath(cache.keyFor(kSource, options), false);
            QVERIFY(std::filesystem::exists(path));
            QVERIFY(path.size() > 6 && path.substr(path.size() - 6) == ".cubin");
            QCOMPARE(filesIn(dir.path()), 1);
        }
        {
            KernelCache cache(dir.path().toStdString()); // another process, in effect
            auto hit = cache.getOrCompile(kSource, "twice", options);
            QVERIFY(hit.ok());
            QVERIFY(hit->fromDiskCache);
            QCOMPARE(cache.stats().compiles, 0);
        }
        // Other options or another target are other entries.
        {
            KernelCache cache(dir.path().toStdString());
            NvrtcOptions other;
            other.computeCapability = 80;
            QVERIFY(cache.keyFor(kSource, other) != cache.keyFor(kSource, options));
            NvrtcOptions fast = options;
            fast.fastCompile = fast.fastCompile == "max" ? "min" : "max";
            QVERIFY(cache.keyFor(kSource, fast) != cache.keyFor(kSource, options));
            std::vector<std::string> flags = fast.flags();
            QVERIFY(std::find(flags.begin(), flags.end(), "--Ofast-compile=" + fast.fastCompile) !=
                    flags.end());
            // NVRTC accepts the level: a real compile, not only another key.
            auto compiled = cache.getOrCompile(kSource, "fast", fast);
            QVERIFY2(compiled.ok(), compiled.ok() ? "" : compiled.error().message.c_str());
            QVERIFY(!compiled->image.empty());
        }
        // A flipped bit in the cubin: deleted, compiled again, rewritten whole.
        std::string bytes = readAll(path);
        bytes[bytes.size() / 2] ^= 0x10;
        writeAll(path, bytes);
        {
            KernelCache cache(dir.path().toStdString());
            auto again = cache.getOrCompile(kSource, "twice", options);
            QVERIFY(again.ok());
            QVERIFY(!again->fromDiskCache);
            QCOMPARE(cache.stats().corruptEntries, 1);
            QCOMPARE(cache.stats().compiles, 1);
            QVERIFY(readAll(path) != bytes);
        }
        {
            KernelCache cache(dir.path().toStdString());
            QVERIFY(cache.getOrCompile(kSource, "twice", options)->fromDiskCache);
        }
    }

    void memoryOnlyCacheWritesNothing() {
        if (!nvrtcVersion()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
        KernelCache cache("");
        QVERIFY(cache.entryPath("k", false).empty());
        QVERIFY(cache.getOrCompile(kSource, "twice", NvrtcOptions{}).ok());
        QVERIFY(cache.getOrCompile(kSource, "twice", NvrtcOptions{})->fromMemoryCache);
    }
};

QTEST_MAIN(TstCudaKernelCache)
#include "tst_cuda_kernel_cache.moc"
