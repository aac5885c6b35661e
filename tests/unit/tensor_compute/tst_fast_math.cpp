// SPDX-License-Identifier: MIT
// The vectorisable float exp used by exp, sigmoid, SiLU and softmax: correctly rounded over the
// whole float range (checked against double-precision exp rounded to float on a sweep of bit
// patterns), with exact special values.
#include "tensor/fast_math.h"

#include <QtTest>
#include <bit>
#include <cmath>
#include <limits>

using kiln::tensor::detail::expFloat;

class FastMathTest : public QObject {
    Q_OBJECT

private slots:
    void expIsCorrectlyRounded() {
        // Printed values depend on it: exp(4) must print 54.5981 as PyTorch prints it.
        QCOMPARE(expFloat(4.0f), float(std::exp(4.0)));
        int64_t mismatches = 0, checked = 0;
        float firstMismatch = 0;
        for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 1009) {
            const float x = std::bit_cast<float>(uint32_t(bits));
            if (std::isnan(x)) continue;
            ++checked;
            if (expFloat(x) != float(std::exp(double(x))) && mismatches++ == 0) firstMismatch = x;
        }
        QVERIFY2(mismatches == 0,
                 qPrintable(QString("%1 of %2 inputs not correctly rounded, first %3")
                                .arg(mismatches)
                                .arg(checked)
                                .arg(double(firstMismatch), 0, 'g', 9)));
    }

    void expIsWithinOneUlpEverywhere() {
        double worstUlp = 0;
        float worstInput = 0;
        // Every 1009th bit pattern: positive and negative, normal and subnormal inputs.
        for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 1009) {
            const float x = std::bit_cast<float>(uint32_t(bits));
            if (std::isnan(x)) continue;
            const double exact = std::exp(double(x));
            const float rounded = float(exact);
            const float got = expFloat(x);
            if (rounded == 0 || std::isinf(rounded)) {
                QCOMPARE(got, rounded);
                continue;
            }
            const float next = std::nextafter(rounded, std::numeric_limits<float>::infinity());
            const double ulp = std::abs(double(got) - exact) / (double(next) - double(rounded));
            if (ulp > worstUlp) {
                worstUlp = ulp;
                worstInput = x;
            }
        }
        QVERIFY2(worstUlp <= 1.0,
                 qPrintable(QString("%1 ulp at %2").arg(worstUlp).arg(worstInput)));
    }

    void expHandlesSpecialValues() {
        const float inf = std::numeric_limits<float>::infinity();
        QCOMPARE(expFloat(0.0f), 1.0f);
        QCOMPARE(expFloat(-0.0f), 1.0f);
        QCOMPARE(expFloat(1.0f), 2.71828183f);
        QCOMPARE(expFloat(inf), inf);
        QCOMPARE(expFloat(-inf), 0.0f);
        QCOMPARE(expFloat(89.0f), inf);
        QCOMPARE(expFloat(88.7f), float(std::exp(88.7)));
        QVERIFY(std::isnan(expFloat(std::numeric_limits<float>::quiet_NaN())));
        // Subnormal results: exp(-100) = 3.72e-44 is 27 * 2^-149 after rounding.
        QCOMPARE(expFloat(-100.0f), float(std::exp(-100.0)));
        QCOMPARE(expFloat(-104.0f), 0.0f);
    }
};

QTEST_APPLESS_MAIN(FastMathTest)
#include "tst_fast_math.moc"
