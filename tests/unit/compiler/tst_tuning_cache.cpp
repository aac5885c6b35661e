// SPDX-License-Identifier: MIT
// max-autotune's tuning cache and the benchmarking shortcuts: a kernel tuned once is not
// measured again (its candidates come back marked as cached), a damaged or foreign entry is
// measured again, the cache can be turned off; a candidate far slower than the best stops
// after one run; identical code is recognised.
#include "compiler_fixture.h"
#include "inductor/autotune.h"
#include "inductor/tuning_cache.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <chrono>
#include <thread>

using namespace kiln;

namespace {

/// Compiles one kernel with pointwise tuning; the numerics are checked against eager.
const char* kPointwise = "import torch\n"
                         "f = torch.compile(lambda x: (x * 3).sin() + x.cos(), "
                         "options={'max_autotune_pointwise': True})\n"
                         "x = torch.randn(512, 128)\n"
                         "assert torch.allclose(f(x), (x * 3).sin() + x.cos(), atol=1e-5)\n";

/// A product whose only candidates are templates, so one always replaces it.
const char* kProduct = "import torch\n"
                       "f = torch.compile(lambda a, b: torch.relu(a @ b), "
                       "options={'max_autotune': True, 'max_autotune_gemm_backends': 'TRITON'})\n"
                       "a, b = torch.randn(64, 32), torch.randn(32, 64)\n"
                       "assert torch.allclose(f(a, b), torch.relu(a @ b), atol=1e-4)\n";

size_t progressCount(const testing::CompilerRecorder& r) {
    return std::count_if(r.otherTimeline.begin(), r.otherTimeline.end(),
                         [](const TimelineEvent& e) { return e.category == "autotune"; });
}

bool allFromCache(const std::vector<AutotuneChoiceEvent>& choices, bool expected) {
    return !choices.empty() && std::all_of(choices.begin(), choices.end(),
                                           [&](const auto& c) { return c.fromCache == expected; });
}

} // namespace

class TuningCacheTest : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void init() {
        QDir(m_dir.path()).removeRecursively();
        QDir().mkpath(m_dir.path());
        qputenv("KILN_AUTOTUNE_CACHE_DIR", m_dir.path().toUtf8());
        qunsetenv("KILN_AUTOTUNE_CACHE");
    }

    void cleanupTestCase() {
        qunsetenv("KILN_AUTOTUNE_CACHE_DIR");
        qputenv("KILN_AUTOTUNE_CACHE", "0");
    }

    void aKernelTunedOnceIsNotMeasuredAgain() {
        testing::CompilerFixture first;
        QCOMPARE(first.run(kPointwise), std::string());
        QVERIFY(first.sink.choices.size() >= 7);
        QVERIFY(allFromCache(first.sink.choices, false));
        QCOMPARE(progressCount(first.sink), first.sink.choices.size());
        QCOMPARE(QDir(m_dir.path()).entryList({"*.tune"}).size(), 1);

        testing::CompilerFixture second; // a new process as far as the compiler is concerned
        QCOMPARE(second.run(kPointwise), std::string());
        QCOMPARE(second.sink.choices.size(), first.sink.choices.size());
        QVERIFY(allFromCache(second.sink.choices, true));
        QCOMPARE(progressCount(second.sink), size_t(0)); // nothing was benchmarked
        for (size_t i = 0; i < first.sink.choices.size(); ++i) {
            const AutotuneChoiceEvent &a = first.sink.choices[i], &b = second.sink.choices[i];
            QCOMPARE(b.candidate, a.candidate);
            QCOMPARE(b.timeNs, a.timeNs);
            QCOMPARE(b.runs, a.runs);
            QCOMPARE(b.chosen, a.chosen);
        }
    }

    void aProductTunedOnceIsNotMeasuredAgain() {
        testing::CompilerFixture first;
        QCOMPARE(first.run(kProduct), std::string());
        auto names = first.kernelNames();
        QVERIFY(std::any_of(names.begin(), names.end(),
                            [](const std::string& n) { return n.rfind("kiln_tem_", 0) == 0; }));
        QVERIFY(allFromCache(first.sink.choices, false));

        testing::CompilerFixture second;
        QCOMPARE(second.run(kProduct), std::string());
        QCOMPARE(second.kernelNames(), names); // the same template, rebuilt from the entry
        QCOMPARE(second.sink.choices.size(), first.sink.choices.size());
        QVERIFY(allFromCache(second.sink.choices, true));
        QCOMPARE(progressCount(second.sink), size_t(0));
    }

    void aDamagedEntryIsMeasuredAgain() {
        {
            testing::CompilerFixture first;
            QCOMPARE(first.run(kPointwise), std::string());
        }
        QStringList entries = QDir(m_dir.path()).entryList({"*.tune"});
        QCOMPARE(entries.size(), 1);
        QFile file(QDir(m_dir.path()).filePath(entries.front()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text.left(text.size() / 2) + "\ngarbage\n");
        file.close();

        testing::CompilerFixture again;
        QCOMPARE(again.run(kPointwise), std::string());
        QVERIFY(allFromCache(again.sink.choices, false));
        QVERIFY(progressCount(again.sink) > 0);
        testing::CompilerFixture third; // the re-measured entry was written back whole
        QCOMPARE(third.run(kPointwise), std::string());
        QVERIFY(allFromCache(third.sink.choices, true));
    }

    void anEntryForAnotherKeyReadsAsMissing() {
        inductor::storeTuning("key A", {{"candidate", "vw=8,il=1", 10, 9, 11, 3, false, true}});
        QVERIFY(inductor::loadTuning("key A"));
        QVERIFY(!inductor::loadTuning("key B"));
        auto back = inductor::loadTuning("key A");
        QCOMPARE(back->size(), size_t(1));
        QCOMPARE(back->front().choice, std::string("vw=8,il=1"));
        QCOMPARE(back->front().minNs, int64_t(9));
        QVERIFY(back->front().chosen);
    }

    void theCacheCanBeTurnedOff() {
        qputenv("KILN_AUTOTUNE_CACHE", "0");
        for (int run = 0; run < 2; ++run) {
            testing::CompilerFixture f;
            QCOMPARE(f.run(kPointwise), std::string());
            QVERIFY(allFromCache(f.sink.choices, false));
            QVERIFY(progressCount(f.sink) > 0);
        }
        QVERIFY(QDir(m_dir.path()).entryList({"*.tune"}).isEmpty());
    }

    void useAutotuneLocalCacheFalseMeasuresEveryTime() {
        const char* script = "import torch\n"
                             "torch._inductor.config.use_autotune_local_cache = False\n"
                             "f = torch.compile(lambda x: x.exp() * 2, "
                             "options={'max_autotune_pointwise': True})\n"
                             "y = f(torch.randn(256, 64))\n";
        for (int run = 0; run < 2; ++run) {
            testing::CompilerFixture f;
            QCOMPARE(f.run(script), std::string());
            QVERIFY(allFromCache(f.sink.choices, false));
        }
        QVERIFY(QDir(m_dir.path()).entryList({"*.tune"}).isEmpty());
    }

    void aCandidateFarSlowerThanTheBestStopsAfterOneRun() {
        auto slow = [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); };
        inductor::Timing t = inductor::timeRuns(slow, /*bestNs=*/1000);
        QVERIFY(t.stoppedEarly);
        QCOMPARE(t.runs, 1);
        QVERIFY(t.medianNs >= 2'000'000);
        // Without a best to beat, every run counts and the spread brackets the median.
        inductor::Timing full = inductor::timeRuns([] {});
        QVERIFY(!full.stoppedEarly);
        QVERIFY(full.runs >= 3 && full.runs <= 7);
        QVERIFY(full.minNs <= full.medianNs && full.medianNs <= full.maxNs);
    }

    void identicalCodeIsRecognisedByItsBody() {
        codegen::CompiledKernel a, b, c;
        a.llvmIR = "define void @kiln_k_0123abcd(ptr %0) {\n  ret void\n}\n";
        b.llvmIR = "define void @kiln_k_fedc9876_3(ptr %0) {\n  ret void\n}\n";
        c.llvmIR = "define void @kiln_k_0123abcd(ptr %0) {\n  store i32 0, ptr %0\n  ret void\n}\n";
        QVERIFY(inductor::sameCode(a, b));
        QVERIFY(!inductor::sameCode(a, c));
        QVERIFY(!inductor::sameCode(codegen::CompiledKernel{}, codegen::CompiledKernel{}));
    }
};

QTEST_GUILESS_MAIN(TuningCacheTest)
#include "tst_tuning_cache.moc"
