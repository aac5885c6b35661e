// SPDX-License-Identifier: MIT
// The tensor core: dtypes and promotion, 16-bit float rounding, DimVector, strides, copies with
// broadcasting and casts, element access, the allocator's refusal of impossible sizes, and
// storages whose contents fill themselves on first use (capture's deferred GPU ops).
#include "tensor/device_transfer.h"
#include "tensor/error.h"
#include "tensor/shape.h"
#include "tensor_testing.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace kiln::tensor;
using kiln::testing::compareTensor;
using kiln::testing::makeTensor;

class TensorCoreTest : public QObject {
    Q_OBJECT

private slots:
    void promotionFollowsPyTorchLattice() {
        QCOMPARE(promoteTypes(DType::Int32, DType::Int64), DType::Int64);
        QCOMPARE(promoteTypes(DType::Bool, DType::Int32), DType::Int32);
        QCOMPARE(promoteTypes(DType::Int64, DType::Float16), DType::Float16);
        QCOMPARE(promoteTypes(DType::Float16, DType::BFloat16), DType::Float32);
        QCOMPARE(promoteTypes(DType::BFloat16, DType::Float64), DType::Float64);
        QCOMPARE(promoteTypes(DType::Float32, DType::Float32), DType::Float32);
    }

    void halfRoundsToNearestEven() {
        QCOMPARE(float(Half(1.0f)), 1.0f);
        QCOMPARE(float(Half(65504.0f)), 65504.0f);
        QVERIFY(std::isinf(float(Half(65520.0f)))); // halfway to the next binade rounds up to inf
        QCOMPARE(float(Half(65519.0f)), 65504.0f);
        QCOMPARE(float(Half(1.0f + 1.0f / 2048.0f)), 1.0f); // tie to even
        QCOMPARE(float(Half(1.0f + 3.0f / 2048.0f)), 1.0f + 2.0f / 1024.0f);
        QCOMPARE(float(Half(5.960464477539063e-08f)), 5.960464477539063e-08f); // smallest subnormal
        QCOMPARE(float(Half(2.0e-8f)), 0.0f);
        QVERIFY(std::isnan(float(Half(NAN))));
        QCOMPARE(float(Half(-2.5f)), -2.5f);
    }

    void bfloat16RoundsToNearestEven() {
        QCOMPARE(float(BFloat16(1.0f)), 1.0f);
        QCOMPARE(float(BFloat16(2.1130f)), 2.109375f); // as torch prints 2.1094 for bfloat16
        QCOMPARE(float(BFloat16(1.00390625f)), 1.0f);  // tie to even
        QVERIFY(std::isnan(float(BFloat16(NAN))));
    }

    void dimVectorGrowsPastInlineCapacity() {
        DimVector v{1, 2, 3};
        for (int i = 4; i <= 10; ++i)
            v.push_back(i);
        QCOMPARE(v.size(), size_t(10));
        QCOMPARE(v[9], int64_t(10));
        DimVector copy = v;
        QVERIFY(copy == v);
        DimVector moved = std::move(copy);
        QCOMPARE(moved.size(), size_t(10));
        moved.insert(0, 0);
        moved.erase(1);
        QCOMPARE(moved[0], int64_t(0));
        QCOMPARE(moved[1], int64_t(2));
    }

    void contiguousStridesAreRowMajor() {
        QVERIFY(contiguousStrides(DimVector{2, 3, 4}) == (DimVector{12, 4, 1}));
        QVERIFY(contiguousStrides(DimVector{}) == DimVector{});
        Tensor t = Tensor::empty(DimVector{2, 3}, DType::Float32);
        QVERIFY(t.isContiguous());
        QCOMPARE(t.numel(), int64_t(6));
        QCOMPARE(t.size(-1), int64_t(3));
    }

    void wrapDimReportsPyTorchMessage() {
        QCOMPARE(wrapDim(-1, 3), int64_t(2));
        try {
            wrapDim(3, 3);
            QFAIL("expected IndexError");
        } catch (const TensorError& e) {
            QCOMPARE(e.kind(), ErrorKind::IndexError);
            QCOMPARE(
                QString(e.what()),
                QString("Dimension out of range (expected to be in range of [-3, 2], but got 3)"));
        }
    }

    void broadcastShapesReportsPyTorchMessage() {
        QVERIFY(broadcastShapes(DimVector{2, 1, 4}, DimVector{3, 1}) == (DimVector{2, 3, 4}));
        try {
            broadcastShapes(DimVector{2, 3}, DimVector{2, 4});
            QFAIL("expected RuntimeError");
        } catch (const TensorError& e) {
            QCOMPARE(QString(e.what()), QString("The size of tensor a (3) must match the size of "
                                                "tensor b (4) at non-singleton dimension 1"));
        }
    }

    void copyIntoBroadcastsAndCasts() {
        Tensor src = makeTensor({1.7, -2.7, 3.2}, DimVector{3}, DType::Float32);
        Tensor dst = Tensor::empty(DimVector{2, 3}, DType::Int64);
        copyInto(dst, src);
        QString msg = compareTensor(dst, {1, -2, 3, 1, -2, 3}, DimVector{2, 3});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));

        Tensor asBool = toDType(src, DType::Bool);
        msg = compareTensor(asBool, {1, 1, 1}, DimVector{3});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));
    }

    void copyIntoStridedDestination() {
        // A transposed destination: write a 2x3 source through a 3x2 buffer's transpose.
        Tensor buffer = Tensor::empty(DimVector{3, 2}, DType::Float64);
        Tensor transposed =
            Tensor::view(buffer.storage(), 0, DimVector{2, 3}, DimVector{1, 2}, DType::Float64);
        copyInto(transposed, makeTensor({1, 2, 3, 4, 5, 6}, DimVector{2, 3}, DType::Float64));
        QString msg = compareTensor(buffer, {1, 4, 2, 5, 3, 6}, DimVector{3, 2});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));
        QVERIFY(!transposed.isContiguous());
        Tensor c = contiguous(transposed);
        QVERIFY(c.isContiguous());
        msg = compareTensor(c, {1, 2, 3, 4, 5, 6}, DimVector{2, 3});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));
    }

    void copyIntoRejectsNonBroadcastableSource() {
        Tensor dst = Tensor::empty(DimVector{2, 3}, DType::Float32);
        QVERIFY_THROWS_EXCEPTION(TensorError,
                                 copyInto(dst, makeTensor({1, 2}, DimVector{2}, DType::Float32)));
    }

    void itemRequiresOneElement() {
        QCOMPARE(item(scalarTensor(Scalar(int64_t(7)), DType::Int32)).toInt(), int64_t(7));
        try {
            item(Tensor::empty(DimVector{2}, DType::Float32));
            QFAIL("expected RuntimeError");
        } catch (const TensorError& e) {
            QCOMPARE(QString(e.what()),
                     QString("a Tensor with 2 elements cannot be converted to Scalar"));
        }
    }

    void wrappedNumbersKeepTheirKind() {
        Tensor w = wrapNumber(Scalar(2.5));
        QVERIFY(w.isWrappedNumber());
        QCOMPARE(w.dtype(), DType::Float64);
        QCOMPARE(wrapNumber(Scalar(int64_t(3))).dtype(), DType::Int64);
        QCOMPARE(wrapNumber(Scalar(true)).dtype(), DType::Bool);
    }

    void impossibleAllocationNamesTheSize() {
        try {
            Tensor::empty(DimVector{1 << 20, 1 << 20, 1 << 10}, DType::Float32);
            QFAIL("expected RuntimeError");
        } catch (const TensorError& e) {
            QVERIFY2(QString(e.what()).contains("you tried to allocate 4503599627370496 bytes"),
                     e.what());
        }
        try {
            Tensor::empty(DimVector{2, -1}, DType::Float32);
            QFAIL("expected RuntimeError");
        } catch (const TensorError& e) {
            QCOMPARE(QString(e.what()),
                     QString("Trying to create tensor with negative dimension -1: [2, -1]"));
        }
    }

    void pendingFillRunsOnceOnFirstAccess() {
        Tensor t = Tensor::empty(DimVector{4}, DType::Float32);
        int runs = 0;
        t.storage()->setPendingFill([&runs](Storage& s) {
            ++runs;
            float* p = static_cast<float*>(s.data()); // the fill may ask for the address too
            for (int i = 0; i < 4; ++i)
                p[i] = float(i) + 0.5f;
        });
        QVERIFY(t.storage()->hasPendingFill());
        QCOMPARE(runs, 0);
        QCOMPARE(t.data<float>()[3], 3.5f);
        QCOMPARE(runs, 1);
        QVERIFY(!t.storage()->hasPendingFill());
        QCOMPARE(t.data<float>()[0], 0.5f);
        QCOMPARE(runs, 1);
    }

    void runAllPendingFillsRunsEveryLiveOne() {
        int runs = 0;
        auto count = [&runs](Storage&) { ++runs; };
        Tensor a = Tensor::empty(DimVector{2}, DType::Float32);
        Tensor b = Tensor::empty(DimVector{2}, DType::Float32);
        a.storage()->setPendingFill(count);
        b.storage()->setPendingFill(count);
        {
            Tensor gone = Tensor::empty(DimVector{2}, DType::Float32);
            gone.storage()->setPendingFill([](Storage&) { QFAIL("a freed storage's fill ran"); });
        }
        Tensor dropped = Tensor::empty(DimVector{2}, DType::Float32);
        dropped.storage()->setPendingFill([](Storage&) { QFAIL("a discarded fill ran"); });
        dropped.storage()->discardPendingFill();
        runAllPendingFills();
        QCOMPARE(runs, 2);
        QVERIFY(!a.storage()->hasPendingFill() && !b.storage()->hasPendingFill());
        runAllPendingFills();
        QCOMPARE(runs, 2);
    }

    void overwriteWithDropsTheFillOfACoveredDestination() {
        Tensor dst = Tensor::empty(DimVector{2, 3}, DType::Float32);
        dst.storage()->setPendingFill([](Storage&) { QFAIL("an overwritten fill ran"); });
        Tensor src = makeTensor({1, 2, 3, 4, 5, 6}, DimVector{2, 3});
        overwriteWith(dst, src);
        QVERIFY(!dst.storage()->hasPendingFill());
        QString msg = compareTensor(dst, {1, 2, 3, 4, 5, 6}, DimVector{2, 3});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));
        // A view covering part of its storage keeps the fill: the rest is still to come.
        Tensor base = Tensor::empty(DimVector{4}, DType::Float32);
        bool ran = false;
        base.storage()->setPendingFill([&ran](Storage& s) {
            ran = true;
            std::fill_n(static_cast<float*>(s.data()), 4, 9.f);
        });
        Tensor half = Tensor::view(base.storage(), 2, DimVector{2}, DimVector{1}, DType::Float32);
        overwriteWith(half, makeTensor({1, 2}, DimVector{2}));
        QVERIFY(ran);
        msg = compareTensor(base, {9, 9, 1, 2}, DimVector{4});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));
    }

    void swapContentsExchangesAllocations() {
        Tensor a = makeTensor({1, 2}, DimVector{2}), b = makeTensor({3, 4}, DimVector{2});
        a.storage()->swapContents(*b.storage());
        QString msg = compareTensor(a, {3, 4}, DimVector{2});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));
        msg = compareTensor(b, {1, 2}, DimVector{2});
        QVERIFY2(msg.isEmpty(), qPrintable(msg));
    }
};

QTEST_APPLESS_MAIN(TensorCoreTest)
#include "tst_tensor_core.moc"
