// SPDX-License-Identifier: MIT
// Losses: cross_entropy (class indices with weights, ignore_index and label smoothing; class
// probabilities), nll_loss and mse_loss against values from PyTorch 2.x (inputs pasted as
// literals), with their grad_fn names and PyTorch's exact messages.
#include "structure_testing.h"

#include <cmath>

using namespace kiln::tensor;
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

/// x = 2 sin((arange(15) - 6) * 0.45), shape (3, 5): class scores.
Tensor scores(DType dtype = DType::Float32) {
    return makeTensor({-0.854759693145752, -1.5561463832855225, -1.947695255279541,
                       -1.951446771621704, -1.5666537284851074, -0.8699310421943665, 0.0,
                       0.8699310421943665, 1.5666537284851074, 1.951446771621704, 1.947695255279541,
                       1.5561463832855225, 0.854759693145752, -0.016814686357975006,
                       -0.8850407004356384},
                      DimVector{3, 5}, dtype);
}

Tensor labels(std::vector<double> v) {
    return makeTensor(v, DimVector{static_cast<int64_t>(v.size())}, DType::Int64);
}

Tensor classWeights() {
    return makeTensor({0.5, 1.0, 2.0, 0.25, 1.5}, DimVector{5});
}

using Values = std::vector<double>;

} // namespace

class LossTest : public QObject {
    Q_OBJECT

private slots:
    void crossEntropyClassIndices_data() {
        QTest::addColumn<QString>("reduction");
        QTest::addColumn<int>("variant");
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("mean") << "mean" << 0 << QList<double>{2.974488};
        QTest::newRow("sum") << "sum" << 0 << QList<double>{8.923466};
        QTest::newRow("none") << "none" << 0 << QList<double>{1.678139, 3.619455, 3.625872};
        QTest::newRow("weight") << "mean" << 1 << QList<double>{2.975558};
        QTest::newRow("weight-none") << "none" << 1 << QList<double>{1.678139, 1.809727, 5.438807};
        QTest::newRow("ignored") << "mean" << 2 << QList<double>{2.652005};
        QTest::newRow("ignored-weight") << "mean" << 3 << QList<double>{2.846779};
        QTest::newRow("smoothing") << "mean" << 4 << QList<double>{2.87013};
        QTest::newRow("smoothing-none")
            << "none" << 4 << QList<double>{1.680059, 3.462099, 3.468233};
        QTest::newRow("smoothing-sum") << "sum" << 4 << QList<double>{8.610392};
        QTest::newRow("smoothing-weight-ignored") << "mean" << 5 << QList<double>{2.610844};
        QTest::newRow("custom-ignore-index") << "mean" << 6 << QList<double>{2.652005};
    }

    void crossEntropyClassIndices() {
        QFETCH(QString, reduction);
        QFETCH(int, variant);
        QFETCH(QList<double>, expected);
        Tensor target = labels(variant == 2 || variant == 3 || variant == 5 ? Values{1, -100, 4}
                               : variant == 6                               ? Values{1, 7, 4}
                                                                            : Values{1, 0, 4});
        std::optional<Tensor> weight;
        if (variant == 1 || variant == 3 || variant == 5) weight = classWeights();
        double smoothing = variant == 4 ? 0.1 : variant == 5 ? 0.2 : 0.0;
        Tensor x = requiringGrad(scores());
        Tensor out = crossEntropy(x, target, weight, reduction.toStdString(),
                                  variant == 6 ? 7 : -100, smoothing);
        QCOMPARE(gradFnOf(out), QString(smoothing > 0 ? "AddBackward0" : "NllLossBackward0"));
        std::vector<int64_t> shape;
        if (reduction == "none") shape = {3};
        KILN_CHECK(sameTensor(out, Values(expected.begin(), expected.end()), shape));
    }

    void crossEntropyProbabilities() {
        Tensor probs = makeTensor({0.06855601817369461, 0.13462112843990326, 0.2440417855978012,
                                   0.3087393045425415, 0.2440417855978012, 0.372361421585083,
                                   0.18962562084197998, 0.12244664877653122, 0.12315467745065689,
                                   0.19241158664226532, 0.12838971614837646, 0.23139439523220062,
                                   0.28957560658454895, 0.22643546760082245, 0.12420481443405151},
                                  DimVector{3, 5});
        Tensor x = requiringGrad(scores());
        Tensor mean = crossEntropy(x, probs, {}, "mean", -100, 0.0);
        QCOMPARE(gradFnOf(mean), QString("DivBackward1"));
        KILN_CHECK(sameTensor(mean, {2.081876}, {}));
        Tensor none = crossEntropy(x, probs, {}, "none", -100, 0.0);
        QCOMPARE(gradFnOf(none), QString("NegBackward0"));
        KILN_CHECK(sameTensor(none, {1.850218, 2.39851, 1.996899}, {3}));
        KILN_CHECK(sameTensor(crossEntropy(x, probs, {}, "sum", -100, 0.0), {6.245628}, {}));
        KILN_CHECK(
            sameTensor(crossEntropy(x, probs, classWeights(), "mean", -100, 0.3), {2.064119}, {}));
    }

    void crossEntropyShapesAndDtypes() {
        Tensor x3 = makeTensor({-2.969977378845215,
                                -2.712216377258301,
                                -2.212181329727173,
                                -1.514538049697876,
                                -0.681606113910675,
                                0.21221159398555756,
                                1.0870730876922607,
                                1.8648300170898438,
                                2.4760069847106934,
                                2.866009473800659,
                                3.0,
                                2.866009473800659,
                                2.4760069847106934,
                                1.8648300170898438,
                                1.0870730876922607,
                                0.21221159398555756,
                                -0.681606113910675,
                                -1.514538049697876,
                                -2.212181329727173,
                                -2.712216377258301,
                                -2.969977378845215,
                                -2.96243953704834,
                                -2.690275192260742,
                                -2.1777968406677246,
                                -1.470782995223999,
                                -0.6323873996734619,
                                0.26249751448631287,
                                1.1339330673217773,
                                1.9040789604187012,
                                2.5041379928588867},
                               DimVector{2, 5, 3});
        Tensor t3 = makeTensor({0, 1, 2, 4, 4, 4}, DimVector{2, 3}, DType::Int64);
        Tensor mean = crossEntropy(requiringGrad(x3), t3, {}, "mean", -100, 0.0);
        QCOMPARE(gradFnOf(mean), QString("NllLoss2DBackward0"));
        KILN_CHECK(sameTensor(mean, {2.067832}, {}));
        KILN_CHECK(sameTensor(crossEntropy(x3, t3, {}, "none", -100, 0.0),
                              {6.457269, 4.195162, 1.043622, 0.4210835, 0.1608325, 0.1290226},
                              {2, 3}));
        KILN_CHECK(sameTensor(crossEntropy(select(scores(), 0, 0),
                                           scalarTensor(Scalar(int64_t(2)), DType::Int64), {},
                                           "mean", -100, 0.0),
                              {2.069688}, {}));
        Tensor half =
            crossEntropy(scores(DType::Float16), labels({1, 0, 4}), {}, "mean", -100, 0.0);
        QCOMPARE(half.dtype(), DType::Float16);
        KILN_CHECK(sameTensor(half, {2.974609}, {}));
        Tensor allIgnored = crossEntropy(scores(), labels({-100, -100, -100}), {}, "mean", -100, 0);
        QVERIFY(std::isnan(kiln::testing::values(allIgnored)[0]));
    }

    void crossEntropyErrors() {
        Tensor x = scores();
        KILN_CHECK_ERROR(crossEntropy(x, labels({1, 5, 0}), {}, "mean", -100, 0.0),
                         ErrorKind::IndexError, "Target 5 is out of bounds.");
        KILN_CHECK_ERROR(crossEntropy(x, labels({1, -1, 0}), {}, "mean", -100, 0.0),
                         ErrorKind::IndexError, "Target -1 is out of bounds.");
        KILN_CHECK_ERROR(crossEntropy(x, labels({1, 0}), {}, "mean", -100, 0.0),
                         ErrorKind::ValueError,
                         "Expected input batch_size (3) to match target batch_size (2).");
        KILN_CHECK_ERROR(crossEntropy(x, labels({1, 0, 4}), {}, "avg", -100, 0.0),
                         ErrorKind::ValueError, "avg is not a valid value for reduction");
        KILN_CHECK_ERROR(crossEntropy(x, labels({1, 0, 4}), {}, "mean", -100, 1.5),
                         ErrorKind::RuntimeError,
                         "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
        KILN_CHECK_ERROR(crossEntropy(x, labels({1, 0, 4}), ar({4}), "mean", -100, 0.0),
                         ErrorKind::RuntimeError,
                         "weight tensor should be defined either for all 5 classes or no classes "
                         "but got weight tensor of shape: [4]");
        KILN_CHECK_ERROR(crossEntropy(x, ar({3, 5}), ar({4}), "mean", -100, 0.0),
                         ErrorKind::RuntimeError,
                         "cross_entropy: weight tensor should be defined either for all 5 classes "
                         "or no classes but got weight tensor of shape: [4]");
        KILN_CHECK_ERROR(crossEntropy(x, ar({3, 4}), {}, "mean", -100, 0.0),
                         ErrorKind::RuntimeError,
                         "0D or 1D target tensor expected, multi-target not supported");
        KILN_CHECK_ERROR(crossEntropy(x, makeTensor({1, 0, 2}, DimVector{3}, DType::Int32), {},
                                      "mean", -100, 0.0),
                         ErrorKind::RuntimeError,
                         "expected target dtype to be Long or Byte, but got Int");
        KILN_CHECK_ERROR(
            crossEntropy(x, iota(DimVector{3, 5}, DType::Int64), {}, "mean", -100, 0.0),
            ErrorKind::RuntimeError,
            "Expected floating point type for target with class probabilities, got "
            "Long");
    }

    void nllLossOnLogProbabilities() {
        Tensor x = requiringGrad(scores());
        Tensor mean = nllLoss(x, labels({1, 0, 4}), {}, "mean", -100);
        QCOMPARE(gradFnOf(mean), QString("NllLossBackward0"));
        KILN_CHECK(sameTensor(mean, {1.103706}, {}));
        KILN_CHECK(sameTensor(nllLoss(x, labels({1, 0, 4}), classWeights(), "none", -100),
                              {1.556146, 0.4349655, 1.327561}, {3}));
        KILN_CHECK_ERROR(nllLoss(scalarTensor(Scalar(1.0), DType::Float32),
                                 scalarTensor(Scalar(int64_t(0)), DType::Int64), {}, "mean", -100),
                         ErrorKind::ValueError, "Expected 1 or more dimensions (got 0)");
        KILN_CHECK_ERROR(
            nllLoss(ar({2, 5, 3}), iota(DimVector{2, 2}, DType::Int64), {}, "mean", -100),
            ErrorKind::RuntimeError, "Expected target size [2, 3], got [2, 2]");
        KILN_CHECK_ERROR(
            nllLoss(x, labels({1, 0, 2}), toDType(classWeights(), DType::Float64), "mean", -100),
            ErrorKind::RuntimeError, "expected scalar type Float but found Double");
    }

    void mseLossReductions() {
        Tensor x = requiringGrad(scores());
        Tensor mean = mseLoss(x, flip(scores(), DimVector{0}), "mean");
        QCOMPARE(gradFnOf(mean), QString("MseLossBackward0"));
        KILN_CHECK(sameTensor(mean, {3.946836}, {}));
        KILN_CHECK(sameTensor(mseLoss(select(x, 0, 0), select(x, 0, 1), "none"),
                              {0.0002301698, 2.421592, 7.939018, 12.37703, 12.37703}, {5}));
        KILN_CHECK(sameTensor(mseLoss(x, flip(scores(), DimVector{1}), "sum"), {43.15246}, {}));
        Tensor mixed =
            mseLoss(select(x, 0, 0), toDType(select(scores(), 0, 1), DType::Float64), "mean");
        QCOMPARE(mixed.dtype(), DType::Float64);
        KILN_CHECK(sameTensor(mixed, {7.02298}, {}, 1e-6));
        KILN_CHECK(sameTensor(mseLoss(x, select(scores(), 0, 1), "mean"), {3.735252}, {}));
        KILN_CHECK_ERROR(mseLoss(x, ar({4}), "mean"), ErrorKind::RuntimeError,
                         "The size of tensor a (5) must match the size of tensor b (4) at "
                         "non-singleton dimension 1");
        KILN_CHECK_ERROR(
            mseLoss(iota(DimVector{2}, DType::Int64), iota(DimVector{2}, DType::Int64), "mean"),
            ErrorKind::NotImplementedError, "\"mse_cpu\" not implemented for 'Long'");
        KILN_CHECK_ERROR(mseLoss(x, x, "x"), ErrorKind::ValueError,
                         "x is not a valid value for reduction");
    }
};

QTEST_APPLESS_MAIN(LossTest)
#include "tst_loss.moc"
