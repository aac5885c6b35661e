// SPDX-License-Identifier: MIT
// Linear algebra: mm/bmm/addmm/dot/outer, every matmul rank rule, linear's paths, einsum's
// grammar and contractions, strided (transposed) BLAS operands, 16-bit and integer dtypes,
// grad_fn names and PyTorch's exact messages. Inputs are (arange(n) - off) * scale; expected
// values come from PyTorch 2.x.
#include "structure_testing.h"

using namespace kiln::tensor;
using kiln::testing::dims;
using kiln::testing::gradFnOf;
using kiln::testing::iota;
using kiln::testing::makeTensor;
using kiln::testing::requiringGrad;
using kiln::testing::sameTensor;

namespace {

Tensor ar(std::vector<int64_t> sizes, double off = 0, double scale = 1,
          DType dtype = DType::Float32) {
    DimVector s(sizes);
    std::vector<double> v(static_cast<size_t>(checkedNumel(s)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = (static_cast<double>(i) - off) * scale;
    return makeTensor(v, s, dtype);
}

Tensor g(Tensor t) {
    return requiringGrad(std::move(t));
}

} // namespace

class LinalgTest : public QObject {
    Q_OBJECT

private slots:
    void mmValuesAndStrides() {
        Tensor out = mm(g(ar({2, 3}, 2)), ar({3, 4}, 5, 0.5));
        QCOMPARE(gradFnOf(out), QString("MmBackward0"));
        KILN_CHECK(sameTensor(out, {5.5, 4, 2.5, 1, 1, 4, 7, 10}, {2, 4}));
        // Transposed operands reach BLAS with transpose flags instead of copies.
        Tensor tt = mm(t(ar({3, 2}, 2)), t(ar({4, 3}, 5, 0.5)));
        KILN_CHECK(sameTensor(tt, {2, 2, 2, 2, -4, 0.5, 5, 9.5}, {2, 4}));
        // A column slice has a row stride larger than its width (a leading dimension > cols).
        Tensor wide = slice(ar({3, 6}, 5, 0.5), 1, 1, 5, 1);
        KILN_CHECK(sameTensor(mm(ar({2, 3}, 2), wide), {3, 1.5, 0, -1.5, 12, 15, 18, 21}, {2, 4}));
        Tensor f64 = mm(ar({2, 3}, 2, 1, DType::Float64), ar({3, 4}, 5, 0.5, DType::Float64));
        QCOMPARE(f64.dtype(), DType::Float64);
        KILN_CHECK(sameTensor(f64, {5.5, 4, 2.5, 1, 1, 4, 7, 10}, {2, 4}));
        KILN_CHECK(sameTensor(mm(ar({2, 0}), ar({0, 3})), {0, 0, 0, 0, 0, 0}, {2, 3}));
    }

    void mmSixteenBitAndIntegers() {
        Tensor h = mm(ar({2, 3}, 2, 0.1, DType::Float16), ar({3, 2}, 1, 0.3, DType::Float16));
        QCOMPARE(h.dtype(), DType::Float16);
        KILN_CHECK(sameTensor(h, {0.029999, -0.059998, 0.300049, 0.480225}, {2, 2}));
        Tensor b = mm(ar({2, 3}, 2, 0.1, DType::BFloat16), ar({3, 2}, 1, 0.3, DType::BFloat16));
        KILN_CHECK(sameTensor(b, {0.030151, -0.060303, 0.300781, 0.482422}, {2, 2}));
        Tensor i = mm(ar({2, 3}, 2, 1, DType::Int32), t(ar({2, 3}, 1, 1, DType::Int32)));
        QCOMPARE(i.dtype(), DType::Int32);
        KILN_CHECK(sameTensor(i, {2, -7, 2, 20}, {2, 2}));
        Tensor l = mm(ar({2, 3}, 2, 1, DType::Int64), ar({3, 2}, 1, 1, DType::Int64));
        KILN_CHECK(sameTensor(l, {1, -2, 10, 16}, {2, 2}));
    }

    void mmErrors() {
        KILN_CHECK_ERROR(mm(ar({2, 3}), ar({4, 5})), ErrorKind::RuntimeError,
                         "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
        KILN_CHECK_ERROR(mm(ar({2, 2, 3}), ar({3, 5})), ErrorKind::RuntimeError,
                         "mm: self must be a matrix, got 3-D tensor");
        KILN_CHECK_ERROR(mm(ar({2, 3}), ar({3})), ErrorKind::RuntimeError,
                         "mm: mat2 must be a matrix, got 1-D tensor");
        KILN_CHECK_ERROR(mm(ar({2, 3}), ar({3, 2}, 0, 1, DType::Float64)), ErrorKind::RuntimeError,
                         "expected m1 and m2 to have the same dtype, but got: float != double");
        KILN_CHECK_ERROR(mm(ar({2, 3}, 0, 1, DType::Float16), ar({3, 2}, 0, 1, DType::BFloat16)),
                         ErrorKind::RuntimeError,
                         "expected m1 and m2 to have the same dtype, but got: c10::Half != "
                         "c10::BFloat16");
        KILN_CHECK_ERROR(mm(ar({2, 3}, 0, 1, DType::Int32), ar({3, 2}, 0, 1, DType::Int64)),
                         ErrorKind::RuntimeError,
                         "expected m1 and m2 to have the same dtype, but got: int != long int");
        KILN_CHECK_ERROR(mm(ar({2, 3}, 0, 1, DType::Bool), ar({3, 2}, 0, 1, DType::Bool)),
                         ErrorKind::NotImplementedError,
                         "\"addmm_impl_cpu_\" not implemented for 'Bool'");
    }

    void bmmBatches() {
        Tensor out = bmm(g(ar({2, 2, 3}, 6)), ar({2, 3, 2}, 4));
        QCOMPARE(gradFnOf(out), QString("BmmBackward0"));
        KILN_CHECK(sameTensor(out, {34, 19, 16, 10, 16, 19, 52, 64}, {2, 2, 2}));
        Tensor expanded = expand(unsqueeze(ar({3, 2}, 4), 0), DimVector{2, 3, 2}); // stride-0 batch
        KILN_CHECK(sameTensor(bmm(ar({2, 2, 3}, 6), expanded), {34, 19, 16, 10, -2, 1, -20, -8},
                              {2, 2, 2}));
        KILN_CHECK_ERROR(bmm(ar({2, 3}), ar({2, 3, 4})), ErrorKind::RuntimeError,
                         "batch1 must be a 3D tensor");
        KILN_CHECK_ERROR(bmm(ar({5, 2, 3}), ar({3, 4})), ErrorKind::RuntimeError,
                         "batch2 must be a 3D tensor");
        KILN_CHECK_ERROR(bmm(ar({5, 2, 3}), ar({4, 3, 4})), ErrorKind::RuntimeError,
                         "Expected size for first two dimensions of batch2 tensor to be: [5, 3] "
                         "but got: [4, 3].");
        KILN_CHECK_ERROR(bmm(ar({2, 2, 3}), ar({2, 3, 2}, 0, 1, DType::Float64)),
                         ErrorKind::RuntimeError, "expected scalar type Float but found Double");
        KILN_CHECK_ERROR(bmm(ar({2, 2, 3}, 0, 1, DType::Bool), ar({2, 3, 2}, 0, 1, DType::Bool)),
                         ErrorKind::NotImplementedError, "\"bmm\" not implemented for 'Bool'");
    }

    void addmmScalesAndBroadcasts() {
        Tensor out = addmm(g(ar({2}, 1)), ar({2, 3}, 2), ar({3, 2}, 1), Scalar(0.5), Scalar(2.0));
        QCOMPARE(gradFnOf(out), QString("AddmmBackward0"));
        KILN_CHECK(sameTensor(out, {1.5, -4, 19.5, 32}, {2, 2}));
        Tensor ints = addmm(makeTensor({1, 2}, DimVector{2}, DType::Int64),
                            makeTensor({1, 2, 3, 4}, DimVector{2, 2}, DType::Int64),
                            makeTensor({1, 0, 0, 1}, DimVector{2, 2}, DType::Int64), Scalar(2.5),
                            Scalar(1.5));
        KILN_CHECK(sameTensor(ints, {3, 6, 5, 8}, {2, 2})); // scalars truncate for integers
        Tensor nanBias = makeTensor({NAN, NAN}, DimVector{2});
        KILN_CHECK(
            sameTensor(addmm(nanBias, ar({2, 3}, 2), ar({3, 2}, 1), Scalar(0.0), Scalar(1.0)),
                       {1, -2, 10, 16}, {2, 2})); // beta = 0 ignores the bias entirely
    }

    void addmmErrors() {
        KILN_CHECK_ERROR(addmm(ar({5}), ar({2, 3}), ar({3, 4}), Scalar(1.0), Scalar(1.0)),
                         ErrorKind::RuntimeError,
                         "The expanded size of the tensor (4) must match the existing size (5) at "
                         "non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [5]");
        KILN_CHECK_ERROR(addmm(ar({4}), ar({2, 3}), ar({5, 4}), Scalar(1.0), Scalar(1.0)),
                         ErrorKind::RuntimeError,
                         "addmm: mat1 and mat2 shapes cannot be multiplied (2x3 and 5x4)");
        KILN_CHECK_ERROR(addmm(ar({4}), ar({3}), ar({3, 4}), Scalar(1.0), Scalar(1.0)),
                         ErrorKind::RuntimeError, "addmm: self must be a matrix, got 1-D tensor");
        KILN_CHECK_ERROR(addmm(ar({4}), ar({2, 3}), ar({3}), Scalar(1.0), Scalar(1.0)),
                         ErrorKind::RuntimeError, "addmm: mat2 must be a matrix, got 1-D tensor");
        KILN_CHECK_ERROR(
            addmm(ar({4}, 0, 1, DType::Float64), ar({2, 3}), ar({3, 4}), Scalar(1.0), Scalar(1.0)),
            ErrorKind::RuntimeError,
            "self and mat2 must have the same dtype, but got Double and Float");
    }

    void dotAndOuter() {
        Tensor d = dot(g(ar({3}, 1)), ar({3}, -2));
        QCOMPARE(gradFnOf(d), QString("DotBackward0"));
        KILN_CHECK(sameTensor(d, {2}, {}));
        Tensor strided = slice(ar({6}, 1), 0, 0, std::nullopt, 2); // [-1, 1, 3]
        KILN_CHECK(sameTensor(dot(strided, ar({3}, -2)), {13}, {}));
        KILN_CHECK(sameTensor(dot(makeTensor({1, 2}, DimVector{2}, DType::Int32),
                                  makeTensor({3, 4}, DimVector{2}, DType::Int32)),
                              {11}, {}));
        KILN_CHECK(sameTensor(dot(ar({0}), ar({0})), {0}, {}));
        Tensor o = outer(g(ar({2}, 1)), ar({3}, 1));
        QCOMPARE(gradFnOf(o), QString("MulBackward0"));
        KILN_CHECK(sameTensor(o, {1, 0, -1, 0, 0, 0}, {2, 3}));
        QCOMPARE(outer(ar({2}, 0, 1, DType::Int64), ar({3})).dtype(), DType::Float32);
    }

    void dotAndOuterErrors() {
        KILN_CHECK_ERROR(dot(ar({3}), ar({4})), ErrorKind::RuntimeError,
                         "inconsistent tensor size, expected tensor [3] and src [4] to have the "
                         "same number of elements, but got 3 and 4 elements respectively");
        KILN_CHECK_ERROR(dot(ar({3, 1}), ar({3})), ErrorKind::RuntimeError,
                         "1D tensors expected, but got 2D and 1D tensors");
        KILN_CHECK_ERROR(dot(ar({3}), ar({3}, 0, 1, DType::Float64)), ErrorKind::RuntimeError,
                         "dot : expected both vectors to have same dtype, but found Float and "
                         "Double");
        KILN_CHECK_ERROR(dot(ar({3}, 0, 1, DType::Bool), ar({3}, 0, 1, DType::Bool)),
                         ErrorKind::NotImplementedError, "\"dot\" not implemented for 'Bool'");
        KILN_CHECK_ERROR(outer(ar({2, 2}), ar({3})), ErrorKind::RuntimeError,
                         "outer: Expected 1-D argument self, but got 2-D");
        KILN_CHECK_ERROR(outer(ar({2}), ar({3, 1})), ErrorKind::RuntimeError,
                         "outer: Expected 1-D argument vec2, but got 2-D");
    }

    void matmulRankRules_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("gradFn");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("1d@1d") << 0 << "DotBackward0" << QList<qint64>{} << QList<double>{2};
        QTest::newRow("2d@1d") << 1 << "MvBackward0" << QList<qint64>{2} << QList<double>{2, 2};
        QTest::newRow("1d@2d") << 2 << "SqueezeBackward4" << QList<qint64>{2}
                               << QList<double>{4, 4};
        QTest::newRow("3d@2d") << 3 << "UnsafeViewBackward0" << QList<qint64>{2, 2, 2}
                               << QList<double>{4, -11, 4, -2, 4, 7, 4, 16};
        QTest::newRow("2d@3d") << 4 << "CloneBackward0" << QList<qint64>{2, 2, 2}
                               << QList<double>{10, 7, -8, -2, -8, -11, 28, 34};
        QTest::newRow("1d@3d") << 5 << "UnsafeViewBackward0" << QList<qint64>{2, 2}
                               << QList<double>{4, 4, 4, 4};
        QTest::newRow("3d@1d") << 6 << "UnsafeViewBackward0" << QList<qint64>{2, 2}
                               << QList<double>{2, 2, 2, 2};
        QTest::newRow("broadcast-batch")
            << 7 << "UnsafeViewBackward0" << QList<qint64>{2, 3, 2, 2}
            << QList<double>{109, 94,  46,  40,  19, 4, 10, 4, -71, -86, -26, -32,
                             -17, -14, -80, -68, 1,  4, -8, 4, 19,  22,  64,  76};
        QTest::newRow("3d@3d") << 8 << "UnsafeViewBackward0" << QList<qint64>{2, 2, 2}
                               << QList<double>{34, 19, 16, 10, 16, 19, 52, 64};
    }

    void matmulRankRules() {
        QFETCH(int, which);
        QFETCH(QString, gradFn);
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<double>, expected);
        const std::vector<std::pair<Tensor, Tensor>> cases = {
            {ar({3}, 1), ar({3}, -2)},
            {ar({2, 3}, 2), ar({3}, 1)},
            {ar({3}, 1), ar({3, 2}, 2)},
            {ar({2, 2, 3}, 6), ar({3, 2}, 2)},
            {ar({2, 3}, 2), ar({2, 3, 2}, 4)},
            {ar({3}, 1), ar({2, 3, 2}, 4)},
            {ar({2, 2, 3}, 6), ar({3}, 1)},
            {ar({2, 1, 2, 3}, 6), ar({3, 3, 2}, 9)},
            {ar({2, 2, 3}, 6), ar({2, 3, 2}, 4)},
        };
        Tensor out = matmul(g(cases[which].first), g(cases[which].second));
        QCOMPARE(gradFnOf(out), gradFn);
        KILN_CHECK(sameTensor(out, std::vector<double>(expected.begin(), expected.end()),
                              std::vector<int64_t>(shape.begin(), shape.end())));
        // Without grad the same product may take another path; the values must not change.
        Tensor plain = matmul(cases[which].first, cases[which].second);
        KILN_CHECK(sameTensor(plain, std::vector<double>(expected.begin(), expected.end()),
                              std::vector<int64_t>(shape.begin(), shape.end())));
    }

    void matmulFoldDependsOnGrad() {
        // 2-D @ 3-D without grad on the 2-D operand is a broadcast bmm, not a fold.
        Tensor out = matmul(ar({2, 3}, 2), g(ar({2, 3, 2}, 4)));
        QCOMPARE(gradFnOf(out), QString("UnsafeViewBackward0"));
        KILN_CHECK_ERROR(matmul(ar({2, 3}), ar({5, 4, 4})), ErrorKind::RuntimeError,
                         "Expected size for first two dimensions of batch2 tensor to be: [5, 3] "
                         "but got: [5, 4].");
        KILN_CHECK_ERROR(matmul(g(ar({2, 3})), ar({5, 4, 4})), ErrorKind::RuntimeError,
                         "mm: mat1 and mat2 shapes cannot be multiplied (20x4 and 3x2)");
        // A transposed batch cannot fold without a copy, so it goes through bmm too.
        Tensor nc = transpose(ar({3, 2, 3}, 6), 0, 1); // (2, 3, 3), batch stride 3
        KILN_CHECK_ERROR(matmul(nc, ar({4, 2})), ErrorKind::RuntimeError,
                         "Expected size for first two dimensions of batch2 tensor to be: [2, 3] "
                         "but got: [2, 4].");
    }

    void matmulErrors() {
        KILN_CHECK_ERROR(matmul(scalarTensor(Scalar(2.0), DType::Float32), ar({3})),
                         ErrorKind::RuntimeError,
                         "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
        KILN_CHECK_ERROR(matmul(ar({3, 4}), ar({5})), ErrorKind::RuntimeError,
                         "size mismatch, got input (3), mat (3x4), vec (5)");
        KILN_CHECK_ERROR(matmul(ar({3}), ar({4, 5})), ErrorKind::RuntimeError,
                         "mm: mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)");
        KILN_CHECK_ERROR(matmul(ar({5, 2, 3}), ar({4, 4})), ErrorKind::RuntimeError,
                         "mm: mat1 and mat2 shapes cannot be multiplied (10x3 and 4x4)");
        KILN_CHECK_ERROR(matmul(ar({5, 2, 3}), ar({4})), ErrorKind::RuntimeError,
                         "size mismatch, got input (10), mat (10x3), vec (4)");
        KILN_CHECK_ERROR(matmul(ar({5, 2, 3}), ar({4, 3, 4})), ErrorKind::RuntimeError,
                         "The size of tensor a (5) must match the size of tensor b (4) at "
                         "non-singleton dimension 0");
        KILN_CHECK_ERROR(matmul(ar({2, 3}), ar({3}, 0, 1, DType::Float64)), ErrorKind::RuntimeError,
                         "addmv input tensors must have the same dtype, but got Double, Float, and "
                         "Double");
        KILN_CHECK_ERROR(matmul(ar({2, 2, 3}), ar({2, 3, 2}, 0, 1, DType::Float64)),
                         ErrorKind::RuntimeError, "expected scalar type Float but found Double");
    }

    void linearPaths_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("gradFn");
        QTest::newRow("2d-bias") << 0 << "AddmmBackward0";
        QTest::newRow("2d-no-bias") << 1 << "MmBackward0";
        QTest::newRow("3d-bias-flattened") << 2 << "UnsafeViewBackward0";
        QTest::newRow("3d-no-bias") << 3 << "UnsafeViewBackward0";
        QTest::newRow("1d-no-bias") << 4 << "SqueezeBackward4";
        QTest::newRow("strided-3d-bias-added") << 5 << "AddBackward0";
        QTest::newRow("2d-bias-on-3d") << 6 << "AddBackward0";
    }

    void linearPaths() {
        QFETCH(int, which);
        QFETCH(QString, gradFn);
        Tensor w = g(ar({2, 3}, 2));
        Tensor b = g(ar({2}, 1));
        Tensor x3 = g(ar({2, 2, 3}, 6));
        Tensor out;
        std::vector<double> expected;
        std::vector<int64_t> shape{2, 2, 2};
        const std::vector<double> x3Expected{16, -28, 7, -10, -2, 8, -11, 26};
        switch (which) {
        case 0:
            out = linear(select(x3, 0, 1), w, b);
            expected = {-2, 8, -11, 26}, shape = {2, 2};
            break;
        case 1:
            out = linear(select(x3, 0, 1), w, std::nullopt);
            expected = {-1, 8, -10, 26}, shape = {2, 2};
            break;
        case 2:
            out = linear(x3, w, b);
            expected = x3Expected;
            break;
        case 3:
            out = linear(x3, w, std::nullopt);
            expected = {17, -28, 8, -10, -1, 8, -10, 26};
            break;
        case 4:
            out = linear(g(ar({3}, 1)), w, std::nullopt);
            expected = {2, 2}, shape = {2};
            break;
        case 5:
            out = linear(transpose(contiguous(transpose(x3, 0, 1)), 0, 1), w, b);
            expected = x3Expected;
            break;
        case 6:
            out = linear(x3, w, expand(unsqueeze(b, 0), DimVector{2, 2}));
            expected = x3Expected;
            break;
        }
        QCOMPARE(gradFnOf(out), gradFn);
        KILN_CHECK(sameTensor(out, expected, shape));
    }

    void linearErrors() {
        KILN_CHECK_ERROR(
            linear(scalarTensor(Scalar(1.0), DType::Float32), ar({4, 1}), std::nullopt),
            ErrorKind::RuntimeError,
            "both arguments to linear need to be at least 1D, but they are 0D and 2D");
        KILN_CHECK_ERROR(linear(ar({2, 3}), ar({4, 5}), ar({4})), ErrorKind::RuntimeError,
                         "addmm: mat1 and mat2 shapes cannot be multiplied (2x3 and 5x4)");
        KILN_CHECK_ERROR(linear(ar({5, 2, 3}), ar({4, 5}), ar({4})), ErrorKind::RuntimeError,
                         "addmm: mat1 and mat2 shapes cannot be multiplied (10x3 and 5x4)");
        KILN_CHECK_ERROR(linear(ar({2, 3}), ar({4, 3}), ar({5})), ErrorKind::RuntimeError,
                         "The expanded size of the tensor (4) must match the existing size (5) at "
                         "non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [5]");
        KILN_CHECK_ERROR(linear(ar({2, 3}), ar({4, 3}, 0, 1, DType::Float64), std::nullopt),
                         ErrorKind::RuntimeError,
                         "expected m1 and m2 to have the same dtype, but got: float != double");
    }

    void einsumContractions_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("gradFn");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("trace") << 0 << "SumBackward1" << QList<qint64>{} << QList<double>{12};
        QTest::newRow("diagonal") << 1 << "PermuteBackward0" << QList<qint64>{3}
                                  << QList<double>{0, 4, 8};
        QTest::newRow("row-sum") << 2 << "SumBackward1" << QList<qint64>{2} << QList<double>{3, 12};
        QTest::newRow("transpose")
            << 3 << "PermuteBackward0" << QList<qint64>{3, 2} << QList<double>{0, 3, 1, 4, 2, 5};
        QTest::newRow("batched") << 4 << "ViewBackward0" << QList<qint64>{2, 2, 2}
                                 << QList<double>{34, 19, 16, 10, 16, 19, 52, 64};
        QTest::newRow("attention") << 5 << "ViewBackward0" << QList<qint64>{1, 2, 2, 3}
                                   << QList<double>{86, 50, 14, 23, 14, 5, 14, 32, 50, 32, 77, 122};
        QTest::newRow("three-operands")
            << 6 << "ViewBackward0" << QList<qint64>{2, 2} << QList<double>{-3, -4, 6, 32};
        QTest::newRow("ellipsis-broadcast")
            << 7 << "ViewBackward0" << QList<qint64>{2, 3, 2, 2}
            << QList<double>{109, 94,  46,  40,  19, 4, 10, 4, -71, -86, -26, -32,
                             -17, -14, -80, -68, 1,  4, -8, 4, 19,  22,  64,  76};
        QTest::newRow("bilinear") << 8 << "ViewBackward0" << QList<qint64>{2, 2}
                                  << QList<double>{-13, 5, -30, 78};
        QTest::newRow("implicit-output")
            << 9 << "ViewBackward0" << QList<qint64>{2, 2} << QList<double>{1, -2, 10, 16};
        QTest::newRow("outer") << 10 << "MulBackward0" << QList<qint64>{2, 3}
                               << QList<double>{1, 0, -1, 0, 0, 0};
        QTest::newRow("full-contraction")
            << 11 << "ViewBackward0" << QList<qint64>{} << QList<double>{22};
        QTest::newRow("size-1-broadcast")
            << 12 << "ViewBackward0" << QList<qint64>{2} << QList<double>{-6, 12};
        QTest::newRow("triple-diagonal")
            << 13 << "PermuteBackward0" << QList<qint64>{2} << QList<double>{0, 7};
        QTest::newRow("ellipsis-summed")
            << 14 << "ViewBackward0" << QList<qint64>{3} << QList<double>{1, 0, 3};
        QTest::newRow("capitals-spaces")
            << 15 << "ViewBackward0" << QList<qint64>{2, 2} << QList<double>{1, -2, 10, 16};
    }

    void einsumContractions() {
        QFETCH(int, which);
        QFETCH(QString, gradFn);
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<double>, expected);
        const std::vector<std::pair<std::string, std::vector<Tensor>>> cases = {
            {"ii", {ar({3, 3})}},
            {"ii->i", {ar({3, 3})}},
            {"ij->i", {ar({2, 3})}},
            {"ij->ji", {ar({2, 3})}},
            {"bij,bjk->bik", {ar({2, 2, 3}, 6), ar({2, 3, 2}, 4)}},
            {"bhqd,bhkd->bhqk", {ar({1, 2, 2, 3}, 5), ar({1, 2, 3, 3}, 8)}},
            {"ij,jk,kl->il", {ar({2, 3}, 2), ar({3, 2}, 1), ar({2, 2}, 1)}},
            {"...ij,...jk", {ar({2, 1, 2, 3}, 6), ar({3, 3, 2}, 9)}},
            {"bn,anm,bm->ba", {ar({2, 3}, 2), ar({2, 3, 2}, 5), ar({2, 2}, 1)}},
            {"ba,ac", {ar({2, 3}, 2), ar({3, 2}, 1)}},
            {"i,j->ij", {ar({2}, 1), ar({3}, 1)}},
            {"ij,ij->", {ar({2, 3}, 2), ar({2, 3}, 1)}},
            {"ij,j->i", {ar({2, 3}, 2), makeTensor({2}, DimVector{1})}},
            {"iii->i", {ar({2, 2, 2})}},
            {"...i,...i->i", {ar({2, 3}, 2), ar({3}, 1)}},
            {" A b , b C -> A C ", {ar({2, 3}, 2), ar({3, 2}, 1)}},
        };
        std::vector<Tensor> operands;
        for (const Tensor& op : cases[which].second)
            operands.push_back(g(op));
        Tensor out = einsum(cases[which].first, operands);
        QCOMPARE(gradFnOf(out), gradFn);
        KILN_CHECK(sameTensor(out, std::vector<double>(expected.begin(), expected.end()),
                              std::vector<int64_t>(shape.begin(), shape.end())));
    }

    void einsumDtypes() {
        Tensor ints =
            einsum("ij,jk->ik", {ar({2, 3}, 2, 1, DType::Int64), ar({3, 2}, 1, 1, DType::Int64)});
        QCOMPARE(ints.dtype(), DType::Int64);
        KILN_CHECK(sameTensor(ints, {1, -2, 10, 16}, {2, 2}));
        QCOMPARE(einsum("ij->i", {ar({2, 3}, 0, 1, DType::Int32)}).dtype(), DType::Int64);
        Tensor strided = einsum("ij,jk->ik", {t(ar({3, 2}, 2)), t(ar({2, 3}, 1))});
        KILN_CHECK(sameTensor(strided, {4, 4, 4, 13}, {2, 2}));
        KILN_CHECK_ERROR(einsum("ij,jk->ik", {ar({2, 3}), ar({3, 4}, 0, 1, DType::Float64)}),
                         ErrorKind::RuntimeError, "expected scalar type Float but found Double");
    }

    void einsumErrors_data() {
        QTest::addColumn<QString>("equation");
        QTest::addColumn<int>("operands");
        QTest::addColumn<QString>("message");
        QTest::newRow("fewer") << "ij,jk->ik" << 1
                               << "einsum(): fewer operands were provided than specified in the "
                                  "equation";
        QTest::newRow("more") << "ij" << 2
                              << "einsum(): more operands were provided than specified in the "
                                 "equation";
        QTest::newRow("size") << "ij,jk->ik" << 3
                              << "einsum(): subscript j has size 4 for operand 1 which does not "
                                 "broadcast with previously seen size 3";
        QTest::newRow("rank") << "ijk,jk->ik" << 2
                              << "einsum(): the number of subscripts in the equation (3) does not "
                                 "match the number of dimensions (2) for operand 0 and no ellipsis "
                                 "was given";
        QTest::newRow("rank-ellipsis")
            << "ijk...->i" << 1
            << "einsum(): the number of subscripts in the equation (3) is more than the number of "
               "dimensions (2) for operand 0";
        QTest::newRow("unknown-output")
            << "ij,jk->iz" << 2
            << "einsum(): output subscript z does not appear in the equation for any input operand";
        QTest::newRow("repeated-output")
            << "ij,jk->ii" << 2
            << "einsum(): output subscript i appears more than once in the output";
        QTest::newRow("bad-char") << "ij->i1" << 1
                                  << "einsum(): invalid subscript given at index 5 in the equation "
                                     "string, subscripts must be in [a-zA-Z]";
        QTest::newRow("lone-dot") << "i.j" << 1
                                  << "einsum(): found '.' for operand 0 that is not part of any "
                                     "ellipsis";
        QTest::newRow("two-ellipses") << "...i..." << 1
                                      << "einsum(): found '.' for operand 0 for which an ellipsis "
                                         "was already found";
        QTest::newRow("output-dot") << "ij->.." << 1
                                    << "einsum(): found '.' for output that is not part of any "
                                       "ellipsis (...)";
        QTest::newRow("diagonal-sizes")
            << "ii->i" << 4
            << "einsum(): subscript i is repeated for operand 0 but the sizes don't match, 4 != 3";
        QTest::newRow("ellipsis-broadcast")
            << "...i,...i" << 5
            << "einsum(): dimension 0 covered by ellipsis in operand 1has size 4 which does not "
               "broadcast with previously seen ellipsis with size 2 for the respective dimension";
    }

    void einsumErrors() {
        QFETCH(QString, equation);
        QFETCH(int, operands);
        QFETCH(QString, message);
        const std::vector<std::vector<Tensor>> sets = {
            {},
            {ar({2, 3})},
            {ar({2, 3}), ar({3, 4})},
            {ar({2, 3}), ar({4, 4})},
            {ar({3, 4})},
            {ar({2, 3}), ar({4, 3})},
        };
        std::vector<Tensor> ops = operands == 2 && equation == "ij" ? sets[2] : sets[operands];
        KILN_CHECK_ERROR(einsum(equation.toStdString(), ops), ErrorKind::RuntimeError, message);
    }

    void einsumNeedsOperands() {
        KILN_CHECK_ERROR(einsum("ij", {}), ErrorKind::ValueError,
                         "einsum(): must specify the equation string and at least one operand, or "
                         "at least one operand and its subscripts list");
    }
};

QTEST_APPLESS_MAIN(LinalgTest)
#include "tst_linalg.moc"
