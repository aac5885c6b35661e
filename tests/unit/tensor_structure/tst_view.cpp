// SPDX-License-Identifier: MIT
// Views: geometry (sizes, strides, offsets) as PyTorch computes it, storage sharing in both
// directions, copies only where reshape needs one, grad_fn names, and PyTorch's error messages.
// Expected values and strides were produced with PyTorch 2.x on torch.arange inputs.
#include "structure_testing.h"
#include "tensor/convert.h"

using namespace kiln::tensor;
using kiln::testing::dims;
using kiln::testing::gradFnOf;
using kiln::testing::iota;
using kiln::testing::requiringGrad;
using kiln::testing::sameTensor;

namespace {

double at(const Tensor& t, int64_t linear) {
    return kiln::testing::values(t)[static_cast<size_t>(linear)];
}

} // namespace

class ViewTest : public QObject {
    Q_OBJECT

private slots:
    void viewSharesStorageBothWays() {
        Tensor x = iota(DimVector{2, 3});
        Tensor v = view(x, DimVector{3, 2});
        QCOMPARE(dims(v.strides()), QList<qint64>({2, 1}));
        QVERIFY(v.storage() == x.storage());
        writeScalar(v.rawData() + 5 * sizeof(float), DType::Float32, Scalar(100.0));
        QCOMPARE(at(x, 5), 100.0);
        writeScalar(x.rawData(), DType::Float32, Scalar(-1.0));
        QCOMPARE(at(v, 0), -1.0);
    }

    void viewInfersOneDimension() {
        Tensor x = iota(DimVector{2, 3, 4});
        Tensor v = view(x, DimVector{-1, 4});
        QCOMPARE(dims(v.sizes()), QList<qint64>({6, 4}));
        QCOMPARE(dims(view(x, DimVector{-1}).sizes()), QList<qint64>({24}));
        Tensor scalar = view(iota(DimVector{1, 1}), DimVector{});
        QCOMPARE(scalar.dim(), int64_t(0));
    }

    void viewOfTransposedChunks() {
        // transpose(1, 2) keeps dim 0 and the pair (4, 3) splittable along the 4.
        Tensor x = transpose(iota(DimVector{2, 3, 4}), 1, 2);
        Tensor v = view(x, DimVector{2, 2, 2, 3});
        QCOMPARE(dims(v.strides()), QList<qint64>({12, 2, 1, 4}));
        QVERIFY(v.storage() == x.storage());
        KILN_CHECK(sameTensor(v, {0,  4,  8,  1,  5,  9,  2,  6,  10, 3,  7,  11,
                                  12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23},
                              {2, 2, 2, 3}));
        // An expanded dim of stride 0 can be split but not merged with its neighbours.
        Tensor e = expand(iota(DimVector{4, 1}), DimVector{4, 6});
        QCOMPARE(dims(view(e, DimVector{4, 2, 3}).strides()), QList<qint64>({1, 0, 0}));
    }

    void viewErrors_data() {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<bool>("transposed");
        QTest::addColumn<QString>("message");
        QTest::newRow("numel") << QList<qint64>{2, 5} << false
                               << "shape '[2, 5]' is invalid for input of size 24";
        QTest::newRow("inferred-not-divisible")
            << QList<qint64>{-1, 5} << false << "shape '[-1, 5]' is invalid for input of size 24";
        QTest::newRow("two-inferred")
            << QList<qint64>{-1, -1} << false << "only one dimension can be inferred";
        QTest::newRow("negative") << QList<qint64>{-2, 12} << false
                                  << "invalid shape dimension -2 at index 0 of shape [-2, 12]";
        QTest::newRow("spans-subspaces")
            << QList<qint64>{12, 2} << true
            << "view size is not compatible with input tensor's size and stride (at least one "
               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.";
    }

    void viewErrors() {
        QFETCH(QList<qint64>, shape);
        QFETCH(bool, transposed);
        QFETCH(QString, message);
        Tensor x = iota(DimVector{2, 3, 4});
        if (transposed) x = transpose(x, 0, 1);
        DimVector sizes;
        for (qint64 s : shape)
            sizes.push_back(s);
        KILN_CHECK_ERROR(view(x, sizes), ErrorKind::RuntimeError, message);
    }

    void viewOfEmptyTensorCannotInfer() {
        KILN_CHECK_ERROR(view(iota(DimVector{0, 3}), DimVector{-1, 0}), ErrorKind::RuntimeError,
                         "cannot reshape tensor of 0 elements into shape [-1, 0] because the "
                         "unspecified dimension size -1 can be any value and is ambiguous");
        QCOMPARE(dims(view(iota(DimVector{0, 3}), DimVector{3, 0}).sizes()), QList<qint64>({3, 0}));
    }

    void reshapeViewsWhenPossibleElseCopies() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor v = reshape(x, DimVector{6, 4});
        QVERIFY(v.storage() == x.storage());
        QCOMPARE(gradFnOf(v), QString("ViewBackward0"));
        Tensor c = reshape(transpose(x, 0, 2), DimVector{6, 4});
        QVERIFY(c.storage() != x.storage());
        QVERIFY(c.isContiguous());
        QCOMPARE(gradFnOf(c), QString("UnsafeViewBackward0"));
        KILN_CHECK(sameTensor(c, {0, 12, 4, 16, 8,  20, 1, 13, 5, 17, 9,  21,
                                  2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23},
                              {6, 4}));
        KILN_CHECK_ERROR(reshape(x, DimVector{-1, 5}), ErrorKind::RuntimeError,
                         "shape '[-1, 5]' is invalid for input of size 24");
    }

    void permuteReordersSizesAndStrides() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor p = permute(x, DimVector{2, 0, 1});
        QCOMPARE(dims(p.sizes()), QList<qint64>({4, 2, 3}));
        QCOMPARE(dims(p.strides()), QList<qint64>({1, 12, 4}));
        QCOMPARE(gradFnOf(p), QString("PermuteBackward0"));
        KILN_CHECK(sameTensor(p, {0, 4, 8,  12, 16, 20, 1, 5, 9,  13, 17, 21,
                                  2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23},
                              {4, 2, 3}));
        QCOMPARE(dims(permute(x, DimVector{-1, 0, 1}).sizes()), QList<qint64>({4, 2, 3}));
    }

    void permuteErrors() {
        Tensor x = iota(DimVector{2, 3, 4});
        KILN_CHECK_ERROR(permute(x, DimVector{0, 1}), ErrorKind::RuntimeError,
                         "permute(sparse_coo): number of dimensions in the tensor input does not "
                         "match the length of the desired ordering of dimensions i.e. input.dim() "
                         "= 3 is not equal to len(dims) = 2");
        KILN_CHECK_ERROR(permute(x, DimVector{0, 1, 1}), ErrorKind::RuntimeError,
                         "permute(): duplicate dims are not allowed.");
        KILN_CHECK_ERROR(permute(x, DimVector{3, 0, 1}), ErrorKind::IndexError,
                         "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    }

    void transposeAndT() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor tr = transpose(x, 0, 1);
        QCOMPARE(dims(tr.strides()), QList<qint64>({4, 12, 1}));
        QCOMPARE(gradFnOf(tr), QString("TransposeBackward0"));
        Tensor m = t(select(x, 0, 0));
        QCOMPARE(gradFnOf(m), QString("TBackward0"));
        KILN_CHECK(sameTensor(m, {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}, {4, 3}));
        QCOMPARE(dims(t(iota(DimVector{5})).sizes()), QList<qint64>({5}));
        QCOMPARE(t(scalarTensor(Scalar(1.0), DType::Float32)).dim(), int64_t(0));
        QCOMPARE(transpose(scalarTensor(Scalar(1.0), DType::Float32), 0, -1).dim(), int64_t(0));
        KILN_CHECK_ERROR(t(x), ErrorKind::RuntimeError,
                         "t() expects a tensor with <= 2 dimensions, but self is 3D");
    }

    void unsqueezeStrides() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor u = unsqueeze(x, 1);
        QCOMPARE(dims(u.sizes()), QList<qint64>({2, 1, 3, 4}));
        QCOMPARE(dims(u.strides()), QList<qint64>({12, 12, 4, 1}));
        QCOMPARE(gradFnOf(u), QString("UnsqueezeBackward0"));
        QCOMPARE(dims(unsqueeze(x, -1).strides()), QList<qint64>({12, 4, 1, 1}));
        KILN_CHECK_ERROR(unsqueeze(x, 4), ErrorKind::IndexError,
                         "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
    }

    void squeezeVariants() {
        Tensor x = requiringGrad(iota(DimVector{1, 2, 1, 3}));
        Tensor all = squeeze(x, {});
        QCOMPARE(dims(all.sizes()), QList<qint64>({2, 3}));
        QCOMPARE(gradFnOf(all), QString("SqueezeBackward0"));
        Tensor one = squeeze(x, DimVector{2});
        QCOMPARE(dims(one.sizes()), QList<qint64>({1, 2, 3}));
        QCOMPARE(gradFnOf(one), QString("SqueezeBackward1"));
        Tensor kept = squeeze(x, DimVector{1}); // not size 1: left alone
        QCOMPARE(dims(kept.sizes()), QList<qint64>({1, 2, 1, 3}));
        Tensor several = squeeze(x, DimVector{0, -2});
        QCOMPARE(dims(several.sizes()), QList<qint64>({2, 3}));
        QCOMPARE(gradFnOf(several), QString("SqueezeBackward2"));
        QCOMPARE(squeeze(scalarTensor(Scalar(2.0), DType::Float32), DimVector{0}).dim(),
                 int64_t(0));
        KILN_CHECK_ERROR(squeeze(x, DimVector{0, 0}), ErrorKind::RuntimeError,
                         "dim 0 appears multiple times in the list of dims");
        KILN_CHECK_ERROR(squeeze(x, DimVector{4}), ErrorKind::IndexError,
                         "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
    }

    void expandBroadcastsWithZeroStrides() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor e = expand(slice(x, 1, 0, 1, 1), DimVector{2, 3, -1});
        QCOMPARE(dims(e.strides()), QList<qint64>({12, 0, 1}));
        QCOMPARE(gradFnOf(e), QString("ExpandBackward0"));
        KILN_CHECK(sameTensor(
            e, {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15},
            {2, 3, 4}));
        Tensor lead = expand(x, DimVector{5, 2, 3, 4});
        QCOMPARE(dims(lead.strides()), QList<qint64>({0, 12, 4, 1}));
        Tensor fromScalar = expand(scalarTensor(Scalar(int64_t(7)), DType::Int64), DimVector{3, 2});
        KILN_CHECK(sameTensor(fromScalar, {7, 7, 7, 7, 7, 7}, {3, 2}));
        QCOMPARE(dims(expand(iota(DimVector{1, 3}), DimVector{0, 3}).sizes()),
                 QList<qint64>({0, 3}));
    }

    void expandErrors() {
        Tensor x = iota(DimVector{2, 3, 4});
        KILN_CHECK_ERROR(expand(x, DimVector{2, 5, 4}), ErrorKind::RuntimeError,
                         "The expanded size of the tensor (5) must match the existing size (3) at "
                         "non-singleton dimension 1.  Target sizes: [2, 5, 4].  Tensor sizes: "
                         "[2, 3, 4]");
        KILN_CHECK_ERROR(expand(x, DimVector{3, 4}), ErrorKind::RuntimeError,
                         "expand(torch.FloatTensor{[2, 3, 4]}, size=[3, 4]): the number of sizes "
                         "provided (2) must be greater or equal to the number of dimensions in the "
                         "tensor (3)");
        KILN_CHECK_ERROR(expand(x, DimVector{-1, 2, 3, 4}), ErrorKind::RuntimeError,
                         "The expanded size of the tensor (-1) isn't allowed in a leading, "
                         "non-existing dimension 0");
        KILN_CHECK_ERROR(expand(x, DimVector{2, -2, 4}), ErrorKind::RuntimeError,
                         "The expanded size of the tensor (-2) must match the existing size (3) at "
                         "non-singleton dimension 1.  Target sizes: [2, -2, 4].  Tensor sizes: "
                         "[2, 3, 4]");
    }

    void flattenMergesRange() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor f = flatten(x, 1, -1);
        QCOMPARE(dims(f.sizes()), QList<qint64>({2, 12}));
        QVERIFY(f.storage() == x.storage());
        QCOMPARE(gradFnOf(f), QString("ViewBackward0"));
        QVERIFY(flatten(x, 1, 1).sameImpl(x)); // torch returns self for a one-dim range
        Tensor fromScalar = flatten(scalarTensor(Scalar(3.0), DType::Float32), 0, -1);
        QCOMPARE(dims(fromScalar.sizes()), QList<qint64>({1}));
        Tensor copied = flatten(transpose(x, 1, 2), 0, 1);
        QCOMPARE(gradFnOf(copied), QString("UnsafeViewBackward0"));
        KILN_CHECK(sameTensor(copied, {0,  4,  8,  1,  5,  9,  2,  6,  10, 3,  7,  11,
                                       12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23},
                              {8, 3}));
        KILN_CHECK_ERROR(flatten(x, 2, 1), ErrorKind::RuntimeError,
                         "flatten() has invalid args: start_dim cannot come after end_dim");
    }

    void unflattenSplitsOneDim() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor u = unflatten(x, 2, DimVector{-1, 2});
        QCOMPARE(dims(u.sizes()), QList<qint64>({2, 3, 2, 2}));
        QCOMPARE(dims(u.strides()), QList<qint64>({12, 4, 2, 1}));
        QCOMPARE(gradFnOf(u), QString("ViewBackward0"));
        Tensor nc = unflatten(transpose(x, 1, 2), 1, DimVector{2, 2});
        QCOMPARE(dims(nc.strides()), QList<qint64>({12, 2, 1, 4}));
        KILN_CHECK_ERROR(unflatten(x, 2, DimVector{3, 2}), ErrorKind::RuntimeError,
                         "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 2 "
                         "(4) in the input tensor");
        KILN_CHECK_ERROR(unflatten(x, 2, {}), ErrorKind::RuntimeError,
                         "unflatten: sizes must be non-empty");
        KILN_CHECK_ERROR(unflatten(x, 2, DimVector{-1, -1}), ErrorKind::RuntimeError,
                         "unflatten got an unexpected error:\nonly one dimension can be inferred");
    }

    void narrowSelectSlice() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor n = narrow(x, 2, -3, 2);
        QCOMPARE(n.offset(), int64_t(1));
        QCOMPARE(gradFnOf(n), QString("SliceBackward0"));
        KILN_CHECK(sameTensor(n, {1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22}, {2, 3, 2}));
        Tensor s = select(x, 1, -1);
        QCOMPARE(s.offset(), int64_t(8));
        QCOMPARE(gradFnOf(s), QString("SelectBackward0"));
        KILN_CHECK(sameTensor(s, {8, 9, 10, 11, 20, 21, 22, 23}, {2, 4}));
        Tensor stepped = slice(x, 1, 1, 10, 2);
        QCOMPARE(stepped.offset(), int64_t(4));
        QCOMPARE(dims(stepped.strides()), QList<qint64>({12, 8, 1}));
        KILN_CHECK(sameTensor(stepped, {4, 5, 6, 7, 16, 17, 18, 19}, {2, 1, 4}));
        QCOMPARE(dims(slice(x, 1, -5, -1, 1).sizes()), QList<qint64>({2, 2, 4}));
        Tensor empty = slice(x, 1, 2, 1, 1);
        QCOMPARE(dims(empty.sizes()), QList<qint64>({2, 0, 4}));
        QCOMPARE(empty.offset(), int64_t(8));
        QCOMPARE(dims(slice(x, 2, std::nullopt, std::nullopt, 3).sizes()),
                 QList<qint64>({2, 3, 2}));
    }

    void narrowSelectSliceErrors() {
        Tensor x = iota(DimVector{2, 3, 4});
        Tensor scalar = scalarTensor(Scalar(1.0), DType::Float32);
        KILN_CHECK_ERROR(narrow(x, 1, 2, 2), ErrorKind::RuntimeError,
                         "start (2) + length (2) exceeds dimension size (3).");
        KILN_CHECK_ERROR(narrow(x, 1, 0, -1), ErrorKind::RuntimeError,
                         "narrow(): length must be non-negative.");
        KILN_CHECK_ERROR(narrow(x, 1, -4, 0), ErrorKind::IndexError,
                         "start out of range (expected to be in range of [-3, 3], but got -4)");
        KILN_CHECK_ERROR(narrow(scalar, 0, 0, 1), ErrorKind::RuntimeError,
                         "narrow() cannot be applied to a 0-dim tensor.");
        KILN_CHECK_ERROR(select(x, 1, 3), ErrorKind::IndexError,
                         "select(): index 3 out of range for tensor of size [2, 3, 4] at "
                         "dimension 1");
        KILN_CHECK_ERROR(select(x, 1, -4), ErrorKind::IndexError,
                         "select(): index -4 out of range for tensor of size [2, 3, 4] at "
                         "dimension 1");
        KILN_CHECK_ERROR(select(scalar, 0, 0), ErrorKind::IndexError,
                         "select() cannot be applied to a 0-dim tensor.");
        KILN_CHECK_ERROR(slice(x, 1, 0, 3, 0), ErrorKind::RuntimeError,
                         "slice step must be positive");
        KILN_CHECK_ERROR(slice(scalar, 0, 0, 1, 1), ErrorKind::IndexError,
                         "slice() cannot be applied to a 0-dim tensor.");
        KILN_CHECK_ERROR(unflatten(scalar, 0, DimVector{1}), ErrorKind::RuntimeError,
                         "unflatten got an unexpected error:\nDimension specified as 0 but tensor "
                         "has no dimensions");
    }

    void diagonalOffsets() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor d = diagonal(x, 1, 1, 2);
        QCOMPARE(dims(d.strides()), QList<qint64>({12, 5}));
        QCOMPARE(d.offset(), int64_t(1));
        QCOMPARE(gradFnOf(d), QString("DiagonalBackward0"));
        KILN_CHECK(sameTensor(d, {1, 6, 11, 13, 18, 23}, {2, 3}));
        KILN_CHECK(sameTensor(diagonal(x, -1, 1, 2), {4, 9, 16, 21}, {2, 2}));
        KILN_CHECK(sameTensor(diagonal(x, 0, 2, 1), {0, 5, 10, 12, 17, 22}, {2, 3}));
        QCOMPARE(dims(diagonal(x, 7, 1, 2).sizes()), QList<qint64>({2, 0}));
        KILN_CHECK_ERROR(diagonal(x, 0, -1, 2), ErrorKind::RuntimeError,
                         "diagonal dimensions cannot be identical -1, 2");
    }

    void movedimPermutes() {
        Tensor x = requiringGrad(iota(DimVector{2, 3, 4}));
        Tensor m = movedim(x, 0, 2);
        QCOMPARE(dims(m.sizes()), QList<qint64>({3, 4, 2}));
        QCOMPARE(dims(m.strides()), QList<qint64>({4, 1, 12}));
        QCOMPARE(gradFnOf(m), QString("PermuteBackward0"));
        QCOMPARE(dims(movedim(x, -1, 0).strides()), QList<qint64>({1, 12, 4}));
        Tensor scalar = requiringGrad(scalarTensor(Scalar(1.0), DType::Float32));
        QCOMPARE(gradFnOf(movedim(scalar, 0, 0)), QString("AliasBackward0"));
        KILN_CHECK_ERROR(movedim(x, 3, 0), ErrorKind::IndexError,
                         "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    }

    void aliasSharesEverything() {
        Tensor x = requiringGrad(iota(DimVector{2, 2}, DType::Float32));
        Tensor a = alias(x);
        QVERIFY(!a.sameImpl(x));
        QVERIFY(a.storage() == x.storage());
        QCOMPARE(gradFnOf(a), QString("AliasBackward0"));
        // Integer results are not differentiable: no grad_fn, as in PyTorch.
        QCOMPARE(gradFnOf(alias(toDType(x, DType::Int64))), QString());
        writeScalar(a.rawData() + 3 * sizeof(float), DType::Float32, Scalar(-9.0));
        KILN_CHECK(sameTensor(x, {0, 1, 2, -9}, {2, 2}));
    }

    void viewsWorkForEveryDtype_data() {
        QTest::addColumn<int>("dtype");
        for (DType d : {DType::Bool, DType::Int32, DType::Int64, DType::Float16, DType::BFloat16,
                        DType::Float32, DType::Float64})
            QTest::newRow(dtypeName(d).data()) << static_cast<int>(d);
    }

    void viewsWorkForEveryDtype() {
        QFETCH(int, dtype);
        DType d = static_cast<DType>(dtype);
        Tensor x = kiln::testing::makeTensor({0, 1, 1, 0, 1, 1}, DimVector{2, 3}, d);
        Tensor v = select(transpose(x, 0, 1), 0, 2); // column 2: elements 2 and 5
        KILN_CHECK(sameTensor(v, {1, 1}, {2}));
        writeScalar(v.rawData() + v.strides()[0] * itemSize(d), d, Scalar(0.0));
        KILN_CHECK(sameTensor(x, {0, 1, 1, 0, 1, 0}, {2, 3}));
    }

    void noGradFnWithoutGradMode() {
        Tensor x = requiringGrad(iota(DimVector{2, 3}));
        setGradModeEnabled(false);
        Tensor v = view(x, DimVector{6});
        setGradModeEnabled(true);
        QVERIFY(!v.requiresGrad());
        QVERIFY(v.gradFn().empty());
        QVERIFY(view(iota(DimVector{2, 3}), DimVector{6}).gradFn().empty());
    }
};

QTEST_APPLESS_MAIN(ViewTest)
#include "tst_view.moc"
