// SPDX-License-Identifier: MIT
// The call timer `kiln bench` and measured runs share (api/call_timer.h): how many calls it
// makes and times, what the observer sees, the spread it reports, and when the budget stops
// it. Time is never asserted on; the budget's case uses calls that take known sleeps only to
// know the budget is spent, and asserts counts.
#include "api/call_timer.h"

#include <QtTest>
#include <thread>

using namespace kiln;

class TstCallTimer : public QObject {
    Q_OBJECT

private slots:
    void warmupCallsAreMadeButNotTimed() {
        int calls = 0;
        std::vector<int> observed;
        api::CallTimings t = api::timeCalls(
            [&] { ++calls; }, {7, 3, 0}, [&](int i, int64_t, int64_t) { observed.push_back(i); });
        QCOMPARE(calls, 10);
        QCOMPARE(t.warmupCalls, 3);
        QCOMPARE(t.ns.size(), size_t(7));
        QCOMPARE(observed, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        QVERIFY(!t.cutByBudget);
    }

    void quantilesAreNearestRankOfTheTimedCalls() {
        api::CallTimings t;
        t.ns = {50, 10, 40, 20, 30, 90, 60, 70, 80, 100};
        QCOMPARE(t.minNs(), int64_t(10));
        QCOMPARE(t.medianNs(), int64_t(60)); // sorted rank 0.5 * 9 rounded: the sixth
        QCOMPARE(t.p90Ns(), int64_t(90));
        t.warmupCalls = 2;
        t.ns = {1500000, 1000000, 2000000};
        QCOMPARE(t.summary(),
                 std::string("3 calls after 2 warm-up: median 1.500 ms (min 1.000, p90 2.000)"));
        QCOMPARE(api::CallTimings{}.medianNs(), int64_t(0));
    }

    void theBudgetStopsTimingAfterTheMinimumCalls() {
        // Each call sleeps 2 ms against a budget of 1 ms: the budget is spent after the
        // first call, yet kMinTimedCalls are made.
        int calls = 0;
        auto slow = [&] {
            ++calls;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        };
        api::CallTimings t = api::timeCalls(slow, {50, 0, 0.001});
        QCOMPARE(static_cast<int>(t.ns.size()), api::kMinTimedCalls);
        QCOMPARE(calls, api::kMinTimedCalls);
        QVERIFY(t.cutByBudget);
        QVERIFY(t.summary().find("stopped by the time budget") != std::string::npos);
    }

    void aThrowingCallStopsTheTimer() {
        int calls = 0;
        auto failing = [&] {
            if (++calls == 4) throw std::runtime_error("stop");
        };
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, api::timeCalls(failing, {10, 1, 0}));
        QCOMPARE(calls, 4);
    }
};

QTEST_APPLESS_MAIN(TstCallTimer)
#include "tst_call_timer.moc"
