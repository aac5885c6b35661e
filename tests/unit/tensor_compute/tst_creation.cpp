// SPDX-License-Identifier: MIT
// Factories against PyTorch: zeros/ones/full, arange (dtype inference, size arithmetic, values
// and errors), linspace, eye, tril/triu and torch.tensor(data).
#include "compute_testing.h"
#include "tensor/ops.h"

#include <QtTest>

using namespace kiln::tensor;
using namespace kiln::testing;

Q_DECLARE_METATYPE(kiln::tensor::Scalar)
Q_DECLARE_METATYPE(std::optional<kiln::tensor::DType>)

class CreationTest : public QObject {
    Q_OBJECT

private slots:
    void filledFactories() {
        Tensor z = zeros(DimVector{2, 3}, TensorOptions{DType::Int32});
        QCOMPARE(z.dtype(), DType::Int32);
        KILN_CHECK(compareTensor(z, {0, 0, 0, 0, 0, 0}, DimVector{2, 3}));
        KILN_CHECK(compareTensor(ones(DimVector{2}, TensorOptions{DType::BFloat16}), {1, 1},
                                 DimVector{2}));
        KILN_CHECK(
            compareTensor(full(DimVector{2}, Scalar(int64_t(-1)), TensorOptions{DType::Bool}),
                          {1, 1}, DimVector{2}));
        KILN_CHECK(compareTensor(full(DimVector{}, Scalar(2.5), TensorOptions{DType::Float64}),
                                 {2.5}, DimVector{}));
        Tensor grad = zeros(DimVector{2}, TensorOptions{DType::Float32, {}, true});
        QVERIFY(grad.requiresGrad());
        QVERIFY(grad.gradFn().empty());
    }

    void factoryErrorsMatchPyTorch() {
        QCOMPARE(errorOf([] {
                     zeros(DimVector{2, -1}, TensorOptions{});
                 }),
                 QString("zeros: Dimension size must be non-negative."));
        QCOMPARE(errorOf([] { ones(DimVector{-1}, TensorOptions{}); }),
                 QString("Trying to create tensor with negative dimension -1: [-1]"));
        QCOMPARE(errorOf([] {
                     full(DimVector{2, -1}, Scalar(1.0), TensorOptions{});
                 }),
                 QString("Trying to create tensor with negative dimension -1: [2, -1]"));
        QCOMPARE(errorOf([] {
                     zeros(DimVector{2}, TensorOptions{DType::Int64, {}, true});
                 }),
                 QString("Only Tensors of floating point and complex dtype can require gradients"));
    }

    void arangeMatchesPyTorch_data() {
        QTest::addColumn<Scalar>("start");
        QTest::addColumn<Scalar>("end");
        QTest::addColumn<Scalar>("step");
        QTest::addColumn<std::optional<DType>>("dtype");
        QTest::addColumn<DType>("resultDType");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addColumn<QString>("error");
        // Generated with torch.arange(start, end, step, dtype=dtype) in PyTorch 2.15.
        QTest::newRow("0,5,1,None") << Scalar(int64_t(0)) << Scalar(int64_t(5))
                                    << Scalar(int64_t(1)) << std::optional<DType>() << DType::Int64
                                    << std::vector<double>{0, 1, 2, 3, 4} << QString();
        QTest::newRow("1,2.5,0.5,None")
            << Scalar(int64_t(1)) << Scalar(2.5) << Scalar(0.5) << std::optional<DType>()
            << DType::Float32 << std::vector<double>{1, 1.5, 2} << QString();
        QTest::newRow("0,1,0.1,None")
            << Scalar(int64_t(0)) << Scalar(int64_t(1)) << Scalar(0.1) << std::optional<DType>()
            << DType::Float32 << std::vector<double>{0,
                                                     0.10000000149011612,
                                                     0.20000000298023224,
                                                     0.30000001192092896,
                                                     0.4000000059604645,
                                                     0.5,
                                                     0.6000000238418579,
                                                     0.699999988079071,
                                                     0.800000011920929,
                                                     0.8999999761581421}
            << QString();
        QTest::newRow("0.1,0.7,0.2,None")
            << Scalar(0.1) << Scalar(0.7) << Scalar(0.2) << std::optional<DType>() << DType::Float32
            << std::vector<double>{0.10000000149011612, 0.30000001192092896, 0.5} << QString();
        QTest::newRow("-3,4,3,None")
            << Scalar(int64_t(-3)) << Scalar(int64_t(4)) << Scalar(int64_t(3))
            << std::optional<DType>() << DType::Int64 << std::vector<double>{-3, 0, 3} << QString();
        QTest::newRow("10,0,-3,None")
            << Scalar(int64_t(10)) << Scalar(int64_t(0)) << Scalar(int64_t(-3))
            << std::optional<DType>() << DType::Int64 << std::vector<double>{10, 7, 4, 1}
            << QString();
        QTest::newRow("0,5,2,Float32")
            << Scalar(int64_t(0)) << Scalar(int64_t(5)) << Scalar(int64_t(2))
            << std::optional<DType>(DType::Float32) << DType::Float32
            << std::vector<double>{0, 2, 4} << QString();
        QTest::newRow("0,1,0.1,Float16") << Scalar(int64_t(0)) << Scalar(int64_t(1)) << Scalar(0.1)
                                         << std::optional<DType>(DType::Float16) << DType::Float16
                                         << std::vector<double>{0,
                                                                0.0999755859375,
                                                                0.199951171875,
                                                                0.300048828125,
                                                                0.39990234375,
                                                                0.5,
                                                                0.60009765625,
                                                                0.7001953125,
                                                                0.7998046875,
                                                                0.89990234375}
                                         << QString();
        QTest::newRow("0,1,0.25,BFloat16")
            << Scalar(int64_t(0)) << Scalar(int64_t(1)) << Scalar(0.25)
            << std::optional<DType>(DType::BFloat16) << DType::BFloat16
            << std::vector<double>{0, 0.25, 0.5, 0.75} << QString();
        QTest::newRow("0.5,3,1,Int32") << Scalar(0.5) << Scalar(int64_t(3)) << Scalar(int64_t(1))
                                       << std::optional<DType>(DType::Int32) << DType::Int32
                                       << std::vector<double>{0, 1, 2} << QString();
        QTest::newRow("0,1.5,1,Int64") << Scalar(int64_t(0)) << Scalar(1.5) << Scalar(int64_t(1))
                                       << std::optional<DType>(DType::Int64) << DType::Int64
                                       << std::vector<double>{0, 1} << QString();
        QTest::newRow("0,5,1.5,Int64") << Scalar(int64_t(0)) << Scalar(int64_t(5)) << Scalar(1.5)
                                       << std::optional<DType>(DType::Int64) << DType::Int64
                                       << std::vector<double>{0, 1, 2, 3} << QString();
        QTest::newRow("-5,5,3,Int32")
            << Scalar(int64_t(-5)) << Scalar(int64_t(5)) << Scalar(int64_t(3))
            << std::optional<DType>(DType::Int32) << DType::Int32
            << std::vector<double>{-5, -2, 1, 4} << QString();
        QTest::newRow("1,1,1,None")
            << Scalar(int64_t(1)) << Scalar(int64_t(1)) << Scalar(int64_t(1))
            << std::optional<DType>() << DType::Int64 << std::vector<double>{} << QString();
        QTest::newRow("0,10,3.5,None")
            << Scalar(int64_t(0)) << Scalar(int64_t(10)) << Scalar(3.5) << std::optional<DType>()
            << DType::Float32 << std::vector<double>{0, 3.5, 7} << QString();
        QTest::newRow("4611686018427387904,4611686018427387907,1,None")
            << Scalar(int64_t(4611686018427387904)) << Scalar(int64_t(4611686018427387907))
            << Scalar(int64_t(1)) << std::optional<DType>() << DType::Int64
            << std::vector<double>{4.611686018427388e+18, 4.611686018427388e+18,
                                   4.611686018427388e+18}
            << QString();
        QTest::newRow("0,-1,1,None")
            << Scalar(int64_t(0)) << Scalar(int64_t(-1)) << Scalar(int64_t(1))
            << std::optional<DType>() << DType::Float32 << std::vector<double>{}
            << QString("upper bound and lower bound inconsistent with step sign");
        QTest::newRow("0,10,-1,None")
            << Scalar(int64_t(0)) << Scalar(int64_t(10)) << Scalar(int64_t(-1))
            << std::optional<DType>() << DType::Float32 << std::vector<double>{}
            << QString("upper bound and lower bound inconsistent with step sign");
        QTest::newRow("0,1,0,None")
            << Scalar(int64_t(0)) << Scalar(int64_t(1)) << Scalar(int64_t(0))
            << std::optional<DType>() << DType::Float32 << std::vector<double>{}
            << QString("step must be nonzero");
        QTest::newRow("0,inf,1,None")
            << Scalar(int64_t(0)) << Scalar(kInf) << Scalar(int64_t(1)) << std::optional<DType>()
            << DType::Float32 << std::vector<double>{} << QString("unsupported range: 0 -> inf");
        QTest::newRow("0,nan,1,None")
            << Scalar(int64_t(0)) << Scalar(kNan) << Scalar(int64_t(1)) << std::optional<DType>()
            << DType::Float32 << std::vector<double>{} << QString("unsupported range: 0 -> nan");
        QTest::newRow("0,5,1,Bool")
            << Scalar(int64_t(0)) << Scalar(int64_t(5)) << Scalar(int64_t(1))
            << std::optional<DType>(DType::Bool) << DType::Float32 << std::vector<double>{}
            << QString("\"arange_cpu\" not implemented for 'Bool'");
        QTest::newRow("0.5,2.5,0.5,Float64")
            << Scalar(0.5) << Scalar(2.5) << Scalar(0.5) << std::optional<DType>(DType::Float64)
            << DType::Float64 << std::vector<double>{0.5, 1, 1.5, 2} << QString();
    }

    void arangeMatchesPyTorch() {
        QFETCH(Scalar, start);
        QFETCH(Scalar, end);
        QFETCH(Scalar, step);
        QFETCH(std::optional<DType>, dtype);
        QFETCH(DType, resultDType);
        QFETCH(std::vector<double>, expected);
        QFETCH(QString, error);
        if (!error.isEmpty()) {
            QCOMPARE(errorOf([&] { arange(start, end, step, dtype); }), error);
            return;
        }
        Tensor out = arange(start, end, step, dtype);
        QCOMPARE(out.dtype(), resultDType);
        KILN_CHECK(compareTensor(out, expected, DimVector{int64_t(expected.size())}));
    }

    void arangeIsExactForLargeIntegers() {
        const int64_t base = int64_t(1) << 62;
        Tensor out = arange(Scalar(base), Scalar(base + 3), Scalar(int64_t(1)), std::nullopt);
        QCOMPARE(out.numel(), int64_t(3));
        QCOMPARE(out.data<int64_t>()[2], base + 2);
    }

    void linspaceMatchesPyTorch() {
        KILN_CHECK(compareTensor(linspace(0, 1, 7, TensorOptions{}),
                                 {0, 0.1666666716337204, 0.3333333432674408, 0.5,
                                  0.6666666269302368, 0.8333333134651184, 1},
                                 DimVector{7}, 0));
        KILN_CHECK(compareTensor(
            linspace(-1, 1, 7, TensorOptions{DType::Float16}),
            {-1, -0.66650390625, -0.333251953125, 0, 0.333251953125, 0.66650390625, 1},
            DimVector{7}, 0));
        // PyTorch's kernel uses fused multiply-adds; bit-exact results need them too.
        KILN_CHECK(compareTensor(linspace(-3.3, 7.7, 13, TensorOptions{}),
                                 {-3.299999952316284, -2.383333206176758, -1.466666579246521,
                                  -0.5499998927116394, 0.3666667938232422, 1.2833335399627686,
                                  2.1999998092651367, 3.116666316986084, 4.033332824707031,
                                  4.949999809265137, 5.866666316986084, 6.7833333015441895,
                                  7.699999809265137},
                                 DimVector{13}, 0));
        KILN_CHECK(compareTensor(
            linspace(-1, 1, 7, TensorOptions{DType::BFloat16}),
            {-1, -0.66796875, -0.333984375, -2.9802322387695312e-08, 0.333984375, 0.66796875, 1},
            DimVector{7}, 0));
        KILN_CHECK(compareTensor(linspace(0, 10, 4, TensorOptions{DType::Int64}), {0, 3, 6, 10},
                                 DimVector{4}));
        KILN_CHECK(compareTensor(linspace(-2.5, 7.5, 5, TensorOptions{DType::Int32}),
                                 {-2, 0, 2, 4, 7}, DimVector{5}));
        KILN_CHECK(compareTensor(linspace(0.1, 0.9, 9, TensorOptions{DType::Float64}),
                                 {0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9},
                                 DimVector{9}, 0));
        KILN_CHECK(compareTensor(linspace(0, 1, 1, TensorOptions{}), {0}, DimVector{1}));
        QCOMPARE(linspace(0, 1, 0, TensorOptions{}).sizes(), DimVector{0});
        QVERIFY(linspace(0, 1, 3, TensorOptions{DType::Float32, {}, true}).requiresGrad());
        QCOMPARE(errorOf([] { linspace(0, 1, -1, TensorOptions{}); }),
                 QString("number of steps must be non-negative"));
    }

    void eyeMatchesPyTorch() {
        KILN_CHECK(compareTensor(eye(2, 3, TensorOptions{}), {1, 0, 0, 0, 1, 0}, DimVector{2, 3}));
        Tensor mask = eye(2, 2, TensorOptions{DType::Bool});
        QCOMPARE(mask.dtype(), DType::Bool);
        KILN_CHECK(compareTensor(mask, {1, 0, 0, 1}, DimVector{2, 2}));
        QCOMPARE(eye(0, 0, TensorOptions{}).sizes(), (DimVector{0, 0}));
        QCOMPARE(errorOf([] { eye(-1, 2, TensorOptions{}); }),
                 QString("n must be greater or equal to 0, got -1"));
        QCOMPARE(errorOf([] { eye(2, -1, TensorOptions{}); }),
                 QString("m must be greater or equal to 0, got -1"));
    }

    void triangularPartsMatchPyTorch() {
        Tensor x = makeTensor({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, DimVector{3, 4});
        KILN_CHECK(
            compareTensor(tril(x, -1), {0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}, DimVector{3, 4}));
        KILN_CHECK(
            compareTensor(triu(x, 1), {0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}, DimVector{3, 4}));
        KILN_CHECK(compareTensor(triu(transposed(x), 0), {1, 5, 9, 0, 6, 10, 0, 0, 11, 0, 0, 0},
                                 DimVector{4, 3}));
        KILN_CHECK(
            compareTensor(tril(x, 5), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, DimVector{3, 4}));
        KILN_CHECK(compareTensor(triu(x, 4), std::vector<double>(12, 0.0), DimVector{3, 4}));
        Tensor batch =
            tril(makeTensor({0, 1, 2, 3, 4, 5, 6, 7}, DimVector{2, 2, 2}, DType::Int64), 0);
        QCOMPARE(batch.dtype(), DType::Int64);
        KILN_CHECK(compareTensor(batch, {0, 0, 2, 3, 4, 0, 6, 7}, DimVector{2, 2, 2}));
        QCOMPARE(errorOf([] {
                     tril(vector({1, 2}), 0);
                 }),
                 QString("tril: input tensor must have at least 2 dimensions"));
        QCOMPARE(errorOf([] {
                     triu(vector({1, 2}), 0);
                 }),
                 QString("triu: input tensor must have at least 2 dimensions"));
        Tensor g = makeTensor({1, 2, 3, 4}, DimVector{2, 2});
        g.impl()->requiresGrad = true;
        QCOMPARE(tril(g, 0).gradFn(), "TrilBackward0");
        QCOMPARE(triu(g, 0).gradFn(), "TriuBackward0");
    }

    void fromScalarsCastsEachValue() {
        std::vector<Scalar> mixed = {Scalar(true), Scalar(int64_t(2)), Scalar(2.75), Scalar(-1.5)};
        KILN_CHECK(compareTensor(fromScalars(mixed, DimVector{2, 2}, DType::Float32),
                                 {1, 2, 2.75, -1.5}, DimVector{2, 2}));
        KILN_CHECK(compareTensor(fromScalars(mixed, DimVector{4}, DType::Int64), {1, 2, 2, -1},
                                 DimVector{4}));
        KILN_CHECK(compareTensor(fromScalars(mixed, DimVector{4}, DType::Bool), {1, 1, 1, 1},
                                 DimVector{4}));
        KILN_CHECK(compareTensor(fromScalars({Scalar(0.1)}, DimVector{}, DType::BFloat16),
                                 {0.10009765625}, DimVector{}, 0));
    }
};

QTEST_APPLESS_MAIN(CreationTest)
#include "tst_creation.moc"
