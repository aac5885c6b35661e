// SPDX-License-Identifier: MIT
// The coroutine generators run on (lang/coroutine.h): suspend and resume in order, a body that
// suspends inside a catch keeps its exception while the resumer throws and catches others, and
// many coroutines come and go (their stacks are reused).
#include "lang/coroutine.h"

#include <QtTest>
#include <stdexcept>
#include <string>
#include <vector>

using kiln::lang::Coroutine;

class TstCoroutine : public QObject {
    Q_OBJECT

private slots:
    void suspendsAndResumesInOrder() {
        std::vector<int> seen;
        Coroutine* self = nullptr;
        Coroutine co([&] {
            for (int i = 0; i < 3; ++i) {
                seen.push_back(i);
                self->suspend();
            }
            seen.push_back(99);
        });
        self = &co;
        QVERIFY(!co.started());
        co.resume();
        QCOMPARE(seen, (std::vector<int>{0}));
        co.resume();
        co.resume();
        QVERIFY(!co.finished());
        co.resume();
        QVERIFY(co.finished());
        QCOMPARE(seen, (std::vector<int>{0, 1, 2, 99}));
    }

    void eachSideKeepsTheExceptionItIsHandling() {
        std::string rethrown;
        Coroutine* self = nullptr;
        Coroutine co([&] {
            try {
                throw std::runtime_error("body's");
            } catch (...) {
                self->suspend(); // inside the handler, while the resumer handles its own
                try {
                    throw; // must be the body's exception, not the resumer's
                } catch (const std::exception& e) {
                    rethrown = e.what();
                }
            }
        });
        self = &co;
        co.resume();
        try {
            throw std::logic_error("resumer's");
        } catch (...) {
            co.resume();
            try {
                throw;
            } catch (const std::exception& e) {
                QCOMPARE(std::string(e.what()), std::string("resumer's"));
            }
        }
        QVERIFY(co.finished());
        QCOMPARE(rethrown, std::string("body's"));
        QCOMPARE(std::uncaught_exceptions(), 0);
    }

    void manyComeAndGo() {
        int finished = 0;
        for (int i = 0; i < 200; ++i) {
            Coroutine* self = nullptr;
            Coroutine co([&] {
                self->suspend();
                ++finished;
            });
            self = &co;
            co.resume();
            co.resume();
        }
        QCOMPARE(finished, 200);
    }
};

QTEST_APPLESS_MAIN(TstCoroutine)
#include "tst_coroutine.moc"
