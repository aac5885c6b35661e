// SPDX-License-Identifier: MIT
// The generator and the random ops: reproducible streams per seed, distribution moments over
// many samples (tolerances several standard errors wide), ranges, dtypes, strided fills and
// PyTorch's error messages.
#include "compute_testing.h"
#include "tensor/ops.h"
#include "tensor/random.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>

using namespace kiln::tensor;
using namespace kiln::testing;

namespace {

struct Moments {
    double mean = 0;
    double stddev = 0;
};

Moments momentsOf(const Tensor& t) {
    std::vector<double> v = values(t);
    Moments m;
    for (double x : v)
        m.mean += x;
    m.mean /= double(v.size());
    for (double x : v)
        m.stddev += (x - m.mean) * (x - m.mean);
    m.stddev = std::sqrt(m.stddev / double(v.size() - 1));
    return m;
}

} // namespace

class RandomTest : public QObject {
    Q_OBJECT

private slots:
    void seedsGiveReproducibleStreams() {
        Generator a(42), b(42), c(43);
        std::vector<double> fromA, fromB, fromC;
        for (int i = 0; i < 5; ++i) {
            fromA.push_back(a.normal());
            fromB.push_back(b.normal());
            fromC.push_back(c.normal());
        }
        QVERIFY(fromA == fromB);
        QVERIFY(fromA != fromC);
        a.manualSeed(42); // also drops the spare Box-Muller value
        QCOMPARE(a.normal(), fromA[0]);
        QCOMPARE(a.initialSeed(), uint64_t(42));
        a.manualSeed(7);
        Tensor first = randn(DimVector{8}, TensorOptions{}, a);
        a.manualSeed(7);
        QVERIFY(values(randn(DimVector{8}, TensorOptions{}, a)) == values(first));
        QVERIFY(&defaultGenerator() == &defaultGenerator());
    }

    void normalHasUnitMoments() {
        Generator gen(1);
        Moments m = momentsOf(randn(DimVector{200000}, TensorOptions{DType::Float64}, gen));
        QVERIFY2(std::abs(m.mean) < 0.01, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::abs(m.stddev - 1) < 0.01, qPrintable(QString::number(m.stddev)));
        Tensor shifted = Tensor::empty(DimVector{100000}, DType::Float32);
        normalInPlace(shifted, 3.0, 0.5, gen);
        m = momentsOf(shifted);
        QVERIFY2(std::abs(m.mean - 3) < 0.01, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::abs(m.stddev - 0.5) < 0.005, qPrintable(QString::number(m.stddev)));
        Tensor halves = randn(DimVector{4}, TensorOptions{DType::Float16, {}, true}, gen);
        QCOMPARE(halves.dtype(), DType::Float16);
        QVERIFY(halves.requiresGrad());
    }

    void uniformStaysInRange() {
        Generator gen(2);
        Tensor u = rand(DimVector{200000}, TensorOptions{}, gen);
        Moments m = momentsOf(u);
        QVERIFY2(std::abs(m.mean - 0.5) < 0.005, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::abs(m.stddev - std::sqrt(1.0 / 12)) < 0.005,
                 qPrintable(QString::number(m.stddev)));
        for (DType dtype : {DType::Float16, DType::BFloat16, DType::Float32}) {
            std::vector<double> v = values(rand(DimVector{50000}, TensorOptions{dtype}, gen));
            QVERIFY(*std::min_element(v.begin(), v.end()) >= 0);
            QVERIFY(*std::max_element(v.begin(), v.end()) < 1);
        }
        Tensor wide = Tensor::empty(DimVector{100000}, DType::Float64);
        uniformInPlace(wide, -2, 6, gen);
        std::vector<double> v = values(wide);
        QVERIFY(*std::min_element(v.begin(), v.end()) >= -2);
        QVERIFY(*std::max_element(v.begin(), v.end()) < 6);
        QVERIFY(std::abs(momentsOf(wide).mean - 2) < 0.05);
    }

    void fillsOnlyTheElementsOfAView() {
        Generator gen(3);
        Tensor buffer = zeros(DimVector{4, 3}, TensorOptions{});
        Tensor column = strided(buffer, 1, DimVector{4}, DimVector{3}); // buffer[:, 1]
        uniformInPlace(column, 5, 6, gen);
        std::vector<double> v = values(buffer);
        for (int i = 0; i < 12; ++i) {
            if (i % 3 == 1)
                QVERIFY(v[i] >= 5 && v[i] < 6);
            else
                QCOMPARE(v[i], 0.0);
        }
        // The same seed gives the same values whatever the strides.
        Generator again(3);
        Tensor contiguousColumn = Tensor::empty(DimVector{4}, DType::Float32);
        uniformInPlace(contiguousColumn, 5, 6, again);
        QVERIFY(values(contiguousColumn) == values(column));
    }

    void randintCoversTheRange() {
        Generator gen(4);
        Tensor r = randint(-2, 3, DimVector{10000}, TensorOptions{DType::Int64}, gen);
        QCOMPARE(r.dtype(), DType::Int64);
        std::vector<double> v = values(r);
        std::set<double> seen(v.begin(), v.end());
        QCOMPARE(seen, (std::set<double>{-2, -1, 0, 1, 2}));
        QVERIFY(std::abs(momentsOf(r).mean) < 0.05);
        Tensor floats = randint(0, 5, DimVector{100}, TensorOptions{DType::Float32}, gen);
        for (double x : values(floats))
            QCOMPARE(x, std::floor(x));
        Tensor bools = randint(0, 2, DimVector{1000}, TensorOptions{DType::Bool}, gen);
        std::vector<double> b = values(bools);
        QVERIFY(std::count(b.begin(), b.end(), 1.0) > 400);
        QVERIFY(std::count(b.begin(), b.end(), 0.0) > 400);
    }

    void randpermIsAPermutation() {
        Generator gen(5);
        std::vector<double> p = values(randperm(1000, TensorOptions{DType::Int64}, gen));
        std::vector<double> sorted = p;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(sorted[i], double(i));
        QVERIFY(p != sorted);
        QCOMPARE(randperm(0, TensorOptions{DType::Int64}, gen).numel(), int64_t(0));
        QCOMPARE(randperm(3, TensorOptions{DType::Float32}, gen).dtype(), DType::Float32);
    }

    void multinomialFollowsTheWeights() {
        Generator gen(6);
        Tensor draws = multinomial(vector({0.1, 0.2, 0.7}), 100000, true, gen);
        QCOMPARE(draws.dtype(), DType::Int64);
        std::vector<double> v = values(draws);
        for (int k = 0; k < 3; ++k) {
            double share = double(std::count(v.begin(), v.end(), double(k))) / double(v.size());
            QVERIFY2(std::abs(share - std::vector<double>{0.1, 0.2, 0.7}[k]) < 0.01,
                     qPrintable(QString::number(share)));
        }
        std::vector<double> unique = values(multinomial(vector({1, 2, 3, 4, 5}), 5, false, gen));
        std::sort(unique.begin(), unique.end());
        QVERIFY(unique == (std::vector<double>{0, 1, 2, 3, 4}));
        KILN_CHECK(compareTensor(multinomial(vector({1, 0}), 2, false, gen), {0, 1}, DimVector{2}));
        Tensor rows = multinomial(makeTensor({0, 1, 1, 0}, DimVector{2, 2}), 3, true, gen);
        KILN_CHECK(compareTensor(rows, {1, 1, 1, 0, 0, 0}, DimVector{2, 3}));
    }

    void errorsUsePyTorchWording_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("randint range")
            << 0 << "random_ expects 'from' to be less than 'to', but got from=5 >= to=5";
        QTest::newRow("uniform range")
            << 1 << "uniform_ expects to return a [from, to) range, but found from=1 > to=0";
        QTest::newRow("normal std") << 2 << "normal expects std >= 0.0, but found std -1";
        QTest::newRow("rand int") << 3 << "\"check_uniform_bounds\" not implemented for 'Long'";
        QTest::newRow("randn int") << 4 << "\"normal_kernel_cpu\" not implemented for 'Int'";
        QTest::newRow("randperm negative")
            << 5 << "Trying to create tensor with negative dimension -1: [-1]";
        QTest::newRow("multinomial zero") << 6
                                          << "invalid multinomial distribution (sum of "
                                             "probabilities <= 0)";
        QTest::newRow("multinomial negative")
            << 7 << "probability tensor contains either `inf`, `nan` or element < 0";
        QTest::newRow("multinomial nan")
            << 8 << "probability tensor contains either `inf`, `nan` or element < 0";
        QTest::newRow("multinomial too many")
            << 9 << "cannot sample n_sample > prob_dist.size(-1) samples without replacement";
        QTest::newRow("multinomial rank") << 10 << "prob_dist must be 1 or 2 dim";
        QTest::newRow("multinomial dtype")
            << 11 << "multinomial only supports floating-point dtypes for input, got: Long";
        QTest::newRow("multinomial count") << 12 << "cannot sample n_sample <= 0 samples";
    }

    void errorsUsePyTorchWording() {
        QFETCH(int, which);
        QFETCH(QString, message);
        Generator gen;
        QString got = errorOf([&] {
            switch (which) {
            case 0:
                randint(5, 5, DimVector{2}, TensorOptions{DType::Int64}, gen);
                break;
            case 1:
                uniformInPlace(vector({0, 0}), 1, 0, gen);
                break;
            case 2:
                normalInPlace(vector({0, 0}), 0, -1, gen);
                break;
            case 3:
                rand(DimVector{2}, TensorOptions{DType::Int64}, gen);
                break;
            case 4:
                randn(DimVector{2}, TensorOptions{DType::Int32}, gen);
                break;
            case 5:
                randperm(-1, TensorOptions{DType::Int64}, gen);
                break;
            case 6:
                multinomial(vector({0, 0}), 1, false, gen);
                break;
            case 7:
                multinomial(vector({1, -1}), 1, false, gen);
                break;
            case 8:
                multinomial(vector({1, kNan}), 1, false, gen);
                break;
            case 9:
                multinomial(vector({1, 1}), 3, false, gen);
                break;
            case 10:
                multinomial(makeTensor({1}, DimVector{1, 1, 1}), 1, false, gen);
                break;
            case 11:
                multinomial(vector({1, 2}, DType::Int64), 1, false, gen);
                break;
            default:
                multinomial(vector({1, 1}), 0, true, gen);
                break;
            }
        });
        QCOMPARE(got, message);
    }
};

QTEST_APPLESS_MAIN(RandomTest)
#include "tst_random.moc"
