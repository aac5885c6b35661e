// SPDX-License-Identifier: MIT
// Shape ops: split/chunk/unbind views, cat/stack with promotion and torch's legacy empty-tensor
// rule, repeat, flip and roll on strided inputs, and PyTorch's error messages. Expected values
// come from PyTorch 2.x on torch.arange inputs.
#include "structure_testing.h"

using namespace kiln::tensor;
using kiln::testing::dims;
using kiln::testing::gradFnOf;
using kiln::testing::iota;
using kiln::testing::makeTensor;
using kiln::testing::requiringGrad;
using kiln::testing::sameTensor;

class ShapeOpsTest : public QObject {
    Q_OBJECT

private slots:
    void splitBySize() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        std::vector<Tensor> parts = split(x, 3, 2);
        QCOMPARE(parts.size(), size_t(2));
        QCOMPARE(dims(parts[0].sizes()), QList<qint64>({2, 3, 3}));
        QCOMPARE(dims(parts[1].sizes()), QList<qint64>({2, 3, 1}));
        QCOMPARE(parts[1].offset(), int64_t(3));
        QVERIFY(parts[1].storage() == x.storage());
        QCOMPARE(gradFnOf(parts[0]), QString("SplitBackward0"));
        KILN_CHECK(sameTensor(parts[1], {3, 7, 11, 15, 19, 23}, {2, 3, 1}));
        QCOMPARE(split(x, 10, 2).size(), size_t(1));
        QCOMPARE(split(iota(DimVector{2, 0}), 0, 1).size(), size_t(1));
    }

    void splitWithSizesOnTransposed() {
        Tensor m = requiringGrad(t(select(iota(DimVector{2, 3, 4}), 0, 0))); // 4x3, strides 1, 4
        std::vector<Tensor> parts = splitWithSizes(m, DimVector{1, 2}, 1);
        QCOMPARE(gradFnOf(parts[0]), QString("SplitWithSizesBackward0"));
        KILN_CHECK(sameTensor(parts[0], {0, 1, 2, 3}, {4, 1}));
        KILN_CHECK(sameTensor(parts[1], {4, 8, 5, 9, 6, 10, 7, 11}, {4, 2}));
    }

    void splitErrors() {
        Tensor x = iota(DimVector{2, 3, 4});
        KILN_CHECK_ERROR(split(x, 0, 2), ErrorKind::RuntimeError,
                         "split_size can only be 0 if dimension size is 0, but got dimension size "
                         "of 4");
        KILN_CHECK_ERROR(split(x, -1, 2), ErrorKind::RuntimeError,
                         "split expects split_size be non-negative, but got split_size=-1");
        KILN_CHECK_ERROR(splitWithSizes(x, DimVector{1, 2}, 2), ErrorKind::RuntimeError,
                         "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's "
                         "size at dimension 2), but got split_sizes=[1, 2]");
        KILN_CHECK_ERROR(splitWithSizes(x, DimVector{5, -1}, 2), ErrorKind::RuntimeError,
                         "split_with_sizes expects split_sizes have only non-negative entries, but "
                         "got split_sizes=[5, -1]");
        KILN_CHECK_ERROR(split(scalarTensor(Scalar(1.0), DType::Float32), 1, 0),
                         ErrorKind::RuntimeError, "split expects at least a 1-dimensional tensor");
        KILN_CHECK_ERROR(split(x, 2, 3), ErrorKind::IndexError,
                         "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    }

    void chunkSizes_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<qint64>("chunks");
        QTest::addColumn<QList<qint64>>("sizes");
        // torch: chunk size is ceil(length / chunks), which can give fewer chunks than asked.
        QTest::newRow("10/4") << qint64(10) << qint64(4) << QList<qint64>{3, 3, 3, 1};
        QTest::newRow("6/5") << qint64(6) << qint64(5) << QList<qint64>{2, 2, 2};
        QTest::newRow("10/6") << qint64(10) << qint64(6) << QList<qint64>{2, 2, 2, 2, 2};
        QTest::newRow("3/5") << qint64(3) << qint64(5) << QList<qint64>{1, 1, 1};
        QTest::newRow("0/3") << qint64(0) << qint64(3) << QList<qint64>{0, 0, 0};
    }

    void chunkSizes() {
        QFETCH(qint64, length);
        QFETCH(qint64, chunks);
        QFETCH(QList<qint64>, sizes);
        std::vector<Tensor> parts = chunk(iota(DimVector{length}), chunks, 0);
        QList<qint64> got;
        for (const Tensor& p : parts)
            got.push_back(p.sizes()[0]);
        QCOMPARE(got, sizes);
    }

    void chunkValuesAndErrors() {
        std::vector<Tensor> parts = chunk(iota(DimVector{10}, DType::Int64), 4, 0);
        KILN_CHECK(sameTensor(parts[2], {6, 7, 8}, {3}));
        KILN_CHECK(sameTensor(parts[3], {9}, {1}));
        KILN_CHECK_ERROR(chunk(iota(DimVector{4}), 0, 0), ErrorKind::RuntimeError,
                         "chunk expects `chunks` to be greater than 0, got: 0");
    }

    void unbindSelectsEveryIndex() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        std::vector<Tensor> parts = unbind(x, 1);
        QCOMPARE(parts.size(), size_t(3));
        QCOMPARE(parts[2].offset(), int64_t(8));
        QCOMPARE(gradFnOf(parts[1]), QString("UnbindBackward0"));
        KILN_CHECK(sameTensor(parts[1], {4, 5, 6, 7, 16, 17, 18, 19}, {2, 4}));
        KILN_CHECK_ERROR(unbind(scalarTensor(Scalar(1.0), DType::Float32), 0),
                         ErrorKind::IndexError,
                         "Dimension specified as 0 but tensor has no dimensions");
    }

    void catStridedInputs() {
        Tensor p = permute(iota(DimVector{2, 3, 4}), DimVector{0, 2, 1}); // 2x4x3
        Tensor q = slice(p, 2, 0, 1, 1);
        Tensor out = cat({q, p}, 2);
        KILN_CHECK(sameTensor(out, {0,  0,  4,  8,  1,  1,  5,  9,  2,  2,  6,  10, 3,  3,  7,  11,
                                    12, 12, 16, 20, 13, 13, 17, 21, 14, 14, 18, 22, 15, 15, 19, 23},
                              {2, 4, 4}));
        QVERIFY(out.isContiguous());
        QVERIFY(out.gradFn().empty());
        Tensor g = cat({iota(DimVector{2, 2}), requiringGrad(iota(DimVector{2, 3}))}, -1);
        QCOMPARE(gradFnOf(g), QString("CatBackward0"));
        QCOMPARE(dims(g.sizes()), QList<qint64>({2, 5}));
    }

    void catPromotesDtypes() {
        Tensor a = iota(DimVector{2, 3}, DType::Int64);
        Tensor b = makeTensor({0.5, 1.5}, DimVector{2, 1}, DType::Float16);
        Tensor out = cat({a, b}, 1);
        QCOMPARE(out.dtype(), DType::Float16);
        KILN_CHECK(sameTensor(out, {0, 1, 2, 0.5, 3, 4, 5, 1.5}, {2, 4}));
        Tensor mixed = cat({makeTensor({1, 0}, DimVector{2}, DType::Bool),
                            makeTensor({7, 8}, DimVector{2}, DType::Int32)},
                           0);
        QCOMPARE(mixed.dtype(), DType::Int32);
        KILN_CHECK(sameTensor(mixed, {1, 0, 7, 8}, {4}));
    }

    void catSkipsLegacyEmptyTensors() {
        Tensor empty64 = Tensor::empty(DimVector{0}, DType::Float64);
        Tensor out = cat({iota(DimVector{2, 2}), empty64}, 1);
        QCOMPARE(out.dtype(), DType::Float64); // the skipped tensor still takes part in promotion
        KILN_CHECK(sameTensor(out, {0, 1, 2, 3}, {2, 2}));
        Tensor first =
            cat({Tensor::empty(DimVector{0}, DType::Float32), iota(DimVector{2, 3})}, -1);
        QCOMPARE(dims(first.sizes()), QList<qint64>({2, 3}));
        Tensor none = cat({Tensor::empty(DimVector{0}, DType::Float32),
                           Tensor::empty(DimVector{0}, DType::Float32)},
                          1);
        QCOMPARE(dims(none.sizes()), QList<qint64>({0}));
        Tensor rows =
            cat({Tensor::empty(DimVector{0, 3}, DType::Float32), iota(DimVector{2, 3})}, 0);
        KILN_CHECK(sameTensor(rows, {0, 1, 2, 3, 4, 5}, {2, 3}));
    }

    void catErrors() {
        Tensor s = scalarTensor(Scalar(1.0), DType::Float32);
        KILN_CHECK_ERROR(cat({iota(DimVector{2, 2}), iota(DimVector{3, 3})}, 1),
                         ErrorKind::RuntimeError,
                         "Sizes of tensors must match except in dimension 1. Expected size 2 but "
                         "got size 3 for tensor number 1 in the list.");
        KILN_CHECK_ERROR(cat({iota(DimVector{2, 2}), iota(DimVector{2, 2, 2})}, 1),
                         ErrorKind::RuntimeError,
                         "Tensors must have same number of dimensions: got 2 and 3");
        KILN_CHECK_ERROR(cat({iota(DimVector{2}), s}, 0), ErrorKind::RuntimeError,
                         "zero-dimensional tensor (at position 1) cannot be concatenated");
        KILN_CHECK_ERROR(cat({}, 0), ErrorKind::ValueError,
                         "torch.cat(): expected a non-empty list of Tensors");
        KILN_CHECK_ERROR(
            cat({Tensor::empty(DimVector{0}, DType::Float32), iota(DimVector{2, 3})}, 2),
            ErrorKind::IndexError,
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    }

    void stackInsertsDim() {
        Tensor a = iota(DimVector{2, 3}, DType::Int64);
        Tensor b = makeTensor({0, 10, 20, 30, 40, 50}, DimVector{2, 3}, DType::Int64);
        KILN_CHECK(
            sameTensor(stack({a, b}, 1), {0, 1, 2, 0, 10, 20, 3, 4, 5, 30, 40, 50}, {2, 2, 3}));
        KILN_CHECK(
            sameTensor(stack({a, b}, -1), {0, 0, 1, 10, 2, 20, 3, 30, 4, 40, 5, 50}, {2, 3, 2}));
        Tensor g = stack({requiringGrad(iota(DimVector{2})), iota(DimVector{2})}, 0);
        QCOMPARE(gradFnOf(g), QString("StackBackward0"));
        Tensor scalars = stack(
            {scalarTensor(Scalar(1.0), DType::Float32), scalarTensor(Scalar(2.0), DType::Float32)},
            0);
        KILN_CHECK(sameTensor(scalars, {1, 2}, {2}));
        KILN_CHECK_ERROR(
            stack({iota(DimVector{2, 2}), iota(DimVector{2, 3})}, 0), ErrorKind::RuntimeError,
            "stack expects each tensor to be equal size, but got [2, 2] at entry 0 and "
            "[2, 3] at entry 1");
        KILN_CHECK_ERROR(stack({}, 0), ErrorKind::RuntimeError,
                         "stack expects a non-empty TensorList");
        KILN_CHECK_ERROR(stack({iota(DimVector{2})}, 2), ErrorKind::IndexError,
                         "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    }

    void repeatTiles() {
        Tensor x = requiringGrad(transpose(iota(DimVector{2, 3, 4}), 1, 2));
        Tensor r = repeat(x, DimVector{1, 1, 2});
        QCOMPARE(gradFnOf(r), QString("RepeatBackward0"));
        KILN_CHECK(sameTensor(r, {0,  4,  8,  0,  4,  8,  1,  5,  9,  1,  5,  9,  2,  6,  10, 2,
                                  6,  10, 3,  7,  11, 3,  7,  11, 12, 16, 20, 12, 16, 20, 13, 17,
                                  21, 13, 17, 21, 14, 18, 22, 14, 18, 22, 15, 19, 23, 15, 19, 23},
                              {2, 4, 6}));
        Tensor b = repeat(makeTensor({1, 0, 1}, DimVector{3}, DType::Bool), DimVector{2, 2});
        QCOMPARE(b.dtype(), DType::Bool);
        KILN_CHECK(sameTensor(b, {1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1}, {2, 6}));
        KILN_CHECK(sameTensor(repeat(scalarTensor(Scalar(1.5), DType::Float64), DimVector{2}),
                              {1.5, 1.5}, {2}));
        QCOMPARE(dims(repeat(x, DimVector{0, 1, 1}).sizes()), QList<qint64>({0, 4, 3}));
    }

    void repeatErrors() {
        Tensor x = iota(DimVector{2, 3, 4});
        KILN_CHECK_ERROR(repeat(x, DimVector{2, 1}), ErrorKind::RuntimeError,
                         "Number of dimensions of repeat dims can not be smaller than number of "
                         "dimensions of tensor");
        KILN_CHECK_ERROR(repeat(x, DimVector{2, -1, 1}), ErrorKind::RuntimeError,
                         "Trying to create tensor with negative dimension -3: [4, -3, 4]");
    }

    void flipReverses() {
        Tensor x = requiringGrad(transpose(iota(DimVector{2, 3, 4}), 0, 2)); // 4x3x2
        Tensor f = flip(x, DimVector{1});
        QCOMPARE(gradFnOf(f), QString("FlipBackward0"));
        KILN_CHECK(sameTensor(f, {8,  20, 4, 16, 0, 12, 9,  21, 5, 17, 1, 13,
                                  10, 22, 6, 18, 2, 14, 11, 23, 7, 19, 3, 15},
                              {4, 3, 2}));
        Tensor ints = flip(iota(DimVector{2, 3}, DType::Int32), DimVector{0, -1});
        KILN_CHECK(sameTensor(ints, {5, 4, 3, 2, 1, 0}, {2, 3}));
        KILN_CHECK_ERROR(flip(x, DimVector{0, 0}), ErrorKind::RuntimeError,
                         "dim 0 appears multiple times in the list of dims");
    }

    void rollShifts() {
        Tensor x = transpose(iota(DimVector{2, 3, 4}), 0, 2); // 4x3x2
        KILN_CHECK(sameTensor(
            roll(x, DimVector{1, -2}, DimVector{0, 1}),
            {11, 23, 3, 15, 7, 19, 8, 20, 0, 12, 4, 16, 9, 21, 1, 13, 5, 17, 10, 22, 2, 14, 6, 18},
            {4, 3, 2}));
        Tensor y = requiringGrad(iota(DimVector{2, 3, 4}, DType::BFloat16));
        Tensor flat = roll(y, DimVector{5}, {});
        QCOMPARE(gradFnOf(flat), QString("RollBackward0"));
        KILN_CHECK(sameTensor(flat, {19, 20, 21, 22, 23, 0,  1,  2,  3,  4,  5,  6,
                                     7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18},
                              {2, 3, 4}));
        KILN_CHECK(sameTensor(
            roll(iota(DimVector{2, 3, 4}), DimVector{-7}, DimVector{2}),
            {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 19, 16, 17, 18, 23, 20, 21, 22},
            {2, 3, 4}));
        KILN_CHECK_ERROR(roll(x, DimVector{1, -1}, DimVector{0}), ErrorKind::RuntimeError,
                         "shifts and dimensions must align. shifts: 2, dims:1");
        KILN_CHECK_ERROR(roll(x, DimVector{1, 2}, {}), ErrorKind::RuntimeError,
                         "shifts and dimensions must align. shifts: 2, dims:0");
        QCOMPARE(roll(Tensor::empty(DimVector{0}, DType::Float32), DimVector{1}, {}).numel(),
                 int64_t(0));
        Tensor scalar = scalarTensor(Scalar(2.5), DType::Float32);
        KILN_CHECK(sameTensor(roll(scalar, DimVector{3}, {}), {2.5}, {}));
        KILN_CHECK(sameTensor(flip(scalar, DimVector{0}), {2.5}, {}));
        KILN_CHECK_ERROR(roll(scalar, DimVector{1}, DimVector{0}), ErrorKind::IndexError,
                         "Dimension specified as 0 but tensor has no dimensions");
    }
};

QTEST_APPLESS_MAIN(ShapeOpsTest)
#include "tst_shape_ops.moc"
