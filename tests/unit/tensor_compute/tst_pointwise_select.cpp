// SPDX-License-Identifier: MIT
// where, clamp, masked_fill, isclose/allclose/equal and lerp against PyTorch: values, type
// promotion, broadcasting, NaN handling, error messages and autograd node names.
#include "compute_testing.h"
#include "tensor/ops.h"

#include <QtTest>

using namespace kiln::tensor;
using namespace kiln::testing;

class PointwiseSelectTest : public QObject {
    Q_OBJECT

private slots:
    void whereBroadcastsAndPromotes() {
        Tensor condition = makeTensor({1, 0, 1, 0, 1, 0}, DimVector{2, 3}, DType::Bool);
        Tensor out = where(condition, vector({1, 2, 3}, DType::Int64),
                           makeTensor({10, 20}, DimVector{2, 1}));
        QCOMPARE(out.dtype(), DType::Float32);
        KILN_CHECK(compareTensor(out, {1, 10, 3, 20, 2, 20}, DimVector{2, 3}));
        Tensor mask = vector({1, 0}, DType::Bool);
        QCOMPARE(where(mask, vector({1}, DType::Int32), wrapNumber(Scalar(0.5))).dtype(),
                 DType::Float32);
        QCOMPARE(where(mask, vector({1}, DType::Float16), scalarTensor(Scalar(0.0), DType::Float64))
                     .dtype(),
                 DType::Float16);
        QCOMPARE(where(transposed(makeTensor({1, 0, 0, 1}, DimVector{2, 2}, DType::Bool)),
                       vector({1, 2}), wrapNumber(Scalar(int64_t(0))))
                     .sizes(),
                 (DimVector{2, 2}));
        QCOMPARE(errorOf([] { where(vector({1}), vector({1}), vector({2})); }),
                 QString("where expected condition to be a boolean tensor, but got a tensor with "
                         "dtype Float"));
        QCOMPARE(where(mask, leaf({1, 2}), wrapNumber(Scalar(0.0))).gradFn(), "WhereBackward0");
    }

    void clampMatchesPyTorch() {
        Tensor lo = wrapNumber(Scalar(int64_t(-1)));
        Tensor hi = wrapNumber(Scalar(int64_t(1)));
        KILN_CHECK(compareTensor(clamp(vector({-2, 0.5, 3, kNan}), lo, hi), {-1, 0.5, 1, kNan},
                                 DimVector{4}));
        Tensor ints = clamp(vector({1, 5, 9}, DType::Int64), vector({2, 2, 10}, DType::Int64),
                            vector({3}, DType::Int64));
        QCOMPARE(ints.dtype(), DType::Int64);
        KILN_CHECK(compareTensor(ints, {2, 3, 3}, DimVector{3}));
        KILN_CHECK(compareTensor(clamp(vector({1, 5}), vector({kNan, 1}), std::nullopt), {kNan, 5},
                                 DimVector{2}));
        Tensor promoted =
            clamp(vector({1, 2, 3}, DType::Int64), wrapNumber(Scalar(1.5)), std::nullopt);
        QCOMPARE(promoted.dtype(), DType::Float32);
        KILN_CHECK(compareTensor(promoted, {1.5, 2, 3}, DimVector{3}));
        // min > max gives max, as std::min(std::max(x, lo), hi).
        KILN_CHECK(compareTensor(
            clamp(vector({1, 5}), wrapNumber(Scalar(int64_t(3))), wrapNumber(Scalar(int64_t(2)))),
            {2, 2}, DimVector{2}));
        QCOMPARE(errorOf([] { clamp(vector({1}), std::nullopt, std::nullopt); }),
                 QString("torch.clamp: At least one of 'min' or 'max' must not be None"));
        QCOMPARE(errorOf([] {
                     clamp(vector({1, 0}, DType::Bool), wrapNumber(Scalar(false)), std::nullopt);
                 }),
                 QString("\"clamp_scalar_cpu\" not implemented for 'Bool'"));
        QCOMPARE(clamp(leaf({1, 2}), lo, hi).gradFn(), "ClampBackward1");
        QCOMPARE(clamp(leaf({1, 2}), vector({0, 0}), std::nullopt).gradFn(), "ClampBackward0");
    }

    void maskedFillMatchesPyTorch() {
        Tensor x = makeTensor({1, 2, 3, 4}, DimVector{2, 2});
        Tensor mask = vector({1, 0}, DType::Bool);
        KILN_CHECK(compareTensor(maskedFill(transposed(x), mask, wrapNumber(Scalar(-1.0))),
                                 {-1, 3, -1, 4}, DimVector{2, 2}));
        Tensor ints = maskedFill(vector({1, 2}, DType::Int64), mask, wrapNumber(Scalar(2.5)));
        QCOMPARE(ints.dtype(), DType::Int64);
        KILN_CHECK(compareTensor(ints, {2, 2}, DimVector{2}));
        Tensor grown = maskedFill(vector({1, 2}), makeTensor({1, 0}, DimVector{2, 1}, DType::Bool),
                                  wrapNumber(Scalar(int64_t(0))));
        KILN_CHECK(compareTensor(grown, {0, 0, 1, 2}, DimVector{2, 2}));
        QCOMPARE(errorOf([] {
                     maskedFill(vector({1, 2}), vector({1, 0}, DType::Int64),
                                wrapNumber(Scalar(int64_t(0))));
                 }),
                 QString("masked_fill_ only supports boolean masks, but got mask with dtype long "
                         "int"));
        QCOMPARE(errorOf([&] {
                     maskedFill(vector({1, 2}), mask, vector({0, 1}));
                 }),
                 QString("masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                         "with 1 dimension(s)."));
        QCOMPARE(maskedFill(leaf({1, 2}), mask, wrapNumber(Scalar(3.0))).gradFn(),
                 "MaskedFillBackward0");
        QCOMPARE(maskedFill(leaf({1, 2}), mask, scalarTensor(Scalar(3.0), DType::Float32)).gradFn(),
                 "MaskedFillBackward1");
    }

    void iscloseEvaluatesInTheTensorDType() {
        // float32: |1 - 1.00001f| = 1.00136e-05 exceeds 1e-8 + 1e-5 * 1.00001f.
        Tensor close = isclose(vector({1, 1, kInf, kNan, 1e-9}),
                               vector({1.00001, 1.0001, kInf, kNan, 0}), 1e-5, 1e-8, false);
        QCOMPARE(close.dtype(), DType::Bool);
        KILN_CHECK(compareTensor(close, {0, 0, 1, 0, 1}, DimVector{5}));
        KILN_CHECK(compareTensor(isclose(vector({1, kNan}), vector({1.1, kNan}), 0.1, 0, true),
                                 {1, 1}, DimVector{2}));
        KILN_CHECK(compareTensor(isclose(vector({100, 7}, DType::Int32),
                                         vector({101, -7}, DType::Int32), 0.01, 0, false),
                                 {1, 0}, DimVector{2}));
        KILN_CHECK(compareTensor(
            isclose(vector({1, 0}, DType::Bool), vector({1, 1}, DType::Bool), 1e-5, 1e-8, false),
            {1, 0}, DimVector{2}));
        QVERIFY(allclose(vector({1, 2}), vector({1, 2.000001}), 1e-5, 1e-8, false));
        QVERIFY(!allclose(vector({1}), vector({1.0001}), 1e-5, 1e-8, false));
        QCOMPARE(errorOf([] { isclose(vector({1}), vector({1}, DType::Float64), 0, 0, false); }),
                 QString("Float did not match Double"));
        QCOMPARE(errorOf([] { isclose(vector({1}), vector({1}), -1, 0, false); }),
                 QString("rtol must be greater than or equal to zero, but got -1"));
        QCOMPARE(errorOf([] { isclose(vector({1}), vector({1}), 0, -0.5, false); }),
                 QString("atol must be greater than or equal to zero, but got -0.5"));
    }

    void equalComparesShapesAndValues() {
        QVERIFY(equal(vector({1, 2}, DType::Int64), vector({1, 2})));
        QVERIFY(!equal(vector({1}), vector({1, 1})));
        QVERIFY(!equal(vector({kNan}), vector({kNan})));
        QVERIFY(equal(vector({1, 1}), strided(vector({1}), 0, DimVector{2}, DimVector{0})));
    }

    void lerpMatchesPyTorch() {
        KILN_CHECK(compareTensor(lerp(vector({1, 2}), vector({3, 6}), vector({0.25, 0.75})),
                                 {1.5, 5}, DimVector{2}));
        KILN_CHECK(compareTensor(
            lerp(vector({1}, DType::Float16), vector({3}, DType::Float16), wrapNumber(Scalar(0.3))),
            {1.599609375}, DimVector{1}, 0));
        KILN_CHECK(compareTensor(lerp(vector({1}), vector({3}), wrapNumber(Scalar(int64_t(2)))),
                                 {5}, DimVector{1}));
        KILN_CHECK(
            compareTensor(lerp(vector({1}), vector({2, 3, 4}), makeTensor({1, 2}, DimVector{2, 1})),
                          {2, 3, 4, 3, 5, 7}, DimVector{2, 3}));
        QCOMPARE(errorOf([] {
                     lerp(vector({1}), vector({2}, DType::Float64), wrapNumber(Scalar(0.5)));
                 }),
                 QString("expected dtype float for `end` but got dtype double"));
        QCOMPARE(errorOf([] { lerp(vector({1}), vector({2}), vector({1}, DType::Int64)); }),
                 QString("expected dtype float for `weight` but got dtype long int"));
        QCOMPARE(errorOf([] {
                     lerp(vector({1}, DType::Int64), vector({2}, DType::Int64),
                          wrapNumber(Scalar(0.5)));
                 }),
                 QString("\"lerp_kernel_scalar\" not implemented for 'Long'"));
        QCOMPARE(lerp(leaf({1, 2}), vector({3, 4}), wrapNumber(Scalar(0.5))).gradFn(),
                 "LerpBackward0");
        QCOMPARE(lerp(leaf({1, 2}), vector({3, 4}), vector({0.5, 0.5})).gradFn(), "LerpBackward1");
    }
};

QTEST_APPLESS_MAIN(PointwiseSelectTest)
#include "tst_pointwise_select.moc"
