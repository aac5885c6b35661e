// SPDX-License-Identifier: MIT
// runInTimeLimitedChild: the result of work that returns, and the caller unharmed by work that
// never returns or crashes (the contract renderDot's Graphviz layout relies on).
#include "support/time_limited_child.h"

#include <QtTest>
#include <csignal>
#include <string>
#include <unistd.h>

using kiln::ChildOutput;
using kiln::ChildResult;
using kiln::runInTimeLimitedChild;

class TstTimeLimitedChild : public QObject {
    Q_OBJECT

private slots:
    void returnsTheCodeAndBytesOfTheWork() {
        // Larger than a pipe's buffer: the parent reads while the child writes.
        std::string big(3 << 20, 'x');
        big[12345] = 'y';
        ChildResult r = runInTimeLimitedChild(
            [&] {
                return ChildOutput{3, big};
            },
            std::chrono::seconds(60));
        QCOMPARE(int(r.end), int(ChildResult::End::Finished));
        QCOMPARE(r.code, 3);
        QVERIFY(r.bytes == big);
    }

    void whatTheChildChangesStaysInTheChild() {
        int counter = 1;
        ChildResult r = runInTimeLimitedChild(
            [&] {
                counter = 99;
                return ChildOutput{0, std::to_string(counter)};
            },
            std::chrono::seconds(60));
        QCOMPARE(int(r.end), int(ChildResult::End::Finished));
        QCOMPARE(r.bytes, std::string("99"));
        QCOMPARE(counter, 1);
    }

    void workThatNeverEndsIsStoppedAtTheLimit() {
        ChildResult r = runInTimeLimitedChild(
            [] {
                for (;;)
                    ::pause();
                return ChildOutput{};
            },
            std::chrono::milliseconds(200));
        QCOMPARE(int(r.end), int(ChildResult::End::TimedOut));
        QVERIFY(r.bytes.empty());
    }

    void aCrashEndsOnlyTheChild() {
        ChildResult r = runInTimeLimitedChild(
            [] {
                std::raise(SIGSEGV);
                return ChildOutput{0, "unreachable"};
            },
            std::chrono::seconds(60));
        QCOMPARE(int(r.end), int(ChildResult::End::Crashed));
        QCOMPARE(r.signal, SIGSEGV);
        // An exit without the result (a library calling exit()) is not mistaken for one.
        ChildResult quit = runInTimeLimitedChild(
            [] {
                ::_exit(0);
                return ChildOutput{0, "unreachable"};
            },
            std::chrono::seconds(60));
        QCOMPARE(int(quit.end), int(ChildResult::End::Crashed));
        QCOMPARE(quit.signal, 0);
    }
};

QTEST_GUILESS_MAIN(TstTimeLimitedChild)
#include "tst_time_limited_child.moc"
